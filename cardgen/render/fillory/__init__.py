"""The Magicians of Fillory print kit: deck, reference sheet and score pad."""

from __future__ import annotations

from cardgen.catalog.fillory import GAME_ID
from cardgen.catalog.spec import imported_when_called

from ..registry import Document, PrintKit, ThemeCheck

DOCUMENTS: tuple[Document, ...] = (
    Document("deck", "deck.pdf", "every card front, with backs for duplex printing",
             work=lambda content: len(content.cards), render=imported_when_called(f"{__name__}.deck", "render_deck")),
    Document("reference", "reference.pdf", "turn phases, card tricks, scoring table, traits, data notes",
             work=lambda content: 1, render=imported_when_called(f"{__name__}.reference", "render_reference"), cost=30),
    Document("score-pad", "score-pad.pdf", "one sheet per player: turns, running total, traits scored",
             work=lambda content: 1, render=imported_when_called(f"{__name__}.score_pad", "render_score_pad"), cost=7),
)

KIT = PrintKit(GAME_ID, DOCUMENTS, deck_faces=imported_when_called(f"{__name__}.deck", "deck_faces"),
               theme=ThemeCheck("trait", lambda content: [trait.name for trait in content.traits]))

__all__ = ["GAME_ID", "DOCUMENTS", "KIT"]
