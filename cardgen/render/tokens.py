"""Square two-sided tokens shared by the games' token sheets.

A token has the same picture on both sides: the back page repeats the fronts (mirrored for long-edge duplex,
or unmirrored after the fronts to cut and glue). This module draws a token's ground and ring and lays a
sheet of them out; each game keeps its own pictures, captions and sizes.
"""

from __future__ import annotations

from typing import Sequence

from reportlab.pdfgen.canvas import Canvas

from .colour import luminance, shade
from .faces import Face, card_ground
from .imposition import (
    ImpositionSettings,
    SheetInfo,
    SheetLabel,
    draw_crop_marks,
    draw_face,
    draw_sheet_label,
    impose,
)
from .layout import LayoutError, Rect, SheetLayout, plan_layout
from .options import ResolvedOptions
from .pdf import pt, set_page_boxes
from .print_specs import CardSize, PaperSize
from .style import LIGHT_OUTLINE, WHITE

DARK_TEXT = "#1E1E28"


def token_text_ink(ink: str, ink_saver: bool) -> str:
    """The caption's colour: a darker ``ink`` on white in ink-saver mode, else dark or white on the ink."""
    if ink_saver:
        return shade(ink, 0.3)
    return DARK_TEXT if luminance(ink) > 0.4 else WHITE


def draw_token_ground(canvas: Canvas, width: float, bleed_mm: float, ink: str, text_ink: str, ink_saver: bool, *,
                      ring_inset_mm: float, ring_width: float, ink_saver_ring_width: float) -> str:
    """The token's ground (ink to the bleed, or a light cut outline) and its ring; returns the ground colour.

    ``width`` is the token's side in points. The ring is drawn ``ring_inset_mm`` inside the edge, in the
    text colour on a full-colour ground and in ``ink`` in ink-saver mode.
    """
    w = width
    card_ground(canvas, w, w, bleed_mm, None if ink_saver else ink, LIGHT_OUTLINE)
    canvas.setStrokeColor(ink if ink_saver else text_ink)
    canvas.setLineWidth(ink_saver_ring_width if ink_saver else ring_width)
    canvas.circle(w / 2, w / 2, w / 2 - pt(ring_inset_mm), stroke=1, fill=0)
    return WHITE if ink_saver else ink


def impose_two_sided(canvas: Canvas, resolved: ResolvedOptions, layout: SheetLayout, faces: Sequence[Face],
                     label: SheetLabel) -> int:
    """Sheets of ``faces`` with the same faces on the backs; returns the number of pages written."""
    return impose(canvas, layout, resolved.specs.sheet, faces, faces, ImpositionSettings.from_options(resolved.options),
                  label)


#: Room (mm) added above and below each group of a shared sheet, so its caption fits under its grid.
GROUP_LABEL_ROOM_MM = 4.0


def _group_layouts(resolved: ResolvedOptions, groups: Sequence[tuple[CardSize, Sequence[Face], SheetLabel]]
                   ) -> list[tuple[float, SheetLayout]] | None:
    """Each group's band of the paper (its bottom y in mm) and grid, stacked from the top, or None when the
    groups do not all fit on one sheet."""
    paper, rules, bleed = resolved.paper, resolved.specs.sheet, resolved.options.bleed
    keep = rules.margin + rules.crop_gap + rules.crop_min_length
    full = resolved.layout_for(groups[0][0])
    top, placed = paper.height, []
    for size, faces, _label in groups:
        columns = resolved.layout_for(size).columns
        rows = -(-len(faces) // columns)
        height = rows * size.height + (rows - 1) * full.gutter + 2 * (keep + bleed + GROUP_LABEL_ROOM_MM)
        band = PaperSize(paper.name, paper.width, height)
        try:
            layout = plan_layout(band, size, bleed, rules, resolved.options.gutter)
        except LayoutError:
            return None
        if layout.per_sheet < len(faces) or top - height < 0:
            return None
        top -= height
        placed.append((top, layout))
    return placed


def impose_two_sided_groups(canvas: Canvas, resolved: ResolvedOptions,
                            groups: Sequence[tuple[CardSize, Sequence[Face], SheetLabel]]) -> int:
    """Several kinds of two-sided tokens (each a size, its faces and its caption) on one sheet, each kind in
    its own band from the top of the page, when they all fit; else each kind on its own sheets. Returns the
    pages written. Each band is a grid of its own with its crop marks and caption, as on a sheet of its own."""
    placed = _group_layouts(resolved, groups) if len(groups) > 1 else None
    if placed is None:
        return sum(impose_two_sided(canvas, resolved, resolved.layout_for(size), faces, label)
                   for size, faces, label in groups)
    settings = ImpositionSettings.from_options(resolved.options)
    rules, paper = resolved.specs.sheet, resolved.paper
    trims: list[Rect] = []
    for side in ("front", "back"):
        mirrored = side == "back" and settings.duplex
        dx, dy = (settings.back_offset_x, settings.back_offset_y) if mirrored else (0.0, 0.0)
        for (bottom, layout), (_size, faces, label) in zip(placed, groups, strict=True):
            canvas.saveState()
            canvas.translate(0, pt(bottom))
            for i, face in enumerate(faces):
                slot = layout.slot(i) if side == "front" else layout.back_slot(i, dx, dy, mirrored=mirrored)
                draw_face(canvas, face, slot, layout.bleed, reuse=True)
            grid = layout.grid
            if side == "front":
                if settings.crop_marks:
                    draw_crop_marks(canvas, layout, rules, len(faces))
                trims.append(grid.moved(0, bottom))
            elif mirrored:
                grid = Rect(paper.width - grid.right + dx, grid.y + dy, grid.width, grid.height)
            draw_sheet_label(canvas, layout, grid, label(SheetInfo(side, 1, 1, 1, len(faces))), rules.margin)
            canvas.restoreState()
        trim = Rect(min(t.x for t in trims), min(t.y for t in trims), 0, 0)
        trim = Rect(trim.x, trim.y, max(t.right for t in trims) - trim.x, max(t.top for t in trims) - trim.y)
        if mirrored:
            trim = Rect(paper.width - trim.right + dx, trim.y + dy, trim.width, trim.height)
        bx, by = placed[0][1].outer_bleed
        set_page_boxes(canvas, trim, trim.grown(bx, by, bx, by), paper.width, paper.height)
        canvas.showPage()
    return 2
