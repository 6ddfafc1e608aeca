// A page's move forms can be on screen before the scripts that send them (live.js, choices.js, corrections.js)
// have run: a tap on a move then would submit the form natively, reloading the page and losing the move. Loaded
// before any form, this holds such a submit in a [data-live] or [data-fix] part and sends it again once the
// scripts are in: at DOMContentLoaded (which comes after every deferred script) on a seat or corrections page,
// or at the event its script tag names in data-release on a page that loads them later (a card page:
// js/card-moves.js).
(() => {
  "use strict";
  const release = (document.currentScript && document.currentScript.dataset.release) || "DOMContentLoaded";
  let ready = false;
  let held = null;
  document.addEventListener("submit", (event) => {
    if (ready || !(event.target instanceof HTMLFormElement) || !event.target.closest("[data-live], [data-fix]")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held = { form: event.target, submitter: event.submitter };
    if (event.submitter) event.submitter.setAttribute("aria-busy", "true");
  }, true);
  document.addEventListener(release, () => {
    ready = true;
    if (!held) return;
    const { form, submitter } = held;
    held = null;
    if (submitter) submitter.removeAttribute("aria-busy");
    if (form.isConnected) form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
  }, { once: true });
})();
