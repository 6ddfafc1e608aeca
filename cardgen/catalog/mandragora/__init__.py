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
else:  # the records, loader and look-ups are imported at their first use (see lazy_exports)
    __getattr__ = lazy_exports(__name__, {
        **dict.fromkeys(('MandragoraContent',), "content"),
        **dict.fromkeys(('load',), "loader"),
        **dict.fromkeys(('COLOUR_SYMBOLS', 'EFFECT_ICONS', 'EFFECT_KINDS', 'EFFECTS', 'ITEM_KINDS', 'KIND_LABELS', 'WHITE', 'Card', 'CardKind', 'Colour', 'ComponentCounts', 'EffectKind', 'ExampleBreakdown', 'Removal', 'ScoringExample', 'ShopTile', 'ShopTime', 'Spell'), "types"),
    })

CATALOG = GameCatalog(id=GAME_ID, load=imported_when_called(f"{__name__}.loader", "load"), counted=("cards", "spells", "colours", "shops", "rules", "notes"))

__all__ = ["CATALOG", "COLOUR_SYMBOLS", "EFFECTS", "EFFECT_ICONS", "EFFECT_KINDS", "GAME_ID", "ITEM_KINDS",
           "KIND_LABELS", "WHITE", "Card", "CardKind", "Colour", "ComponentCounts", "EffectKind", "ExampleBreakdown",
           "MandragoraContent", "Removal", "ScoringExample", "ShopTile", "ShopTime", "Spell", "load"]
