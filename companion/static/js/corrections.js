/* The corrections pages (companion/web/fix_pages.py).
 *
 * On a move's page the choice forms (read by js/choices.js) send a correction of that move through
 * POST /api/games/<id>/correct. When a later move no longer fits, the page asks the server what that means
 * (the misfit part: that move's form, the move the rules now need before it, or removing it) and shows it
 * under the form that was sent; what is picked there is sent with the same correction (also / insert / drop),
 * until it fits or the player gives up. Removing a move, putting back a change and undoing a correction are
 * forms too (data-remove, data-revert). Every answer appears next to the form that was sent, in table words.
 */
(() => {
  "use strict";
  (window.SpellbookScripts = window.SpellbookScripts || {}).corrections = true;  // js/hold-taps.js: [data-sent-by]

  const root = document.querySelector("[data-fix]");
  if (!root) return;
  const message = document.getElementById("move-message");
  const game = root.dataset.game;
  const seq = Number(root.dataset.seq || 0);
  // the correction being built: the move, and what it fixes, puts in or removes with it
  const pending = { move: null, drop: [], also: [], insert: [] };

  function actionId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  function notice(kind, text, rule) {
    const box = document.createElement("div");
    box.className = `notice ${kind} fix-answer`;
    const p = document.createElement("p");
    p.textContent = text;
    if (rule) {  // the rule a refusal names, linked as js/live.js links it (every rule id starts with its game)
      p.append(" Rule: ");
      const link = document.createElement("a");
      link.href = `${root.dataset.rulesUrl || "/rules"}/${encodeURIComponent(rule.split(".")[0])}#${rule}`;
      link.textContent = rule;
      p.append(link);
    }
    box.append(p);
    return box;
  }

  // why a later move no longer fits, in the server's words (the reason only for this seat's own move: another
  // seat's may rest on its secret, and the server then says only which move), else which move it is
  function misfit(refused, fallback) {
    const why = refused.said || refused.error;
    return why ? why.replace(/[.\s]*$/, ".") : fallback;
  }

  // the answer under the form that was sent (where the finger is), and in the page's live region
  function say(kind, text, form, rule) {
    root.querySelectorAll(".fix-answer").forEach((el) => el.remove());
    if (message) {
      message.setAttribute("aria-live", kind === "error" ? "assertive" : "polite");
      message.replaceChildren(notice(kind, text, rule));
    }
    if (form) {
      const spot = notice(kind, text, rule);
      const buttons = form.querySelectorAll('button[type="submit"], button:not([type])');
      (buttons.length ? buttons[buttons.length - 1] : form).after(spot);
      spot.scrollIntoView({ block: "nearest" });
    }
  }

  function busy(on) {
    root.querySelectorAll("form button").forEach((button) => { button.disabled = on; });
  }

  // the last request whose answer never came: sent again unchanged, it keeps its action id, so the server
  // answers it as made (if it was) instead of making it twice or saying another phone moved first
  let unanswered = null;

  async function post(path, request) {
    const key = JSON.stringify([path, request]);
    if (!unanswered || unanswered.key !== key) unanswered = { key, body: { ...request, action_id: actionId() } };
    const body = unanswered.body;
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(game)}/${path}`, {
        method: "POST", body: JSON.stringify({ ...body, seat: Number(root.dataset.seat) }),
        headers: { "Content-Type": "application/json", Accept: "application/json",
                   "X-CSRFToken": root.dataset.csrf || "" },
        credentials: "same-origin",
      });
      unanswered = null;
      return response;
    } catch (error) {
      return null;
    }
  }

  const listUrl = () => root.dataset.listUrl || window.location.pathname;

  // after a change: the list of moves, saying what was done (with "Undo this correction")
  function done(data) {
    window.location.assign(`${listUrl()}?done=${data.seq}`);
  }

  async function answered(response, form, after) {
    if (!response) {
      say("error", "The server could not be reached, so this change is not confirmed. Press the button again to retry; it will not be made twice.", form);
      return null;
    }
    const data = await response.json().catch(() => ({}));
    if (response.ok) { after(data); return data; }
    if (response.status === 409 && "version" in data) {
      say("error", "Another phone moved first, so nothing was changed. The page is brought up to date: check and send again.", form);
      window.setTimeout(() => window.location.reload(), 2500);
      return null;
    }
    if (response.status === 401 || response.status === 403) {
      say("error", "This phone no longer holds this seat, so nothing was changed. Join the game again with its code.", form);
      return null;
    }
    return { refused: data };
  }

  // ---- a correction of this page's move, with whatever the misfit part added ----
  async function sendCorrection(form) {
    const body = { version: Number(root.dataset.version), seq, move: pending.move,
                   drop: pending.drop, also: pending.also, insert: pending.insert };
    busy(true);
    say("info", "Sending…", form);
    const response = await post("correct", body);
    busy(false);
    const result = await answered(response, form, done);
    if (!result || !result.refused) return;
    if (typeof result.refused.seq === "number") await showMisfit(form);
    else say("error", `Not changed: ${result.refused.said || result.refused.error || "the server refused it."}`, form);
  }

  async function showMisfit(form) {
    const change = JSON.stringify({ move: pending.move, drop: pending.drop, also: pending.also, insert: pending.insert });
    let html = "";
    try {
      const response = await fetch(`${root.dataset.misfitUrl}?change=${encodeURIComponent(change)}`,
                                   { cache: "no-store", headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(String(response.status));
      html = await response.text();
    } catch (error) {
      say("error", "Not changed: a later move no longer fits, and the server could not say which. Press the button again.", form);
      return;
    }
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const part = holder.firstElementChild;
    // under the form that was sent: the move's own forms, or in place of the part that asked for this
    const old = form.closest(".misfit");
    (old || form.closest("[data-correct-forms]") || form).after(part);
    root.querySelectorAll(".fix-answer").forEach((el) => el.remove());
    if (old) old.remove();
    root.querySelectorAll(".misfit").forEach((el) => { if (el !== part) el.remove(); });
    if (window.SpellbookChoices) window.SpellbookChoices.apply(part);
    prefill(part);
    if (message) message.replaceChildren(notice("error", part.querySelector("p").textContent.replace(/\s+/g, " ").trim()));
    part.scrollIntoView({ block: "start" });
  }

  // forms filled in with the move as reported (data-prefill on the element holding them)
  function prefill(scope) {
    scope.querySelectorAll("[data-prefill]").forEach((holder) => {
      const move = JSON.parse(holder.dataset.prefill);
      const form = holder.querySelector(`form[data-move="${CSS.escape(move.type)}"]`);
      if (form && window.SpellbookChoices) window.SpellbookChoices.fill(form, move);
    });
  }

  const collect = (form) => window.SpellbookChoices.collect(form);

  // ---- removing, putting back ----
  async function remove(form) {
    const target = Number(form.dataset.remove);
    busy(true);
    say("info", "Sending…", form);
    const body = { version: Number(root.dataset.version), seq: target, move: null,
                   drop: form.dataset.drop ? form.dataset.drop.split(",").map(Number) : [] };
    const response = await post("correct", body);
    busy(false);
    const result = await answered(response, form, done);
    if (!result || !result.refused) return;
    const refused = result.refused;
    if (afterEnd(refused, body.drop)) {
      say("error", `Not removed: ${ended(refused)}`, form);
      offerEnd(form, refused, "Remove it with them");
    } else if (typeof refused.seq === "number" && !body.drop.includes(refused.seq)) {
      say("error", `Not removed: ${misfit(refused, `move ${refused.seq}, made after it, would no longer fit.`)} Remove that move as well?`,
          form, refused.rule || null);
      offerAlso(form, refused.seq, "Remove both");
    } else {
      say("error", `Not removed: ${refused.said || refused.error || "the server refused it."}`, form);
    }
  }

  function offerAlso(form, later, label) {
    const again = Object.assign(document.createElement("button"), { type: "button", className: "button danger fix-answer", textContent: `${label} (move ${later})` });
    again.addEventListener("click", () => {
      form.dataset.drop = [form.dataset.drop, later].filter(Boolean).join(",");
      again.remove();
      delete form.dataset.confirmed;
      (form.dataset.remove ? remove : putBack)(form);
    });
    root.querySelector(".fix-answer")?.after(again);
  }

  // a change that would end the game sooner: every move after the new end (the answer lists them) goes with it,
  // with one button, as the misfit part of a correction offers (other players' moves among them: asked first)
  const afterEnd = (refused, drop) => Array.isArray(refused.after_end) && refused.after_end.length > 0
    && refused.after_end.some((n) => !drop.includes(n));

  function ended(refused) {
    const later = refused.after_end;
    const sentence = (refused.said || refused.error || "").replace(/\s*Remove it and every later move.*$/, "");
    const count = later.length === 1 ? "That move comes" : later.length + " moves come";  // (no nested template:
    return sentence.replace(/\.?$/, ".") + " " + count + " after the end: " + later.join(", ") + ".";  // rjsmin)
  }

  function offerEnd(form, refused, label) {
    const offer = document.createElement("form");
    offer.className = "end-drop fix-answer";
    if (refused.others) {
      offer.dataset.confirm = "Remove the moves after the end, other players' too? Their phones are told.";
      offer.dataset.confirmYes = "Yes, remove them";
    }
    const later = refused.after_end;
    const button = Object.assign(document.createElement("button"), { type: "submit", className: "button danger",
      textContent: later.length === 1 ? label.replace(/them$/, "move " + later[0]) : label + " (" + later.length + " moves)" });
    offer.append(button);
    offer.addEventListener("submit", (event) => {
      event.preventDefault();
      const drop = form.dataset.drop ? form.dataset.drop.split(",").map(Number) : [];
      form.dataset.drop = [...new Set([...drop, ...refused.after_end])].join(",");
      offer.remove();
      delete form.dataset.confirmed;
      (form.dataset.remove ? remove : putBack)(form);
    });
    form.after(offer);  // under the answer, where the finger is
  }

  async function putBack(form) {
    busy(true);
    say("info", "Sending…", form);
    const body = { version: Number(root.dataset.version), entry: Number(form.dataset.revert),
                   drop: form.dataset.drop ? form.dataset.drop.split(",").map(Number) : [] };
    const response = await post("revert", body);
    busy(false);
    const result = await answered(response, form, (data) => done(data));
    if (!result || !result.refused) return;
    const refused = result.refused;
    if (afterEnd(refused, body.drop)) {
      say("error", `Not put back: ${ended(refused)}`, form);
      offerEnd(form, refused, "Put it back and remove them");
    } else if (typeof refused.seq === "number" && !body.drop.includes(refused.seq)) {
      say("error", `Not put back: ${misfit(refused, `move ${refused.seq}, made since, would no longer fit.`)} Put it back and remove move ${refused.seq}?`,
          form, refused.rule || null);
      offerAlso(form, refused.seq, "Put back and remove");
    } else {
      say("error", `Not put back: ${refused.said || refused.error || "the server refused it."}`, form);
    }
  }

  root.addEventListener("submit", (event) => {
    const form = event.target;
    event.preventDefault();
    if (form.dataset.remove) { remove(form); return; }
    if (form.dataset.revert) { putBack(form); return; }
    if (form.dataset.drop) { // the misfit part: remove that later move too
      const now = form.dataset.drop.split(",").map(Number); // one move, or every move after a new end
      pending.drop.push(...now);
      // a move removed is corrected no more, and a move put in before a later one removed goes with it; one put
      // in before the first of them stands (the rules needed it there: the server puts it where that move was)
      const first = Math.min(...now);
      pending.also = pending.also.filter((a) => !now.includes(a.seq));
      pending.insert = pending.insert.filter((i) => !now.includes(i.before) || i.before === first);
      if (pending.move) sendCorrection(form);
      return;
    }
    if (!form.hasAttribute("data-choice")) return;
    const also = form.closest("[data-also]");
    const need = form.closest("[data-insert-before]");
    if (also) {
      const later = Number(also.dataset.also);
      pending.also = pending.also.filter((a) => a.seq !== later).concat([{ seq: later, move: collect(form) }]);
    } else if (need) {
      pending.insert.push({ before: Number(need.dataset.insertBefore), seat: Number(need.dataset.insertSeat), move: collect(form) });
    } else { // the move itself: a new start
      pending.move = collect(form);
      pending.drop = []; pending.also = []; pending.insert = [];
    }
    sendCorrection(form);
  });

  // while js/confirm.js asks first (another player's move), the status area says what is asked, not the refusal
  // that came before it; cancelled, it says the refusal again
  let before = null;
  root.addEventListener("spellbook:asking", (event) => {
    if (!message) return;
    if (before === null) before = [...message.childNodes];
    message.setAttribute("aria-live", "polite");
    message.replaceChildren(notice("warning", event.detail.question));
  });
  root.addEventListener("spellbook:asked", () => {
    if (!message || before === null) return;
    if (message.querySelector(".fix-answer")?.classList.contains("warning")) message.replaceChildren(...before);
    before = null;
  });

  prefill(root);
})();
