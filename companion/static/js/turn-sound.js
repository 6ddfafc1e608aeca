/* Seat pages: an opt-in sound when it becomes this seat's move (the "This phone" panel; off until switched
 * on, kept in localStorage). The sound is made on the phone with WebAudio (two short soft tones): no file is
 * fetched. A seat's move is a live part with a [data-your-move] section, as for the status bar's "Your move".
 */
(() => {
  "use strict";

  const live = document.querySelector("[data-live]");
  const box = document.querySelector("input[data-sound-setting]");
  if (!live || !box || !live.dataset.csrf) return;
  const KEY = "spellbook.turn-sound";
  const Audio = window.AudioContext || window.webkitAudioContext;

  let on = false;
  try { on = localStorage.getItem(KEY) === "on"; } catch (error) { /* private mode: off */ }
  box.checked = on;
  box.disabled = !Audio; // rendered disabled: a tap before this ran was saved nowhere

  let context = null;
  function chime() {
    if (!Audio) return;
    context = context || new Audio();
    const start = context.currentTime + 0.01;
    [660, 880].forEach((pitch, i) => {
      const tone = context.createOscillator();
      const level = context.createGain();
      tone.frequency.value = pitch;
      level.gain.setValueAtTime(0.0001, start + i * 0.16);
      level.gain.exponentialRampToValueAtTime(0.2, start + i * 0.16 + 0.02);
      level.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.16 + 0.15);
      tone.connect(level).connect(context.destination);
      tone.start(start + i * 0.16);
      tone.stop(start + i * 0.16 + 0.16);
    });
  }

  box.addEventListener("change", () => {
    on = box.checked;
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (error) { /* this visit only */ }
    if (on) chime(); // the tap that switches it on lets the browser play sound, and lets the player hear it
  });

  let mine = Boolean(live.querySelector("[data-your-move]"));
  document.addEventListener("live:swapped", () => {
    const now = Boolean(live.querySelector("[data-your-move]"));
    if (now && !mine && on && !document.hidden) chime();
    mine = now;
  });
})();
