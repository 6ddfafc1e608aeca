"""Barony: Sorcery: applying one reported move (explore, cast, end of the base game, base-game points).

``apply`` is pure: it checks the move and returns a new frozen state, or raises :class:`IllegalMove`
with a sentence and a rule id from ``data/barony-sorcery/rules.toml`` (rule None for a malformed
move). The companion does not referee Barony's turn order (rule ``barony-sorcery.companion.turns``):
any seat may report its own exploration or cast while the game is in play.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from ..base import IllegalMove, field, referee
from . import SPEC
from .cast import check_cast, listing, tokens
from .state import (
    LOCATION_BY_ID,
    MAX_BASE_POINTS,
    MAX_CONTROLS,
    BaronyState,
    find_location,
)

MOVE_TYPES: dict[str, str] = SPEC.move_types

EXPLORE_ONCE = "barony-sorcery.explore.once"
EXPLORE_FULL = "barony-sorcery.explore.full"
EXPLORE_CONTROL = "barony-sorcery.explore.control"
EXPLORE_REWARD = "barony-sorcery.explore.reward"
COMPANION_REVIEW = "barony-sorcery.companion.review"
SCORE_BASE = "barony-sorcery.score.base"
COMPANION_END = "barony-sorcery.companion.end"
COMPANION_OVER = "barony-sorcery.companion.over"


def _ended(state: BaronyState) -> str | None:
    """Why the game is over (None while it goes on)."""
    return "every player's base-game points are in and the winner is known" if state.phase == "over" else None


def _apply(state: BaronyState, seat: int, move: Mapping[str, Any]) -> BaronyState:
    return HANDLERS[move["type"]](state, seat, move)


def _in_play(state: BaronyState, what: str) -> None:
    if state.phase != "play":
        raise IllegalMove(f"The base game has ended, so there is no more {what}: enter your base-game points.",
                          COMPANION_END)


def explore(state: BaronyState, seat: int, move: Mapping[str, Any]) -> BaronyState:
    """Place the seat's Control token and pay the arrival reward (3/2/1) from what the supply holds."""
    _in_play(state, "exploring")
    ref = field(move, "location", str)
    location = find_location(ref)
    if location is None or location.id not in state.locations:
        here = listing([LOCATION_BY_ID[loc].name for loc in state.locations])
        raise IllegalMove(f"there is no Mysterious location '{ref.strip()[:60]}' on this board (it has {here})", None)
    index = state.locations.index(location.id)
    placed = state.controls[index]
    if seat in placed:
        raise IllegalMove(f"You already have a Control token on the {location.name}: each player may place only "
                          "one there and is rewarded only once.", EXPLORE_ONCE)
    if len(placed) >= MAX_CONTROLS:
        raise IllegalMove(f"The {location.name} already holds {MAX_CONTROLS} Control tokens: your knight may stand "
                          "there, but nothing happens — no token is placed and no Magic tokens are given.",
                          EXPLORE_FULL)
    if state.tokens_left(seat) <= 0:  # cannot happen with the rulebook's 5 tokens and at most 5 locations
        raise IllegalMove("You have no Control token left to place.", EXPLORE_CONTROL)
    reward = min(state.next_reward(location.id), state.supply)
    if "reward" in move:  # the Magic tokens the explorer took at the table (the phone's form sends them)
        said = field(move, "reward", int)
        if said != reward:
            arrival = ("1st", "2nd", "3rd")[len(placed)]
            raise IllegalMove(f"The {location.name} pays {tokens(reward)} now (you arrive {arrival}), not {said}: "
                              "someone may have explored it since your page was drawn. Take the tokens it pays.",
                              EXPLORE_REWARD)
    controls = list(state.controls)
    controls[index] = placed + (seat,)
    magic = list(state.magic)
    magic[seat] += reward
    return replace(state, controls=tuple(controls), magic=tuple(magic), supply=state.supply - reward)


