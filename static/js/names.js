// The edit of a table: its question "corrigir o nome ou entrou outra pessoa?" shows once a name differs from the table's.
(function () {
  "use strict";

  function counted(form, name) {
    // A team's name counts for a player's in 1x1 only; a seat past the table's, never.
    var players = form.querySelector('input[name="jogadores"]:checked');
    var seats = players ? parseInt(players.value, 10) : 4;
    if (name === "time_a" || name === "time_b") { return seats === 2; }
    return parseInt(name.split("_")[1], 10) < seats;
  }

  function sync(form) {
    var question = form.querySelector(".renames[data-atuais]");
    if (!question) { return; }
    var now;
    try { now = JSON.parse(question.getAttribute("data-atuais")); } catch (e) { return; }
    var changed = Object.keys(now).some(function (name) {
      var input = form.elements[name];
      return input && counted(form, name) && input.value.trim() !== now[name].trim();
    });
    if (changed) { question.classList.add("asked"); }
  }

  document.addEventListener("input", function (event) {
    if (event.target && event.target.form) { sync(event.target.form); }
  });
  document.addEventListener("change", function (event) {
    if (event.target && event.target.form) { sync(event.target.form); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form").forEach(sync);
  });
}());
