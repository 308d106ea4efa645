// Every interval and timeout of Tento's scripts, in one place. The poll interval is the
// server's (<body data-poll-ms>, from the app's POLL_INTERVAL_MS); the rest are fixed here.
(function () {
  "use strict";
  var tento = window.tento = window.tento || {};

  // The server's poll interval, or 2 s when the page does not say.
  function pollMs() {
    var said = parseInt(document.body ? document.body.getAttribute("data-poll-ms") : "", 10);
    return said > 0 ? said : 2000;
  }

  tento.settings = {
    pollMs: pollMs(), // the board asks for a new score this often
    requestTimeoutMs: 10000, // a write or a poll with no answer by then has failed
    firstRetryMs: 1000, // a kept write is sent again after this, twice as long each time...
    maxRetryMs: 15000, // ...up to this
    doubleTapMs: 600, // the same button again within this, its write still kept: one tap
    serverCheckMs: 3000, // the offline page asks whether the server is back this often
    moveOnMs: 3000, // a torneio match closed off its board says why this long, then moves on
    copiedMs: 2000, // a copy button says "Copiado!" this long
    vibrateMs: 25, // a tap's vibration
    beepMs: 80 // a tap's sound
  };
})();
