/* The move forms of games with their own form templates (templates/pages/<game>/_seat_forms.html):
 * the fields of the chosen spell, long option lists copied from a <template>, and reading
 * a form's move. Forms rendered from the rules' choices use
 * js/choices.js instead; as each game moves to choices, what it alone used here goes.
 */
(() => {
  "use strict";

  const live = document.querySelector("[data-live]");
  if (!live) return;

  // a form[data-groups="spell"] shows only the fieldset.effect-group whose data-group the checked spell names
  function showEffectGroup(form) {
    const list = form.querySelector(`select[name="${form.dataset.groups}"]`); // or a select: its chosen option
    const chosen = form.querySelector(`input[name="${form.dataset.groups}"]:checked`) || (list && list.selectedOptions[0]);
    form.querySelectorAll("fieldset.effect-group").forEach((group) => {
      const on = Boolean(chosen) && group.dataset.group === (chosen.dataset.group || chosen.value);
      group.hidden = !on;
      group.disabled = !on;
    });
  }

  // a select[data-options="id"] takes the options and optgroups of <template id="id"> (one copy of a long
  // list per page, however many forms offer it); data-only="a,b" keeps the optgroups whose data-key is listed
  function fillOptions() {
    live.querySelectorAll("select[data-options]:not([data-filled])").forEach((select) => {
      const source = document.getElementById(select.dataset.options);
      if (!source) return;
      const only = (select.dataset.only || "").split(",").filter(Boolean);
      [...source.content.children].forEach((item) => {
        if (item.tagName === "OPTGROUP" && only.length && !only.includes(item.dataset.key)) return;
        select.append(item.cloneNode(true));
      });
      select.dataset.filled = "1";
    });
  }

  function fill(form, move) {
    for (const el of form.elements) {
      if (!el.name) continue;
      const key = el.name.replace(/\[\]$/, "");
      if (!(key in move)) continue;
      const value = move[key];
      if (el.type === "radio" || el.type === "checkbox") {
        el.checked = String(el.value) === String(value);
      } else {
        el.value = String(value);
      }
    }
    if (form.dataset.groups) showEffectGroup(form);
  }

  live.addEventListener("change", (event) => {
    const form = event.target.form;
    if (!form) return;
    if (form.dataset.groups && event.target.name === form.dataset.groups) showEffectGroup(form);
  });

  function collect(form) {
    const move = { type: form.dataset.move };
    // data-lists="a,b": these fields are lists, sent as [] when nothing is picked
    (form.dataset.lists || "").split(",").filter(Boolean).forEach((key) => { move[key] = []; });
    for (const el of form.elements) {
      if (!el.name || el.disabled || el.closest("fieldset:disabled")) continue;
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) continue;
      let value = el.value;
      if (el.dataset.split) {
        const parts = value.split("|");
        el.dataset.split.split(",").forEach((key, i) => {
          const [name, type] = key.split(":"); // "steps:int" sends that part as a number
          move[name] = type === "int" ? Number.parseInt(parts[i], 10) : parts[i];
        });
        continue;
      }
      if (el.dataset.type === "int" && value === "") continue; // an optional number left empty
      if (el.dataset.type === "int") value = Number.parseInt(value, 10);
      if (value === "" && el.dataset.optional !== undefined) continue; // "none" picked in an optional list item
      if (el.name.includes(".")) { // "discard.invitations": a field of an object inside the move
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

  window.SpellbookForms = {
    prepare: fillOptions,
    apply(root) {
      fillOptions();
      root.querySelectorAll("form[data-groups]").forEach(showEffectGroup);
    },
    collect,
    fill,
  };
  window.SpellbookForms.apply(live);
})();
