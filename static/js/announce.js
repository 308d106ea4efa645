// Reads the new score out to screen readers (#anuncio) after every new board or live view.
(function () {
  "use strict";

  function announce() {
    var shown = document.querySelector("#board, #live");
    var region = document.getElementById("anuncio");
    if (shown && region && shown.dataset.announce && region.textContent !== shown.dataset.announce) {
      region.textContent = shown.dataset.announce;
    }
  }

  document.addEventListener("htmx:afterSwap", announce);
  document.addEventListener("tento:board", announce);
})();
