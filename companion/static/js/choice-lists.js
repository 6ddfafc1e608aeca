/* Choice forms' lists sent once per page as data (templates/pages/_choices.html with compact lists): loaded
 * before js/choices.js on the pages that send them, which calls build(root) before it applies a form.
 *
 * A <script type="application/json" id="c-list-N"> holds [value, label, detail, tags, deps] per option (value "":
 * the label's slug, as companion/web/templating.py makes it; deps: when/unless/needs on the pick, caps/also/copies on
 * its input). Each div.pick-list[data-list] gets its picks, named by data-name (data-field, data-kind="many" for
 * checkboxes), keeping the rows numbered in data-only if it has one; a long list also gets its filter.
 */
(() => {
  "use strict";

  const slug = (label) => label.toLowerCase().replaceAll("'", "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");

  function pick(list, type, [value, label, detail, tags, deps = {}]) {
    const input = Object.assign(document.createElement("input"), { type, name: list.dataset.name, value: value === "" ? slug(label) : String(value) });
    if (list.dataset.field) input.dataset.field = list.dataset.field;
    if (tags) input.dataset.tags = tags;
    const text = Object.assign(document.createElement("span"), { textContent: label });
    if (detail) text.append(Object.assign(document.createElement("small"), { textContent: detail }));
    const row = Object.assign(document.createElement("label"), { className: "pick" });
    Object.entries(deps).forEach(([name, v]) => {
      if (name === "copies") input.dataset.copies = v; // sends the value picked in field v
      else (name === "caps" || name === "also" ? input : row).dataset[name] = JSON.stringify(v);
    });
    row.append(input, text);
    return row;
  }

  function build(root) {
    root.querySelectorAll(".pick-list[data-list]").forEach((list) => {
      const data = document.getElementById(list.dataset.list);
      if (!data) return;
      const type = list.dataset.kind === "many" ? "checkbox" : "radio";
      const only = list.dataset.only === undefined ? null : new Set(list.dataset.only.split(" ").map(Number));
      JSON.parse(data.textContent).forEach((row, index) => { if (!only || only.has(index)) list.append(pick(list, type, row)); });
      list.removeAttribute("data-list");
      if (!list.classList.contains("long")) return;
      // a long list's filter (choices.js filters it; Enter picks the single match) and its "Nothing matches."
      const id = `${list.closest("form")?.id}-${list.dataset.name.replace(/\W/g, "-")}-filter`;
      const filter = Object.assign(document.createElement("div"), { className: "filter" });
      const search = Object.assign(document.createElement("input"), { type: "search", id });
      search.dataset.filter = "";
      filter.append(Object.assign(document.createElement("label"), { htmlFor: id, textContent: "Find by name" }), search);
      const none = Object.assign(document.createElement("p"), { className: "no-match", hidden: true, textContent: "Nothing matches." });
      none.dataset.noMatch = "";
      list.before(filter);
      list.after(none);
    });
  }

  window.SpellbookChoiceLists = { build };
})();
