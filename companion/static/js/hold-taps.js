// A page's move forms can be on screen before the scripts that send them (live.js, choices.js, corrections.js)
// have run: a tap on a move then would submit the form natively, reloading the page and losing the move; a tap
// on a script's own button (type="button": advice's "Fill in the cast form", a notice's "Leave it") would do
// nothing at all.
// A form that asks first (data-confirm: a seat's release on the table page) would be sent without the question.
// Loaded before any form, this holds such a tap in a [data-live], [data-fix] or [data-confirm] part and makes it
// again once the scripts are in: at DOMContentLoaded (which comes after every deferred script) on a seat or corrections page,
// or at the event its script tag names in data-release on a page that loads them later (a card page:
// js/card-moves.js).
// A script that never arrives (blocked, or a dropped connection) must not leave its forms to the browser: a form
// that asks first is sent only once js/confirm.js has said it is here (window.SpellbookScripts.confirm), and a
// form in a part (or a form) whose data-sent-by names its script only once that script has said so (js/live.js for
// a seat's moves, js/put-back.js, js/corrections.js); otherwise the tap stays
// held, now and later, and the page says under it that it must be reloaded.
(() => {
  "use strict";
  const release = (document.currentScript && document.currentScript.dataset.release) || "DOMContentLoaded";
  const PART = "[data-live], [data-fix], [data-confirm]";  // (a form that asks first: js/confirm.js asks then)
  let ready = false;
  // the script a form needs that has not said it is here, if any
  const missing = (form) => {
    const here = window.SpellbookScripts || {};
    if (form.closest("[data-confirm]") && !here.confirm) return "confirm";
    const part = form.closest("[data-sent-by]");
    return part && !here[part.dataset.sentBy] ? part.dataset.sentBy : "";
  };
  const unsent = (form, submitter) => {
    form.querySelectorAll(":scope .held-tap").forEach((old) => old.remove());
    const box = document.createElement("div");
    box.className = "notice error held-tap";
    box.setAttribute("role", "alert");
    const text = document.createElement("p");
    text.textContent = "Not sent: this page did not finish loading (a script it needs is missing). Reload the page, then try again.";
    box.append(text);
    const buttons = form.querySelectorAll('button[type="submit"], button:not([type])');
    const under = submitter && submitter.form === form ? submitter : buttons[buttons.length - 1];
    if (under) under.after(box);
    else form.append(box);
  };
  let held = []; // in the order made: {form, submitter} (the last submit only) or {button}
  const hold = (event, tap) => {
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push(tap);
    const busy = tap.button || tap.submitter;
    if (busy) busy.setAttribute("aria-busy", "true");
  };
  document.addEventListener("submit", (event) => {
    if (!(event.target instanceof HTMLFormElement) || !event.target.closest(PART)) return;
    if (ready) {  // the scripts are in, or will never be: a form whose script is missing is not sent natively
      if (!missing(event.target)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      unsent(event.target, event.submitter);
      return;
    }
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
      if (form && form.isConnected && missing(form)) unsent(form, submitter);
      else if (form && form.isConnected) form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
      if (button && button.isConnected) button.click();
    }
  }, { once: true });
})();
