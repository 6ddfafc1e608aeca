"""Barony: Sorcery: the move log — one public line per move, and redaction (none: nothing is secret).

Nothing in this game is secret, so ``redact_move`` shows every move to everyone as it was made.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import seat_name
from .cast import tokens
from .moves import cast_cost_text
from .state import find_location


def redact_move(move: Mapping[str, Any], actor: int, viewer: int | None) -> dict[str, Any]:
    """Every move is public in this game: everyone sees it as it was made."""
    return dict(move)


def describe_move(move: Mapping[str, Any], actor: int, names: Sequence[str]) -> str:
    """One line for the move log, e.g. 'Ann cast Velocity and Teleport (2 Magic tokens).'"""
    who = seat_name(names, actor)
    kind = move.get("type")
    if kind == "explore":
        found = find_location(move.get("location"))
        where = f"the {found.name}" if found is not None else "a Mysterious location"
        reward = move.get("reward")
        if isinstance(reward, int) and not isinstance(reward, bool):
            return f"{who} explored {where}, placed a Control token and took {tokens(reward)}."
        return f"{who} explored {where} and placed a Control token."
    if kind == "cast":
        return f"{who} cast {cast_cost_text(move.get('spells'))}."
    if kind == "end_game":
        return f"{who} reported the end of the base game."
    if kind == "base_points":
        return f"{who} entered {move.get('points')} base-game points."
    if kind == "confirm_totals":
        return f"{who} confirmed every player's total."
    if kind == "send_back":
        whose = move.get("seat")
        target = names[whose] if isinstance(whose, int) and not isinstance(whose, bool) and 0 <= whose < len(names) \
            else "a player"
        return f"{who} sent {target}'s base-game points back to be entered again."
    return f"{who} made a move."
