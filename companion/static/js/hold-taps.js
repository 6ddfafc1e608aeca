// A page's move forms can be on screen before the scripts that send them (live.js, choices.js, corrections.js)
// have run: a tap on a move then would submit the form natively, reloading the page and losing the move; a tap
// on a script's own button (type="button": advice's "Fill in the cast form", a notice's "Leave it") would do
// nothing at all.
// A form that asks first (data-confirm: a seat's release on the table page) would be sent without the question.
// Loaded before any form, this holds such a tap in a [data-live], [data-fix] or [data-confirm] part and makes it
// again once the scripts are in: at DOMContentLoaded (which comes after every deferred script) on a seat or corrections page,
// or at the event its script tag names in data-release on a page that loads them later (a card page:
// js/card-moves.js).
(() => {
  "use strict";
  const release = (document.currentScript && document.currentScript.dataset.release) || "DOMContentLoaded";
  const PART = "[data-live], [data-fix], [data-confirm]";  // (a form that asks first: js/confirm.js asks then)
  let ready = false;
  let held = []; // in the order made: {form, submitter} (the last submit only) or {button}
  const hold = (event, tap) => {
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push(tap);
    const busy = tap.button || tap.submitter;
    if (busy) busy.setAttribute("aria-busy", "true");
  };
  document.addEventListener("submit", (event) => {
    if (ready || !(event.target instanceof HTMLFormElement) || !event.target.closest(PART)) return;
    held = held.filter((tap) => !tap.form);
    hold(event, { form: event.target, submitter: event.submitter });
  }, true);
  document.addEventListener("click", (event) => {
    const button = !ready && event.target instanceof Element && event.target.closest('button[type="button"]');
    if (!button || !button.closest(PART) || held.some((tap) => tap.button === button)) return;
    hold(event, { button });
  }, true);
  // Enter in a list's "Find by name" never sends its form (js/choices.js picks the one match with it): before
  // the scripts it would, as the browser's implicit submission, and the submit above would be held and sent
  document.addEventListener("keydown", (event) => {
    if (!ready && event.key === "Enter" && event.target instanceof HTMLInputElement
        && event.target.matches("[data-filter]") && event.target.closest(PART)) event.preventDefault();
  }, true);
  document.addEventListener(release, () => {
    ready = true;
    const taps = held;
    held = [];
    for (const { form, submitter, button } of taps) {
      if (submitter) submitter.removeAttribute("aria-busy");
      if (button) button.removeAttribute("aria-busy");
      if (form && form.isConnected) form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
      if (button && button.isConnected) button.click();
    }
  }, { once: true });
})();
