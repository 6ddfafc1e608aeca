/* A card page's moves: ask the server which moves this phone's seat may make with this card now
 * (/c/<game>/<card>/moves, with this phone's cookies; companion/web/card_moves.py) and show them above the
 * card's facts. When the answer holds a seat's forms ([data-live]), load the seat page's own scripts:
 * js/choices.js for the forms and js/live.js to send them (version and action id, as from the seat page)
 * and to keep them up to date. When live.js says a move was recorded (a success notice in #move-message), the
 * phone goes on to the seat page ([data-after-move]).
 */
(() => {
  "use strict";

  const box = document.getElementById("card-moves");
  if (!box || typeof window.fetch !== "function") return;

  // the forms' style sheets, before the forms are shown (a form without them has small, unstyled controls)
  function styles() {
    return Promise.all((box.dataset.styles || "").split(" ").filter(Boolean).map((href) => new Promise((done) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      link.addEventListener("load", done);
      link.addEventListener("error", done);
      document.head.append(link);
    })));
  }

  function load() {
    const sources = (box.dataset.scripts || "").split(" ").filter(Boolean);
    sources.forEach((src, index) => {
      const script = document.createElement("script");
      script.src = src;
      script.async = false; // in the order given: the forms' script before live.js
      // a tap before live.js runs is held by js/hold-taps.js, and sent once this says the scripts are in
      if (index === sources.length - 1) script.addEventListener("load", scriptsReady);
      document.body.append(script);
    });
    if (!sources.length) scriptsReady();
  }

  function scriptsReady() {
    document.dispatchEvent(new Event("companion:scripts-ready"));
  }

  function afterMove() {
    const live = box.querySelector("[data-after-move]");
    const message = box.querySelector("#move-message");
    if (!live || !message) return;
    new MutationObserver(() => {
      if (message.querySelector(".notice.success")) window.location.assign(live.dataset.afterMove);
    }).observe(message, { childList: true });
  }

  function say(text) {
    const p = document.createElement("p");
    p.className = "card-moves-none hint";
    p.textContent = text;
    box.replaceChildren(p);
  }

  fetch(box.dataset.src + window.location.search, { cache: "no-store", headers: { Accept: "text/html" } })
    .then((response) => {
      if (!response.ok) throw new Error(`moves answered ${response.status}`);
      return response.text();
    })
    .then((html) => (html.includes("data-live") ? styles().then(() => html) : html))
    .then((html) => {
      box.innerHTML = html;
      if (box.querySelector("[data-live]")) {
        afterMove();
        load();
      }
    })
    .catch(() => say("No move can be reported from this card now: the server could not be reached."));
})();
