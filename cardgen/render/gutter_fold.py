"""Gutter-fold sheets for single-sided printers: fronts on one half of the page, their backs on the other,
mirrored about the fold line in the middle. Folded along that line (and glued), every card has its back
behind it, as a long-edge duplex print would give, with no second pass through the printer.

Each half is laid out like a sheet of its own (:func:`~cardgen.render.layout.plan_layout` on a half
page, so the printable margin and the crop marks hold at the fold as at the paper edge); the page is
turned landscape when that fits more cards (poker cards on A4 or Letter: 4 a sheet, against 3 upright).
"""

from __future__ import annotations

from dataclasses import dataclass

from .layout import LayoutError, Rect, SheetLayout, Slot, plan_layout
from .print_specs import CardSize, PaperSize, SheetRules


@dataclass(frozen=True)
class FoldLayout:
    """A gutter-fold page: ``half`` lays out the front half (the left one, from x = 0); the backs go to
    the mirrored places in the right half of a ``width`` x ``height`` page."""

    half: SheetLayout
    width: float
    height: float

    @property
    def fold_x(self) -> float:
        return self.width / 2

    def front_slot(self, index: int) -> Slot:
        return self.half.slot(index)

    def back_slot(self, index: int) -> Slot:
        """The back of ``front_slot(index)``: mirrored about the fold, turned the other way if sideways."""
        front = self.half.slot(index)
        t = front.trim
        trim = Rect(self.width - t.right, t.y, t.width, t.height)
        return Slot(front.index, self.half.columns - 1 - front.column, front.row, trim, -front.rotation,
                    front.bleed_right, front.bleed_bottom, front.bleed_left, front.bleed_top)

    def back_grid(self) -> Rect:
        g = self.half.grid
        return Rect(self.width - g.right, g.y, g.width, g.height)


def plan_fold_layout(paper: PaperSize, card: CardSize, bleed: float, rules: SheetRules,
                     gutter: float | None = None) -> FoldLayout:
    """The gutter-fold page (upright or landscape, whichever holds more cards; upright on a tie)."""
    best: FoldLayout | None = None
    for width, height in ((paper.width, paper.height), (paper.height, paper.width)):
        half_paper = PaperSize(f"{paper.name} half", width / 2, height)
        try:
            half = plan_layout(half_paper, card, bleed, rules, gutter)
        except LayoutError:
            continue
        if best is None or half.per_sheet > best.half.per_sheet:
            best = FoldLayout(half, width, height)
    if best is None:
        raise LayoutError(f"a {card.name} card ({card.width:g} x {card.height:g} mm) does not fit on half a "
                          f"{paper.name} page for a gutter fold")
    return best
