"""The Magicians of Fillory print kit: deck, reference sheet and score pad."""

from __future__ import annotations

from cardgen.catalog.fillory import GAME_ID

from ..registry import Document, PrintKit, ThemeCheck
from .deck import deck_faces, render_deck
from .reference import render_reference
from .score_pad import render_score_pad

DOCUMENTS: tuple[Document, ...] = (
    Document("deck", "deck.pdf", "every card front, with backs for duplex printing",
             work=lambda content: len(content.cards), render=render_deck),
    Document("reference", "reference.pdf", "turn phases, card tricks, scoring table, traits, data notes",
             work=lambda content: 1, render=render_reference),
    Document("score-pad", "score-pad.pdf", "one sheet per player: turns, running total, traits scored",
             work=lambda content: 1, render=render_score_pad),
)

KIT = PrintKit(GAME_ID, DOCUMENTS, deck_faces=deck_faces,
               theme=ThemeCheck("trait", lambda content: [trait.name for trait in content.traits]))

__all__ = ["GAME_ID", "DOCUMENTS", "KIT"]
