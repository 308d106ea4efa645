// A tap's first feedback on the board: a short vibration (where the browser has it) and, when
// the scorer asked for it, a short sound. The board's writes call tento.feedback().
(function () {
  "use strict";
  var tento = window.tento = window.tento || {};
  var audio = null;

  function on(name, otherwise) {
    return tento.pref ? tento.pref(name) === "1" : otherwise;
  }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    audio = audio || new Context();
    var osc = audio.createOscillator();
    var gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.08;
    osc.connect(gain);
    gain.connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + tento.settings.beepMs / 1000);
  }

  tento.feedback = function () {
    if (on("vibrar", true) && navigator.vibrate) { navigator.vibrate(tento.settings.vibrateMs); }
    if (on("som", false)) { beep(); }
  };
})();
