"""Magicians of Fillory rules: the companion's referee for a physical game of the shared-deck card game.

Players report on their phones what they did (including which card they drew, so no move needs
randomness); this module keeps where each of the 110 cards is, the victory points with their causes,
and refuses illegal moves with a sentence and a rule id from ``data/fillory/rules.toml``.
It follows the interface in :mod:`companion.rules.base`; the work is split over ``companion.rules.fillory.*`` helpers:

- :mod:`.state` — the frozen state, the working copy for a move, the JSON round trip
- :mod:`.moves` — ``apply``: turn steps, draw, play, summon/banish, score, end of turn
- :mod:`.tricks` — the card trick phase (one effect per trait with a trick)
- :mod:`.scoring` — what the traits in a control zone score
- :mod:`.play` — advice, random legal moves for playouts and benchmarks
- :mod:`.text` — the move log: redaction per viewer and one public line per move

The package declares the game (``SPEC``, a :class:`~companion.rules.spec.GameSpec`); its public
front is :mod:`.game` (a :class:`~companion.rules.front.Rules`), imported on first use, so listing the games loads no game's content.
"""

from __future__ import annotations

from ..spec import SEAT, TEXT, TEXTS, GameSpec, MoveSpec

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("draw", "Report the card you drew from the deck into your hand (starting hand, or your draw phase).",
             {"card": TEXT}),
    MoveSpec("play", "Put a card from your hand into your control zone; its special ability then waits.",
             {"card": TEXT}),
    MoveSpec("summon", "Resolve the waiting ability: take a matching card into your hand or control zone.",
             {"card": TEXT, "to": TEXT}),
    MoveSpec("banish", "Resolve the waiting ability: send a matching card from the neutral zone or an opponent's zone to the discard.",
             {"card": TEXT}),
    MoveSpec("decline", "Give up the waiting special ability (for example when nothing can be targeted).",
             ()),
    MoveSpec("trick", "Discard a card from your hand and use the card trick of one of its traits.",
             {"card": TEXT, "trait": TEXT, "target": TEXT, "targets": TEXTS, "target_seat": SEAT, "to": TEXT, "take": TEXT, "draw": TEXT, "place": TEXT, "to_hand": TEXT, "to_zone": TEXT}),
    MoveSpec("score", "Score one trait: the square of the number of your control-zone cards that have it.",
             {"trait": TEXT}),
    MoveSpec("end_turn", "Discard down to the hand limit and pass the turn to the next player.",
             {"discard": TEXTS}),
    MoveSpec("lose_card", "Say which card a Religion or Threat trick took from your hand (only you know).",
             {"card": TEXT}, any_seat=True),
)

OPTIONS: dict[str, str] = {
    "first_seat": "Seat number (from 0) of the most magical player, who takes the first turn.",
}

def _upgrade_1(data: dict) -> dict:
    from .state import upgrade_format_1
    return upgrade_format_1(data)


SPEC = GameSpec(
    id="fillory", moves=MOVES, options=OPTIONS,
    rules_module=f"{__name__}.game",
    pages_module="companion.web.games.fillory",
    calculator_module="companion.web.calc.fillory", photo_module="companion.web.photo.fillory", print_kit="fillory",
    order=1, hidden_information=True, sooner_end="reason", can_stall=True, state_version=2, state_upgrades={1: _upgrade_1}, over_rule="fillory.game.over", turn_rule="fillory.turn.not-your-turn", seat_rule=None,
)
