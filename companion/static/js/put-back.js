/* A seat page told that another phone changed one of its moves (templates/pages/_put_back.html): "Put it back"
 * sends POST /api/games/<id>/revert with the seat's cookie and the page's CSRF token; the page's live part then shows the game as it is
 * (js/live.js, asked with a live:refresh event). "Leave it" hides the notice on this phone for good. If a move
 * made since would no longer fit, the answer says which (and why, with the rule, when the move is this seat's own),
 * next to the button, and offers to remove it too.
 */
(() => {
  "use strict";

  const live = document.querySelector("[data-live][data-csrf]");
  if (!live) return;
  (window.SpellbookScripts = window.SpellbookScripts || {})["put-back"] = true;  // js/hold-taps.js: [data-sent-by]
  const KEY = `told-left-${live.dataset.game}-${live.dataset.seat}`;
  const left = () => { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (error) { return []; } };

  function hideLeft() {
    const gone = left();
    live.querySelectorAll("[data-told]").forEach((box) => { box.hidden = gone.includes(box.dataset.told); });
  }

  function actionId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  // the rule a refusal names, linked to its entry (every rule id starts with its game), as js/live.js shows it
  function withRule(element, rule) {
    if (!rule) return element;
    element.append(" Rule: ");
    const link = document.createElement("a");
    link.href = `${live.dataset.rulesUrl || "/rules"}/${encodeURIComponent(rule.split(".")[0])}#${rule}`;
    link.textContent = rule;
    element.append(link);
    return element;
  }

  function say(form, kind, text, rule) {
    form.parentElement.querySelectorAll(".put-back-answer").forEach((el) => el.remove());
    const box = document.createElement("p");
    box.className = `put-back-answer ${kind === "error" ? "hint warn" : "hint"}`;
    box.textContent = text;
    form.after(withRule(box, rule));
    const status = document.getElementById("move-message");
    if (status) status.replaceChildren(Object.assign(document.createElement("div"), { className: `notice ${kind}` }));
    if (status) status.firstChild.append(withRule(Object.assign(document.createElement("p"), { textContent: text }), rule));
    return box;
  }

  // the last put-back whose answer never came: sent again for the same change, it keeps its action id (and the
  // version it was sent at), so the server answers it as made (if it was) instead of making it twice
  let unanswered = null;

  async function putBack(form) {
    const drop = form.dataset.drop ? form.dataset.drop.split(",").map(Number) : [];
    const key = JSON.stringify([form.dataset.revert, drop]);
    if (!unanswered || unanswered.key !== key) {
      unanswered = { key, body: { version: Number(live.dataset.version), action_id: actionId(),
                                  entry: Number(form.dataset.revert), drop } };
    }
    const body = unanswered.body;
    form.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    let response = null;
    try {
      response = await fetch(`/api/games/${encodeURIComponent(live.dataset.game)}/revert`, {
        method: "POST", body: JSON.stringify({ ...body, seat: Number(live.dataset.seat) }),
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": live.dataset.csrf || "" },
        credentials: "same-origin",
      });
    } catch (error) { response = null; }
    form.querySelectorAll("button").forEach((b) => { b.disabled = false; });
    if (!response) {
      say(form, "error", "The server could not be reached, so this is not confirmed. Press the button again to retry; it will not count twice.");
      return;
    }
    unanswered = null;
    const data = await response.json().catch(() => ({}));
    if (response.ok) {
      say(form, "success", "Put back.");
      document.dispatchEvent(new CustomEvent("live:refresh"));
      return;
    }
    if (response.status === 409) {
      say(form, "error", "Another phone moved first. The page is brought up to date: press the button again.");
      document.dispatchEvent(new CustomEvent("live:refresh"));
      return;
    }
    if (typeof data.seq === "number" && !drop.includes(data.seq)) {
      // the server's words say why when the move is this seat's own (another seat's reason may rest on its secret)
      const why = data.said || data.error;
      const box = say(form, "error", `Not put back: ${why ? why.replace(/[.\s]*$/, ".") : `move ${data.seq}, made since, would no longer fit.`}`,
                      data.rule || null);
      const both = Object.assign(document.createElement("button"), { type: "button", className: "button danger",
                                                                     textContent: `Put it back and remove move ${data.seq}` });
      both.addEventListener("click", () => { form.dataset.drop = [...drop, data.seq].join(","); putBack(form); });
      box.after(both);
      return;
    }
    say(form, "error", `Not put back: ${data.said || data.error || `the server answered ${response.status}`}`, data.rule || null);
  }

  document.addEventListener("submit", (event) => {
    const form = event.target.closest && event.target.closest("form[data-revert]");
    if (!form || !live.contains(form)) return;
    event.preventDefault();
    putBack(form);
  });
  live.addEventListener("click", (event) => {
    const button = event.target.closest("[data-dismiss-told]");
    if (!button) return;
    localStorage.setItem(KEY, JSON.stringify([...left(), button.dataset.dismissTold].slice(-50)));
    hideLeft();
  });
  document.addEventListener("live:swapped", hideLeft);
  hideLeft();
})();
