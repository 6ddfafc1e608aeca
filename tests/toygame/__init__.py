"""Count to Ten: a tiny test game found by discovery, to prove a game needs no edit to any shared module.

Players take turns adding 1 or 2 to a shared count; whoever reaches ten wins. Each seat may also keep a
private ``note`` (a secret the others never see), so the game has hidden information to test views with.
The whole game is this one module: its spec (``SPEC``) and its public front. It is found through
``create_app({"EXTRA_GAMES": ["toygame"]})`` or ``COMPANION_EXTRA_GAMES=toygame`` (``tests/`` is on the
path while the tests run).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from companion.rules.base import IllegalMove, Outcome, check_options, check_players, check_viewer, field, referee
from companion.rules.base import never_stalled as stalled  # noqa: F401  (the Rules hooks' defaults)
from companion.rules.base import no_choices as choices  # noqa: F401
from companion.rules.spec import NUMBER, TEXT, GameSpec, MoveSpec
from game_traits import GameTraits  # the shared tests' declaration (tests/ is on the path wherever this game is)

GOAL = 10

SPEC = GameSpec(
    id="toygame", title="Count to Ten", min_players=2, max_players=3,
    moves=(MoveSpec("add", "Add 1 or 2 to the count.", {"amount": NUMBER}),
           MoveSpec("note", "Keep a private note (only your own phone sees it).", {"text": TEXT}, any_seat=True,
                    after_the_end=True)),
    rules_module=__name__, options={"first_seat": "Who adds first (a seat number)."},
    hidden_information=True, load_content=lambda data_dir: None, print_kit=None,
    over_rule="toygame.end.over", turn_rule="toygame.turn.order", seat_rule=None,
)

GAME_ID, TITLE, MIN_PLAYERS, MAX_PLAYERS = SPEC.id, SPEC.title, SPEC.min_players, SPEC.max_players
MOVE_TYPES = SPEC.move_types
OPTIONS = dict(SPEC.options)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    count: int = 0
    turn: int = 0
    notes: tuple[str, ...] = ()
    winner: int | None = None


def setup(players: Sequence[str], options: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> State:
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    first = check_options(options, OPTIONS, TITLE, '{"first_seat": 0}').get("first_seat", 0)
    return State(players=names, turn=int(first) % len(names), notes=("",) * len(names))


def _apply(state: State, seat: int, move: Mapping[str, Any]) -> State:
    if move["type"] == "note":
        text = field(move, "text")
        return replace(state, notes=tuple(text[:200] if s == seat else n for s, n in enumerate(state.notes)))
    amount = field(move, "amount", int)
    if amount not in (1, 2):
        raise IllegalMove(f"add 1 or 2, not {amount}", "toygame.add.amount")
    count = min(GOAL, state.count + amount)
    return replace(state, count=count, turn=(seat + 1) % len(state.players),
                   winner=seat if count >= GOAL else None)


def _over(state: State) -> str | None:
    return None if state.winner is None else f"{state.players[state.winner]} reached {GOAL}"


apply = referee(SPEC, _apply, over=_over, turn=lambda state: state.turn)


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    check_viewer(state, seat)
    return {"game": GAME_ID, "count": state.count, "goal": GOAL, "turn_seat": state.turn, "you": seat,
            "note": state.notes[seat] if seat is not None else None,
            "players": [{"seat": s, "name": name} for s, name in enumerate(state.players)]}


def score(state: State) -> list[dict[str, Any]]:
    return [{"seat": s, "name": name, "total": int(s == state.winner),
             "breakdown": [{"cause": f"reached {GOAL}", "points": 1}] if s == state.winner else []}
            for s, name in enumerate(state.players)]


def outcome(state: State) -> Outcome:
    if state.winner is None:
        return Outcome(over=False)
    return Outcome(over=True, winner=state.winner, winners=(state.winner,), reason=f"{_over(state)} first")


def advice(state: State, seat: int) -> list[dict[str, Any]]:
    if state.winner is not None or seat != state.turn:
        return []
    best = 2 if (GOAL - state.count) % 3 != 1 else 1
    return [{"type": "add", "text": f"Add {best}.", "move": {"type": "add", "amount": best}}]


def random_legal_move(state: State, seat: int, rng: random.Random) -> dict[str, Any] | None:
    if state.winner is not None or seat != state.turn:
        return None
    return {"type": "add", "amount": rng.choice((1, 2))}


def redact_move(move: Mapping[str, Any], actor: int, viewer: int | None) -> dict[str, Any]:
    if move.get("type") == "note" and viewer != actor:
        return {"type": "note"}
    return dict(move)


def describe_move(move: Mapping[str, Any], actor: int, names: Sequence[str]) -> str:
    who = names[actor] if 0 <= actor < len(names) else f"seat {actor}"
    if move.get("type") == "note":
        return f"{who} kept a note."
    return f"{who} added {move.get('amount')}."


def state_to_json(state: State) -> dict[str, Any]:
    return {"players": list(state.players), "count": state.count, "turn": state.turn, "notes": list(state.notes),
            "winner": state.winner}


def state_from_json(data: Mapping[str, Any]) -> State:
    try:
        return State(players=tuple(data["players"]), count=int(data["count"]), turn=int(data["turn"]),
                     notes=tuple(data["notes"]), winner=data["winner"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed {GAME_ID} state: {exc!r}") from None


__all__ = ["SPEC", "GAME_ID", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "MOVE_TYPES", "OPTIONS", "State", "setup",
           "apply", "view", "score", "outcome", "advice", "random_legal_move", "redact_move", "describe_move",
           "state_to_json", "state_from_json"]


def _rearrange_hidden(state: State, viewer: int | None, rng: random.Random) -> State | None:
    """For the shared tests: another seat's private note changed (what ``viewer`` may not see)."""
    others = [s for s in range(len(state.players)) if s != viewer]
    seat = rng.choice(others)
    notes = tuple(f"{n} (changed)" if s == seat else n for s, n in enumerate(state.notes))
    return replace(state, notes=notes)


#: what the shared tests need to know about this game (tests/game_traits.py)
TEST_TRAITS = GameTraits(rearrange_hidden=_rearrange_hidden, min_moves_per_game=4, crash_acks_per_round=1,
                         race_min_acknowledged=4, race_min_stale_refusals=1)
