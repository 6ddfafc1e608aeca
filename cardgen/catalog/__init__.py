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
from typing import Any, Iterable

from .base import DEFAULT_DATA_DIR, DataError, DataNote, Problem, RuleEntry
from .spec import (
    GameCatalog,
    GameFacts,
    declared_by,
    discover,
    extra_modules_from_env,
    read_facts,
)


@lru_cache(maxsize=None)
def catalogs() -> dict[str, GameCatalog]:
    """Every game's declaration, by game id: this package's game packages, then the extra games' modules
    named by ``$COMPANION_EXTRA_GAMES`` (:func:`add_catalogs` adds more)."""
    found = discover(sys.modules[__name__], "CATALOG", GameCatalog)
    for game, declared in declared_by(extra_modules_from_env(), "CATALOG", GameCatalog).items():
        found.setdefault(game, declared)
    return found


def add_catalogs(modules: Iterable[str]) -> list[str]:
    """Add the ``CATALOG`` of each named module (a game outside the tree, e.g. the app's ``EXTRA_GAMES``);
    returns the games added."""
    added = declared_by(modules, "CATALOG", GameCatalog)
    for game, declared in added.items():
        catalogs().setdefault(game, declared)
    return list(added)


#: every game's id (:func:`catalogs`), found on first use: a game outside the tree may import this package
GAMES: tuple[str, ...]


def __getattr__(name: str) -> Any:
    if name == "GAMES":
        return tuple(catalogs())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def game_folder(game: str, root: Path | str | None = None) -> Path:
    """``game``'s data folder when the data folder is ``root`` (default: :func:`data_dir`)."""
    base = Path(root) if root is not None else data_dir()
    found = catalogs().get(game)
    return found.folder(base) if found is not None else base / game


@lru_cache(maxsize=None)
def _facts(game: str, folder: str) -> GameFacts:
    return read_facts(game, Path(folder))


def facts_in(game: str, folder: Path) -> GameFacts:
    """``game``'s facts from the ``game.toml`` in its data folder ``folder`` (read once per folder)."""
    return _facts(game, str(folder))


def game_facts(game: str, root: Path | str | None = None) -> GameFacts:
    """A game's title and player counts from its ``game.toml`` (read once per folder): the one place they
    are written. A game's content says the same (its loader reads the same file)."""
    return facts_in(game, game_folder(game, root))


def data_dir() -> Path:
    """The data folder: ``$SPELLBOOK_DATA`` if set, else the project's ``data/``."""
    return Path(os.environ.get("SPELLBOOK_DATA", DEFAULT_DATA_DIR))


def load_game(game: str, root: Path | str | None = None) -> Any:
    """Load one game's content from ``root/<game>`` (default: the project's data folder)."""
    found = catalogs().get(game)
    if found is None:
        raise DataError([Problem(str(root or data_dir()), "", "game", f"unknown game '{game}' (known: {', '.join(catalogs())})")])
    base = Path(root) if root is not None else data_dir()
    loaded = found.load(found.folder(base))
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
    return tuple(game for game in catalogs() if _loads(game, root))


__all__ = ["DataError", "DataNote", "GameCatalog", "GameFacts", "Problem", "RuleEntry", "GAMES", "add_catalogs",
           "available_games", "catalogs", "load_game", "content", "data_dir", "facts_in", "game_facts", "game_folder"]
