"""The Magicians of Fillory score sheet: one page per player, printed as often as needed.

Left: a row per turn (trait scored, cards, points, trick points, running total). Right: a checkbox
for each of the 26 scorable traits (a trait scores once per player; Character never does) and the
n-squared table, so nobody needs the reference sheet to score.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.fillory import FilloryContent

from ..colour import tint
from ..documents import finish_single_page
from ..labels import counted, label
from ..options import ResolvedOptions
from ..pdf import new_canvas, pt
from ..registry import Progress
from .style import BOLD, OBLIQUE, REGULAR, FilloryStyle, fillory_style

MARGIN_MM = 12.0
ROW_MM = 6.6
GRID_LINE = "#B9BDC8"
COLUMNS: tuple[tuple[str, float], ...] = (  # heading (its label), width in mm
    ("turn", 11.0), ("trait_scored", 36.0), ("cards", 13.0), ("vp", 16.0), ("trick_vp", 15.0),
    ("total", 22.0),
)


def word(key: str, **fields: object) -> str:
    return label("fillory-score-pad", key, **fields)


def _header(canvas: Canvas, content: FilloryContent, style: FilloryStyle, left: float, right: float,
            top: float) -> float:
    heading = style.frame or style.ink
    canvas.setFillColor(heading)
    canvas.setFont(BOLD, 18)
    canvas.drawString(left, top - 18 * 0.72, content.title)
    canvas.setFont(REGULAR, 11)
    canvas.setFillColor(style.muted)
    canvas.drawString(left, top - pt(11.5), word("heading"))
    canvas.setStrokeColor(style.ink)
    canvas.setLineWidth(0.6)
    field_left = right - pt(72)
    for i, field in enumerate((word("player"), word("game_date"))):
        y = top - pt(5) - i * pt(8)
        canvas.setFont(BOLD, 8.5)
        canvas.setFillColor(style.ink)
        canvas.drawString(field_left, y, field)
        canvas.line(field_left + pt(20), y - pt(0.8), right, y - pt(0.8))
    y = top - pt(22)
    canvas.setFont(REGULAR, 8.3)
    canvas.setFillColor(style.ink)
    lines = (word("how_1", points=content.victory_points), word("how_2"))
    for line in lines:
        canvas.drawString(left, y, line)
        y -= pt(4.2)
    return y - pt(2)


def _turn_table(canvas: Canvas, style: FilloryStyle, left: float, top: float, bottom: float) -> None:
    """The per-turn rows with a highlighted running-total column; every fifth line a little heavier."""
    widths = [pt(w) for _, w in COLUMNS]
    width = sum(widths)
    head_h, row_h = pt(8.5), pt(ROW_MM)
    rows = int((top - head_h - bottom) // row_h)
    table_bottom = top - head_h - rows * row_h
    heading = style.frame or style.ink
    if not style.ink_saver:
        canvas.setFillColor(tint(heading, 0.86))
        canvas.rect(left, top - head_h, width, head_h, stroke=0, fill=1)
        canvas.setFillColor(tint(style.accent, 0.8))
        canvas.rect(left + width - widths[-1], table_bottom, widths[-1], rows * row_h, stroke=0, fill=1)
    canvas.setFillColor(style.ink)
    canvas.setFont(BOLD, 8.5)
    x = left
    for (name, _), w in zip(COLUMNS, widths, strict=True):
        canvas.drawString(x + pt(1.6), top - head_h + pt(3), word(name))
        x += w
    canvas.setFont(REGULAR, 7.5)
    canvas.setFillColor(style.muted)
    for r in range(rows):
        canvas.drawRightString(left + widths[0] - pt(2), top - head_h - (r + 1) * row_h + pt(2.1), str(r + 1))
    canvas.setStrokeColor(GRID_LINE)
    for r in range(rows + 1):
        y = top - head_h - r * row_h
        canvas.setLineWidth(0.9 if r % 5 == 0 else 0.4)
        canvas.line(left, y, left + width, y)
    canvas.setLineWidth(0.4)
    x = left
    for w in widths[:-1]:
        x += w
        canvas.line(x, top, x, table_bottom)
    canvas.setStrokeColor(style.ink)
    canvas.setLineWidth(0.9)
    canvas.rect(left, table_bottom, width, top - table_bottom, stroke=1, fill=0)


def _trait_checklist(canvas: Canvas, content: FilloryContent, style: FilloryStyle, left: float, right: float,
                     top: float) -> float:
    """A checkbox per scorable trait, alphabetically, with how many cards carry it; returns the bottom."""
    canvas.setFillColor(style.frame or style.ink)
    canvas.setFont(BOLD, 10)
    canvas.drawString(left, top - pt(3.5), word("traits_scored"))
    canvas.setFont(REGULAR, 7.2)
    canvas.setFillColor(style.muted)
    canvas.drawString(left, top - pt(7.6), word("tick"))
    y = top - pt(10)
    row_h, box = pt(6.0), pt(3.6)
    scorable = sorted((t for t in content.traits if t.scorable), key=lambda t: t.name)
    for trait in scorable:
        y -= row_h
        chip = style.chip(trait.name)
        canvas.setLineWidth(0.8)
        canvas.setStrokeColor(style.ink)
        canvas.rect(left, y + pt(0.9), box, box, stroke=1, fill=0)
        canvas.setLineWidth(0.5)
        canvas.setStrokeColor(chip.edge)
        if chip.fill:
            canvas.setFillColor(chip.fill)
        canvas.roundRect(left + pt(5.5), y + pt(1.3), pt(4.5), pt(2.8), pt(1.4), stroke=1, fill=1 if chip.fill else 0)
        canvas.setFillColor(style.ink)
        canvas.setFont(BOLD, 9)
        canvas.drawString(left + pt(12), y + pt(1.6), trait.name)
        canvas.setFont(REGULAR, 7.5)
        canvas.setFillColor(style.muted)
        canvas.drawRightString(right, y + pt(1.6), counted("fillory-score-pad", "trait_cards", len(content.cards_with(trait.name))))
        canvas.setStrokeColor(GRID_LINE)
        canvas.setLineWidth(0.3)
        canvas.line(left, y, right, y)
    y -= pt(4.5)
    unscorable = label("card", "list_separator").join(t.name for t in content.traits if not t.scorable)
    canvas.setFont(OBLIQUE, 7.5)
    canvas.setFillColor(style.muted)
    canvas.drawString(left, y, word("never", traits=unscorable))
    return y


def _squares(canvas: Canvas, style: FilloryStyle, left: float, right: float, top: float) -> None:
    """n cards score n×n VP, for n = 1..10, as two rows of five."""
    canvas.setFillColor(style.frame or style.ink)
    canvas.setFont(BOLD, 10)
    canvas.drawString(left, top - pt(3.5), word("points"))
    cell_w, cell_h = (right - left) / 5, pt(9)
    y0 = top - pt(6) - 2 * cell_h
    canvas.setStrokeColor(GRID_LINE)
    canvas.setLineWidth(0.4)
    for i in range(10):
        n = i + 1
        x = left + (i % 5) * cell_w
        y = y0 + (1 - i // 5) * cell_h
        canvas.rect(x, y, cell_w, cell_h, stroke=1, fill=0)
        canvas.setFillColor(style.muted)
        canvas.setFont(REGULAR, 7)
        canvas.drawCentredString(x + cell_w / 2, y + cell_h - pt(3), counted("fillory-score-pad", "n_cards", n))
        canvas.setFillColor(style.ink)
        canvas.setFont(BOLD, 11)
        canvas.drawCentredString(x + cell_w / 2, y + pt(1.6), str(n * n))


def render_score_pad(content: FilloryContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    paper = resolved.paper
    style = fillory_style(resolved.specs.theme(content.game), resolved.options.ink_saver)
    canvas = new_canvas(path, paper.width, paper.height, title=word("title", game=content.title), subject=word("subject"))
    left, right = pt(MARGIN_MM), pt(paper.width - MARGIN_MM)
    top, bottom = pt(paper.height - MARGIN_MM), pt(MARGIN_MM)
    y = _header(canvas, content, style, left, right, top)
    table_w = pt(sum(w for _, w in COLUMNS))
    _turn_table(canvas, style, left, y, bottom + pt(6))
    side_left = left + table_w + pt(7)
    checklist_bottom = _trait_checklist(canvas, content, style, side_left, right, y)
    _squares(canvas, style, side_left, right, checklist_bottom - pt(6))
    finish_single_page(canvas, paper, word("footer", game=content.title), left, bottom)
    progress(1)
