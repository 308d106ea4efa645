// The Ajustes panel: theme and switches (modo mesa, screen on, vibration, sound), remembered in
// localStorage; prefs.js applies them before the page paints, this file shows and changes them.
(function () {
  "use strict";
  var tento = window.tento = window.tento || {};
  var root = document.documentElement;
  var DEFAULTS = { mesa: "0", tela: "1", vibrar: "1", som: "0" };

  // A remembered preference ("1" or "0" for a switch), else its default.
  tento.pref = function (name) {
    try {
      var value = localStorage.getItem("tento." + name);
      return value === null ? DEFAULTS[name] : value;
    } catch (e) { return DEFAULTS[name]; }
  };

  // Remember a preference and tell the page's other scripts (event tento:pref).
  function setPref(name, value) {
    try { localStorage.setItem("tento." + name, value); } catch (e) { /* not remembered */ }
    document.dispatchEvent(new CustomEvent("tento:pref", { detail: { name: name } }));
  }

  // Theme: automático (system), claro, escuro or sol (high contrast for daylight).
  function showTheme() {
    var current = root.dataset.tema || "auto";
    document.querySelectorAll("[data-tema]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.dataset.tema === current));
    });
  }

  function chooseTheme(event) {
    var button = event.target.closest && event.target.closest("[data-tema]");
    if (!button) { return; }
    var theme = button.dataset.tema;
    if (theme === "auto") { delete root.dataset.tema; } else { root.dataset.tema = theme; }
    setPref("tema", theme);
    showTheme();
  }

  // Switches: modo mesa turns one side at once; the others are read where they act.
  function flip(event) {
    var input = event.target;
    if (!input.dataset || !input.dataset.pref) { return; }
    if (input.dataset.pref === "mesa") {
      if (input.checked) { root.dataset.mesa = "1"; } else { delete root.dataset.mesa; }
    }
    setPref(input.dataset.pref, input.checked ? "1" : "0");
  }

  function showSwitches() {
    document.querySelectorAll("[data-pref]").forEach(function (input) {
      input.checked = tento.pref(input.dataset.pref) === "1";
    });
  }

  document.addEventListener("click", chooseTheme);
  document.addEventListener("change", flip);
  document.addEventListener("DOMContentLoaded", function () {
    showTheme();
    showSwitches();
  });
})();
