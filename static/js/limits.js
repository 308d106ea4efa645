// Name fields' limits shown while typing: near its maxlength a field says how many letters it
// has of how many it takes ("20/24"), in red once nothing more fits (said as "até 24 letras").
(function () {
  "use strict";
  var NEAR = 6; // letters before the limit where the count appears

  function show(input) {
    var limit = parseInt(input.getAttribute("data-limit"), 10);
    var form = input.form || document;
    var said = form.querySelector('[data-limit-of="' + input.name + '"]');
    if (!said || !limit) { return; }
    var used = input.value.length;
    var full = used >= limit;
    said.textContent = used >= limit - NEAR ? used + "/" + limit : "";
    said.title = full ? "até " + limit + " letras" : "";
    said.classList.toggle("full", full);
  }

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input && input.hasAttribute && input.hasAttribute("data-limit")) { show(input); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("input[data-limit]").forEach(show);
  });
}());
