// Keeps the screen on while a board or live view is open and the "Manter a tela ligada" switch is
// on. The Screen Wake Lock where the browser has it (a secure context: HTTPS or this computer),
// asked for again whenever the page is visible again. Without it (plain HTTP on the local
// network) NoSleep.js's silent looping video, loaded only then, started by the next tap (a video
// may only play after a gesture). Where neither works, the switch says so instead of showing on.
(function () {
  "use strict";
  var tento = window.tento = window.tento || {};
  // how: "wakelock" or "video" while the screen is kept on, else null; noSleep: NoSleep, once loaded.
  var awake = tento.awake = { how: null, noSleep: null };
  var lock = null;
  var useVideo = !("wakeLock" in navigator);
  var loading = false;

  function wanted() {
    var on = tento.pref ? tento.pref("tela") === "1" : true;
    return on && !!document.querySelector("#board, #live");
  }

  function toggle() { return document.querySelector("input[data-pref='tela']"); }

  function release() {
    if (lock) { lock.release(); lock = null; }
    if (awake.noSleep && awake.noSleep.isEnabled) { awake.noSleep.disable(); }
    awake.how = null;
  }

  // Nothing keeps this screen on: the switch shows off, with a note saying so.
  function cannot() {
    release();
    useVideo = false;
    var input = toggle();
    var note = document.querySelector("[data-testid='tela-nota']");
    if (input) { input.checked = false; input.disabled = true; }
    if (note) { note.hidden = false; }
  }

  function canPlayVideo() {
    var video = document.createElement("video");
    return !!video.canPlayType && !!(video.canPlayType("video/webm") || video.canPlayType("video/mp4"));
  }

  // NoSleep.js, added as a script when first needed (most browsers never need it).
  function loadVideo() {
    var input = toggle();
    var src = input && input.getAttribute("data-video");
    if (awake.noSleep || loading || !src) { return; }
    if (!canPlayVideo()) { cannot(); return; }
    loading = true;
    var script = document.createElement("script");
    script.src = src;
    script.onload = function () { awake.noSleep = window.NoSleep ? new window.NoSleep() : null; };
    script.onerror = cannot;
    document.head.appendChild(script);
  }

  // On a tap (a gesture): start the video, if it is the way and is not playing.
  function tapped() {
    if (!useVideo || !wanted() || !awake.noSleep || awake.noSleep.isEnabled) { return; }
    awake.noSleep.enable().then(function () { awake.how = "video"; }, cannot);
  }

  function keepAwake() {
    if (!wanted()) { release(); return; }
    if (useVideo) {
      // A hidden page's video may be paused: started again by the next tap.
      if (document.visibilityState !== "visible" && awake.how === "video") { release(); }
      loadVideo();
      return;
    }
    if (document.visibilityState !== "visible" || lock || !("wakeLock" in navigator)) { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      awake.how = "wakelock";
      sentinel.addEventListener("release", function () { lock = null; awake.how = null; });
    }).catch(function () {
      lock = null;
      if (document.visibilityState === "visible") { useVideo = true; loadVideo(); }
    });
  }

  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("htmx:afterSwap", keepAwake);
  document.addEventListener("tento:board", keepAwake);
  document.addEventListener("tento:pref", function (event) {
    if (event.detail && event.detail.name === "tela") { keepAwake(); tapped(); }
  });
  document.addEventListener("click", tapped, true);
  document.addEventListener("DOMContentLoaded", keepAwake);
})();
