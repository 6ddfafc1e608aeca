"""The Jonathan Strange & Mr Norrell print kit: the seven decks, the map of Europe and London as a tiled
poster with its assembly guide, the four magician boards, the tokens and discs, the quick reference and the
private magicianship tally sheet."""

from __future__ import annotations

from cardgen.catalog.jsmn import GAME_ID
from cardgen.catalog.spec import imported_when_called

from ..registry import Document, PrintKit

DOCUMENTS: tuple[Document, ...] = (
    Document("deck", "deck.pdf", "the seven decks (189 cards: portrait hand cards, landscape table cards), each "
             "with its own back", work=lambda content: len(content.cards), render=imported_when_called(f"{__name__}.deck", "render_deck")),
    Document("map", "map.pdf", "the map of Europe and London as a tiled poster (overlap and registration marks) with "
             "its assembly guide: tracks for year, fairy and prestige, book and feat slots", work=lambda content: 1,
             render=imported_when_called(f"{__name__}.poster", "render_map")),
    Document("boards", "boards.pdf", "the four magician boards: silver basin, six action slots, six connexion spaces, "
             "the unique action", work=lambda content: 1, render=imported_when_called(f"{__name__}.boards", "render_boards")),
    Document("tokens", "tokens.pdf", "78 element tokens (13 of each element, each with its own symbol), the year token, "
             "the fairy disc, the magician pieces and the 44 player discs, two-sided", work=lambda content: 1,
             render=imported_when_called(f"{__name__}.tokens", "render_tokens")),
    Document("reference", "reference.pdf", "quick reference: a year, a turn, visits, magic, confronting the fairy, "
             "scoring, elements, actions, connexions, rulebook notes", work=lambda content: 1, render=imported_when_called(f"{__name__}.reference", "render_reference"), cost=43),
    Document("tally", "tally.pdf", "private magicianship tally: four slips (feats, books, pupil, spells, total, raven "
             "years)", work=lambda content: 1, render=imported_when_called(f"{__name__}.tally", "render_tally"), cost=5),
)

KIT = PrintKit(GAME_ID, DOCUMENTS, deck_faces=imported_when_called(f"{__name__}.deck", "deck_faces"))

__all__ = ["GAME_ID", "DOCUMENTS", "KIT"]
