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

from typing import TYPE_CHECKING

from ..spec import GameCatalog, imported_when_called, lazy_exports
from .commands import COMMANDS

GAME_ID = "jsmn"

#: the names this front re-exports, by the submodule defining each, imported at first use (see lazy_exports)
EXPORTS: dict[str, tuple[str, ...]] = {
    "content": ("CARD_RULES", "SPELL_RULES", "JsmnContent"),
    "loader": ("load",),
    "types": (
        "BOOK_FORMS", "CONNEXION_TYPE_IDS", "DECKS", "ELEMENT_IDS", "NAMED_EFFECTS", "PERSON_KINDS",
        "SPELL_EFFECTS", "SPELL_TIMINGS", "UNIQUE_EFFECTS", "Action", "AnyCard", "Book", "Card", "CardKind",
        "ConnexionType", "Contents", "Element", "ExampleTurn", "Feat", "Introduction", "Invitation", "Limits",
        "Magician", "MagicianshipValues", "MarseillesCard", "NamedConnexion", "Spell", "Tracks",
    ),
}

if TYPE_CHECKING:
    from .content import CARD_RULES, SPELL_RULES, JsmnContent  # noqa: F401
    from .loader import load  # noqa: F401
    from .types import (  # noqa: F401
        BOOK_FORMS,
        CONNEXION_TYPE_IDS,
        DECKS,
        ELEMENT_IDS,
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
else:
    __getattr__ = lazy_exports(__name__, EXPORTS)

CATALOG = GameCatalog(id=GAME_ID, load=imported_when_called(f"{__name__}.loader", "load"),
                      counted=("cards", "spells", "rules", "notes"), commands=COMMANDS)

__all__ = ["CATALOG", "GAME_ID", *(name for names in EXPORTS.values() for name in names)]
