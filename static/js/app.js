// Tento: small progressive enhancements; the app works without this file.
(function () {
  "use strict";
  var root = document.documentElement;
  var DEFAULTS = { mesa: "0", tela: "1", vibrar: "1", som: "0" };

  function pref(name) {
    try {
      var value = localStorage.getItem("tento." + name);
      return value === null ? DEFAULTS[name] : value;
    } catch (e) { return DEFAULTS[name]; }
  }

  function setPref(name, value) {
    try { localStorage.setItem("tento." + name, value); } catch (e) { /* not remembered */ }
  }

  // Theme: automático (system), claro, escuro or sol (high contrast for daylight).
  function showTheme() {
    var current = root.dataset.tema || "auto";
    document.querySelectorAll("[data-tema]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.dataset.tema === current));
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-tema]");
    if (!button) { return; }
    var theme = button.dataset.tema;
    if (theme === "auto") { delete root.dataset.tema; } else { root.dataset.tema = theme; }
    setPref("tema", theme);
    showTheme();
  });

  // Switches: modo mesa, screen on, vibration, sound.
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.dataset || !input.dataset.pref) { return; }
    setPref(input.dataset.pref, input.checked ? "1" : "0");
    if (input.dataset.pref === "mesa") {
      if (input.checked) { root.dataset.mesa = "1"; } else { delete root.dataset.mesa; }
    }
    if (input.dataset.pref === "tela") { keepAwake(); }
  });

  function showSwitches() {
    document.querySelectorAll("[data-pref]").forEach(function (input) {
      input.checked = pref(input.dataset.pref) === "1";
    });
  }

  // Screen Wake Lock while a board or live view is open, asked again when visible again.
  var lock = null;
  function keepAwake() {
    var wanted = pref("tela") === "1" && document.querySelector("#board, #live");
    if (!wanted) {
      if (lock) { lock.release(); lock = null; }
      return;
    }
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || lock) { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      sentinel.addEventListener("release", function () { lock = null; });
    }).catch(function () { lock = null; });
  }
  document.addEventListener("visibilitychange", keepAwake);

  // Feedback on a tap: vibration (where the browser has it) and an optional short sound.
  var audio = null;
  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    audio = audio || new Context();
    var osc = audio.createOscillator();
    var gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.08;
    osc.connect(gain);
    gain.connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.08);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || elt.tagName !== "FORM") { return; }
    clearOffline();
    if (pref("vibrar") === "1" && navigator.vibrate) { navigator.vibrate(25); }
    if (pref("som") === "1") { beep(); }
  });

  // A failed tap leaves the board as it was and says so; a failed poll says it reconnects.
  function banner(testid, text) {
    var board = document.querySelector("#board, #live");
    if (!board || board.querySelector("[data-testid='" + testid + "']")) { return; }
    var note = document.createElement("p");
    note.className = "msg msg-error offline";
    note.setAttribute("role", "alert");
    note.setAttribute("data-testid", testid);
    note.textContent = text;
    board.insertBefore(note, board.firstChild);
  }

  function clearOffline() {
    document.querySelectorAll(".offline").forEach(function (note) { note.remove(); });
  }

  function failed(event) {
    var elt = event.detail.elt;
    if (!elt) { return; }
    if (elt.tagName === "FORM") {
      banner("sem-conexao", "sem conexão — toque não registrado");
    } else {
      banner("reconectando", "reconectando…");
    }
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:responseError", failed);

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var elt = event.detail.elt;
    if (xhr && xhr.status && xhr.status < 500 && elt && elt.tagName !== "FORM") {
      var note = document.querySelector("[data-testid='reconectando']");
      if (note) { note.remove(); }
    }
  });

  // Announce the new score to screen readers after every swap of the board or live view.
  document.addEventListener("htmx:afterSwap", function () {
    var board = document.querySelector("#board, #live");
    var region = document.getElementById("anuncio");
    if (board && region && board.dataset.announce && region.textContent !== board.dataset.announce) {
      region.textContent = board.dataset.announce;
    }
    keepAwake();
  });

  // The service worker caches only the static shell, never a board.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* optional */ });
  }

  document.addEventListener("DOMContentLoaded", function () {
    showTheme();
    showSwitches();
    keepAwake();
  });
})();
