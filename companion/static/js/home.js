/* Start page: each game's "who goes first" list follows the names as they are typed, and the names typed
   before this script arrived (a slow connection, a quick thumb) as soon as it does. */
(() => {
  "use strict";
  for (const form of document.querySelectorAll("form[data-new-game]")) {
    const first = form.querySelector("select[data-first-select]");
    if (!first) continue;
    const follow = (input) => {
      const option = first.options[Number(input.dataset.playerIndex)];
      if (option) option.textContent = input.value.trim() || `Player ${Number(input.dataset.playerIndex) + 1}`;
    };
    form.addEventListener("input", (event) => {
      if (event.target.matches("input[data-player-index]")) follow(event.target);
    });
    form.querySelectorAll("input[data-player-index]").forEach(follow);
  }
})();
