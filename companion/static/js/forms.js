/* Reading a plain move form (the corrections page's, templates/pages/_seat_tools.html) into the move it
 * sends. Seat pages' move forms are rendered from the rules' choices and read by js/choices.js.
 *
 * data-move="type" names the move; data-lists="a,b" fields are lists (sent as [] when nothing is picked);
 * data-type="int" sends a number (left out when empty); data-optional leaves out an empty value;
 * "outer.inner" is a field of an object inside the move; "name[]" adds to a list.
 */
(() => {
  "use strict";

  function collect(form) {
    const move = { type: form.dataset.move };
    (form.dataset.lists || "").split(",").filter(Boolean).forEach((key) => { move[key] = []; });
    for (const el of form.elements) {
      if (!el.name || el.disabled || el.closest("fieldset:disabled")) continue;
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) continue;
      let value = el.value;
      if (el.dataset.type === "int" && value === "") continue;
      if (el.dataset.type === "int") value = Number.parseInt(value, 10);
      if (value === "" && el.dataset.optional !== undefined) continue;
      if (el.name.includes(".")) {
        const [outer, inner] = el.name.split(".");
        (move[outer] = move[outer] || {})[inner] = value;
        continue;
      }
      if (el.name.endsWith("[]")) {
        const key = el.name.slice(0, -2);
        (move[key] = move[key] || []).push(value);
        continue;
      }
      if (value === "") continue;
      move[el.name] = value;
    }
    return move;
  }

  window.SpellbookForms = { collect };
})();
