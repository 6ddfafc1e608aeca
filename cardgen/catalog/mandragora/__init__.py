"""Mandragora in the card-data layer: :func:`load` reads ``data/mandragora/``
into a frozen :class:`MandragoraContent`.

Every game's package has the same modules:

- ``types``: the typed records (cards and the rest) and the vocabularies they use;
- ``content``: :class:`MandragoraContent`, the loaded content with its look-ups;
- ``loader``: reads and checks every file, naming file, record and field on a problem.

This front re-exports their public names, so callers import from ``cardgen.catalog.mandragora``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..spec import GameCatalog, imported_when_called, lazy_exports

GAME_ID = "mandragora"

#: the names this front re-exports, by the submodule defining each, imported at first use (see lazy_exports)
EXPORTS: dict[str, tuple[str, ...]] = {
    "content": ("MandragoraContent",),
    "loader": ("load",),
    "types": (
        "COLOUR_SYMBOLS", "EFFECT_ICONS", "EFFECT_KINDS", "EFFECTS", "ITEM_KINDS", "KIND_LABELS", "WHITE", "Card",
        "CardKind", "Colour", "ComponentCounts", "EffectKind", "ExampleBreakdown", "Removal", "ScoringExample",
        "ShopTile", "ShopTime", "Spell",
    ),
}

if TYPE_CHECKING:
    from .content import MandragoraContent  # noqa: F401
    from .loader import load  # noqa: F401
    from .types import (  # noqa: F401
        COLOUR_SYMBOLS,
        EFFECT_ICONS,
        EFFECT_KINDS,
        EFFECTS,
        ITEM_KINDS,
        KIND_LABELS,
        WHITE,
        Card,
        CardKind,
        Colour,
        ComponentCounts,
        EffectKind,
        ExampleBreakdown,
        Removal,
        ScoringExample,
        ShopTile,
        ShopTime,
        Spell,
    )
else:
    __getattr__ = lazy_exports(__name__, EXPORTS)

CATALOG = GameCatalog(id=GAME_ID, load=imported_when_called(f"{__name__}.loader", "load"),
                      counted=("cards", "spells", "colours", "shops", "rules", "notes"))

__all__ = ["CATALOG", "GAME_ID", *(name for names in EXPORTS.values() for name in names)]
