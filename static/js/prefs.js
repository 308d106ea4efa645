// Applies the remembered display preferences before the page paints (theme, modo mesa).
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");
  try {
    var theme = localStorage.getItem("tento.tema");
    if (theme === "claro" || theme === "escuro" || theme === "sol") { root.dataset.tema = theme; }
    if (localStorage.getItem("tento.mesa") === "1") { root.dataset.mesa = "1"; }
  } catch (e) { /* storage blocked: follow the system */ }
})();
