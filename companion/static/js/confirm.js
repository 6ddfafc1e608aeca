/* Ask before an action that touches another seat (take back, remove or correct another player's move, release
 * a seat): a form[data-confirm] (or a form inside an element with data-confirm) is not sent at the first tap;
 * the question appears under its button, where the finger is, with "Yes" (data-confirm-yes) and "Cancel".
 * "Yes" sends the form as it was (to the script that sends it, or natively); the question goes away after.
 * Runs in the capture phase, before any other submit handler. The form gets a "spellbook:asking" event (it
 * bubbles; detail: the question) when the question opens and "spellbook:asked" when it closes, so that a page's
 * status area can say what is asked now instead of what it said before (js/corrections.js).
 */
(() => {
  "use strict";
  (window.SpellbookScripts = window.SpellbookScripts || {}).confirm = true;  // js/hold-taps.js sends such forms now

  const asking = (form) => form.closest("[data-confirm]");

  const tell = (form, name, detail) => form.dispatchEvent(new CustomEvent(name, { bubbles: true, detail }));

  function close(form) {
    const open = form.querySelectorAll(":scope > .confirm-box");
    open.forEach((box) => box.remove());
    if (open.length) tell(form, "spellbook:asked", {});
  }

  function ask(form, holder) {
    close(form);
    const box = document.createElement("div");
    box.className = "confirm-box notice warning";
    box.setAttribute("role", "alertdialog");
    const text = document.createElement("p");
    text.textContent = holder.dataset.confirm;
    const yes = Object.assign(document.createElement("button"), { type: "button", className: "button danger",
                                                                   textContent: holder.dataset.confirmYes || "Yes" });
    const no = Object.assign(document.createElement("button"), { type: "button", className: "button secondary",
                                                                  textContent: "Cancel" });
    yes.addEventListener("click", () => {
      form.dataset.confirmed = "1";
      close(form);
      if (form.requestSubmit) form.requestSubmit(form.querySelector('button[type="submit"]:not([disabled])') || undefined);
      else form.submit();
    });
    no.addEventListener("click", () => close(form));
    const row = document.createElement("div");
    row.className = "confirm-buttons";
    row.append(yes, no);
    box.append(text, row);
    const buttons = form.querySelectorAll('button[type="submit"], button:not([type])');
    if (buttons.length) buttons[buttons.length - 1].after(box);
    else form.append(box);
    box.scrollIntoView({ block: "nearest" });
    yes.focus({ preventScroll: true });
    tell(form, "spellbook:asking", { question: holder.dataset.confirm });
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    const holder = form instanceof HTMLFormElement && asking(form);
    if (!holder) return;
    if (form.dataset.confirmed === "1") { delete form.dataset.confirmed; return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    ask(form, holder);
  }, true);
})();
