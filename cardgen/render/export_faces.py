"""What a game's deck gives the print-shop export: its cards as (front, back) face pairs, deck by deck.

Each game's ``deck.py`` has a ``deck_faces(content, resolved)`` returning these; :mod:`.export` draws
them one card at a time instead of imposing them on sheets.
"""

from __future__ import annotations

from dataclasses import dataclass

from .faces import Face


@dataclass(frozen=True)
class CardFaces:
    card_id: str
    front: Face
    back: Face
    version: str = ""          # the card's content version (the QR code's ?v=), for --changed-since


@dataclass(frozen=True)
class DeckFaces:
    name: str                  # the deck's short name: 'deck', 'items', 'spells', 'feat', ...
    cards: list[CardFaces]
