// The board follows other phones by polling every POLL_INTERVAL_MS with the revision it shows:
// 204 while unchanged, else the newer board. A poll that fails or succeeds tells the writes
// (writes.js) whether the server can be reached, and the first success sends what is kept.
// A torneio match decided off its board (#board data-seguir) says why, then moves on to the
// match called to its mesa now.
(function () {
  "use strict";
  var tento = window.tento;
  var writes = tento.writes;
  var polling = false;

  function answered(response) {
    if (response.status === 403 || response.status === 404) {
      writes.linkGone(false);
      return null;
    }
    if (!response.ok) { writes.reachable(false); return null; }
    return response.text().then(function (html) {
      if (response.status === 200) { writes.swap(html, writes.revOf(response), true); }
      writes.reachable(true);
    });
  }

  function poll() {
    var board = document.getElementById("board");
    if (!board || polling || document.visibilityState === "hidden") { return; }
    polling = true;
    var deadline = writes.deadline();
    var url = board.getAttribute("data-placar") + "?rev=" + board.getAttribute("data-rev");
    window.fetch(url, { cache: "no-store", credentials: "same-origin", signal: deadline.signal })
      .then(answered)
      .catch(function () { writes.reachable(false); })
      .then(function () {
        polling = false;
        deadline.done();
      });
  }

  var moving = false;
  function moveOn() {
    var board = document.getElementById("board");
    var to = board && board.getAttribute("data-seguir");
    if (!to || moving) { return; }
    moving = true;
    window.setTimeout(function () { location.assign(to); }, tento.settings.moveOnMs);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { poll(); }
  });
  document.addEventListener("tento:board", moveOn);
  if (document.getElementById("board")) {
    window.setInterval(poll, tento.settings.pollMs);
    moveOn();
  }
})();
