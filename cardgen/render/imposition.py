"""Imposition: faces onto sheets, with bleed clipping, crop marks, registration marks and duplex backs.

Faces know nothing about sheets; this module knows nothing about any game. It asks a
:class:`~cardgen.render.layout.SheetLayout` where every card goes and draws each face there,
clipped to the bleed that position allows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Literal, Sequence

from reportlab.pdfgen.canvas import Canvas

from .cutter import draw_marks as draw_cutter_marks
from .faces import Face, fit_font_size, text_width
from .fonts import KIT
from .labels import label as words
from .layout import Rect, SheetLayout, Slot
from .pdf import draw_reused, pt, set_page_boxes
from .print_specs import SheetRules

if TYPE_CHECKING:
    from .options import BuildOptions

Side = Literal["front", "back"]
MARK_COLOUR = "#000000"
LABEL_COLOUR = "#6B7080"
LABEL_FONT = KIT.regular


@dataclass(frozen=True)
class ImpositionSettings:
    crop_marks: bool = True
    duplex: bool = True          # backs right after each front sheet, mirrored for long-edge flipping
    back_offset_x: float = 0.0   # mm, to the right as seen on the back page
    back_offset_y: float = 0.0   # mm, upwards
    gutter_fold: bool = False    # fronts and backs on one page, to fold along the middle (duplex ignored)
    cutter: str | None = None    # "silhouette" or "cricut": its registration marks on every front page

    @classmethod
    def from_options(cls, options: BuildOptions) -> ImpositionSettings:
        """The imposition part of a build's options."""
        return cls(crop_marks=options.crop_marks, duplex=options.duplex,
                   back_offset_x=options.back_offset_x, back_offset_y=options.back_offset_y,
                   gutter_fold=options.gutter_fold, cutter=options.cutter)


@dataclass(frozen=True)
class SheetInfo:
    side: Side
    sheet: int       # 1-based
    sheets: int
    first_card: int  # 1-based position in the deck
    last_card: int


SheetLabel = Callable[[SheetInfo], str]


def sheet_label(name: str, unit: str = "cards", first_number: int = 1) -> SheetLabel:
    """Sheet captions such as 'Name · fronts · sheet 2/5 · cards 10–18', the faces numbered from
    ``first_number`` (a second deck in the same document goes on counting)."""
    def label(info: SheetInfo) -> str:
        side = words("sheet", "fronts" if info.side == "front" else "backs")
        return words("sheet", "caption", name=name, side=side, sheet=info.sheet, sheets=info.sheets,
                     unit=words("sheet", "cards") if unit == "cards" else unit,
                     first=first_number + info.first_card - 1, last=first_number + info.last_card - 1)
    return label


def turned_for(face: Face, slot: Slot, *, back: bool = False) -> Slot:
    """``slot``, turned a quarter more when ``face`` is the slot's card sideways (a landscape card in a
    portrait slot, or the other way): a sheet of mixed orientations, such as the changed cards of several
    decks. A back turns the other way, as :meth:`SheetLayout.back_slot` does, so front and back agree."""
    trim = slot.trim
    width, height = (trim.height, trim.width) if slot.rotation else (trim.width, trim.height)
    if abs(face.size.width - width) < 1e-6 or abs(face.size.width - height) > 1e-6:
        return slot
    if slot.rotation:
        return replace(slot, rotation=0)
    return replace(slot, rotation=-90 if back else 90)


