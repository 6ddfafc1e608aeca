"""Magicians of Fillory: setup, view, score and outcome — the front's own code, re-exported by the package
(``companion.rules.fillory``, whose docstring describes the game and its view)."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..base import (
    Outcome,
    as_read,
    check_options,
    check_players,
    check_viewer,
    first_seat_option,
)
from ..base import (
    scored_totals as charted_totals,  # the Rules hook's default: the chart plots score's totals
)
from . import SPEC
from .choices import choices
from .moves import MOVE_TYPES, apply
from .play import acting_seats, advice, random_legal_move, stalled
from .scoring import trait_points
from .state import (  # the calculator's (companion/web/calc/fillory.py)
    CARDS,
    GAME,
    GAME_ID,
    FilloryState,
    lookup_card,
    state_from_json,
    state_to_json,
    trait_of,
)
from .text import describe_move, redact_move

TITLE: str = GAME.title
MIN_PLAYERS: int = GAME.min_players
MAX_PLAYERS: int = GAME.max_players
OPTIONS: dict[str, str] = dict(SPEC.options)

State = FilloryState


def setup(players: Sequence[str], options: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> FilloryState:
    """A new game: the 13 setup cards in the neutral zone, the rest in the deck, hands still to be drawn.

    Needs no randomness (players shuffle the real deck and report their draws); ``rng`` is accepted
    for the shared interface.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    options = check_options(options, OPTIONS, TITLE, "{\"first_seat\": 0}")
    first = first_seat_option(options, len(names))
    neutral = set(GAME.setup_neutral)
    return FilloryState(
        players=names, first_seat=first, phase="deal",
        locations=tuple("neutral" if card.id in neutral else "deck" for card in CARDS),
        ledger=tuple(() for _ in names),
    )


def view(state: FilloryState, seat: int | None = None) -> dict[str, Any]:
    """The state as ``seat`` may see it (``None``: the public table view); only your own hand is listed."""
    check_viewer(state, seat)
    pending = None
    if state.pending is not None:
        pending = {"card": state.pending, "options": [
            {"action": opt.action, "kind": opt.kind, "target": opt.target, "label": opt.label(GAME)}
            for opt in GAME.card(state.pending).ability]}
    places = state.by_place()
    players = []
    for s, player in enumerate(state.players):
        hand = places.get(f"hand:{s}", [])
        players.append({
            "seat": s, "name": player, "vp": state.vp(s), "scored": state.scored(s),
            "zone": places.get(f"zone:{s}", []), "hand_count": len(hand),
            "hand": list(hand) if s == seat else None,
        })
    return {
        "game": GAME_ID, "phase": state.phase,
        "turn": {"seat": state.turn_seat, "step": state.step, "number": state.turn_number,
                 "extra_action": state.extra_action,
                 # a Religion or Threat trick waiting for its victim to say which card it took (public)
                 "loss": None if state.loss is None else {"seat": state.loss[0], "trait": state.loss[1]}},
        "pending": pending, "players": players,
        "neutral": places.get("neutral", []), "discard": places.get("discard", []),
        "deck_count": len(places.get("deck", [])),
        "you": seat, "over": state.phase == "over", "winner": state.winner,
    }


def score(state: FilloryState) -> list[dict[str, Any]]:
    """Every seat's total with its breakdown, one entry per cause in the order the points came."""
    return [{"seat": s, "name": player, "total": state.vp(s),
             "breakdown": [{"cause": entry.cause(), "points": entry.points} for entry in state.ledger[s]]}
            for s, player in enumerate(state.players)]


NOT_OVER = Outcome(over=False)  # frozen, so one instance serves every unfinished game


DEAD_END = "fillory.game.dead-end"


def outcome(state: FilloryState) -> Outcome:
    """Over once a seat reaches the victory points; that seat alone wins (no ties: play stops at once). A game
    at a dead end (:func:`stalled`) is not over and nobody wins, but its reason says why and who leads (the
    result page and its exports show it, as the table does)."""
    if state.phase != "over" or state.winner is None:
        if state.phase != "over" and stalled(state):
            return Outcome(over=False, reason=as_read(dead_end_reason(state), GAME.rule(DEAD_END)), rule=DEAD_END)
        return NOT_OVER
    seat = state.winner
    return Outcome(over=True, winner=seat, winners=(seat,),
                   reason=f"{state.players[seat]} reached {state.vp(seat)} VP first "
                          f"(the goal is {GAME.victory_points})")


def dead_end_reason(state: FilloryState) -> str:
    """Why a stalled game goes no further, and who leads, e.g. "Dead end: no card is left to draw, play or score,
    so nobody can reach 100 VP; Ben leads with 95 VP"."""
    best = max(state.vp(s) for s in range(len(state.players)))
    leaders = [name for s, name in enumerate(state.players) if state.vp(s) == best]
    who = leaders[0] if len(leaders) == 1 else f"{', '.join(leaders[:-1])} and {leaders[-1]}"
    lead = f"{who} lead{'s' * (len(leaders) == 1)} with {best} VP"
    return (f"Dead end: no card is left to draw, play or score, so nobody can reach {GAME.victory_points} VP; "
            f"{lead}")


__all__ = [
    "GAME_ID", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "MOVE_TYPES", "OPTIONS", "State", "FilloryState",
    "setup", "apply", "view", "score", "outcome", "advice", "redact_move", "describe_move",
    "state_to_json", "state_from_json", "trait_points", "random_legal_move", "choices", "acting_seats", "stalled", "charted_totals",
]
__all__ += ["lookup_card", "trait_of"]  # the calculator's, on the front
