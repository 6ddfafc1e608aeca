"""The card-data layer: one loader turning ``data/<game>/*.toml`` into frozen, typed objects.

Used by both the print generator and the companion. ``load_game("fillory")`` returns the content
or raises :class:`DataError` with one message per problem (file, record, field).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from . import barony_sorcery, fillory, jsmn, mandragora
from .base import DEFAULT_DATA_DIR, DataError, DataNote, Problem, RuleEntry

LOADERS: dict[str, Callable[[Path], Any]] = {
    fillory.GAME_ID: fillory.load,
    mandragora.GAME_ID: mandragora.load,
    barony_sorcery.GAME_ID: barony_sorcery.load,
    jsmn.GAME_ID: jsmn.load,
}

GAMES: tuple[str, ...] = tuple(LOADERS)


def data_dir() -> Path:
    """The data folder: ``$SPELLBOOK_DATA`` if set, else the project's ``data/``."""
    return Path(os.environ.get("SPELLBOOK_DATA", DEFAULT_DATA_DIR))


def load_game(game: str, root: Path | str | None = None) -> Any:
    """Load one game's content from ``root/<game>`` (default: the project's data folder)."""
    if game not in LOADERS:
        raise DataError([Problem(str(root or data_dir()), "", "game", f"unknown game '{game}' (known: {', '.join(GAMES)})")])
    base = Path(root) if root is not None else data_dir()
    return LOADERS[game](base / game)


@lru_cache(maxsize=None)
def _cached(game: str, root: str) -> Any:
    return load_game(game, root)


def content(game: str) -> Any:
    """The default data folder's content for ``game``, loaded once per process."""
    return _cached(game, str(data_dir()))


__all__ = ["DataError", "DataNote", "Problem", "RuleEntry", "GAMES", "load_game", "content", "data_dir"]
