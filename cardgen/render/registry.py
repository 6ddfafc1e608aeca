"""What each game's print kit declares, found by discovery: a game adds its kit by declaring a
:class:`PrintKit` as ``KIT`` in its own package ``cardgen/render/<game>/``; no shared module lists games."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from cardgen.catalog.spec import declared_by, discover, extra_modules_from_env

from .options import ResolvedOptions

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Document:
    """One PDF of a game's kit, e.g. a deck.

    ``work`` says how many progress steps rendering takes (cards for a deck, 1 for a sheet);
    ``render`` writes the PDF to the path it is given and reports those steps; ``cost``, for a sheet,
    how many cards' time writing it takes (a build hands the costliest documents out first; None: a sheet's
    usual, :data:`~cardgen.render.build.SHEET_COST`).
    """

    name: str
    filename: str
    description: str
    work: Callable[[Any], int]
    render: Callable[[Any, ResolvedOptions, Path, Progress], None]
    cost: int | None = None


@dataclass(frozen=True)
class ThemeCheck:
    """A kit coloured by a theme (``data/print/themes/<game>.toml``): every member the content names
    must be in exactly one of the theme's families. ``member`` is what messages call one ("trait",
    "colour"); ``members`` lists them from the game's content."""

    member: str
    members: Callable[[Any], list[str]]


@dataclass(frozen=True)
class PrintKit:
    """One game's print kit: its id (the catalog's), its documents in build order, the colour theme
    it needs checked, if any, and its cards as (front, back) faces deck by deck for ``cardgen export``
    (``deck_faces(content, resolved)`` returning :class:`~cardgen.render.export_faces.DeckFaces`)."""

    id: str
    documents: tuple[Document, ...]
    theme: ThemeCheck | None = None
    deck_faces: Callable[[Any, ResolvedOptions], list[Any]] | None = None


@lru_cache(maxsize=None)
def print_kits() -> dict[str, PrintKit]:
    """Every game with a print kit, by game id (each game's faces are imported at the first call)."""
    found = discover(sys.modules[__package__], "KIT", PrintKit)  # cardgen.render's game packages
    for game, kit in declared_by(extra_modules_from_env(), "KIT", PrintKit).items():  # games outside the tree
        found.setdefault(game, kit)
    return found


def game_documents() -> dict[str, tuple[Document, ...]]:
    """Every game with a print kit, mapped to its documents."""
    return {game: kit.documents for game, kit in print_kits().items()}