def cast(state: BaronyState, seat: int, move: Mapping[str, Any]) -> BaronyState:
    """Pay for one cast (checked by :func:`check_cast`); the tokens go back to the supply."""
    _in_play(state, "casting")
    refs = field(move, "spells", list)
    if len(refs) > 9:
        raise IllegalMove("a cast names at most the 9 spells of the game", None)
    result = check_cast(refs, state.magic[seat], state.spells)
    if not result.legal:
        raise IllegalMove(result.reason, result.rule)
    magic = list(state.magic)
    magic[seat] -= result.cost
    return replace(state, magic=tuple(magic), supply=state.supply + result.cost)


def end_game(state: BaronyState, seat: int, move: Mapping[str, Any]) -> BaronyState:
    if state.phase != "play":
        raise IllegalMove("The end of the base game has already been reported: enter your base-game points.",
                          COMPANION_END)
    return replace(state, phase="scoring")


def _unconfirmed(state: BaronyState) -> tuple[bool, ...]:
    return tuple(False for _ in state.players)


def base_points(state: BaronyState, seat: int, move: Mapping[str, Any]) -> BaronyState:
    """Record (or correct) the seat's own base-game points; once every seat's are in, the table reviews the
    totals (a correction during the review starts it again: nobody has confirmed the new totals)."""
    if state.phase not in ("scoring", "review"):
        raise IllegalMove("Base-game points are entered once the base game has ended: report the end first "
                          "(any player can).", SCORE_BASE)
    points = field(move, "points", int)
    if not 0 <= points <= MAX_BASE_POINTS:
        raise IllegalMove(f"field 'points' must be from 0 to {MAX_BASE_POINTS}, got {points}", None)
    entered = list(state.base_points)
    entered[seat] = points
    done = all(p is not None for p in entered)
    return replace(state, base_points=tuple(entered), phase="review" if done else "scoring",
                   confirmed=_unconfirmed(state))


def _in_review(state: BaronyState, what: str) -> None:
    if state.phase != "review":
        waiting = listing([state.players[s] for s, p in enumerate(state.base_points) if p is None])
        why = ("the base game has not ended yet" if state.phase == "play"
               else f"{waiting} {'have' if ' and ' in waiting else 'has'} not entered base-game points yet")
        raise IllegalMove(f"The totals are {what} once every player's base-game points are in, and {why}.",
                          COMPANION_REVIEW)


def confirm_totals(state: BaronyState, seat: int, move: Mapping[str, Any]) -> BaronyState:
    """The seat has checked every total; once every seat has, the game is over."""
    _in_review(state, "confirmed")
    if state.confirmed[seat]:
        waiting = listing([state.players[s] for s, ok in enumerate(state.confirmed) if not ok])
        raise IllegalMove(f"You have already confirmed these totals; waiting for {waiting}.", COMPANION_REVIEW)
    confirmed = list(state.confirmed)
    confirmed[seat] = True
    return replace(state, confirmed=tuple(confirmed), phase="over" if all(confirmed) else "review")


def send_back(state: BaronyState, seat: int, move: Mapping[str, Any]) -> BaronyState:
    """A total looks wrong: that seat's base-game points are cleared, to be entered again."""
    _in_review(state, "sent back")
    whose = field(move, "seat", int)
    if not 0 <= whose < len(state.players):
        raise IllegalMove(f"There is no seat {whose} in this game", None)
    entered = list(state.base_points)
    entered[whose] = None
    return replace(state, base_points=tuple(entered), phase="scoring", confirmed=_unconfirmed(state))


HANDLERS: dict[str, Callable[[BaronyState, int, Mapping[str, Any]], BaronyState]] = {
    "explore": explore, "cast": cast, "end_game": end_game, "base_points": base_points,
    "confirm_totals": confirm_totals, "send_back": send_back,
}

#: The state after ``seat`` makes ``move``; raises IllegalMove (rule, seat and move set). The base checks the
#: move type, its fields, the seat and the end first; Barony's turns are not refereed (any seat reports).
apply = referee(SPEC, _apply, over=_ended, turn=lambda state: None)


def cast_cost_text(refs: Any) -> str:
    """'Velocity and Teleport (2 Magic tokens)' for a move log line; tolerant of anything."""
    try:
        result = check_cast(refs)
    except IllegalMove:
        return "a spell"
    return f"{listing([s.name for s in result.spells])} ({tokens(result.cost)})"
