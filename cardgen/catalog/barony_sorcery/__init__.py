"""Barony: Sorcery in the card-data layer: :func:`load` reads ``data/barony-sorcery/``
into a frozen :class:`BaronySorceryContent`.

Every game's package has the same modules:

- ``types``: the typed records (cards and the rest) and the vocabularies they use;
- ``content``: :class:`BaronySorceryContent`, the loaded content with its look-ups;
- ``loader``: reads and checks every file, naming file, record and field on a problem.

This front re-exports their public names, so callers import from ``cardgen.catalog.barony_sorcery``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..spec import GameCatalog, imported_when_called, lazy_exports

GAME_ID = "barony-sorcery"

#: the names this front re-exports, by the submodule defining each, imported at first use (see lazy_exports)
EXPORTS: dict[str, tuple[str, ...]] = {
    "content": ("BaronySorceryContent",),
    "loader": ("load",),
    "types": (
        "CATEGORY_IDS", "CATEGORY_SYMBOLS", "MYSTERIOUS", "PLAYER_SYMBOLS", "TERRAINS", "Card", "Category",
        "CategoryId", "Combination", "FifthPlayer", "Location", "PlayerColour", "ResourceKind", "SetupCounts",
        "Spell", "Tile",
    ),
}

if TYPE_CHECKING:
    from .content import BaronySorceryContent  # noqa: F401
    from .loader import load  # noqa: F401
    from .types import (  # noqa: F401
        CATEGORY_IDS,
        CATEGORY_SYMBOLS,
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
else:
    __getattr__ = lazy_exports(__name__, EXPORTS)

CATALOG = GameCatalog(id=GAME_ID, load=imported_when_called(f"{__name__}.loader", "load"),
                      counted=("cards", "spells", "tiles", "rules", "notes"))

__all__ = ["CATALOG", "GAME_ID", *(name for names in EXPORTS.values() for name in names)]
