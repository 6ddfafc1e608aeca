/* The corrections page (/g/<id>/seat/<n>/fix): each form corrects one earlier move (or, with
 * data-remove, removes it) through POST /api/games/<id>/correct with this seat's cookie and the page's CSRF token; the page then
 * loads again to show the game as corrected. A refusal (a later move that no longer fits) is shown here
 * and nothing changes. The move is read from the form by js/forms.js.
 */
(() => {
  "use strict";

  const live = document.querySelector("[data-live]");
  const message = document.getElementById("move-message");
  if (!live || !message) return;

  function say(kind, text) {
    const box = document.createElement("div");
    box.className = `notice ${kind}`;
    const p = document.createElement("p");
    p.textContent = text;
    box.append(p);
    message.replaceChildren(box);
  }

  function actionId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  live.addEventListener("submit", async (event) => {
    const form = event.target.closest("form[data-correct]");
    if (!form) return;
    event.preventDefault();
    const move = form.hasAttribute("data-remove") ? null : window.SpellbookForms.collect(form);
    const body = { version: Number(live.dataset.version), action_id: actionId(), seq: Number(form.dataset.seq), move,
                   seat: Number(live.dataset.seat) };
    form.querySelectorAll("button").forEach((button) => { button.disabled = true; });
    say("info", "Sending…");
    let response = null;
    try {
      response = await fetch(`/api/games/${encodeURIComponent(live.dataset.game)}/correct`, {
        method: "POST", body: JSON.stringify(body),
        headers: { "Content-Type": "application/json", Accept: "application/json",
                   "X-CSRFToken": live.dataset.csrf || "" },
        credentials: "same-origin",
      });
    } catch (error) {
      response = null;
    }
    form.querySelectorAll("button").forEach((button) => { button.disabled = false; });
    if (!response) {
      say("error", "The server could not be reached, so nothing was changed. Press the button again.");
      return;
    }
    const data = await response.json().catch(() => ({}));
    const here = window.location.pathname;
    if (response.ok) window.location.assign(`${here}?done=${body.seq}`);
    else if (response.status === 409 && "version" in data) window.location.assign(`${here}?stale=1`);
    else say("error", `Not changed: ${data.error || `the server answered ${response.status}`}`);
  });
})();
