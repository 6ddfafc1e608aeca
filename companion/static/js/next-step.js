/* Seat pages: the next step in view and in focus, below the sticky status bar.
 *
 * After this phone's move is recorded (live.js fires "live:moved"), when a live update makes it this seat's
 * move or ends the game ("live:swapped"), and when the page opens on its move, the page scrolls so that the
 * next step's top sits just below the status bar and gives it keyboard focus:
 *   the game is over   -> the result link (and a rematch offer before it);
 *   this seat's move   -> the first move form's first control (its text search fields are skipped, so no
 *                         on-screen keyboard opens by itself): of a move the game waits for ([data-your-move]),
 *                         else of one it may report at any time ([data-moves], not folded away);
 *   someone else's     -> the game's banner (whose turn it is).
 * A live update that first shows this seat that another phone changed one of its moves (a [data-told] notice,
 * js/put-back.js) leads instead: the notice below the status bar, its "Put it back" focused, and the status bar
 * saying the same (a take-back makes it this seat's move again: the move form alone gave no sign why).
 * A live update never moves a page under a finger that is typing or picking in a form.
 */
(() => {
  "use strict";

  const live = document.querySelector("[data-live]");
  if (!live || !live.dataset.csrf) return;
  const bar = document.getElementById("status-bar");
  const GAP = 12; // px between the status bar and the next step
  const TYPED = 'input[type="text"], input[type="search"], input[type="number"], textarea';

  // shown, and not folded away in a closed <details> (whose summary is shown)
  const visible = (el) => Boolean(el && el.getClientRects().length && !el.closest("[hidden]")
    && !(el.closest("details:not([open])") && !el.matches("summary")));

  function moveForm() {
    return [...live.querySelectorAll("[data-your-move] form.move:not([data-undo])")].find(visible)
      || [...live.querySelectorAll("[data-moves] form.move:not([data-undo])")].find(visible) || null;
  }

  // only folded moves left: the first fold's summary opens it
  function foldedMove() {
    return [...live.querySelectorAll("[data-your-move] details > summary")].find(visible) || null;
  }

  function firstControl(form) {
    return [...form.querySelectorAll("input:not([type=hidden]), select, button, textarea")]
      .find((el) => !el.matches(":disabled") && !el.matches(TYPED) && visible(el)) || null;
  }

  // the form a move was just sent from: while it is still offered, the finger stays on its button (where
  // "Recorded." appears), e.g. another cast of the same kind; once it is gone the next form leads
  let sentFrom = null;
  live.addEventListener("submit", (event) => {
    const form = event.target.closest("form.move");
    sentFrom = form && !form.hasAttribute("data-undo") ? form.id : null;
  }, true);

  function sameForm() {
    const form = sentFrom && document.getElementById(sentFrom);
    if (!form || !live.contains(form) || !visible(form) || !form.closest("[data-moves]")) return null;
    const buttons = [...form.querySelectorAll('button:not([type="button"])')].filter((b) => visible(b) && !b.matches(":disabled"));
    return buttons.length ? [buttons[buttons.length - 1], buttons[buttons.length - 1]] : null;
  }

  /** [where to scroll to, what to focus] for the next step, or null. */
  function nextStep(afterMove = false) {
    const rematch = live.querySelector("#rematch-offer a");
    const result = live.querySelector("#see-result");
    if (rematch || result) return [live.querySelector("#rematch-offer") || result, rematch || result];
    const same = afterMove ? sameForm() : null;
    if (same) return same;
    const form = moveForm();
    if (form) return [form, firstControl(form) || form];
    const fold = foldedMove();
    if (fold) return [fold.parentElement, fold];
    const banner = live.querySelector(".banner");
    return banner ? [banner, banner] : null;
  }

  function barBottom() {
    return bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  }

  function bring(focus, afterMove = false) {
    const step = nextStep(afterMove);
    if (!step) return;
    const [block, control] = step;
    const top = barBottom() + GAP;
    let rect = block.getBoundingClientRect();
    const feedback = control.parentElement && control.parentElement.querySelector(".move-feedback");
    let wanted = (feedback || control).getBoundingClientRect();
    if (block === control && wanted.bottom > window.innerHeight - GAP && rect.top - (wanted.bottom - window.innerHeight + GAP) >= top) {
      // the button a move was sent from: just enough that it and its answer show
      window.scrollTo({ top: window.scrollY + wanted.bottom - window.innerHeight + GAP, behavior: "instant" });
      rect = block.getBoundingClientRect();
      wanted = (feedback || control).getBoundingClientRect();
    }
    if (rect.top < top || wanted.bottom > window.innerHeight) {
      window.scrollTo({ top: window.scrollY + rect.top - top, behavior: "instant" });
      rect = control.getBoundingClientRect();
      if (rect.bottom > window.innerHeight) { // a tall block: the control itself, just below the bar
        window.scrollTo({ top: window.scrollY + rect.top - top, behavior: "instant" });
      }
    }
    if (focus) {
      if (!control.matches("a[href], button, input, select, textarea, [tabindex]")) control.setAttribute("tabindex", "-1");
      control.focus({ preventScroll: true });
      placedKey = keyOf(control);
    }
  }

  const state = () => (live.querySelector("#see-result") ? "over" : moveForm() || foldedMove() ? "mine" : "theirs");
  let shown = state();

  // the player is busy in a form: a live update must not move the page away from their finger
  const busy = () => {
    const active = document.activeElement;
    return Boolean(active && active !== document.body && live.contains(active) && active.closest("form"));
  };

  // the step this page just brought into view stays in view across the live updates that follow (another
  // phone's move, a late announcement of this one) until the player touches, scrolls or types
  let placed = false;
  ["pointerdown", "keydown", "wheel", "touchstart"].forEach((name) => {
    window.addEventListener(name, () => { placed = false; placedKey = null; }, { passive: true, capture: true });
  });

  // the control placed last, found again after a swap by its form, name and value
  let placedKey = null;
  const keyOf = (el) => [el.form ? el.form.id : el.closest("[id]")?.id || "", el.name || el.id || "", el.value || ""];
  function placedControl() {
    if (!placedKey) return null;
    const [form, name, value] = placedKey;
    const scope = form ? document.getElementById(form) : live;
    if (!scope || !live.contains(scope)) return null;
    return [...scope.querySelectorAll("input, select, button, textarea, a, [tabindex]")]
      .find((el) => (el.name || el.id || "") === name && (el.value || "") === value && visible(el)) || null;
  }

  function keepInView() {
    let active = document.activeElement;
    const control = placedControl();
    if (control && active !== control && (!active || !active.matches(TYPED))) { // a swap moved focus elsewhere
      control.focus({ preventScroll: true });
      active = control;
    }
    if (!active || active === document.body || !live.contains(active)) return;
    const rect = active.getBoundingClientRect();
    const top = barBottom() + GAP;
    if (rect.top < top - GAP || rect.bottom > window.innerHeight) {
      const block = active.closest("form, details, #rematch-offer, .banner") || active;
      const blockTop = block.getBoundingClientRect().top;
      const shift = rect.bottom - blockTop + top > window.innerHeight ? rect.top : blockTop;
      window.scrollTo({ top: window.scrollY + shift - top, behavior: "instant" });
    }
  }

  // the notices of changes another phone made to this seat's moves already seen on this page
  const toldSeen = new Set([...live.querySelectorAll("[data-told]")].map((box) => box.dataset.told));
  function newTold() {
    const boxes = [...live.querySelectorAll("[data-told]")];
    const fresh = boxes.find((box) => !toldSeen.has(box.dataset.told) && visible(box)) || null;
    boxes.forEach((box) => toldSeen.add(box.dataset.told));
    return fresh;
  }

  function leadWithTold(box) {
    const status = document.getElementById("move-message");
    const text = box.querySelector("p");
    if (status && text) { // (first: the status bar grows with it, and the notice goes just below it)
      const notice = Object.assign(document.createElement("div"), { className: "notice warning" });
      notice.dataset.toldFor = box.dataset.told;  // (goes with the notice: "Leave it", below)
      notice.append(Object.assign(document.createElement("p"), { textContent: text.textContent }));
      status.replaceChildren(notice);
    }
    window.scrollTo({ top: window.scrollY + box.getBoundingClientRect().top - (barBottom() + GAP), behavior: "instant" });
    const button = box.querySelector("form[data-revert] button") || box;
    if (!button.matches("button")) button.setAttribute("tabindex", "-1");
    button.focus({ preventScroll: true });
    placedKey = keyOf(button);
  }

  // "Leave it" hides the notice on this phone (js/put-back.js): the status bar stops saying it too
  live.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-dismiss-told]");
    const status = document.getElementById("move-message");
    if (!button || !status) return;
    status.querySelectorAll("[data-told-for]").forEach((notice) => {
      if (notice.dataset.toldFor === button.dataset.dismissTold) notice.remove();
    });
  });

  document.addEventListener("live:moved", () => { shown = state(); bring(true, true); placed = true; sentFrom = null; });
  document.addEventListener("live:swapped", () => {
    const now = state();
    const told = newTold();
    if (told && !busy()) {
      leadWithTold(told);
      placed = true;
    } else if (now !== shown && now !== "theirs" && !busy()) {
      bring(!document.activeElement || document.activeElement === document.body);
      placed = true;
    } else if (placed) {
      keepInView();
    }
    shown = now;
  });
  // "Game created…" is said once: a reload of the host's page (its address without ?created=1) does not repeat it
  const address = new URL(window.location.href);
  if (address.searchParams.has("created")) {
    address.searchParams.delete("created");
    window.history.replaceState(window.history.state, "", address.pathname + address.search + address.hash);
  }

  // a page opened after setup, on this seat's move or after the end: straight to it (not at the deal,
  // whose setup checklist comes first, nor when the address names a place on the page)
  if (!window.location.hash && (shown === "over" || (shown === "mine" && Number(live.dataset.version) > 0))) {
    bring(false);
  }
})();
