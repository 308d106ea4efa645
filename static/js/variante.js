// The new-table form's rule set: choosing one picks its own series (its data-serie, e.g. a
// queda, best of 3) and leaves 3x3 for duplas when the rule set chosen seats no trios.
(function () {
  "use strict";

  function follow(input) {
    var form = input.form;
    if (!form || !input.checked) { return; }
    var serie = form.querySelector('input[name="serie"][value="' + input.getAttribute("data-serie") + '"]');
    if (serie) { serie.checked = true; }
    var trios = form.querySelector('input[name="jogadores"][value="6"]');
    var duplas = form.querySelector('input[name="jogadores"][value="4"]');
    if (trios && duplas && trios.checked && input.getAttribute("data-trios") !== "1") {
      duplas.checked = true;
    }
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input && input.name === "variante") { follow(input); }
  });
}());
