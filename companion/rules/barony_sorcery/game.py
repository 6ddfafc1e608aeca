"""Barony: Sorcery: setup, view, score and outcome — the front's own code, re-exported by the package
(``companion.rules.barony_sorcery``, whose docstring describes the game and its view)."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..base import (
    Outcome,
    SetupError,
    as_read,
    check_options,
    check_players,
    check_viewer,
    scored_totals,
)
from ..base import (
    never_stalled as stalled,  # the Rules hook's default: this game reaches no dead end
)
from . import SPEC
from .cast import (  # the calculator's (companion/web/calc/barony_sorcery.py)
    CATEGORY_NAMES,
    GAME,
    GAME_ID,
    SPELL_ORDER,
    UnknownSpell,
    check_cast,
    find_spell,
    listing,
    spell_of,
)
from .choices import choices
from .moves import MOVE_TYPES, apply
from .play import advice, open_locations, random_legal_move
from .state import (
    LOCATION_BY_ID,
    LOCATIONS,
    MAGIC_TOKENS,
    MAX_BASE_POINTS,
    MAX_CONTROLS,
    POINTS_PER_CONTROL,
    REWARDS,
    SPELLS_IN_PLAY,
    BaronyState,
    find_location,
    state_from_json,
    state_to_json,
)
from .text import describe_move, redact_move

TITLE: str = GAME.title
MIN_PLAYERS: int = GAME.min_players
MAX_PLAYERS: int = GAME.max_players
OPTIONS: dict[str, str] = dict(SPEC.options)
MYSTERIOUS_BY_PLAYERS: dict[int, int] = {int(k): int(v) for k, v in dict(GAME.mysterious_by_players).items()}
CATEGORIES: dict[str, Any] = {category.id: category for category in GAME.categories}

State = BaronyState


def _chosen(value: Any, count: int, what: str, find: Any, everything: Sequence[Any], rule: str) -> list[Any]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SetupError(f"option '{what}' must be a list of names")
    found = []
    for ref in value:
        item = find(ref)
        if item is None:
            known = ", ".join(x.name for x in everything)
            raise SetupError(f"option '{what}': there is no {what[:-1]} '{ref.strip()[:60]}' (known: {known})")
        found.append(item)
    if len({item.id for item in found}) != len(found):
        raise SetupError(f"option '{what}' names the same {what[:-1]} twice")
    if len(found) != count:
        raise SetupError(f"option '{what}' needs exactly {count} {what}, not {len(found)} (rule {rule})", rule)
    return found


def setup(players: Sequence[str], options: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> BaronyState:
    """A new game: the spells in play and the Mysterious locations (given, or drawn with ``rng``), every seat
    with 5 Control tokens and no Magic, all 30 Magic tokens in the supply."""
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    options = check_options(options, OPTIONS, TITLE, "{\"spells\": [\"Velocity\", …]}")
    rng = rng if rng is not None else random.Random()
    mysterious = MYSTERIOUS_BY_PLAYERS[len(names)]
    if "spells" in options:
        spells = _chosen(options["spells"], SPELLS_IN_PLAY, "spells", find_spell, GAME.spells,
                         "barony-sorcery.setup.spells")
    else:
        spells = rng.sample(list(GAME.spells), SPELLS_IN_PLAY)
    if "locations" in options:
        places = _chosen(options["locations"], mysterious, "locations", find_location, LOCATIONS,
                         "barony-sorcery.setup.mysterious")
    else:
        places = rng.sample(list(LOCATIONS), mysterious)
    board = sorted((loc.id for loc in places), key=[loc.id for loc in LOCATIONS].index)
    return BaronyState(
        players=names, spells=tuple(sorted((s.id for s in spells), key=SPELL_ORDER.__getitem__)),
        locations=tuple(board), controls=tuple(() for _ in board), magic=tuple(0 for _ in names),
        supply=MAGIC_TOKENS, phase="play", base_points=tuple(None for _ in names),
        confirmed=tuple(False for _ in names),
    )


def _spell_view(spell_id: str) -> dict[str, Any]:
    spell = GAME.spells[SPELL_ORDER[spell_id]]
    category = CATEGORIES[spell.category]
    return {"id": spell.id, "name": spell.name, "category": spell.category, "category_name": category.name,
            "colour": category.colour, "symbol": category.symbol, "cost": spell.cost, "text": spell.text,
            "rule": spell.rule}


def _location_view(state: BaronyState, index: int) -> dict[str, Any]:
    loc = LOCATION_BY_ID[state.locations[index]]
    seats = state.controls[index]
    return {"id": loc.id, "name": loc.name, "tile": loc.tile,
            "controls": [{"seat": s, "name": state.players[s], "order": i + 1, "reward": REWARDS[i]}
                         for i, s in enumerate(seats)],
            "full": len(seats) >= MAX_CONTROLS, "everyone_visited": len(seats) >= len(state.players),
            "next_reward": state.next_reward(loc.id)}


def _total(state: BaronyState, seat: int) -> int:
    return (state.base_points[seat] or 0) + state.control_points(seat)


def charted_totals(state: BaronyState, rows: Sequence[Mapping[str, Any]]) -> list[int]:
    """What the result chart plots after a move: the Control-token points, and the base-game points only once
    every seat has confirmed them (phase ``over``). A total typed in and sent back in the review was a typo the
    table caught, never the game's score: plotted, one mistyped 400 squashed a 46-43 game into the chart's foot."""
    if state.phase == "over":
        return scored_totals(state, rows)
    return [state.control_points(s) for s in range(len(state.players))]


def view(state: BaronyState, seat: int | None = None) -> dict[str, Any]:
    """The whole state for ``seat`` (``None``: the table); the keys are listed in the module docstring."""
    check_viewer(state, seat)
    result = outcome(state)
    players = [{"seat": s, "name": name, "magic": state.magic[s], "control_tokens_left": state.tokens_left(s),
                "visited": state.visited(s), "control_points": state.control_points(s),
                "base_points": state.base_points[s], "total": _total(state, s), "confirmed": state.confirmed[s]}
               for s, name in enumerate(state.players)]
    waiting = ([s for s, p in enumerate(state.base_points) if p is None] if state.phase == "scoring" else
               [s for s, ok in enumerate(state.confirmed) if not ok] if state.phase == "review" else [])
    return {
        "game": GAME_ID, "title": TITLE, "phase": state.phase, "you": seat, "over": result.over,
        "winner": result.winner, "winners": list(result.winners),
        "magic_tokens": MAGIC_TOKENS, "supply": state.supply,
        "spells": [_spell_view(s) for s in state.spells],
        "locations": [_location_view(state, i) for i in range(len(state.locations))],
        "players": players, "waiting_for": waiting,
    }


def score(state: BaronyState) -> list[dict[str, Any]]:
    """Per seat: the base-game points (once entered) and 3 VP per Control token, one entry per location."""
    rows = []
    for s, name in enumerate(state.players):
        breakdown = []
        if state.base_points[s] is not None:
            breakdown.append({"cause": "Base game (entered)", "points": state.base_points[s]})
        for loc in state.visited(s):
            breakdown.append({"cause": f"Control token on the {LOCATION_BY_ID[loc].name}",
                              "points": POINTS_PER_CONTROL})
        rows.append({"seat": s, "name": name, "total": _total(state, s), "breakdown": breakdown})
    return rows


def winners_of(totals: Sequence[int]) -> tuple[int, ...]:
    """The seats with the highest total (several on a tie: a shared win, rule barony-sorcery.score.winner)."""
    best = max(totals)
    return tuple(s for s, total in enumerate(totals) if total == best)


def win_reason(names: Sequence[str], best: int) -> str:
    if len(names) == 1:
        return f"{names[0]} has the most points: {best}"
    return f"{listing(list(names))} share the win with {best} points each"


def outcome(state: BaronyState) -> Outcome:
    """Over once every seat has entered its base-game points: the highest total wins; a tie is a shared win
    (``winner`` None, every tied seat in ``winners``; rule barony-sorcery.score.tie, the project's reading)."""
    if state.phase != "over":
        return Outcome(over=False)
    totals = [_total(state, s) for s in range(len(state.players))]
    winners = winners_of(totals)
    reason = win_reason([state.players[s] for s in winners], max(totals))
    if len(winners) == 1:
        return Outcome(over=True, winner=winners[0], winners=winners, reason=reason)
    return Outcome(over=True, winner=None, winners=winners, reason=as_read(reason, GAME.rule(TIE_RULE)), rule=TIE_RULE)


TIE_RULE = "barony-sorcery.score.tie"


def final_totals(pad: Sequence[tuple[str, int, int]]) -> dict[str, Any]:
    """Totals from a score pad: per player (name, base-game points, Control tokens on Mysterious locations).

    The same sums as :func:`score` and :func:`outcome` without a tracked game (the calculator's answer):
    ``{"players": [{"name", "base_points", "control_tokens", "control_points", "total", "breakdown"}],
    "winners": [indices], "winner_names", "shared", "reason", "rule"}``. The caller checks the counts.
    """
    players: list[dict[str, Any]] = []
    totals: list[int] = []
    for name, base, tokens in pad:
        control = tokens * POINTS_PER_CONTROL
        totals.append(base + control)
        players.append({"name": name, "base_points": base, "control_tokens": tokens, "control_points": control,
                        "total": base + control, "breakdown": [
                            {"cause": "Base game (entered)", "points": base, "rule": "barony-sorcery.score.base"},
                            {"cause": f"Control tokens on Mysterious locations: {tokens} × {POINTS_PER_CONTROL}",
                             "points": control, "rule": "barony-sorcery.score.control"}]})
    winners = winners_of(totals)
    names = [pad[s][0] for s in winners]
    reason, rule = win_reason(names, max(totals)), "barony-sorcery.score.winner"
    if len(winners) > 1:  # the shared win, as a tracked game's end says it (outcome): our reading
        reason, rule = as_read(reason, GAME.rule(TIE_RULE)), TIE_RULE
    return {"players": players, "winners": list(winners), "winner_names": names, "shared": len(winners) > 1,
            "reason": reason, "rule": rule}


__all__ = [
    "GAME_ID", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "MOVE_TYPES", "OPTIONS", "State", "BaronyState",
    "setup", "apply", "view", "score", "outcome", "advice", "redact_move", "describe_move",
    "state_to_json", "state_from_json", "random_legal_move", "check_cast", "open_locations",
    "CATEGORY_NAMES", "MYSTERIOUS_BY_PLAYERS", "final_totals", "winners_of", "choices", "stalled", "charted_totals",
]
__all__ += ["GAME", "UnknownSpell", "spell_of", "MAX_BASE_POINTS", "MAX_CONTROLS"]  # the calculator's, on the front
