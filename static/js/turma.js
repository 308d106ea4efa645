// "Compartilhar resultado": the phone's own share sheet (Web Share API) where it has one;
// elsewhere the link itself (the live score, whose preview shows the result) opens in a new
// tab (target=_blank): the scorer's board never goes away.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-share-text]") : null;
    if (!link || typeof navigator.share !== "function") { return; }
    event.preventDefault();
    navigator.share({
      title: link.getAttribute("data-share-title") || document.title,
      text: link.getAttribute("data-share-text") || "",
      url: link.href
    }).catch(function () { /* closed by the user: nothing to do */ });
  });
}());
