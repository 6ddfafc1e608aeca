"""The private magicianship tally: four slips on a page, one per magician, each to be cut out and kept face
down (magicianship stays secret until the game ends). Rows for completed feats (write each value), books of
magic, the pupil and spells that grant magicianship, a total, and a record of each raven-year confrontation.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.jsmn import JsmnContent, Magician

from ..documents import FOOTER_BASELINE_MM, finish_single_page
from ..labels import label
from ..layout import Rect
from ..options import ResolvedOptions
from ..pdf import new_canvas, pt
from ..registry import Progress
from .style import MAGICIAN_INKS, SANS, SANS_BOLD, SERIF_BOLD, JsmnStyle, style_for
from .symbols import MAGICIAN_DRAWERS

MARGIN = 10.0
BOX = 6.0
FEAT_BOXES = 10


def _boxes(canvas: Canvas, x: float, y: float, count: int, ink: str) -> None:
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(0.5)
    for i in range(count):
        canvas.rect(pt(x + i * (BOX + 1)), pt(y), pt(BOX), pt(BOX), stroke=1, fill=0)


def word(key: str, **fields: object) -> str:
    return label("jsmn-tally", key, **fields)


def draw_slip(canvas: Canvas, content: JsmnContent, magician: Magician, rect: Rect, style: JsmnStyle) -> None:
    ink = MAGICIAN_INKS[magician.colour]
    x, top = rect.x + 5, rect.top - 5
    canvas.setStrokeColor("#8A8F9C")
    canvas.setLineWidth(0.4)
    canvas.setDash(3, 2)
    canvas.rect(pt(rect.x), pt(rect.y), pt(rect.width), pt(rect.height), stroke=1, fill=0)
    canvas.setDash()
    MAGICIAN_DRAWERS[magician.symbol](canvas, pt(x + 3), pt(top - 4), pt(6), ink, "#FFFFFF")
    canvas.setFillColor(style.ink)
    canvas.setFont(SERIF_BOLD, 13)
    canvas.drawString(pt(x + 8), pt(top - 6), magician.name)
    canvas.setFont(SANS, 6.8)
    canvas.setFillColor(style.muted)
    canvas.drawString(pt(x), pt(top - 11), word("private"))
    m = content.magicianship
    rows = (
        (word("feats", values="/".join(map(str, m.feat_values))), FEAT_BOXES),
        (word("books", value=m.book), 8),
        (word("pupil", value=m.pupil), 1),
        (word("spells", value=m.spell), 6),
    )
    y = top - 18
    for text, count in rows:
        canvas.setFillColor(style.ink)
        canvas.setFont(SANS_BOLD, 7.5)
        canvas.drawString(pt(x), pt(y), text)
        _boxes(canvas, x, y - 8, count, style.ink)
        canvas.setFont(SANS, 6.5)
        canvas.drawString(pt(x + min(count, FEAT_BOXES) * (BOX + 1) + 2), pt(y - 6), "= ______")
        y -= 15
    canvas.setFont(SANS_BOLD, 9)
    canvas.drawString(pt(x), pt(y), word("total"))
    canvas.rect(pt(x + 36), pt(y - 2.5), pt(22), pt(8), stroke=1, fill=0)
    y -= 12
    canvas.setFont(SANS_BOLD, 7.5)
    canvas.drawString(pt(x), pt(y), word("fairy"))
    y -= 4
    columns = (word("year"), word("my_total"), word("fairy_strength"), word("defeated"))
    col_w = (rect.width - 10) / len(columns)
    canvas.setFont(SANS, 7)
    for i, head in enumerate(columns):
        canvas.drawString(pt(x + i * col_w + 1), pt(y - 3), head)
    canvas.setLineWidth(0.4)
    for j, year in enumerate(content.tracks.raven_years):
        row_y = y - 5 - (j + 1) * 6.5
        canvas.rect(pt(x), pt(row_y), pt(rect.width - 10), pt(6.5), stroke=1, fill=0)
        canvas.drawString(pt(x + 1), pt(row_y + 2), str(year))
        for i in range(1, len(columns)):
            canvas.line(pt(x + i * col_w), pt(row_y), pt(x + i * col_w), pt(row_y + 6.5))


def render_tally(content: JsmnContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    style = style_for(resolved.options.ink_saver)
    paper = resolved.paper
    canvas = new_canvas(path, paper.width, paper.height, title=word("title", game=content.title), subject=word("subject"))
    w = (paper.width - 2 * MARGIN) / 2
    h = (paper.height - 2 * MARGIN - 4) / 2
    for i, magician in enumerate(content.magicians):
        column, row = i % 2, i // 2
        rect = Rect(MARGIN + column * w, paper.height - MARGIN - (row + 1) * h, w, h)
        draw_slip(canvas, content, magician, rect, style)
    finish_single_page(canvas, paper, word("footer", game=content.title), pt(MARGIN), pt(FOOTER_BASELINE_MM))
    progress(1)
