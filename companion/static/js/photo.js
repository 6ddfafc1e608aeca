/* Score by photo (templates/pages/photo.html). The photo picked with the file input (its camera on a
 * phone) is sent as it is to POST /api/photo/<game>; the answer's cards are drawn as boxes with their
 * names over the photo (shown from the phone's own copy, as a data: URL: it never comes back from the
 * server) and listed, each with Remove (a box is the whole card: the answer's outline, else its code); a
 * card can be added by hand. Then either the cards fill the
 * game's calculator (POST /api/photo/<game>/score: the total and every point's cause) or, on a seat's
 * page, they are compared with where the app believes they are (POST /api/games/<id>/audit), each
 * difference with a one-tap correction (POST /api/games/<id>/correct with this seat's cookie and the page's
 * CSRF token).
 */
(() => {
  "use strict";

  const root = document.getElementById("photo");
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const input = $("photo-file");
  const status = $("photo-status");
  const img = $("photo-img");
  const svg = $("photo-boxes");
  const list = $("card-list");
  const result = $("photo-result");
  const SVG = "http://www.w3.org/2000/svg";
  let cards = [];        // {card, name, corners|null, removed}
  let size = null;       // the photo's width and height, as read

  const names = new Map();  // a card's name as listed -> its ids (several copies may share a name)
  document.querySelectorAll("#card-names option").forEach((option) => {
    const key = option.value.toLowerCase();
    if (!names.has(key)) names.set(key, []);
    names.get(key).push({ id: option.dataset.id, name: option.value });
  });

  function say(text) { status.textContent = text; }

  function actionId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function send(url, body, headers) {
    let response;
    try {
      response = await fetch(url, { method: "POST", body, headers: { Accept: "application/json", ...headers },
                                    credentials: "same-origin" });
    } catch (error) {
      return { ok: false, status: 0, data: { error: "The server could not be reached. Try again." } };
    }
    const data = await response.json().catch(() => ({}));
    return { ok: response.ok, status: response.status, data };
  }

  function point(corner) { return `${corner[0]},${corner[1]}`; }

  function drawBoxes(unread) {
    svg.replaceChildren();
    if (!size) return;
    svg.setAttribute("viewBox", `0 0 ${size.width} ${size.height}`);
    const font = Math.max(12, Math.round(size.width / 32));
    cards.forEach((card, index) => {
      if (!card.corners) return;
      const shape = card.outline || card.corners;  // the whole card where the layout says, else its code
      const box = document.createElementNS(SVG, "polygon");
      box.setAttribute("points", shape.map(point).join(" "));
      box.dataset.index = index;
      box.classList.toggle("removed", card.removed);
      const label = document.createElementNS(SVG, "text");
      const left = Math.min(...shape.map((c) => c[0]));
      const top = Math.min(...shape.map((c) => c[1]));
      label.setAttribute("x", left);
      label.setAttribute("y", Math.max(font, top - font * 0.3));
      label.setAttribute("font-size", font);
      label.setAttribute("stroke-width", font / 6);
      label.classList.toggle("removed", card.removed);
      label.textContent = card.name;
      svg.append(box, label);
    });
    (unread || []).forEach((code) => {
      const box = document.createElementNS(SVG, "polygon");
      box.setAttribute("points", code.corners.map(point).join(" "));
      box.classList.add("unread");
      svg.append(box);
    });
  }

  function listCards() {
    list.replaceChildren();
    cards.forEach((card, index) => {
      if (card.removed) return;
      const item = document.createElement("li");
      const name = document.createElement("span");
      name.textContent = card.corners ? card.name : `${card.name} (added by hand)`;
      if (card.stale) name.textContent += " (an older print: the card has changed since)";
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "button small secondary";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", `Remove ${card.name}`);
      remove.addEventListener("click", () => {
        card.removed = true;
        svg.querySelectorAll(`polygon[data-index="${index}"]`).forEach((box) => box.classList.add("removed"));
        const label = svg.querySelector(`polygon[data-index="${index}"] + text`);
        if (label) label.classList.add("removed");
        listCards();
        say(`${card.name} removed.`);
      });
      item.append(name, remove);
      list.append(item);
    });
    if (!list.children.length) {
      const item = document.createElement("li");
      item.textContent = "No card yet: add them by hand, or take another photo.";
      list.append(item);
    }
  }

  function listUnread(unread) {
    const box = $("unread");
    const items = $("unread-list");
    items.replaceChildren();
    unread.forEach((code) => {
      const item = document.createElement("li");
      item.textContent = code.reason;
      items.append(item);
    });
    box.hidden = !unread.length;
  }

  async function readPicked() {
    const file = input.files && input.files[0];
    if (!file) return;
    result.hidden = true;
    if (file.size > Number(root.dataset.maxBytes)) {
      say(`This photo is ${Math.round(file.size / 1048576)} MB; the app takes photos up to ${Math.round(Number(root.dataset.maxBytes) / 1048576)} MB.`);
      return;
    }
    const shown = new FileReader();
    shown.addEventListener("load", () => { img.src = shown.result; });
    shown.readAsDataURL(file);
    say("Reading the cards…");
    const answer = await send(root.dataset.read, file, { "Content-Type": file.type || "image/jpeg" });
    if (!answer.ok) {
      say(`Not read: ${answer.data.error || `the server answered ${answer.status}`}`);
      return;
    }
    size = { width: answer.data.width, height: answer.data.height };
    cards = answer.data.cards.map((card) => ({ ...card, removed: false }));
    const count = cards.length;
    say(`${count} card${count === 1 ? "" : "s"} found${answer.data.unread.length ? `, ${answer.data.unread.length} code${answer.data.unread.length === 1 ? "" : "s"} not used` : ""}. Check them below.`);
    $("photo-view").hidden = false;
    $("photo-cards").hidden = false;
    drawBoxes(answer.data.unread);
    listCards();
    listUnread(answer.data.unread);
  }
  input.addEventListener("change", readPicked);
  // a photo picked before this script arrived (a slow connection, a quick finger) is read all the same
  if (input.files && input.files[0]) readPicked();

  $("add-card").addEventListener("submit", (event) => {
    event.preventDefault();
    const field = $("add-card-name");
    const choices = names.get(field.value.trim().toLowerCase());
    if (!choices) {
      say(`There is no card called “${field.value.trim()}”. Pick one from the list.`);
      return;
    }
    const taken = new Set(cards.filter((card) => !card.removed).map((card) => card.card));
    const pick = choices.find((choice) => !taken.has(choice.id)) || choices[0];
    cards.push({ card: pick.id, name: pick.name, corners: null, removed: false });
    field.value = "";
    listCards();
    say(`${pick.name} added.`);
  });

  function showRows(headline, rows, notes) {
    $("result-headline").textContent = headline;
    const items = $("result-list");
    items.replaceChildren(...rows);
    $("result-notes").replaceChildren(...(notes || []).map((note) => {
      const item = document.createElement("li");
      item.textContent = note;
      return item;
    }));
    result.hidden = false;
  }

  function chosen() { return cards.filter((card) => !card.removed); }

  async function score() {
    const extras = {};
    root.querySelectorAll("[data-extra]").forEach((field) => {
      extras[field.dataset.extra] = field.type === "checkbox" ? (field.checked ? 1 : 0) : Number(field.value || 0);
    });
    const body = { cards: chosen().map((card) => ({ card: card.card, ...(card.corners ? { corners: card.corners } : {}),
                                                    ...(card.under ? { under: card.under } : {}) })), extras };
    const answer = await send(root.dataset.score, JSON.stringify(body), { "Content-Type": "application/json" });
    if (!answer.ok) {
      showRows(`Not scored: ${answer.data.error || `the server answered ${answer.status}`}`, [], []);
      return;
    }
    $("result-title").textContent = "Score";
    showUnseen(answer.data.unseen || []);
    const rows = answer.data.breakdown.map((row) => {
      const item = document.createElement("li");
      const cause = document.createElement("span");
      cause.textContent = row.cause;
      const points = document.createElement("span");
      points.className = "points";
      points.textContent = row.points > 0 ? `+${row.points}` : `${row.points}`;
      item.append(cause, points);
      return item;
    });
    const total = answer.data.total === null ? "" : `Total: ${answer.data.total}. `;
    showRows(`${total}${answer.data.headline}`, rows, answer.data.notes);
    $("result-headline").dataset.total = answer.data.total === null ? "" : answer.data.total;
  }

  let known = root.dataset.under ? JSON.parse(root.dataset.under) : {};

  // After a correction the seat's reported moves changed: what they say lies under each card is read again
  // from this page as the server now makes it.
  async function reloadKnown() {
    if (!root.dataset.under) return;
    try {
      const page = await fetch(window.location.href, { credentials: "same-origin" });
      const fresh = new DOMParser().parseFromString(await page.text(), "text/html").getElementById("photo");
      known = fresh && fresh.dataset.under ? JSON.parse(fresh.dataset.under) : {};
    } catch (error) {
      known = {};  // nothing filled in rather than a stale guess
    }
  }

  // What the photo cannot see (a spellbook face down under its spell): one choice per card, pre-filled from
  // this seat's own reported moves when the page was opened from a tracked seat; scored again once told.
  function showUnseen(asks) {
    const box = $("unseen");
    box.replaceChildren();
    box.hidden = !asks.length;
    if (!asks.length) return;
    asks.forEach((ask, index) => {
      const card = chosen().find((laid) => laid.card === ask.card);
      if (!card) return;
      const field = document.createElement("div");
      field.className = "field";
      const label = document.createElement("label");
      label.htmlFor = `unseen-${index}`;
      label.textContent = ask.question;
      const select = document.createElement("select");
      select.id = `unseen-${index}`;
      const empty = new Option("Choose…", "");
      select.append(empty, ...ask.choices.map((choice) => new Option(choice.name, choice.id)));
      const filled = card.under || known[ask.card] || "";
      select.value = filled;
      card.under = filled || null;
      select.addEventListener("change", () => { card.under = select.value || null; });
      field.append(label, select);
      if (known[ask.card] && filled === known[ask.card]) {
        const from = document.createElement("p");
        from.className = "hint";
        from.textContent = "Filled in from the casts you reported in this game.";
        field.append(from);
      }
      box.append(field);
    });
    const again = document.createElement("button");
    again.type = "button";
    again.className = "button primary";
    again.textContent = "Score with your answers";
    again.addEventListener("click", () => score());
    box.append(again);
  }

  async function audit() {
    $("result-title").textContent = "Photo and app";
    showUnseen([]);
    const seat = Number(root.dataset.seat);
    const headers = { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf || "" };
    const answer = await send(root.dataset.audit, JSON.stringify({ cards: chosen().map((card) => card.card), seat }), headers);
    if (!answer.ok) {
      showRows(`Not compared: ${answer.data.error || `the server answered ${answer.status}`}`, [], []);
      return;
    }
    const version = answer.data.version;
    const rows = answer.data.differences.map((difference) => {
      const item = document.createElement("li");
      const text = document.createElement("span");
      text.className = "diff";
      text.textContent = difference.text;
      item.append(text);
      if (difference.fix) {
        const fix = document.createElement("button");
        fix.type = "button";
        fix.className = "button small primary";
        fix.textContent = `Fix: ${difference.fix_label}`;
        fix.addEventListener("click", async () => {
          fix.disabled = true;
          const body = { ...difference.fix, version, action_id: actionId(), seat };
          const done = await send(root.dataset.correct, JSON.stringify(body), headers);
          if (done.ok) {
            say(`Corrected: move ${difference.fix.seq}.`);
            await reloadKnown();
            await audit();
          } else {
            fix.disabled = false;
            say(`Not corrected: ${done.data.error || `the server answered ${done.status}`}`);
          }
        });
        item.append(fix);
      } else if (difference.no_fix) {
        const why = document.createElement("span");
        why.className = "no-fix";
        why.textContent = difference.no_fix;
        item.append(why);
        if (difference.move && root.dataset.fix) {
          const open = document.createElement("a");
          open.className = "button small secondary";
          open.href = `${root.dataset.fix}/${difference.move}`;
          open.textContent = `Correct move ${difference.move}`;
          item.append(open);
        }
      }
      return item;
    });
    const count = rows.length;
    showRows(count ? `${count} difference${count === 1 ? "" : "s"} between the photo and the app` :
      "The photo and the app agree.", rows, []);
  }

  $("use-cards").addEventListener("click", () => score());
  if ($("audit-cards")) $("audit-cards").addEventListener("click", () => audit());
})();
