"""The Magicians of Fillory deck: 110 card fronts imposed on sheets, each followed by its backs."""

from __future__ import annotations

from pathlib import Path

from cardgen.catalog.fillory import FilloryContent
from cardgen.catalog.versions import card_version

from ..export_faces import CardFaces, DeckFaces
from ..imposition import ImpositionSettings, impose, sheet_label
from ..options import ResolvedOptions
from ..pdf import new_canvas
from ..qr import card_url, qr_matrix
from ..registry import Progress
from .card_faces import FilloryCardBack, FilloryCardFront
from .style import fillory_style


def card_fronts(content: FilloryContent, resolved: ResolvedOptions) -> list[FilloryCardFront]:
    """One front per card, in card-number order."""
    style = fillory_style(resolved.specs.theme(content.game), resolved.options.ink_saver)
    setup = set(content.setup_neutral)
    return [
        FilloryCardFront(card=card, content=content, style=style, size=resolved.card_size,
                         qr=qr_matrix(card_url(resolved.base_url, content.game, card.id, card_version(card))),
                         in_setup=card.id in setup)
        for card in sorted(content.cards, key=lambda c: c.number)
    ]


def deck_faces(content: FilloryContent, resolved: ResolvedOptions) -> list[DeckFaces]:
    """The deck as (front, back) pairs, for the print-shop export."""
    fronts = card_fronts(content, resolved)
    back = FilloryCardBack(style=fronts[0].style, size=resolved.card_size)
    return [DeckFaces("deck", [CardFaces(f.card.id, f, back, card_version(f.card)) for f in fronts])]


def render_deck(content: FilloryContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    fronts = card_fronts(content, resolved)
    back = FilloryCardBack(style=fronts[0].style, size=resolved.card_size)
    layout = resolved.card_layout()
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=f"{content.title}: deck ({resolved.card_size.name}, {resolved.paper.name})",
                        subject=f"{len(fronts)} cards, {layout.per_sheet} per sheet, "
                                f"{'duplex backs' if options.duplex else 'backs after fronts'}")
    settings = ImpositionSettings.from_options(options)
    impose(canvas, layout, resolved.specs.sheet, fronts, [back] * len(fronts), settings,
           sheet_label(content.title), on_card=progress)
    canvas.save()
