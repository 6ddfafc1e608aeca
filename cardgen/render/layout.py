"""Sheet geometry: how many cards fit on a paper, where each one sits, where its back goes.

Pure arithmetic in millimetres (origin at the bottom-left of the page, y up, as in PDF), so it is
cheap to test and shared by every game's decks. Drawing lives in :mod:`cardgen.render.imposition`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .print_specs import CardSize, PaperSize, SheetRules

_EPSILON = 1e-6


class LayoutError(ValueError):
    """The requested card size and bleed do not fit on the paper."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in millimetres."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    def grown(self, left: float, bottom: float, right: float, top: float) -> "Rect":
        return Rect(self.x - left, self.y - bottom, self.width + left + right, self.height + bottom + top)

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.width, self.height)

    def as_box(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.right, self.top)


@dataclass(frozen=True)
class Slot:
    """One card position on a sheet: its trim rectangle, how it is turned, and its bleed per side."""

    index: int           # 0-based position on the sheet, reading order (top-left first)
    column: int
    row: int             # 0 = top row
    trim: Rect           # on-sheet footprint of the trimmed card
    rotation: int        # degrees counter-clockwise the face is turned on the sheet: 0, 90 or -90
    bleed_left: float
    bleed_bottom: float
    bleed_right: float
    bleed_top: float

    @property
    def bleed_rect(self) -> Rect:
        """The area the face may paint: its trim plus the bleed it is allowed on each side."""
        return self.trim.grown(self.bleed_left, self.bleed_bottom, self.bleed_right, self.bleed_top)


