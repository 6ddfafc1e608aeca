"""The Magicians of Fillory deck: 110 card fronts imposed on sheets, each followed by its backs."""

from __future__ import annotations

from pathlib import Path

from cardgen.catalog.fillory import FilloryContent

from ..imposition import ImpositionSettings, SheetInfo, SheetLabel, impose
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
                         qr=qr_matrix(card_url(resolved.base_url, content.game, card.id)),
                         in_setup=card.id in setup)
        for card in sorted(content.cards, key=lambda c: c.number)
    ]


def _label(title: str) -> SheetLabel:
    def label(info: SheetInfo) -> str:
        side = "fronts" if info.side == "front" else "backs"
        return (f"{title} · {side} · sheet {info.sheet}/{info.sheets} · "
                f"cards {info.first_card}–{info.last_card}")
    return label


def render_deck(content: FilloryContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    fronts = card_fronts(content, resolved)
    back = FilloryCardBack(style=fronts[0].style, size=resolved.card_size)
    layout = resolved.card_layout()
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=f"{content.title}: deck ({resolved.card_size.name}, {resolved.paper.name})",
                        subject=f"{len(fronts)} cards, {layout.per_sheet} per sheet, "
                                f"{'duplex backs' if options.duplex else 'backs after fronts'}")
    settings = ImpositionSettings(crop_marks=options.crop_marks, duplex=options.duplex,
                                  back_offset_x=options.back_offset_x, back_offset_y=options.back_offset_y)
    impose(canvas, layout, resolved.specs.sheet, fronts, [back] * len(fronts), settings,
           _label(content.title), on_card=progress)
    canvas.save()
