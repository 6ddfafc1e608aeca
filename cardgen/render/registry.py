"""Which documents each game's print kit has. A game adds its own by listing them here."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .options import ResolvedOptions

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Document:
    """One PDF of a game's kit, e.g. the Fillory deck.

    ``work`` says how many progress steps rendering takes (cards for a deck, 1 for a sheet);
    ``render`` writes the PDF to the path it is given and reports those steps.
    """

    name: str
    filename: str
    description: str
    work: Callable[[Any], int]
    render: Callable[[Any, ResolvedOptions, Path, Progress], None]


def game_documents() -> dict[str, tuple[Document, ...]]:
    """Every game with a print kit, mapped to its documents (imported lazily: a game's faces load only
    when that game is built)."""
    from . import barony_sorcery, fillory, jsmn, mandragora
    return {
        fillory.GAME_ID: fillory.DOCUMENTS,
        mandragora.GAME_ID: mandragora.DOCUMENTS,
        barony_sorcery.GAME_ID: barony_sorcery.DOCUMENTS,
        jsmn.GAME_ID: jsmn.DOCUMENTS,
    }
