"""The Jonathan Strange & Mr Norrell print kit: the seven decks, the map of Europe and London as a tiled
poster with its assembly guide, the four magician boards, the tokens and discs, the quick reference and the
private magicianship tally sheet."""

from __future__ import annotations

from cardgen.catalog.jsmn import GAME_ID

from ..registry import Document
from .deck import render_deck

DOCUMENTS: tuple[Document, ...] = (
    Document("deck", "deck.pdf", "the seven decks (189 cards: portrait hand cards, landscape table cards), each "
             "with its own back", work=lambda content: len(content.cards), render=render_deck),
)

__all__ = ["GAME_ID", "DOCUMENTS"]