def draw_face(canvas: Canvas, face: Face, slot: Slot, bleed: float, *, reuse: bool = False) -> None:
    """Draw ``face`` into ``slot``: clip to the slot's allowed bleed, move and turn the origin.

    With ``reuse`` the face is drawn once per canvas as a form (trim plus full bleed) and placed
    again wherever the same face object comes back: a deck's shared back.
    """
    canvas.saveState()
    clip = slot.bleed_rect
    path = canvas.beginPath()
    path.rect(pt(clip.x), pt(clip.y), pt(clip.width), pt(clip.height))
    canvas.clipPath(path, stroke=0, fill=0)
    t = slot.trim
    if slot.rotation == 90:
        canvas.translate(pt(t.right), pt(t.y))
        canvas.rotate(90)
    elif slot.rotation == -90:
        canvas.translate(pt(t.x), pt(t.top))
        canvas.rotate(-90)
    else:
        canvas.translate(pt(t.x), pt(t.y))
    if reuse:
        b, w, h = pt(bleed), pt(face.size.width), pt(face.size.height)
        draw_reused(canvas, ("face", id(face), bleed), (-b, -b, w + b, h + b), lambda: face.draw(canvas, bleed),
                    keep=face)
    else:
        face.draw(canvas, bleed)
    canvas.restoreState()


def crop_mark_segments(layout: SheetLayout, rules: SheetRules,
                       used: int | None = None) -> list[tuple[float, float, float, float]]:
    """The crop marks as (x0, y0, x1, y1) in mm: short lines outside the bleed, in line with every
    cut of the first ``used`` slots (those that hold a card; default all), stopping at the printable
    margin (``plan_layout`` leaves each at least ``rules.crop_min_length`` of room)."""
    xs, ys = layout.cut_lines(used)
    outer = layout.bleed_area
    if used is not None and 0 < used < layout.per_sheet:  # a part-filled sheet: marks round the cards it holds
        rects = [layout.slot(i).bleed_rect for i in range(used)]
        left, bottom = min(r.x for r in rects), min(r.y for r in rects)
        outer = Rect(left, bottom, max(r.right for r in rects) - left, max(r.top for r in rects) - bottom)
    w, h, margin = layout.paper.width, layout.paper.height, rules.margin
    gap, length = rules.crop_gap, rules.crop_length
    segments: list[tuple[float, float, float, float]] = []
    for x in xs:
        segments.append((x, outer.top + gap, x, min(h - margin, outer.top + gap + length)))
        segments.append((x, outer.y - gap, x, max(margin, outer.y - gap - length)))
    for y in ys:
        segments.append((outer.x - gap, y, max(margin, outer.x - gap - length), y))
        segments.append((outer.right + gap, y, min(w - margin, outer.right + gap + length), y))
    return [s for s in segments if abs(s[2] - s[0]) + abs(s[3] - s[1]) >= rules.crop_min_length - 1e-6]


def draw_crop_marks(canvas: Canvas, layout: SheetLayout, rules: SheetRules, used: int | None = None) -> None:
    """Short hairlines outside the bleed, in line with every cut of the slots that hold a card (see
    :func:`crop_mark_segments`)."""
    canvas.saveState()
    canvas.setStrokeColor(MARK_COLOUR)
    canvas.setLineWidth(rules.crop_line_width_pt)
    path = canvas.beginPath()
    for x0, y0, x1, y1 in crop_mark_segments(layout, rules, used):
        path.moveTo(pt(x0), pt(y0))
        path.lineTo(pt(x1), pt(y1))
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


#: The smallest registration target (mm across) still drawn where the margins are tight.
MIN_REGISTRATION_MM = 3.0


def registration_diameter(layout: SheetLayout, rules: SheetRules) -> float:
    """How wide the registration targets are: the rules' size, or as much as the roomier pair of margins
    leaves (never under :data:`MIN_REGISTRATION_MM`; 0 where even that does not fit)."""
    outer = layout.bleed_area
    room = max(outer.x - 1.0 - rules.margin, layout.paper.height - outer.top - 1.0 - rules.margin)
    size = min(rules.registration_diameter, room)
    return round(size, 3) if size >= MIN_REGISTRATION_MM else 0.0


