"""The card-data layer: one loader turning ``data/<game>/*.toml`` into frozen, typed objects.

Used by both the print generator and the companion. ``load_game(game_id)`` returns the content
or raises :class:`DataError` with one message per problem (file, record, field). The games are found,
not listed: every package ``cardgen/catalog/<game>/`` that declares a :class:`GameCatalog` as
``CATALOG`` is one (:func:`catalogs`).
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from .base import DEFAULT_DATA_DIR, DataError, DataNote, Problem, RuleEntry
from .spec import GameCatalog, discover


@lru_cache(maxsize=None)
def catalogs() -> dict[str, GameCatalog]:
    """Every game's declaration, by game id."""
    return discover(sys.modules[__name__], "CATALOG", GameCatalog)


GAMES: tuple[str, ...] = tuple(catalogs())


def data_dir() -> Path:
    """The data folder: ``$SPELLBOOK_DATA`` if set, else the project's ``data/``."""
    return Path(os.environ.get("SPELLBOOK_DATA", DEFAULT_DATA_DIR))


def load_game(game: str, root: Path | str | None = None) -> Any:
    """Load one game's content from ``root/<game>`` (default: the project's data folder)."""
    found = catalogs().get(game)
    if found is None:
        raise DataError([Problem(str(root or data_dir()), "", "game", f"unknown game '{game}' (known: {', '.join(GAMES)})")])
    base = Path(root) if root is not None else data_dir()
    loaded = found.load(base / game)
    try:
        object.__setattr__(loaded, "_data_root", base)  # the print labels its cards' versions include
    except (AttributeError, TypeError):  # pragma: no cover - a content type with slots
        pass
    return loaded


@lru_cache(maxsize=None)
def _cached(game: str, root: str) -> Any:
    return load_game(game, root)


def content(game: str) -> Any:
    """The default data folder's content for ``game``, loaded once per process."""
    return _cached(game, str(data_dir()))


@lru_cache(maxsize=None)
def _loads(game: str, root: str) -> bool:
    try:
        _cached(game, root)
    except DataError:
        return False
    return True


def available_games() -> tuple[str, ...]:
    """The games whose content loads from the default data folder (a game whose data is broken is left out;
    its :func:`content` raises the DataError naming file, record and field)."""
    root = str(data_dir())
    return tuple(game for game in GAMES if _loads(game, root))


__all__ = ["DataError", "DataNote", "GameCatalog", "Problem", "RuleEntry", "GAMES", "available_games", "catalogs",
           "load_game", "content", "data_dir"]
