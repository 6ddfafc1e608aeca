"""Magicians of Fillory in the card-data layer: :func:`load` reads ``data/fillory/``
into a frozen :class:`FilloryContent`.

Every game's package has the same modules:

- ``types``: the typed records (cards and the rest) and the vocabularies they use;
- ``content``: :class:`FilloryContent`, the loaded content with its look-ups;
- ``loader``: reads and checks every file, naming file, record and field on a problem.

This front re-exports their public names, so callers import from ``cardgen.catalog.fillory``.
"""

from __future__ import annotations

from ..spec import GameCatalog
from .content import FilloryContent
from .loader import load
from .types import (
           GAME_ID,
           TRICK_KINDS,
           AbilityOption,
           Action,
           Card,
           TargetKind,
           Trait,
           TrickEffect,
)

CATALOG = GameCatalog(id=GAME_ID, load=load, counted=("cards", "traits", "rules", "notes"))

__all__ = ["CATALOG", "GAME_ID", "TRICK_KINDS", "AbilityOption", "Action", "Card", "FilloryContent", "TargetKind",
           "Trait", "TrickEffect", "load"]
