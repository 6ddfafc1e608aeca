"""Mandragora in the card-data layer: :func:`load` reads ``data/mandragora/``
into a frozen :class:`MandragoraContent`.

Every game's package has the same modules:

- ``types``: the typed records (cards and the rest) and the vocabularies they use;
- ``content``: :class:`MandragoraContent`, the loaded content with its look-ups;
- ``loader``: reads and checks every file, naming file, record and field on a problem.

This front re-exports their public names, so callers import from ``cardgen.catalog.mandragora``.
"""

from __future__ import annotations

from ..spec import GameCatalog
from .content import MandragoraContent
from .loader import load
from .types import (
                    COLOUR_SYMBOLS,
                    EFFECT_ICONS,
                    EFFECT_KINDS,
                    EFFECTS,
                    GAME_ID,
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

CATALOG = GameCatalog(id=GAME_ID, load=load, counted=("cards", "spells", "colours", "shops", "rules", "notes"))

__all__ = ["CATALOG", "COLOUR_SYMBOLS", "EFFECTS", "EFFECT_ICONS", "EFFECT_KINDS", "GAME_ID", "ITEM_KINDS",
           "KIND_LABELS", "WHITE", "Card", "CardKind", "Colour", "ComponentCounts", "EffectKind", "ExampleBreakdown",
           "MandragoraContent", "Removal", "ScoringExample", "ShopTile", "ShopTime", "Spell", "load"]
