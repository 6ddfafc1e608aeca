"""Barony: Sorcery: "what can I do now?" — advice and random legal moves.

``random_legal_move`` drives the property tests and playouts: every move it returns is legal, its
choices come only from the ``random.Random`` it is given, and it always ends the game (once nobody
can explore or cast, someone reports the end of the base game, then every seat enters its points).
"""

from __future__ import annotations

import random
from typing import Any

from .cast import legal_casts, listing, tokens
from .state import LOCATION_BY_ID, MAX_CONTROLS, BaronyState

CAST_CHANCE = 0.5       # how often a random player casts rather than explores when both are possible
THRIFTY_CHANCE = 0.85   # how often a random caster picks one of the cheapest single spells rather than any cast


def open_locations(state: BaronyState, seat: int) -> list[str]:
    """Location ids ``seat`` could explore now: not full and without its Control token."""
    return [loc for loc, seats in zip(state.locations, state.controls, strict=True)
            if seat not in seats and len(seats) < MAX_CONTROLS and state.tokens_left(seat) > 0]


def _entry(kind: str, text: str, move: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": kind, "text": text, "move": move, **extra}


def advice(state: BaronyState, seat: int) -> list[dict[str, Any]]:
    """What ``seat`` could report now, best first: ``{"type", "text", "move", ...}`` per choice.

    Explore entries carry ``location`` and ``reward`` (Magic tokens, after the supply cap) and come
    first (each is also worth 3 VP at the end); cast entries carry ``spells``, ``cost``, ``category``
    and ``rule``, larger combinations first; then reporting the end of the base game. In scoring the
    one entry is entering (or correcting) the seat's base-game points; in review, confirming the totals
    (until this seat has) and correcting its points; a finished game advises nothing.
    """
    if state.phase == "over" or not 0 <= seat < len(state.players):
        return []
    if state.phase == "review":
        found = []
        if not state.confirmed[seat]:
            found.append(_entry("confirm_totals", "Check every player's total, then confirm them.",
                                {"type": "confirm_totals"}))
        found.append(_entry("base_points", f"Correct your base-game points ({state.base_points[seat]} entered).",
                            {"type": "base_points"}, entered=state.base_points[seat]))
        return found
    if state.phase == "scoring":
        entered = state.base_points[seat]
        text = ("Enter your base-game points." if entered is None
                else f"Correct your base-game points ({entered} entered) until everyone has entered theirs.")
        return [_entry("base_points", text, {"type": "base_points"}, entered=entered)]
    found = []
    for loc in open_locations(state, seat):
        reward = min(state.next_reward(loc), state.supply)
        name = LOCATION_BY_ID[loc].name
        found.append(_entry("explore", f"A knight of yours reached the {name}: place a Control token and take "
                            f"{tokens(reward)}.", {"type": "explore", "location": loc, "reward": reward},
                            location=loc, reward=reward))
    for result in legal_casts(state.spells, state.magic[seat]):
        names = [s.name for s in result.spells]
        found.append(_entry("cast", f"Cast {listing(names)} for {tokens(result.cost)}.",
                            {"type": "cast", "spells": names}, spells=names, cost=result.cost,
                            category=result.category, rule=result.rule))
    found.append(_entry("end_game", "Report that the base game has ended.", {"type": "end_game"}))
    return found


def _has_something_to_report(state: BaronyState, seat: int) -> bool:
    return bool(open_locations(state, seat)) or bool(legal_casts(state.spells, state.magic[seat]))


def random_legal_move(state: BaronyState, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A legal move for ``seat`` chosen with ``rng``, or None when the seat has nothing to report.

    The random table explores and casts until nobody can do either (every location visited or full,
    no Magic token that pays for a spell in play), then someone reports the end of the base game and
    every seat enters its points once; so a random game is as long as the expansion allows and always
    ends (every seat then confirms the totals). Cheap single spells are cast more often than dear ones and combinations, as at a real table.
    """
    if state.phase == "over" or not 0 <= seat < len(state.players):
        return None
    if state.phase == "scoring":  # each seat enters once here, so scoring always ends (corrections: see advice)
        if state.base_points[seat] is not None:
            return None
        return {"type": "base_points", "points": rng.randint(10, 70)}
    if state.phase == "review":  # every seat confirms once (a random table never sends a total back)
        return None if state.confirmed[seat] else {"type": "confirm_totals"}
    places = open_locations(state, seat)
    casts = legal_casts(state.spells, state.magic[seat])
    if not places and not casts:
        if any(_has_something_to_report(state, other) for other in range(len(state.players))):
            return None
        return {"type": "end_game"}
    if casts and (not places or rng.random() < CAST_CHANCE):
        cheapest = min(cast.cost for cast in casts)
        thrifty = [cast for cast in casts if len(cast.spells) == 1 and cast.cost == cheapest]
        picked = rng.choice(thrifty if thrifty and rng.random() < THRIFTY_CHANCE else casts)
        names = [s.name if rng.random() < 0.5 else s.id for s in picked.spells]
        return {"type": "cast", "spells": names}
    place = rng.choice(places)
    return {"type": "explore", "location": place, "reward": min(state.next_reward(place), state.supply)}
