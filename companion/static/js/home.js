/* Start page: each game's "who goes first" list follows the names as they are typed. */
(() => {
  "use strict";
  for (const form of document.querySelectorAll("form[data-new-game]")) {
    const first = form.querySelector("select[data-first-select]");
    if (!first) continue;
    form.addEventListener("input", (event) => {
      const input = event.target;
      if (!input.matches("input[data-player-index]")) return;
      const option = first.options[Number(input.dataset.playerIndex)];
      if (option) option.textContent = input.value.trim() || `Player ${Number(input.dataset.playerIndex) + 1}`;
    });
  }
})();
