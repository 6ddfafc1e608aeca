/* Joining a seat (the join page's "I am …" buttons) and taking one over (the hand-over page). The phone makes its
   own seat key before the first send and keeps it for every retry of that tap: the server keeps only a hash of a
   key, so it cannot send a key again, but a tap whose answer was lost on the table's Wi-Fi, sent again with the same
   key, gets the seat it already got. With no answer the tap is sent again by itself a few times, then once per tap.
   Without this script the forms work as before (the server makes the key; a lost answer loses the seat). */
(() => {
  "use strict";
  const RETRIES = 3;
  const newKey = () => {  // 32 random bytes, base64url: 43 characters
    const bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    return window.btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  const wait = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));
  const note = document.getElementById("seat-key-message");
  const say = (text) => {
    if (!note) return;
    note.hidden = !text;
    note.textContent = text;
  };

  for (const form of document.querySelectorAll("form[data-seat-key]")) {
    const field = form.querySelector("input[name=token]");
    const button = form.querySelector("button[type=submit]");
    if (!field || !window.crypto || !window.fetch) continue;
    let sending = false;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (sending) return;
      sending = true;
      if (!field.value) field.value = newKey();
      if (button) button.disabled = true;
      for (let attempt = 0; attempt <= RETRIES; attempt += 1) {
        if (attempt) {
          say("No answer from the server yet: sending again…");
          await wait(1000 * attempt);
        }
        let response;
        try {
          response = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" });
        } catch (error) {
          continue;  // no answer: the seat may be this phone's already; the same key asks again
        }
        if (response.ok && response.redirected) {
          window.location.assign(response.url);  // the seat's page: this phone holds the seat
          return;
        }
        // a refusal (the seat taken, the code used, …) changed nothing: the page's own answer, as without this
        // script (sent once more, with the same key)
        form.submit();
        return;
      }
      say("The server could not be reached, so this phone may not hold the seat yet. Tap again: the same key is "
          + "sent, so it cannot take a second seat.");
      if (button) button.disabled = false;
      sending = false;
    });
  }
})();