def registration_points(layout: SheetLayout, rules: SheetRules) -> list[tuple[float, float]]:
    """Centres of the registration targets on a front page (mm).

    They go into whichever pair of margins is roomier, 1 mm outside the bleed and wholly inside the
    printable margin, level with the middle of the top row (left and right margins) or of the first and
    last columns (top margin): never on a cut line, never where the sheet label goes, and at the
    mirrored spots on a duplex back.
    """
    outer, grid = layout.bleed_area, layout.grid
    col_w, row_h = layout.footprint
    side_room = outer.x - 1.0 - rules.margin
    end_room = layout.paper.height - outer.top - 1.0 - rules.margin
    diameter = registration_diameter(layout, rules)
    if diameter == 0:
        return []
    radius = diameter / 2
    if side_room >= end_room:
        y = grid.top - row_h / 2
        return [(outer.x - 1.0 - radius, y), (outer.right + 1.0 + radius, y)]
    y = outer.top + 1.0 + radius
    points = [(grid.x + col_w / 2, y), (grid.right - col_w / 2, y)]
    return points[:1] if layout.columns == 1 else points


def draw_registration(canvas: Canvas, points: Sequence[tuple[float, float]], rules: SheetRules,
                      diameter: float | None = None) -> None:
    radius = (rules.registration_diameter if diameter is None else diameter) / 2
    canvas.saveState()
    canvas.setStrokeColor(MARK_COLOUR)
    canvas.setLineWidth(rules.registration_line_width_pt)
    for x, y in points:
        canvas.circle(pt(x), pt(y), pt(radius * 0.6), stroke=1, fill=0)
        canvas.line(pt(x - radius), pt(y), pt(x + radius), pt(y))
        canvas.line(pt(x), pt(y - radius), pt(x), pt(y + radius))
    canvas.restoreState()


#: Sheet labels: largest and smallest size (pt), and the clearance kept from the bleed (mm).
LABEL_LARGEST, LABEL_SMALLEST, LABEL_CLEARANCE = 6.5, 6.0, 1.0
_PT_MM = 25.4 / 72


def _label_baseline(low: float, high: float, size: float) -> float | None:
    """Where a label's baseline goes in the band [low, high] (mm), or None if the band is too narrow."""
    ascent, descent = 0.75 * size * _PT_MM, 0.25 * size * _PT_MM
    baseline = high - LABEL_CLEARANCE - ascent
    return baseline if baseline - descent >= low else None


def _fitting_label(text: str, room: float) -> tuple[str, float] | None:
    """The label and its size for ``room`` points: the whole text if it fits at the smallest size, else
    with its last parts left off down to the name, side and sheet (the card numbers go first), else
    without the name (the side, the sheet and what follows, shortened the same way, down to the side
    alone); None if nothing fits. Side and sheet outlast the deck names: they are what sorts loose pages.
    The side is found by its word (a name may hold " · " itself); a text without one is cut from the end,
    then from the front."""
    parts = text.split(" \u00b7 ")
    sides = {words("sheet", "fronts"), words("sheet", "backs")}
    side = next((index for index, part in enumerate(parts) if part in sides), None)
    if side is None:
        candidates = [parts[:end] for end in range(len(parts), 0, -1)] + [parts[start:] for start in range(1, len(parts))]
    else:
        keep = min(side + 2, len(parts))  # the name, the side and the sheet
        rest = parts[side:]
        candidates = [parts[:end] for end in range(len(parts), keep - 1, -1)] + [rest[:end] for end in range(len(rest), 0, -1)]
    for chosen in candidates:
        candidate = " \u00b7 ".join(chosen)
        size = fit_font_size(candidate, LABEL_FONT, room, LABEL_LARGEST, LABEL_SMALLEST)
        if text_width(candidate, LABEL_FONT, size) <= room:
            return candidate, size
    return None


