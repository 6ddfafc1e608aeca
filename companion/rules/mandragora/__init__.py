"""Mandragora rules: the companion's referee for a physical game of seeking items and casting spells.

Night shops lie face down and hands are secret, so the companion tracks the public table exactly
(the circle, the Assistant, cards per shop, the deck count, hand counts, the cursed scrolls in front
of each seat, every cast spell, the Curse marker, the countdown) and hidden cards only as counts.
Each seat may keep a private note of its hand for advice, and reveals the colours left in hand at
the end. Illegal moves are refused with a sentence and a rule id from ``data/mandragora/rules.toml``.
It follows the interface in :mod:`companion.rules.base`; the work is split over ``companion.rules.mandragora.*``:

- :mod:`.state` — the frozen state, the working copy for a move, field readers, JSON
- :mod:`.moves` — ``apply``: turn order, seeking, pending choices, notes, the reckoning
- :mod:`.cast` — casting: spellbook, ingredients, power, spell card, effects
- :mod:`.turns` — the Curse marker, the team option, passing the turn, the countdown
- :mod:`.scoring` — the final score as a pure function (also the score calculator's)
- :mod:`.choices` — what a seat may do now, for the phone's forms
- :mod:`.play` — advice from the hand note, random legal moves for playouts
- :mod:`.text` — the move log: redaction per viewer and one public line per move

The package declares the game (``SPEC``, a :class:`~companion.rules.spec.GameSpec`); its public
front is :mod:`.game` (a :class:`~companion.rules.front.Rules`), imported on first use, so listing the games loads no game's content.
"""

from __future__ import annotations

from ..spec import (
    NUMBER,
    SEAT,
    TEXT,
    TEXT_OR_NUMBER,
    TEXT_OR_TEXTS,
    TEXTS,
    TEXTS_OR_NUMBERS,
    GameSpec,
    MoveSpec,
)

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("seek", "Send the Assistant 1 to 3 shops clockwise (more with Swiftness) and take every card there; 'steps', optional 'scrolls' (cursed scrolls among them, by id or curses) and 'shop' (a check).",
             {"steps": NUMBER, "shop": TEXT_OR_NUMBER, "scrolls": TEXTS_OR_NUMBERS}),
    MoveSpec("cast", "Cast a spell: 'book' (a spellbook card or 'mandrake'), 'ingredients' (colours or 'mandrake'), 'power', 'spell', and the spell's effect fields.",
             {"book": TEXT_OR_TEXTS, "ingredients": TEXTS, "power": NUMBER, "spell": TEXT, "scroll": TEXT_OR_NUMBER, "to": SEAT, "from": SEAT, "shop": TEXT_OR_NUMBER}),
    MoveSpec("decline_extra_turn", "Give up the extra turn a Replication spell gave you.",
             ()),
    MoveSpec("drop_out", "During the last three rounds, drop out and take no more turns.",
             ()),
    MoveSpec("pass_curse_marker", "When a change of cursed scrolls leaves a tie for the most curses, the marker's holder gives it to another tied seat, when asked: 'to'.",
             {"to": SEAT}, any_seat=True),
    MoveSpec("team_help", "Team game, after you receive cursed scrolls: 'kind' give, receive, exchange or none.",
             {"kind": TEXT}, any_seat=True),
    MoveSpec("note_hand", "Any time: a private note of your hand for advice, 'cards' (card ids, colour words, 'mandrake'), at most your hand count.",
             {"cards": TEXTS}, after_the_end=True, any_seat=True, private_note=True),
    MoveSpec("reveal_hand", "After the last round: 'colours' left in your hand (colour ids, 'white' for mandrakes).",
             {"colours": TEXTS}, any_seat=True),
)

OPTIONS: dict[str, str] = {
    "first_seat": "Seat number (from 0) of the sorcerer who most resembles a sorcerer, who plays first.",
    "teams": "true for the team variant (4 sorcerers only): seats 0 and 2 play against seats 1 and 3.",
    "circle": "The 10 shop ids clockwise from the start tile as laid out on the table, or \"random\" (default: the print kit's suggested circle).",
}


def _upgrade_1(data: dict) -> dict:
    from .state import upgrade_format_1
    return upgrade_format_1(data)


SPEC = GameSpec(
    id="mandragora", moves=MOVES, options=OPTIONS,
    rules_module=f"{__name__}.game",
    pages_module="companion.web.games.mandragora",
    calculator_module="companion.web.calc.mandragora", photo_module="companion.web.photo.mandragora", print_kit="mandragora",
    order=2, hidden_information=True, state_version=2, state_upgrades={1: _upgrade_1},
    over_rule="mandragora.end.game-over", turn_rule="mandragora.turn.order", seat_rule="mandragora.turn.order",
)
