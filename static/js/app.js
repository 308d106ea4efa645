// Tento: small progressive enhancements; the app works without this file.
(function () {
  "use strict";
  // A failed tap (network down, timeout) leaves the board as it was and says so.
  document.addEventListener("htmx:sendError", function (evt) {
    var board = document.getElementById("board");
    if (!evt.detail.elt || evt.detail.elt.tagName !== "FORM") { return; }
    if (!board || board.querySelector(".offline")) { return; }
    var note = document.createElement("p");
    note.className = "msg msg-error offline";
    note.setAttribute("role", "alert");
    note.setAttribute("data-testid", "sem-conexao");
    note.textContent = "sem conexão — toque não registrado";
    board.insertBefore(note, board.firstChild);
  });
})();
