"""One pure rules module per game, looked up by game id."""

from __future__ import annotations

from types import ModuleType

from . import barony_sorcery, fillory, jsmn, mandragora
from .base import IllegalMove, Outcome, SetupError

GAMES: dict[str, ModuleType] = {fillory.GAME_ID: fillory, mandragora.GAME_ID: mandragora,
                                 barony_sorcery.GAME_ID: barony_sorcery, jsmn.GAME_ID: jsmn}


def rules_for(game: str) -> ModuleType:
    try:
        return GAMES[game]
    except KeyError:
        raise SetupError(f"unknown game '{game}' (known: {', '.join(GAMES)})") from None


__all__ = ["GAMES", "IllegalMove", "Outcome", "SetupError", "rules_for"]
