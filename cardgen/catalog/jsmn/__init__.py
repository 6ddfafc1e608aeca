"""Jonathan Strange & Mr Norrell in the card-data layer: :func:`load` reads ``data/jsmn/``
into a frozen :class:`JsmnContent`.

Every game's package has the same modules:

- ``types``: the typed records (cards and the rest) and the vocabularies they use;
- ``content``: :class:`JsmnContent`, the loaded content with its look-ups;
- ``loader``: reads and checks every file, naming file, record and field on a problem;
- ``map``: the map of Europe and London as a graph, with the rulebook's London rule;
- ``decks``: the loader's field readers and the seven decks.

This front re-exports their public names, so callers import from ``cardgen.catalog.jsmn``.
"""

from __future__ import annotations

from ..spec import GameCatalog
from .commands import COMMANDS
from .content import CARD_RULES, SPELL_RULES, JsmnContent
from .loader import load
from .types import (
                    BOOK_FORMS,
                    CONNEXION_TYPE_IDS,
                    DECKS,
                    ELEMENT_IDS,
                    GAME_ID,
                    NAMED_EFFECTS,
                    PERSON_KINDS,
                    SPELL_EFFECTS,
                    SPELL_TIMINGS,
                    UNIQUE_EFFECTS,
                    Action,
                    AnyCard,
                    Book,
                    Card,
                    CardKind,
                    ConnexionType,
                    Contents,
                    Element,
                    ExampleTurn,
                    Feat,
                    Introduction,
                    Invitation,
                    Limits,
                    Magician,
                    MagicianshipValues,
                    MarseillesCard,
                    NamedConnexion,
                    Spell,
                    Tracks,
)

CATALOG = GameCatalog(id=GAME_ID, load=load, counted=("cards", "spells", "rules", "notes"), commands=COMMANDS)

__all__ = ["CATALOG", "BOOK_FORMS", "CARD_RULES", "CONNEXION_TYPE_IDS", "DECKS", "ELEMENT_IDS", "GAME_ID",
           "NAMED_EFFECTS", "PERSON_KINDS", "SPELL_EFFECTS", "SPELL_RULES", "SPELL_TIMINGS", "UNIQUE_EFFECTS",
           "Action", "AnyCard", "Book", "Card", "CardKind", "ConnexionType", "Contents", "Element", "ExampleTurn",
           "Feat", "Introduction", "Invitation", "JsmnContent", "Limits", "Magician", "MagicianshipValues",
           "MarseillesCard", "NamedConnexion", "Spell", "Tracks", "load"]
