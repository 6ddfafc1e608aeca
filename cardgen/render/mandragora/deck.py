"""The Mandragora decks: 82 magical items, then 24 spells from a fresh sheet, each sheet followed by its
backs (the two decks have different backs)."""

from __future__ import annotations

from pathlib import Path

from cardgen.catalog.mandragora import MandragoraContent
from cardgen.catalog.versions import card_version

from ..export_faces import CardFaces, DeckFaces
from ..imposition import ImpositionSettings, impose, sheet_label
from ..labels import label as words
from ..options import ResolvedOptions
from ..pdf import new_canvas
from ..qr import card_url, qr_matrix
from ..registry import Progress
from .card_faces import CardBack, CardFront
from .style import MandragoraStyle, style_for


def card_fronts(content: MandragoraContent, resolved: ResolvedOptions,
                style: MandragoraStyle | None = None) -> list[CardFront]:
    """One front per card in card-number order (items 1..82, then spells)."""
    style = style or style_for(content, resolved.specs.theme(content.game), resolved.options.ink_saver)
    return [CardFront(card=card, content=content, style=style, size=resolved.card_size,
                      qr=qr_matrix(card_url(resolved.base_url, content.game, card.id, card_version(card))))
            for card in sorted(content.cards, key=lambda c: c.number)]


def deck_faces(content: MandragoraContent, resolved: ResolvedOptions) -> list[DeckFaces]:
    """The item and spell decks as (front, back) pairs, for the print-shop export."""
    style = style_for(content, resolved.specs.theme(content.game), resolved.options.ink_saver)
    fronts = card_fronts(content, resolved, style)
    symbols = tuple(c.symbol for c in content.colours)
    item_back = CardBack(style, resolved.card_size, "items", symbols)
    spell_back = CardBack(style, resolved.card_size, "spells")
    return [DeckFaces("items", [CardFaces(f.card.id, f, item_back, card_version(f.card)) for f in fronts if f.card.kind != "spell"]),
            DeckFaces("spells", [CardFaces(f.card.id, f, spell_back, card_version(f.card)) for f in fronts if f.card.kind == "spell"])]


def render_deck(content: MandragoraContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    style = style_for(content, resolved.specs.theme(content.game), options.ink_saver)
    fronts = card_fronts(content, resolved, style)
    layout = resolved.card_layout()
    items = [f for f in fronts if f.card.kind != "spell"]
    spells = [f for f in fronts if f.card.kind == "spell"]
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=f"{content.title}: item and spell decks ({resolved.card_size.name}, {resolved.paper.name})",
                        subject=f"{len(items)} magical items and {len(spells)} spells, {layout.per_sheet} per sheet, "
                                f"{'duplex backs' if options.duplex else 'backs after fronts'}")
    settings = ImpositionSettings.from_options(options)
    symbols = tuple(c.symbol for c in content.colours)
    item_back, spell_back = CardBack(style, resolved.card_size, "items", symbols), CardBack(style, resolved.card_size,
                                                                                           "spells")
    # both decks on the same run of sheets, each card with its own deck's back: the last item sheet is filled up
    # with spells instead of holding a single card (82 + 24 cards: 12 sheets, not 10 + 3)
    impose(canvas, layout, resolved.specs.sheet, [*items, *spells], [item_back] * len(items) + [spell_back] * len(spells),
           settings, sheet_label(words("mandragora-deck", "sheet"), first_number=items[0].card.number), on_card=progress)
    canvas.save()
