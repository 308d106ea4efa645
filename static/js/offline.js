// The offline page shown in a board's place: back to the board as soon as the server answers.
(function () {
  "use strict";

  function check() {
    window.fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (response) { if (response.ok) { location.reload(); } }, function () { /* still away */ });
  }

  if (document.querySelector("[data-testid='offline']") && location.pathname !== "/offline") {
    window.addEventListener("online", check);
    window.setInterval(check, window.tento.settings.serverCheckMs);
  }
})();
