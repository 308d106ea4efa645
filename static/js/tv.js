// The bar's TV: a short sound each time a match is called to a mesa (the call's id changes in
// the TV's body, [data-testid=tv-chamada]). Browsers play sound only after someone allowed it
// on the page: the button under the QR code does, once per load.
(function () {
  "use strict";
  var button = document.querySelector("[data-testid=tv-som]");
  var audio = null;
  var heard = null;

  function callId() {
    var call = document.querySelector("[data-testid=tv-chamada]");
    return call ? call.getAttribute("data-chamada") : null;
  }

  function beep() {
    if (!audio || audio.state !== "running") { return; }
    [0, 0.25].forEach(function (start, i) {
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = i ? 1318.5 : 987.8;
      gain.gain.setValueAtTime(0.25, audio.currentTime + start);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + start + 0.22);
      tone.connect(gain).connect(audio.destination);
      tone.start(audio.currentTime + start);
      tone.stop(audio.currentTime + start + 0.24);
    });
  }

  function allow() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    audio = audio || new Context();
    audio.resume();
    button.setAttribute("aria-pressed", "true");
    button.textContent = "Som das chamadas ligado";
    beep();
  }

  function swapped() {
    var now = callId();
    if (now && now !== heard) { beep(); }
    heard = now;
  }

  if (!button) { return; }
  heard = callId();
  button.hidden = false;
  button.addEventListener("click", allow);
  document.body.addEventListener("htmx:afterSettle", swapped);
})();
