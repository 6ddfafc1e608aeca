"""Barony: Sorcery rules: the companion's book-keeper for the expansion's Magic, spells and Control tokens.

Players own Barony; the companion tracks only what this expansion adds (rule
``barony-sorcery.companion.turns``): the 5 spells drawn at setup, the Mysterious locations with the
Control tokens on them in arrival order, each seat's Magic tokens and the supply (30 in all), and at
the end each seat's base-game points, to which 3 VP per Control token are added. Base-game actions
and turn order are not reported, so any seat may report its own exploration or cast at any time
while the game is in play. Refusals carry a sentence and a rule id from
``data/barony-sorcery/rules.toml``. Nothing is secret: every seat sees the same view.

Phases: ``"play"`` → (``end_game``, any seat) → ``"scoring"`` → (``base_points`` from every seat;
a seat may correct its entry) → ``"review"`` (every total on every phone: each seat sends
``confirm_totals``, any seat may ``send_back`` a seat's points to be entered again, which returns to
``"scoring"``; a correction clears the confirmations) → ``"over"`` once every seat has confirmed.

``view(state, seat)`` returns a JSON object with these keys (pages are built from it):

- ``game`` ("barony-sorcery"), ``title``, ``phase`` ("play" | "scoring" | "review" | "over"), ``you`` (the
  viewing seat or None), ``over`` (bool), ``winner`` (the seat of a sole winner, else None),
  ``winners`` (every winning seat once over; several on a shared win, else empty before the end)
- ``magic_tokens`` (30, the game's total), ``supply`` (Magic tokens next to the board)
- ``spells``: the spells in play in card order, each ``{"id", "name", "category", "category_name",
  "colour", "symbol", "cost", "text", "rule"}`` (``colour`` is the card colour the rulebook names;
  ``symbol`` the print kit's symbol, so colour is never the only cue)
- ``locations``: the Mysterious locations on the board in tile order, each ``{"id", "name", "tile",
  "controls": [{"seat", "name", "order", "reward"}] (arrival order; ``reward`` what that visit paid
  before the supply cap), "full" (bool: 3 Control tokens), "everyone_visited" (bool: every player has a
  Control token there), "next_reward" (Magic tokens for the next visitor, 0 once full or everyone visited)}``
- ``players``: per seat ``{"seat", "name", "magic", "control_tokens_left", "visited" (location ids),
  "control_points", "base_points" (None until entered), "total" (base + control points), "confirmed"
  (whether the seat has confirmed the totals in this review; False outside it)}``
- ``waiting_for``: in scoring, the seats whose base-game points are still missing; in review, the seats
  that have not confirmed the totals yet (else empty)

The package declares the game (``SPEC``, a :class:`~companion.rules.spec.GameSpec`); its public
front is :mod:`.game` (a :class:`~companion.rules.front.Rules`), imported on first use, so listing the games loads no game's content.
"""

from __future__ import annotations

from ..spec import NUMBER, SEAT, TEXT, TEXTS, GameSpec, MoveSpec

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("explore", "One of your knights reached a Mysterious location: place your Control token and take its Magic tokens.",
             {"location": TEXT, "reward": NUMBER}, any_seat=True),
    MoveSpec("cast", "Cast one spell, or combine spells of one category, paying their Magic tokens back to the supply.",
             {"spells": TEXTS}, any_seat=True),
    MoveSpec("end_game", "The base game has ended: stop exploring and casting, and enter everyone's base-game points.",
             (), any_seat=True, final_once_over=True),
    MoveSpec("base_points", "Enter (or correct) your base-game points once the base game has ended.",
             {"points": NUMBER}, any_seat=True, final_once_over=True),
    MoveSpec("confirm_totals", "Every player's points are in: confirm that every total is right (the game ends once all have).",
             (), any_seat=True, confirms_end=True),
    MoveSpec("send_back", "A total looks wrong: send that player's base-game points back to be entered again.",
             {"seat": SEAT}, any_seat=True, final_once_over=True),
)

OPTIONS: dict[str, str] = {
    "spells": "The 5 spells the table drew (names or ids); default: 5 drawn at random.",
    "locations": "The Mysterious locations on the board (names, ids or tile ids), as many as the player count takes; default: drawn at random.",
}

def _upgrade_1(data: dict) -> dict:
    from .state import upgrade_format_1
    return upgrade_format_1(data)


SPEC = GameSpec(
    id="barony-sorcery", moves=MOVES, options=OPTIONS,
    rules_module=f"{__name__}.game",
    pages_module="companion.web.games.barony_sorcery",
    calculator_module="companion.web.calc.barony_sorcery", photo_module="companion.web.photo.barony_sorcery", print_kit="barony-sorcery",
    order=3, hidden_information=False, sooner_end="reason", state_version=2, state_upgrades={1: _upgrade_1}, over_rule="barony-sorcery.companion.over", turn_rule=None, seat_rule=None,
)
