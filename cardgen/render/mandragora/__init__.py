"""The Mandragora print kit: item and spell decks, shop tiles, markers and standee, reference sheet,
score pad."""

from __future__ import annotations

from cardgen.catalog.mandragora import GAME_ID
from cardgen.catalog.spec import imported_when_called

from ..registry import Document, PrintKit, ThemeCheck

DOCUMENTS: tuple[Document, ...] = (
    Document("deck", "deck.pdf", "82 magical items then 24 spells, with backs for duplex printing",
             work=lambda content: len(content.cards), render=imported_when_called(f"{__name__}.deck", "render_deck")),
    Document("tiles", "tiles.pdf", "the 10 shop tiles (7 day, 3 night, the start tile), with backs",
             work=lambda content: 1, render=imported_when_called(f"{__name__}.tiles", "render_tiles")),
    Document("tokens", "tokens.pdf", "Curse marker, Endgame Countdown marker (III/II), fold-over Assistant standee",
             work=lambda content: 1, render=imported_when_called(f"{__name__}.tokens", "render_tokens")),
    Document("reference", "reference.pdf", "setup, turn choices, every spell and its kind, colours, curse, countdown, "
             "scoring, removals, team variant, rulebook notes", work=lambda content: 1, render=imported_when_called(f"{__name__}.reference", "render_reference"), cost=41),
    Document("score-pad", "score-pad.pdf", "one sheet per game: spells, colours left in hand, curse, total, tie-break",
             work=lambda content: 1, render=imported_when_called(f"{__name__}.score_pad", "render_score_pad"), cost=11),
)

KIT = PrintKit(GAME_ID, DOCUMENTS, deck_faces=imported_when_called(f"{__name__}.deck", "deck_faces"),
               theme=ThemeCheck("colour", lambda content: [colour.id for colour in content.colours]))

__all__ = ["GAME_ID", "DOCUMENTS", "KIT"]