def draw_sheet_label(canvas: Canvas, layout: SheetLayout, grid: Rect, text: str, margin: float = 5.0) -> None:
    """A short grey caption in the bottom margin, or up the left margin when the bottom is too tight,
    always inside the printable ``margin`` and never longer than one card (shortened if need be).

    It is centred on a card's middle (never on a cut line) so it does not cross a crop mark.
    """
    col_w, row_h = layout.footprint
    bx, by = layout.outer_bleed
    outer_bottom = grid.y - by
    outer_left = grid.x - bx
    canvas.saveState()
    canvas.setFillColor(LABEL_COLOUR)
    fitted = _fitting_label(text, pt(col_w - 4))
    bottom = _label_baseline(margin, outer_bottom, fitted[1]) if fitted else None
    if fitted and bottom is not None:
        column = (layout.columns - 1) // 2
        centre_x = grid.x + column * (col_w + layout.gutter) + col_w / 2
        canvas.setFont(LABEL_FONT, fitted[1])
        canvas.drawCentredString(pt(centre_x), pt(bottom), fitted[0])
    else:
        fitted = _fitting_label(text, pt(row_h - 4))
        if fitted:
            # Up the left margin, reading bottom to top: the letters' tops face the paper edge.
            label, size = fitted
            ascent, descent = 0.75 * size * _PT_MM, 0.25 * size * _PT_MM
            baseline_x = outer_left - LABEL_CLEARANCE - descent
            if baseline_x - ascent >= margin:
                centre_y = grid.y + row_h / 2  # middle of the bottom row
                canvas.translate(pt(baseline_x), pt(centre_y))
                canvas.rotate(90)
                canvas.setFont(LABEL_FONT, size)
                canvas.drawCentredString(0, 0, label)
    canvas.restoreState()


def _mirrored_grid(layout: SheetLayout, settings: ImpositionSettings) -> Rect:
    g = layout.grid
    return Rect(layout.paper.width - g.right + settings.back_offset_x, g.y + settings.back_offset_y,
                g.width, g.height)


def impose(canvas: Canvas, layout: SheetLayout, rules: SheetRules, fronts: Sequence[Face],
           backs: Sequence[Face], settings: ImpositionSettings, label: SheetLabel,
           on_card: Callable[[int], None] | None = None) -> int:
    """Draw every front (and its back) onto sheets; returns the number of pages written.

    Duplex: front sheet, then its back sheet mirrored for long-edge flipping and shifted by the back
    offset. Not duplex: all front sheets, then all back sheets unmirrored (for cutting and gluing).
    """
    if len(backs) != len(fronts):
        raise ValueError(f"{len(fronts)} fronts but {len(backs)} backs")
    if settings.gutter_fold:
        return impose_folded(canvas, layout, rules, fronts, backs, settings, label, on_card)
    per_sheet = layout.per_sheet
    sheets = layout.sheets_for(len(fronts))
    w, h = layout.paper.width, layout.paper.height
    reg_front = registration_points(layout, rules)
    reg_size = registration_diameter(layout, rules)
    pages = 0
    seen: dict[int, int] = {}
    for face in (*fronts, *backs):
        seen[id(face)] = seen.get(id(face), 0) + 1
    recurring = {key for key, count in seen.items() if count > 1}  # drawn once as a form, then placed

    def info(side: Side, sheet: int) -> SheetInfo:
        first = sheet * per_sheet
        return SheetInfo(side, sheet + 1, sheets, first + 1, min(len(fronts), first + per_sheet))

    def front_page(sheet: int) -> None:
        nonlocal pages
        chunk = fronts[sheet * per_sheet:(sheet + 1) * per_sheet]
        for i, face in enumerate(chunk):
            draw_face(canvas, face, turned_for(face, layout.slot(i)), layout.bleed, reuse=id(face) in recurring)
            if on_card:
                on_card(1)
        if settings.crop_marks and settings.cutter is None:
            draw_crop_marks(canvas, layout, rules, len(chunk))
        if settings.cutter is not None:
            draw_cutter_marks(canvas, settings.cutter, w, h)
        else:
            draw_registration(canvas, reg_front, rules, reg_size)
        draw_sheet_label(canvas, layout, layout.grid, label(info("front", sheet)), rules.margin)
        set_page_boxes(canvas, layout.grid, layout.bleed_area, w, h)
        canvas.showPage()
        pages += 1

    def back_page(sheet: int, mirrored: bool) -> None:
        nonlocal pages
        dx, dy = (settings.back_offset_x, settings.back_offset_y) if mirrored else (0.0, 0.0)
        chunk = backs[sheet * per_sheet:(sheet + 1) * per_sheet]
        for i, face in enumerate(chunk):
            draw_face(canvas, face, turned_for(face, layout.back_slot(i, dx, dy, mirrored=mirrored), back=True),
                      layout.bleed, reuse=id(face) in recurring)
        grid = _mirrored_grid(layout, settings) if mirrored else layout.grid
        if mirrored:
            draw_registration(canvas, [(w - x + dx, y + dy) for x, y in reg_front], rules, reg_size)
        draw_sheet_label(canvas, layout, grid, label(info("back", sheet)), rules.margin)
        bx, by = layout.outer_bleed
        set_page_boxes(canvas, grid, grid.grown(bx, by, bx, by), w, h)
        canvas.showPage()
        pages += 1

    for sheet in range(sheets):
        front_page(sheet)
        if settings.duplex:
            back_page(sheet, mirrored=True)
    if not settings.duplex:
        for sheet in range(sheets):
            back_page(sheet, mirrored=False)
    return pages



