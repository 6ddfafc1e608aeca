"""Barony: Sorcery in the card-data layer: :func:`load` reads ``data/barony-sorcery/``
into a frozen :class:`BaronySorceryContent`.

Every game's package has the same modules:

- ``types``: the typed records (cards and the rest) and the vocabularies they use;
- ``content``: :class:`BaronySorceryContent`, the loaded content with its look-ups;
- ``loader``: reads and checks every file, naming file, record and field on a problem.

This front re-exports their public names, so callers import from ``cardgen.catalog.barony_sorcery``.
"""

from __future__ import annotations

from ..spec import GameCatalog
from .content import BaronySorceryContent
from .loader import load
from .types import (
                    CATEGORY_IDS,
                    CATEGORY_SYMBOLS,
                    GAME_ID,
                    MYSTERIOUS,
                    PLAYER_SYMBOLS,
                    TERRAINS,
                    Card,
                    Category,
                    CategoryId,
                    Combination,
                    FifthPlayer,
                    Location,
                    PlayerColour,
                    ResourceKind,
                    SetupCounts,
                    Spell,
                    Tile,
)

CATALOG = GameCatalog(id=GAME_ID, load=load, counted=("cards", "spells", "tiles", "rules", "notes"))

__all__ = ["CATALOG", "CATEGORY_IDS", "CATEGORY_SYMBOLS", "GAME_ID", "MYSTERIOUS", "PLAYER_SYMBOLS", "TERRAINS",
           "BaronySorceryContent", "Card", "Category", "CategoryId", "Combination", "FifthPlayer", "Location",
           "PlayerColour", "ResourceKind", "SetupCounts", "Spell", "Tile", "load"]
