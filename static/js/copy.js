// Copy buttons: <button data-copy="text" hidden>, shown only when this file runs (and on every
// new board); a tap copies the text and the button says so for a moment.
(function () {
  "use strict";
  var settings = window.tento.settings;

  function flash(button, text) {
    var before = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", before);
    button.textContent = text;
    button.classList.add("copied");
    window.setTimeout(function () {
      button.textContent = before;
      button.classList.remove("copied");
    }, settings.copiedMs);
  }

  // Copying without the Clipboard API (plain HTTP on the local network): a hidden textarea.
  function copyFallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "sr-only";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    document.body.removeChild(area);
    return done;
  }

  function copy(button) {
    var text = button.getAttribute("data-copy") || "";
    var fallback = function () {
      flash(button, copyFallback(text) ? "Copiado!" : "Não deu: copie o link");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { flash(button, "Copiado!"); }, fallback);
    } else {
      fallback();
    }
  }

  function showCopyButtons() {
    var buttons = document.querySelectorAll("button[data-copy]");
    for (var i = 0; i < buttons.length; i++) { buttons[i].hidden = false; }
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest ? evt.target.closest("button[data-copy]") : null;
    if (button) { copy(button); }
  });
  document.addEventListener("tento:board", showCopyButtons);
  showCopyButtons();
})();