@dataclass(frozen=True)
class SheetLayout:
    """A grid of ``columns x rows`` cards centred on the paper, optionally turned sideways.

    Between cards, each card's bleed fills half the gutter (``min(bleed, gutter / 2)``). Around the
    grid the bleed is ``outer_bleed_x`` (left and right) and ``outer_bleed_y`` (top and bottom): the
    full bleed where the paper leaves room, less where it does not, so that the crop marks outside it
    still print inside the paper's printable margin.
    """

    paper: PaperSize
    card: CardSize
    bleed: float
    gutter: float
    columns: int
    rows: int
    rotated: bool
    outer_bleed_x: float = -1.0   # negative: the full bleed
    outer_bleed_y: float = -1.0

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    @property
    def footprint(self) -> tuple[float, float]:
        """Width and height one card occupies on the sheet (swapped when rotated)."""
        if self.rotated:
            return self.card.height, self.card.width
        return self.card.width, self.card.height

    @property
    def grid(self) -> Rect:
        """The trim area of the whole grid (outer cut lines), centred on the page."""
        w, h = self.footprint
        width = self.columns * w + (self.columns - 1) * self.gutter
        height = self.rows * h + (self.rows - 1) * self.gutter
        return Rect((self.paper.width - width) / 2, (self.paper.height - height) / 2, width, height)

    @property
    def outer_bleed(self) -> tuple[float, float]:
        """The bleed around the grid: (left and right, top and bottom)."""
        x = self.bleed if self.outer_bleed_x < 0 else self.outer_bleed_x
        y = self.bleed if self.outer_bleed_y < 0 else self.outer_bleed_y
        return x, y

    @property
    def bleed_area(self) -> Rect:
        bx, by = self.outer_bleed
        return self.grid.grown(bx, by, bx, by)

    def sheets_for(self, count: int) -> int:
        return max(1, math.ceil(count / self.per_sheet)) if count else 0

    def slot(self, index: int) -> Slot:
        if not 0 <= index < self.per_sheet:
            raise IndexError(f"slot {index} is outside a {self.columns}x{self.rows} sheet")
        column, row = index % self.columns, index // self.columns
        w, h = self.footprint
        grid = self.grid
        x = grid.x + column * (w + self.gutter)
        y = grid.top - h - row * (h + self.gutter)
        inner = min(self.bleed, self.gutter / 2)
        bx, by = self.outer_bleed
        return Slot(
            index=index, column=column, row=row, trim=Rect(x, y, w, h),
            rotation=90 if self.rotated else 0,
            bleed_left=bx if column == 0 else inner,
            bleed_right=bx if column == self.columns - 1 else inner,
            bleed_top=by if row == 0 else inner,
            bleed_bottom=by if row == self.rows - 1 else inner,
        )

    def back_slot(self, index: int, offset_x: float = 0.0, offset_y: float = 0.0, *,
                  mirrored: bool = True) -> Slot:
        """Where the back of the card in ``slot(index)`` goes on the back page.

        For long-edge duplex the sheet turns over about its vertical axis, so the back page is the
        front mirrored left-to-right; a card turned sideways on the front is turned the other way on
        the back so that both tops share one edge. The offset (mm, right and up as seen on the back
        page) corrects a printer that shifts its second side.
        """
        front = self.slot(index)
        if not mirrored:
            return Slot(front.index, front.column, front.row, front.trim.moved(offset_x, offset_y),
                        front.rotation, front.bleed_left, front.bleed_bottom, front.bleed_right,
                        front.bleed_top)
        t = front.trim
        trim = Rect(self.paper.width - t.right + offset_x, t.y + offset_y, t.width, t.height)
        return Slot(front.index, self.columns - 1 - front.column, front.row, trim, -front.rotation,
                    front.bleed_right, front.bleed_bottom, front.bleed_left, front.bleed_top)

    def cut_lines(self, used: int | None = None) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The x positions of vertical cuts and the y positions of horizontal cuts (deduplicated) of the
        first ``used`` slots (default: all of them)."""
        xs: set[float] = set()
        ys: set[float] = set()
        for i in range(self.per_sheet if used is None else min(used, self.per_sheet)):
            t = self.slot(i).trim
            xs.update((round(t.x, 4), round(t.right, 4)))
            ys.update((round(t.y, 4), round(t.top, 4)))
        return tuple(sorted(xs)), tuple(sorted(ys))


def _fit(space: float, size: float, gutter: float) -> int:
    return max(0, math.floor((space + gutter + _EPSILON) / (size + gutter)))


def plan_layout(paper: PaperSize, card: CardSize, bleed: float, rules: SheetRules,
                gutter: float | None = None, full_bleed: bool = False) -> SheetLayout:
    """The grid that fits most cards on ``paper``, with room for the crop marks inside the margin.

    The trim edge of the grid keeps ``margin + crop_gap + crop_min_length`` from the paper edge, so
    every crop mark prints at least ``crop_min_length`` inside the printable margin; the bleed around
    the grid is the full ``bleed`` where the paper leaves room for it too, and shrinks where it does
    not (poker cards on Letter: 0.7 mm above and below the grid). Between the cards the ``gutter``
    (``rules.gutter`` unless given) is filled by each card's bleed. Portrait cards are preferred;
    sideways cards are used only when strictly more of them fit, or as many with more bleed kept round
    the grid (and the rules allow it).

    ``full_bleed``: only grids that keep the whole ``bleed`` round the grid count (poker cards on Letter:
    8 a sheet, sideways, instead of 9 with 0.7 mm above and below); each card's bleed between cards is
    ``min(bleed, gutter / 2)`` either way (:func:`bleed_shortfall` says what a layout gives up).
    """
    if bleed < 0:
        raise LayoutError(f"bleed must not be negative (got {bleed} mm)")
    gutter = rules.gutter if gutter is None else gutter
    keep = rules.margin + rules.crop_gap + rules.crop_min_length
    space_w, space_h = paper.width - 2 * keep, paper.height - 2 * keep
    best: SheetLayout | None = None
    orientations = [(False, card.width, card.height)]
    if rules.allow_rotation:
        orientations.append((True, card.height, card.width))
    for rotated, w, h in orientations:
        columns, rows = _fit(space_w, w, gutter), _fit(space_h, h, gutter)
        if full_bleed:  # room for the whole bleed on both sides of the grid as well
            columns = _fit(space_w - 2 * bleed, w, gutter)
            rows = _fit(space_h - 2 * bleed, h, gutter)
        if columns * rows == 0:
            continue
        grid_w, grid_h = columns * w + (columns - 1) * gutter, rows * h + (rows - 1) * gutter
        outer_x = max(0.0, min(bleed, (space_w - grid_w) / 2))
        outer_y = max(0.0, min(bleed, (space_h - grid_h) / 2))
        found = SheetLayout(paper, card, bleed, gutter, columns, rows, rotated, round(outer_x, 4), round(outer_y, 4))
        if best is None or (found.per_sheet, min(found.outer_bleed)) > (best.per_sheet, min(best.outer_bleed)):
            best = found
    if best is None:
        raise LayoutError(
            f"a {card.name} card ({card.width:g} x {card.height:g} mm) does not fit on {paper.name} "
            f"({paper.width:g} x {paper.height:g} mm) with {keep:g} mm kept clear along each edge "
            f"(the {rules.margin:g} mm printable margin and the crop marks)")
    return best


def bleed_shortfall(layout: SheetLayout) -> list[str]:
    """Where ``layout`` prints less than its requested bleed, in words ([] when it gives the whole bleed
    everywhere a card has its own edge)."""
    notes: list[str] = []
    bx, by = layout.outer_bleed
    if bx < layout.bleed - 1e-6:
        notes.append(f"{bx:g} mm left and right of the grid")
    if by < layout.bleed - 1e-6:
        notes.append(f"{by:g} mm above and below the grid")
    inner = min(layout.bleed, layout.gutter / 2)
    if layout.gutter > 0 and inner < layout.bleed - 1e-6:
        notes.append(f"{inner:g} mm between cards (half the {layout.gutter:g} mm gutter)")
    return notes
