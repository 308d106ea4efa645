// Keeps the screen on (Screen Wake Lock) while a board or live view is open and the "Manter a
// tela ligada" switch is on; asked for again whenever the page is visible again.
(function () {
  "use strict";
  var lock = null;

  function wanted() {
    var on = window.tento && window.tento.pref ? window.tento.pref("tela") === "1" : true;
    return on && !!document.querySelector("#board, #live");
  }

  function release() {
    if (lock) { lock.release(); lock = null; }
  }

  function keepAwake() {
    if (!wanted()) { release(); return; }
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || lock) { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      sentinel.addEventListener("release", function () { lock = null; });
    }).catch(function () { lock = null; });
  }

  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("htmx:afterSwap", keepAwake);
  document.addEventListener("tento:board", keepAwake);
  document.addEventListener("tento:pref", function (event) {
    if (event.detail && event.detail.name === "tela") { keepAwake(); }
  });
  document.addEventListener("DOMContentLoaded", keepAwake);
})();
