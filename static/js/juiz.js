// The juiz's links: plain links (they work without JavaScript), sent through htmx by this one
// handler instead of an htmx set-up per link, which cost most of the page's start-up. The
// juiz swaps itself (#juiz) and pushes the URL, as hx-get links did.
(function () {
  "use strict";

  function follow(evt) {
    var link = evt.target.closest ? evt.target.closest("#juiz a[data-hx]") : null;
    if (!link || !window.htmx || evt.ctrlKey || evt.metaKey || evt.shiftKey || evt.button) { return; }
    var grid = link.closest("[data-swap]");
    evt.preventDefault();
    window.htmx.ajax("GET", link.getAttribute("data-hx"), {
      source: link, target: "#juiz", swap: grid ? grid.getAttribute("data-swap") : "outerHTML"
    });
  }

  document.addEventListener("click", follow);
})();
