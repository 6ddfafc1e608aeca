// A seat page's forms are on screen before its deferred scripts (live.js, choices.js) have run: a tap on
// a move then would submit the form natively, reloading the page and losing the move. Loaded before the
// forms and without defer, this holds such a submit and sends it again once every deferred script has
// run (DOMContentLoaded comes after them), when live.js takes it.
(() => {
  "use strict";
  let ready = false;
  let held = null;
  document.addEventListener("submit", (event) => {
    if (ready || !(event.target instanceof HTMLFormElement) || !event.target.closest("[data-live]")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held = { form: event.target, submitter: event.submitter };
    if (event.submitter) event.submitter.setAttribute("aria-busy", "true");
  }, true);
  document.addEventListener("DOMContentLoaded", () => {
    ready = true;
    if (!held) return;
    const { form, submitter } = held;
    held = null;
    if (submitter) submitter.removeAttribute("aria-busy");
    if (form.isConnected) form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
  });
})();
