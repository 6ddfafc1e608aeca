/* Table and seat pages: whose turn in the sticky status bar, a your-turn signal on a seat page (the tab
 * title, a short vibration where the phone allows it) and the Screen Wake Lock while a game is open.
 *
 * The turn line is the game banner's [data-turn] line (or its first line); "your move" is a seat page
 * whose live part has a [data-your-move] section. live.js fires "live:swapped" after each live update.
 * This phone's choices ("keep the screen on", "vibrate") are kept in localStorage and set in the page's
 * "This phone" panel (its boxes are disabled until this has run); both are on until switched off.
 */
(() => {
  "use strict";

  const live = document.querySelector("[data-live]");
  if (!live) return;
  const turnEl = document.getElementById("status-turn");
  const baseTitle = document.title;
  const seatPage = Boolean(live.dataset.csrf);
  const KEYS = { wake: "spellbook.wake-lock", vibrate: "spellbook.vibrate" };

  function isOn(name) {
    try { return localStorage.getItem(KEYS[name]) !== "off"; } catch (error) { return true; }
  }
  function setOn(name, on) {
    try { localStorage.setItem(KEYS[name], on ? "on" : "off"); } catch (error) { /* private mode: this visit only */ }
  }

  // ---- whose turn, and the your-turn signal ----
  let yourMove = null;
  function update() {
    const line = live.querySelector(".banner [data-turn]") || live.querySelector(".banner p");
    const text = line ? line.textContent.replace(/\s+/g, " ").trim() : "";
    const mine = seatPage && Boolean(live.querySelector("[data-your-move]"));
    if (turnEl) {
      turnEl.replaceChildren();
      if (mine) {
        const tag = document.createElement("strong");
        tag.className = "your-move";
        tag.textContent = "Your move";
        turnEl.append(tag, " ");
      }
      turnEl.append(text);
      turnEl.title = text;
    }
    document.title = mine ? `● Your move · ${baseTitle}` : baseTitle;
    if (mine && yourMove === false && isOn("vibrate") && typeof navigator.vibrate === "function") {
      navigator.vibrate([120, 80, 120]);
    }
    yourMove = mine;
    wake();
    watchSeats();
  }

  // ---- Screen Wake Lock: on while the page is shown and the game not over ----
  const wakeStatus = document.querySelector("[data-wake-status]");
  let lock = null;
  let asking = false;
  function showWake(state, text) {
    document.documentElement.dataset.wakeLock = state;
    if (wakeStatus) wakeStatus.textContent = text;
  }
  async function wake() {
    const wanted = isOn("wake") && !document.hidden && !live.querySelector(".banner.winner");
    if (!("wakeLock" in navigator)) {
      showWake("unavailable", "This browser cannot keep the screen on here (it needs https, or a newer browser).");
      return;
    }
    if (!wanted) {
      if (lock) { const held = lock; lock = null; held.release().catch(() => {}); }
      if (!isOn("wake")) showWake("off", "The screen may sleep as usual.");
      return;
    }
    if (lock || asking) return;
    asking = true;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; if (!document.hidden) showWake("released", "The screen may sleep (the browser let it)."); });
      showWake("on", "The screen stays on while this game is open.");
    } catch (error) {
      showWake("refused", "The browser did not allow keeping the screen on (battery saver?).");
    } finally {
      asking = false;
    }
  }

  // ---- this phone's settings ----
  document.querySelectorAll("input[data-setting]").forEach((box) => {
    const name = box.dataset.setting;
    box.checked = isOn(name);
    box.disabled = false; // rendered disabled: a change before this ran was saved nowhere
    box.addEventListener("change", () => { setOn(name, box.checked); wake(); });
  });

  // ---- while seats are free: a claimed seat (no move, so no new version) updates the invitation ----
  const INVITE_MS = 3000;
  let etag = "";
  let seatTimer = 0;
  function watchSeats() {
    if (!seatTimer && live.querySelector(".invite[data-claimed]")) seatTimer = window.setTimeout(checkSeats, INVITE_MS);
  }
  async function checkSeats() {
    seatTimer = 0;
    const invite = live.querySelector(".invite[data-claimed]");
    if (!invite) return; // every seat is taken: watchSeats starts again if one is freed
    if (!document.hidden) {
      try {
        const response = await fetch(`/api/games/${encodeURIComponent(live.dataset.game)}`, {
          cache: "no-cache", headers: { Accept: "application/json", ...(etag ? { "If-None-Match": etag } : {}) } });
        if (response.status === 200) {
          etag = response.headers.get("ETag") || "";
          const claimed = (await response.json()).claimed.map(Number).join(",");
          if (claimed !== invite.dataset.claimed) document.dispatchEvent(new CustomEvent("live:refresh"));
        }
      } catch (error) { /* live.js shows the connection's state */ }
    }
    watchSeats();
  }

  document.addEventListener("live:swapped", update);
  document.addEventListener("visibilitychange", wake);
  update();
})();
