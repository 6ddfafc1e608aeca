/* Start page: the "who goes first" list follows the names as they are typed. */
(() => {
  "use strict";
  const form = document.getElementById("new-game");
  const first = document.getElementById("first");
  if (!form || !first) return;
  form.addEventListener("input", (event) => {
    const input = event.target;
    if (!input.matches("input[data-player-index]")) return;
    const option = first.options[Number(input.dataset.playerIndex)];
    if (option) option.textContent = input.value.trim() || `Player ${Number(input.dataset.playerIndex) + 1}`;
  });
})();
