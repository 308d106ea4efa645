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

  // A failed tap leaves the board as it was and says so (pollers: see the next section).
  function banner(testid, text) {
    var board = document.getElementById("board");
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

  // A tap that never reached the server says so; one the server refused without a board to
  // show (an expired form after the session was lost, a link that no longer works) asks for a
  // reload instead.
  function failed(event) {
    var elt = event.detail.elt;
    if (!elt || elt.tagName !== "FORM") { return; }
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status >= 400) {
      banner("recarregue", "toque não registrado — recarregue a página");
    } else {
      banner("sem-conexao", "sem conexão — toque não registrado");
    }
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:responseError", failed);

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

// Copy buttons, and the banner of a poller (.poll in #live or #board) that can't reach the server:
// "reconectando…" until it answers again, or a note when the link was rotated away (403/404).
(function () {
  "use strict";

  // --- Copy buttons: <button data-copy="url" hidden>, shown only when this file runs.
  function flash(button, text) {
    var before = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", before);
    button.textContent = text;
    button.classList.add("copied");
    window.setTimeout(function () {
      button.textContent = before;
      button.classList.remove("copied");
    }, 2000);
  }

  function copyFallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "sr-only";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    document.body.removeChild(area);
    return done;
  }

  function copy(button) {
    var text = button.getAttribute("data-copy") || "";
    var fallback = function () {
      flash(button, copyFallback(text) ? "Copiado!" : "Não deu: copie o link");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { flash(button, "Copiado!"); }, fallback);
    } else {
      fallback();
    }
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest ? evt.target.closest("button[data-copy]") : null;
    if (button) { copy(button); }
  });

  // --- Pollers: "reconectando…" while the server is unreachable, gone when it answers again.
  var RECONNECTING = "reconectando…";
  var GONE = "Este link não vale mais: os links da mesa foram trocados. Peça o QR novo.";

  function isPoller(elt) {
    return !!(elt && elt.classList && elt.classList.contains("poll"));
  }

  function bannerIn(region) {
    return region.querySelector("[data-testid='reconectando']");
  }

  function showBanner(poller, gone) {
    var region = poller.parentElement;
    if (!region) { return; }
    var banner = bannerIn(region);
    if (!banner) {
      banner = document.createElement("p");
      banner.setAttribute("role", "status");
      banner.setAttribute("data-testid", "reconectando");
      region.insertBefore(banner, poller.nextSibling);
    }
    banner.classList.add("reconnecting");
    banner.classList.toggle("gone", gone);
    banner.textContent = gone ? GONE : RECONNECTING;
  }

  function hideBanner(poller) {
    var region = poller.parentElement;
    var banner = region && bannerIn(region);
    if (banner) { banner.parentNode.removeChild(banner); }
  }

  function linkGone(detail) {
    var status = detail.xhr ? detail.xhr.status : 0;
    return status === 403 || status === 404;
  }

  function onFailure(evt) {
    var elt = evt.detail && evt.detail.elt;
    if (isPoller(elt)) { showBanner(elt, linkGone(evt.detail)); }
  }

  document.addEventListener("htmx:sendError", onFailure);
  document.addEventListener("htmx:responseError", onFailure);
  document.addEventListener("htmx:timeout", onFailure);
  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (!isPoller(elt)) { return; }
    if (evt.detail.successful === true) {
      hideBanner(elt);
    } else if (linkGone(evt.detail)) {
      showBanner(elt, true);
    }
  });

  function showCopyButtons() {
    var buttons = document.querySelectorAll("button[data-copy]");
    for (var i = 0; i < buttons.length; i++) { buttons[i].hidden = false; }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showCopyButtons);
  } else {
    showCopyButtons();
  }
})();
