// Without network. On the offline page shown in a board's place (by the service worker): back
// to the board as soon as the server answers. On a board no service worker looks after (plain
// HTTP on the local network), a reload or a link while taps wait for the network would end on
// the browser's error page: the browser asks first.
(function () {
  "use strict";

  function check() {
    window.fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (response) { if (response.ok) { location.reload(); } }, function () { /* still away */ });
  }

  // Taps wait for a server that can't be reached, and nothing would show them after a reload.
  function stranded() {
    var writes = window.tento.writes;
    var guarded = "serviceWorker" in navigator && navigator.serviceWorker.controller;
    return !guarded && !!writes && writes.queue.length > 0 && writes.state === "offline";
  }

  if (document.querySelector("[data-testid='offline']") && location.pathname !== "/offline") {
    window.addEventListener("online", check);
    window.setInterval(check, window.tento.settings.serverCheckMs);
  }
  window.addEventListener("beforeunload", function (event) {
    if (stranded()) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
})();
