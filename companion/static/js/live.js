/* Live table and seat pages: hear of each new version, swap in the new HTML part, send moves.
 *
 * The page's [data-live] element names the game, the version it shows and the URL of its HTML part.
 * The server pushes every new version over /api/games/<id>/events (server-sent events; browsers
 * without EventSource ask /api/games/<id>/version about every second instead); when the number
 * changed the script fetches the part and swaps it in, keeping whatever the player had picked or typed.
 * Hidden pages close the stream and catch up at once when they become visible, get focus or go online.
 * A stream the server refuses (503 when its process holds as many streams as it may, 429 past an address's
 * cap) is not asked for again at once: the page asks for the version every second meanwhile, and for a
 * stream again after STREAM_RETRY_MS (doubled after each refusal in a row, up to 5 minutes, with a random part).
 * On the seat page of a held seat ([data-csrf]) move forms are sent as JSON to the API with the seat's
 * HttpOnly cookie (the page holds no copy of the seat's token) and the page's CSRF token,
 * the version on screen and an action id that is reused when the same move is retried.
 */
(() => {
  "use strict";

  const live = document.querySelector("[data-live]");
  if (!live) return;
  (window.SpellbookScripts = window.SpellbookScripts || {}).live = true;  // js/hold-taps.js: [data-sent-by]

  const POLL_MS = 1000;
  const MAX_BACKOFF_MS = 8000;
  const QUIET_MS = 40000; // no event for this long (heartbeats come every 15 s): open a new stream
  const STREAM_RETRY_MS = 30000; // a refused stream: the server's Retry-After (EventSource cannot read it)
  const MAX_STREAM_RETRY_MS = 300000;
  const SEND_ATTEMPTS = 3;
  const game = live.dataset.game;
  const csrf = live.dataset.csrf || ""; // set on the page of a seat this phone holds
  const seat = Number(live.dataset.seat);
  const statusEl = document.getElementById("live-status");
  const messageEl = document.getElementById("move-message");
  const rulesUrl = live.dataset.rulesUrl || "/rules";

  let version = Number(live.dataset.version);
  let timer = 0;
  let failures = 0;
  let checking = null;
  let busy = false;
  let stream = null; // the open EventSource, if any
  let refusals = 0; // streams refused in a row
  let streamAfter = 0; // a refused stream is asked for again only from then on (Date.now()): poll meanwhile
  let again = false; // asked to check again while a check was on its way
  const events = typeof window.EventSource === "function";
  const eventsUrl = live.dataset.eventsUrl || live.dataset.versionUrl.replace(/\/version$/, "/events");
  let lastSend = null; // {key, body}: a move whose answer never arrived, resent as is

  // ---- the live indicator ----
  let gone = false; // this phone's seat was released or handed on: say so and stop listening
  function setStatus(state) {
    if (gone || !statusEl || statusEl.dataset.state === state) return;
    statusEl.dataset.state = state;
    statusEl.querySelector(".live-text").textContent = state === "live" ? "Live" : "Reconnecting…";
  }

  // ---- live updates: the server pushes each new version (server-sent events) ----
  // One EventSource per page: the server sends the version when it opens, at every change and as a
  // heartbeat. Without EventSource the page asks for the version every POLL_MS instead. A hidden page
  // closes its stream (a phone asleep costs nothing) and catches up when it is shown again.
  function schedule() {
    window.clearTimeout(timer);
    if (document.hidden || gone) return; // asleep: catch up on visibilitychange
    if (stream) { // a stream that went quiet for too long is replaced (the server beats every 15 s)
      timer = window.setTimeout(reconnect, QUIET_MS);
      return;
    }
    const delay = failures ? Math.min(POLL_MS * 2 ** failures, MAX_BACKOFF_MS) : POLL_MS;
    timer = window.setTimeout(streaming() ? connect : checkNow, delay);
  }

  // whether the page may ask for a stream now (else it asks for the version: no EventSource, or refused lately)
  const streaming = () => events && Date.now() >= streamAfter;

  function connect() {
    if (!streaming() || stream || document.hidden || gone) return;
    stream = new EventSource(eventsUrl);
    stream.addEventListener("open", () => { failures = 0; refusals = 0; setStatus("live"); });
    stream.addEventListener("version", (message) => {
      failures = 0;
      setStatus("live");
      let data = {};
      try { data = JSON.parse(message.data); } catch (error) { return; }
      schedule();
      if (typeof data.version === "number" && data.version !== version) checkNow(data.version);
    });
    stream.addEventListener("error", () => {
      setStatus("reconnecting");
      if (stream && stream.readyState === EventSource.CLOSED) { // refused (a 503 or 429): poll, stream later
        disconnect();
        refusals += 1;
        const wait = Math.min(STREAM_RETRY_MS * 2 ** (refusals - 1), MAX_STREAM_RETRY_MS);
        streamAfter = Date.now() + wait * (1 + Math.random() / 2); // refused phones do not all come back together
        schedule();
      } // else the browser reconnects by itself after the server's retry delay
    });
    schedule();
  }

  function disconnect() {
    if (stream) stream.close();
    stream = null;
  }

  function reconnect() {
    disconnect();
    checkNow();
    connect();
  }

  // bring the screen up to date: to the version the stream announced, or the one the server says now.
  // Never while hidden (a page hidden while an answer was on its way catches up when shown) or while
  // a move is being sent (its answer refreshes the screen itself).
  function checkNow(announced) {
    if (checking) { again = true; return checking; }
    checking = (async () => {
      await null; // the rest runs once `checking` is set, so its `finally` always clears it
      try {
        let latest = announced;
        if (latest === undefined) {
          const response = await fetch(live.dataset.versionUrl, { cache: "no-store", headers: { Accept: "application/json" } });
          if (!response.ok) throw new Error(`version answered ${response.status}`);
          latest = (await response.json()).version;
        }
        if (latest !== version && !busy && !document.hidden) {
          await refresh();
          announce();
        }
        failures = 0;
        setStatus("live");
      } catch (error) {
        failures += 1;
        setStatus("reconnecting");
      } finally {
        checking = null;
        if (again) { again = false; checkNow(); }
        else if (!stream) schedule();
      }
    })();
    return checking;
  }

  // Only the newest swap asked for lands: a part fetched before another (a seat claim's swap still on its
  // way when a move's answer re-reads the page) would put the older screen back and its older version.
  let swaps = 0;
  async function refresh(keepChoices = true) {
    const ticket = ++swaps;
    const response = await fetch(live.dataset.part, { cache: "no-store", headers: { Accept: "text/html" } });
    if (csrf && (response.status === 401 || response.status === 403)) return seatGone();
    if (!response.ok) throw new Error(`page part answered ${response.status}`);
    const html = await response.text();
    if (ticket !== swaps) return;
    const state = snapshot();
    if (!keepChoices) state.fields = {}; // after an accepted move, start the next step fresh
    live.innerHTML = html;
    restore(state);
    placeAnswer(false);
    const newVersion = Number(response.headers.get("X-Game-Version"));
    if (!Number.isNaN(newVersion)) version = newVersion;
    live.dataset.version = String(version);
    setBusy(busy);
    document.dispatchEvent(new CustomEvent("live:swapped")); // signals.js: whose turn, your-turn signal
  }

  // the seat page of a phone that no longer holds its seat: the server's sentence says why and how to rejoin
  async function seatGone() {
    let text = "This phone no longer holds this seat. Join the game again with its code.";
    try {
      const answer = await fetch(live.dataset.part, { cache: "no-store", headers: { Accept: "application/json" } });
      const data = await answer.json();
      if (data.error) text = data.error;
    } catch (error) { /* keep the general sentence */ }
    window.clearTimeout(timer);
    disconnect();
    if (statusEl) {
      statusEl.dataset.state = "gone";
      statusEl.querySelector(".live-text").textContent = "Seat released";
    }
    gone = true;
    // the old hand and move forms are no longer this phone's: the page says why, where the finger is, and
    // how to join again (the status bar repeats it; "Your move" and the tab's dot go with the forms)
    const box = document.createElement("section");
    box.className = "panel seat-gone";
    box.id = "seat-gone";
    box.setAttribute("tabindex", "-1");
    const heading = document.createElement("h2");
    heading.textContent = "This phone no longer holds this seat";
    const reason = document.createElement("p");
    reason.textContent = text;
    const again = document.createElement("a");
    again.className = "button";
    again.href = "/join";
    again.textContent = "Join again with the code";
    box.append(heading, reason, again);
    live.replaceChildren(box);
    document.dispatchEvent(new CustomEvent("live:swapped"));
    say("error", text);
    box.scrollIntoView({ block: "start" });
    box.focus({ preventScroll: true });
  }

  // tell screen-reader users what changed: the newest line of the move log
  function announce() {
    const region = document.getElementById("live-announce");
    const newest = live.querySelector(".log li");
    if (region && newest) region.textContent = newest.textContent.replace(/\s+/g, " ").trim();
  }

  const wake = () => { if (!document.hidden) { checkNow(); connect(); } };
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) { // screen off: stop listening until it is back
      window.clearTimeout(timer);
      disconnect();
    } else {
      wake();
    }
  });
  window.addEventListener("focus", wake);
  window.addEventListener("pageshow", wake);
  window.addEventListener("online", () => { if (!document.hidden) reconnect(); });
  // signals.js asks for a swap when a seat was claimed (a claim is no move, so the version stays)
  document.addEventListener("live:refresh", () => { if (!busy) refresh().catch(() => setStatus("reconnecting")); });
  window.addEventListener("offline", () => setStatus("reconnecting"));

  // ---- keeping what the player picked or typed across a swap ----
  // a count (data-repeat: "how many scrolls with 1 curse") shares its name with the other counts of its
  // list and gets its id from js/choices.js only after the swap, so it is known by its name and option
  function fieldKey(el) {
    const form = el.form ? el.form.id : "";
    if (el.dataset.repeat !== undefined) return `${form}|${el.name}|repeat:${el.dataset.repeat}`;
    if (el.type === "radio" || el.type === "checkbox") return `${form}|${el.name}|${el.value}`;
    return `${form}|${el.id || el.name}`;
  }

  function snapshot() {
    const fields = {};
    live.querySelectorAll("input, select, textarea").forEach((el) => {
      if (el.type === "radio" || el.type === "checkbox") fields[fieldKey(el)] = el.checked;
      else fields[fieldKey(el)] = el.value;
    });
    const open = [...live.querySelectorAll("details[open] > summary")].map((s) => s.textContent);
    const scrolls = [...live.querySelectorAll(".pick-list.long")].map((list) => [list.closest("form")?.id, list.scrollTop]);
    const active = document.activeElement && live.contains(document.activeElement) ? fieldKey(document.activeElement) : null;
    return { fields, open, scrolls, active };
  }

  function restore(state) {
    if (window.SpellbookChoices && window.SpellbookChoices.prepare) window.SpellbookChoices.prepare(live); // long option lists, before their values
    live.querySelectorAll("input, select, textarea").forEach((el) => {
      const key = fieldKey(el);
      if (!(key in state.fields)) return;
      if (el.type === "radio" || el.type === "checkbox") {
        if (state.fields[key]) el.checked = true;
        else if (el.type === "checkbox") el.checked = false;
      } else if (el.tagName === "SELECT") {
        if ([...el.options].some((o) => o.value === state.fields[key])) el.value = state.fields[key];
      } else {
        el.value = state.fields[key];
      }
      if (key === state.active) {
        el.focus({ preventScroll: true });
        if (el.type === "text" || el.type === "search") el.setSelectionRange(el.value.length, el.value.length);
      }
    });
    live.querySelectorAll("details > summary").forEach((s) => { if (state.open.includes(s.textContent)) s.parentElement.open = true; });
    state.scrolls.forEach(([formId, top]) => {
      const list = formId && live.querySelector(`#${CSS.escape(formId)} .pick-list.long`);
      if (list) list.scrollTop = top;
    });
    enhance();
  }

  // The move forms are rendered from the rules' choices (form[data-choice]) and read by js/choices.js:
  // apply(root) shows what fits the picks so far, collect(form) is the move to send, fill(form, move) advice.
  const kit = (form) => (form.hasAttribute("data-choice") ? window.SpellbookChoices : undefined);

  function enhance() {
    if (window.SpellbookChoices) window.SpellbookChoices.apply(live); // (its lists' filters too)
  }

  // a button[data-fill] (advice) fills the form named by data-fill-form with its move's fields
  function fill(button) {
    const form = document.getElementById(button.dataset.fillForm);
    if (!form) return;
    const move = JSON.parse(button.dataset.fill);
    const details = form.closest("details");
    if (details) details.open = true;
    if (kit(form)) kit(form).fill(form, move);
    form.scrollIntoView({ block: "start" });
  }

  live.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-fill]");
    if (button) fill(button);
  });

  // ---- sending moves ----
  function newActionId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID(); // secure contexts only
    const bytes = crypto.getRandomValues(new Uint8Array(16)); // plain http on the local network
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  function setBusy(on) {
    busy = on;
    live.querySelectorAll("form.move button").forEach((button) => {
      button.disabled = on;
      button.setAttribute("aria-disabled", on ? "true" : "false");
    });
  }

  // ---- answers: next to the control that was used, and in the sticky status bar ----
  let answer = null; // {form, kind, text, rule}: the last answer, kept across live swaps

  function notice(kind, text, rule) {
    const box = document.createElement("div");
    box.className = `notice ${kind}`;
    const p = document.createElement("p");
    p.textContent = text; // every answer is a sentence already (one message style, from the server)
    if (rule) {
      box.dataset.rule = rule;
      p.append(" Rule: ");
      const link = document.createElement("a");
      link.href = `${rulesUrl}/${encodeURIComponent(rule.split(".")[0])}#${rule}`; // every rule id starts with its game
      link.textContent = rule;
      p.append(link);
    }
    box.append(p);
    return box;
  }

  // the answer under the form's last submit button (the form is found again by id after a swap); a
  // success leaves it after a few seconds, the status bar keeps the last answer until the next one
  function placeAnswer(scroll) {
    live.querySelectorAll(".move-feedback").forEach((el) => el.remove());
    if (!answer || answer.done) return;
    const form = answer.form && document.getElementById(answer.form);
    if (!form || !live.contains(form)) return; // the form is gone (the move moved the game on): the bar says it
    const spot = document.createElement("div");
    spot.className = "move-feedback";
    spot.append(notice(answer.kind, answer.text, answer.rule));
    const buttons = form.querySelectorAll('button:not([type="button"])');
    if (buttons.length) buttons[buttons.length - 1].after(spot);
    else form.append(spot);
    if (scroll) spot.scrollIntoView({ block: "nearest" });
  }

  function say(kind, text, rule, formId) {
    answer = text ? { form: formId || (answer && answer.form), kind, text, rule } : null;
    if (messageEl) { // the live region: errors interrupt, progress and success wait their turn
      messageEl.setAttribute("aria-live", kind === "error" ? "assertive" : "polite");
      messageEl.replaceChildren(...(answer ? [notice(kind, text, rule)] : []));
    }
    placeAnswer(kind === "error");
  }

  const sleep = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));

  async function post(url, body) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
          credentials: "same-origin",
          body: JSON.stringify({ ...body, seat }),
        });
      } catch (error) {
        if (attempt >= SEND_ATTEMPTS) return null;
        await sleep(700 * attempt);
      }
    }
  }

  async function send(form) {
    const undo = form.hasAttribute("data-undo");
    const payload = undo ? { undo: true } : { move: kit(form).collect(form) };
    const key = JSON.stringify(payload);
    let body;
    if (lastSend && lastSend.key === key) {
      body = lastSend.body; // a retry of a move whose answer was lost: same action id, same version
    } else {
      body = { ...(undo ? {} : payload), version, action_id: newActionId() };
      lastSend = { key, body };
    }
    const url = `/api/games/${encodeURIComponent(game)}/${undo ? "undo" : "moves"}`;
    setBusy(true);
    say("info", undo ? "Undoing…" : "Sending…", null, form.id);
    const response = await post(url, body);
    if (!response) {
      setBusy(false);
      setStatus("reconnecting");
      say("error", "The server could not be reached, so this move is not confirmed. Press the button again to retry; it will not count twice.");
      return;
    }
    lastSend = null;
    let data = {};
    try { data = await response.json(); } catch (error) { data = {}; }
    try {
      await refresh(!response.ok); // re-read the state before the player acts again, keeping their choices
      failures = 0;
      setStatus("live");
    } catch (error) {
      setStatus("reconnecting");
    } finally {
      setBusy(false);
    }
    if (response.ok) {
      say("success", undo ? "Undone." : "Recorded.");
      document.dispatchEvent(new CustomEvent("live:moved")); // next-step.js: the next step in view and focus
      const shown = answer;
      window.setTimeout(() => { if (answer === shown) { shown.done = true; placeAnswer(false); } }, 4000);
    } else if (response.status === 409 && "version" in data) {
      say("error", "Another phone moved first, so your screen has been brought up to date. Check your choice and send it again.");
    } else if (response.status === 401 || response.status === 403) {
      await seatGone();
    } else {
      const reason = data.said || data.error || `The server answered ${response.status}.`;
      say("error", `Not recorded: ${reason}`, data.rule || null);
    }
  }

  if (csrf) {
    live.addEventListener("submit", (event) => {
      const form = event.target.closest("form.move");
      if (!form) return;
      event.preventDefault();
      if (!busy) send(form);
    });
  }

  enhance();
  if (events) connect();
  else schedule();
})();