FOLD_COLOUR = "#6B7080"


def impose_folded(canvas: Canvas, layout: SheetLayout, rules: SheetRules, fronts: Sequence[Face],
                  backs: Sequence[Face], settings: ImpositionSettings, label: SheetLabel,
                  on_card: Callable[[int], None] | None = None) -> int:
    """Gutter-fold pages (see :mod:`.gutter_fold`): each page holds a half-sheet of fronts and, mirrored
    about the dashed fold line, their backs; returns the number of pages written."""
    from .gutter_fold import plan_fold_layout

    fold = plan_fold_layout(layout.paper, layout.card, layout.bleed, rules, layout.gutter)
    half = fold.half
    per_sheet, sheets = half.per_sheet, half.sheets_for(len(fronts))
    seen: dict[int, int] = {}
    for face in (*fronts, *backs):
        seen[id(face)] = seen.get(id(face), 0) + 1
    for sheet in range(sheets):
        canvas.setPageSize((pt(fold.width), pt(fold.height)))
        start = sheet * per_sheet
        chunk = list(zip(fronts[start:start + per_sheet], backs[start:start + per_sheet], strict=True))
        for i, (front, back) in enumerate(chunk):
            draw_face(canvas, front, turned_for(front, fold.front_slot(i)), layout.bleed, reuse=seen[id(front)] > 1)
            draw_face(canvas, back, turned_for(back, fold.back_slot(i), back=True), layout.bleed,
                      reuse=seen[id(back)] > 1)
            if on_card:
                on_card(1)
        if settings.crop_marks:
            draw_crop_marks(canvas, half, rules, len(chunk))
            canvas.saveState()               # the same marks, mirrored about the fold, for the backs
            canvas.translate(pt(fold.width), 0)
            canvas.scale(-1, 1)
            draw_crop_marks(canvas, half, rules, len(chunk))
            canvas.restoreState()
        canvas.saveState()
        canvas.setStrokeColor(FOLD_COLOUR)
        canvas.setLineWidth(0.4)
        canvas.setDash(3, 2)
        canvas.line(pt(fold.fold_x), pt(rules.margin), pt(fold.fold_x), pt(fold.height - rules.margin))
        canvas.restoreState()
        info = SheetInfo("front", sheet + 1, sheets, start + 1, min(len(fronts), start + per_sheet))
        draw_sheet_label(canvas, half, half.grid, label(info) + " \u00b7 " + words("sheet", "fold"), rules.margin)
        back_grid = fold.back_grid()
        trim = Rect(half.grid.x, half.grid.y, back_grid.right - half.grid.x, half.grid.height)
        bx, by = half.outer_bleed
        set_page_boxes(canvas, trim, trim.grown(bx, by, bx, by), fold.width, fold.height)
        canvas.showPage()
    return sheets
