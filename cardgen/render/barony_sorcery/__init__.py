"""The Barony: Sorcery print kit: the nine spell cards, the nine hex Territory tiles, the token sheet (Magic,
Control, Resource, the fifth player's pieces), the reference sheet, the player reference and the setup card."""

from __future__ import annotations

from cardgen.catalog.barony_sorcery import GAME_ID
from cardgen.catalog.spec import imported_when_called

from ..registry import Document, PrintKit

DOCUMENTS: tuple[Document, ...] = (
    Document("deck", "deck.pdf", "the 9 spell cards (category by colour and symbol, cost on the left), with backs",
             work=lambda content: len(content.cards), render=imported_when_called(f"{__name__}.deck", "render_deck")),
    Document("tiles", "tiles.pdf", "the 9 hex Territory tiles (5 Mysterious locations) at --hex-size, with backs",
             work=lambda content: 1, render=imported_when_called(f"{__name__}.tiles", "render_tiles")),
    Document("tokens", "tokens.pdf", "30 Magic, 25 Control (5 colours, 5 symbols), 20 Resource tokens and the fifth "
             "player's pieces, two-sided", work=lambda content: 1, render=imported_when_called(f"{__name__}.tokens", "render_tokens")),
    Document("reference", "reference.pdf", "setup changes, exploring, casting and combining, the 9 spells, scoring, "
             "rulebook notes", work=lambda content: 1, render=imported_when_called(f"{__name__}.reference", "render_reference"), cost=32),
    Document("player-sheet", "player-sheet.pdf", "player reference with the fifth player's pieces",
             work=lambda content: 1, render=imported_when_called(f"{__name__}.reference", "render_player_sheet")),
    Document("setup", "setup.pdf", "two-sided setup card: tiles and Mysterious locations by number of players",
             work=lambda content: 1, render=imported_when_called(f"{__name__}.setup_card", "render_setup_card")),
)

KIT = PrintKit(GAME_ID, DOCUMENTS, deck_faces=imported_when_called(f"{__name__}.deck", "deck_faces"))

__all__ = ["GAME_ID", "DOCUMENTS", "KIT"]
