/* Forms rendered from the rules' choices (templates/pages/_choices.html), for every game that has them.
 *
 * A field or option shows only while its data-when / data-unless / data-needs hold for what is picked
 * so far (a spell's effect fields, the spells of the power chosen, a power that needs as many
 * ingredients); a list field is checked against its data-min / data-max and the data-caps of the option
 * chosen elsewhere (the scrolls among the cards of the shop the Assistant reaches), with a sentence next
 * to it. collect reads the move the form sends (live.js sends it); fill puts advice's move into it.
 *
 * Markup: an input's field is its data-field or its name ("a[]": one item of list a, "a.b": key b of
 * object a); a fieldset[data-type="int"] holds whole numbers; data-repeat="x" with a number n puts x
 * n times into the list; a checked option's data-also adds fields; the form's data-fixed too.
 */
(() => {
  "use strict";

  const json = (el, key) => JSON.parse(el.dataset[key] || "{}");
  const key = (el) => (el.dataset.field || el.name).replace(/\[\]$/, "");
  const whole = (el) => Boolean(el.closest('fieldset[data-type="int"]'));

  function collect(form) {
    const move = { type: form.dataset.move, ...json(form, "fixed") };
    // a list field sends [] when nothing is picked, unless it is not asked now (a spell's fields)
    (form.dataset.lists || "").split(",").filter(Boolean).forEach((name) => {
      if ([...form.elements].some((el) => el.name && key(el) === name && !el.matches(":disabled"))) move[name] = [];
    });
    for (const el of form.elements) {
      if (!el.name || el.matches(":disabled") || ((el.type === "radio" || el.type === "checkbox") && !el.checked)) continue;
      const name = key(el);
      const number = whole(el);
      if (el.dataset.repeat !== undefined) {
        const item = number ? Number(el.dataset.repeat) : el.dataset.repeat;
        for (let i = Number.parseInt(el.value, 10) || 0; i > 0; i -= 1) (move[name] = move[name] || []).push(item);
        continue;
      }
      if (el.value === "") continue; // an optional pick left at "none", a number left empty
      // data-copies="x": the value picked in field x ("the card I discard for this trick", "the card I just drew")
      const value = el.dataset.copies ? move[el.dataset.copies] : number || el.type === "number" ? Number.parseInt(el.value, 10) : el.value;
      const [outer, inner] = name.split(".");
      if (inner) (move[outer] = move[outer] || (/^\d+$/.test(inner) ? [] : {}))[inner] = value; // "a.0": item 0 of list a
      else if (el.name.endsWith("[]")) (move[name] = move[name] || []).push(value);
      else move[name] = value;
      Object.assign(move, json(el, "also")); // e.g. the shop the steps reach
    }
    return move;
  }

  function fill(form, move) {
    for (const el of form.elements) {
      if (!el.name || el.type === "search") continue;
      // "a.b": key b of object a, "a.0": item 0 of list a (a correction fills a form with a whole move)
      const value = key(el).split(".").reduce((v, k) => (v === null || v === undefined ? undefined : v[k]), move);
      if (value === undefined) continue;
      if (el.dataset.repeat !== undefined) {
        const times = (Array.isArray(value) ? value : []).filter((item) => String(item) === el.dataset.repeat).length;
        if (el.type === "checkbox") el.checked = times > 0;
        else el.value = String(times);
      } else if (el.type === "radio" || el.type === "checkbox") {
        el.checked = [].concat(value).some((v) => String(v) === el.value);
      } else {
        el.value = String(value);
      }
    }
    apply(form);
  }

  // the field's value, or a tag of the option picked there (on the option or on its row), is one of values
  function matches(form, move, name, values) {
    const picked = [...form.querySelectorAll("input:checked:enabled")].find((input) => (input.dataset.field || input.name) === name);
    const tags = picked?.closest("[data-tags]")?.dataset.tags.split(" ") || [];
    const value = name.split(".").reduce((v, k) => v?.[k], move); // "a.b": key b of object a, "a.0": item 0 of list a
    return values.some((v) => String(v) === String(value) || tags.includes(String(v)));
  }

  function holds(el, move, form) {
    return Object.entries(json(el, "when")).every(([name, values]) => matches(form, move, name, values))
      && !Object.entries(json(el, "unless")).some(([name, values]) => matches(form, move, name, values))
      && Object.entries(json(el, "needs")).every(([name, least]) => (move[name] || []).length >= least);
  }

  // lists sent once as data (js/choice-lists.js, on pages that send them) are built before anything else
  const buildLists = (root) => window.SpellbookChoiceLists?.build(root);

  // a long list's "Find by name": the picks whose words hold what is typed (the picks made stay shown)
  function applyFilter(input) {
    const picker = input.closest("fieldset");
    const query = input.value.trim().toLocaleLowerCase();
    let shown = 0;
    picker.querySelectorAll(".pick").forEach((label) => {
      if (label.dataset.search === undefined) {  // the words shown: name, traits, place (read once), each its own
        const words = [];                         // words: "Alice" and "your zone", not "aliceyour zone"
        const walk = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        while (walk.nextNode()) words.push(walk.currentNode.nodeValue);
        label.dataset.search = words.join(" ").replace(/\s+/g, " ").trim().toLocaleLowerCase();
      }
      const match = !query || label.dataset.search.includes(query) || label.querySelector("input").checked;
      label.hidden = !match;
      if (match) shown += 1;
    });
    const none = picker.querySelector("[data-no-match]");
    if (none) none.hidden = shown > 0;
  }

  function apply(form) {
    buildLists(form);
    form.querySelectorAll("fieldset[data-required] input[type=radio]").forEach((radio) => { radio.required = true; });
    // fields and options in page order depend on those above them: repeat until nothing changes
    for (let pass = 0, changed = true; changed && pass < 4; pass += 1) {
      const move = collect(form);
      changed = false;
      form.querySelectorAll("[data-when], [data-unless], [data-needs]").forEach((el) => {
        const on = holds(el, move, form);
        const option = el.tagName === "LABEL" ? el.querySelector("input") : null;
        if (el.classList.contains("off") === !on) return;
        changed = true;
        el.classList.toggle("off", !on); // an option's label: hidden by CSS (the filter uses hidden)
        if (!option) el.hidden = !on;
        (option ? [option] : el.tagName === "FIELDSET" ? [el] : el.querySelectorAll("input")).forEach((input) => { input.disabled = !on; });
        if (option && !on) {
          if (option.type === "number") option.value = "0";
          else option.checked = false;
        }
      });
    }
    const move = collect(form);
    const caps = {};
    const capped = {};  // a capped list -> what caps it, as the player picked it: "Introductions drawn: 2"
    form.querySelectorAll("input[data-caps]:checked").forEach((input) => {
      Object.entries(json(input, "caps")).forEach(([name, most]) => {
        if (most >= (caps[name] ?? Infinity)) return;
        caps[name] = most;
        const legend = input.closest("fieldset:not(.choice-row)")?.querySelector("legend")?.firstChild?.textContent?.trim();
        const label = input.closest("label")?.querySelector("span")?.firstChild?.textContent?.trim();
        capped[name] = [legend, label].filter(Boolean).join(": ");
      });
    });
    form.querySelectorAll("fieldset[data-min]:enabled").forEach((field) => {
      const inputs = field.querySelectorAll("input:not([data-filter]):enabled");
      const name = field.dataset.counts || inputs[0]?.name.replace(/\[\]$/, "");
      const count = (move[name] || []).length;
      const most = Math.min(field.dataset.max ?? Infinity, caps[name] ?? Infinity);
      const few = count < field.dataset.min ? `Pick at least ${field.dataset.min} here.` : "";
      const why = most < (field.dataset.max ?? Infinity) && capped[name] ? ` (${capped[name]})` : "";
      const problem = count > most ? (most ? `Pick at most ${most} here${why}.` : `Pick none here${why}.`) : few;
      inputs.forEach((input, i) => input.setCustomValidity(i ? "" : problem));
      // too few is said once the player has picked here or tried to send, not in red before any tap
      const said = problem && (problem !== few || field.hasAttribute("data-touched")) ? problem : "";
      let out = field.querySelector(".c-count");
      if (!out && said) {
        out = Object.assign(document.createElement("p"), { className: "c-count" });
        out.setAttribute("aria-live", "polite");
        field.append(out);
      }
      if (out) Object.assign(out, { hidden: !said, textContent: said });
    });
    form.querySelectorAll("input[data-filter]").forEach(applyFilter); // (typed before this script ran too)
  }

  // Enter in a filter picks the single match not picked yet (and never sends the form)
  function pickSingleMatch(input) {
    const shown = [...input.closest("fieldset").querySelectorAll(".pick:not(.off)")].filter((label) => !label.hidden);
    const open = shown.filter((label) => !label.querySelector("input").checked); // the picks made stay shown
    const box = open.length === 1 && open[0].querySelector("input");
    if (box && box.type !== "number" && !box.checked) box.click();
  }

  const refresh = (event) => {
    if (!event.target.form?.hasAttribute("data-choice")) return;
    if (!event.target.matches("[data-filter]")) event.target.closest("fieldset[data-min]")?.setAttribute("data-touched", "");
    apply(event.target.form);
  };
  document.addEventListener("input", refresh);
  document.addEventListener("change", refresh);
  // a send the browser stopped (too few picked): the field says why
  document.addEventListener("invalid", (event) => {
    const field = event.target.closest?.("form[data-choice] fieldset[data-min]");
    if (field && !field.hasAttribute("data-touched")) { field.setAttribute("data-touched", ""); apply(event.target.form); }
  }, true);
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !event.target.matches("form[data-choice] input[data-filter]")) return;
    event.preventDefault();
    pickSingleMatch(event.target);
  });
  // every choice form in root, or root itself: live.js calls it after a live update or an advice fill
  window.SpellbookChoices = {
    apply: (root) => (root.matches("form[data-choice]") ? [root] : root.querySelectorAll("form[data-choice]")).forEach(apply),
    prepare: buildLists, // live.js: before it puts back what was picked across a swap
    collect,
    fill,
  };
  document.querySelectorAll("[data-live]").forEach(window.SpellbookChoices.apply);
})();
