"""The map of Europe and London as a multi-page poster for any paper of the build (A4, Letter), with an
assembly guide page first.

Each page prints a ``PAGE_MARGIN`` frame of white round its window onto the poster; neighbouring windows
overlap by ``OVERLAP`` mm, so a page's first 10 mm on the left (or at the top) repeat the last 10 mm of its
neighbour's. A page goes over its left and upper neighbours, so only the strips that end up underneath
(a page's right strip and its bottom strip) carry registration targets (R1, R2, ...) and a dashed line
where the next page's trimmed edge goes: the finished map shows no target. Lay the next page on, its edge
on the dashed line, and line up its map with the strip beneath (against a light, the targets show
through). Cut marks at the window's corners show where to trim (with ``--crop-marks``). The map is
drawn once as a PDF form and placed on every page, clipped to the page's window.
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.jsmn import JsmnContent

from ..documents import FOOTER_BASELINE_MM, FOOTER_FONT, FOOTER_INK, retold_notice
from ..fonts import MIN_TEXT_PT
from ..labels import label
from ..layout import Rect
from ..options import ResolvedOptions
from ..pdf import new_canvas, pt, set_page_boxes
from ..print_specs import PaperSize
from ..registry import Progress
from .card_frame import landscape
from .map_drawing import draw_map
from .map_layout import MapLayout
from .style import SANS, SANS_BOLD, SERIF_BOLD, JsmnStyle, style_for

PAGE_MARGIN = 10.0      # white round each page's window: printers cannot print to the edge
PRINTABLE_MARGIN_MM = 5.0
OVERLAP = 10.0          # neighbouring windows share this much of the poster
MARK_RADIUS = 3.0
MAP_FORM = "JsmnMap"
TILE_INK = "#B0413E"


@dataclass(frozen=True)
class Tile:
    column: int
    row: int            # 0: the top row
    window: Rect        # the part of the poster this page shows, in poster mm

    @property
    def name(self) -> str:
        return f"{string.ascii_uppercase[self.column]}{self.row + 1}"


@dataclass(frozen=True)
class Mark:
    label: str
    x: float            # poster mm
    y: float


@dataclass(frozen=True)
class PosterPlan:
    paper: PaperSize    # as the pages are printed (portrait or landscape)
    poster: tuple[float, float]
    columns: int
    rows: int
    tiles: tuple[Tile, ...]
    marks: tuple[Mark, ...]

    @property
    def step(self) -> tuple[float, float]:
        return self.paper.width - 2 * PAGE_MARGIN - OVERLAP, self.paper.height - 2 * PAGE_MARGIN - OVERLAP

    def tile(self, column: int, row: int) -> Tile:
        return self.tiles[row * self.columns + column]


def _count(length: float, window: float) -> int:
    return max(1, math.ceil((length - OVERLAP) / (window - OVERLAP) - 1e-9))


def plan_poster(paper: PaperSize, poster: tuple[float, float]) -> PosterPlan:
    """Tiles in reading order (row by row from the top left) on whichever way round the paper needs fewer
    pages (portrait on a tie), the poster centred on the tiled area, and the registration marks."""
    width, height = poster
    options = []
    for page in (paper, PaperSize(f"{paper.name} landscape", paper.height, paper.width)):
        pw, ph = page.width - 2 * PAGE_MARGIN, page.height - 2 * PAGE_MARGIN
        columns, rows = _count(width, pw), _count(height, ph)
        options.append((columns * rows, page, columns, rows))
    _, page, columns, rows = min(options, key=lambda o: o[0])
    pw, ph = page.width - 2 * PAGE_MARGIN, page.height - 2 * PAGE_MARGIN
    step_x, step_y = pw - OVERLAP, ph - OVERLAP
    x0 = (columns * step_x + OVERLAP - width) / 2
    y_top = height + (rows * step_y + OVERLAP - height) / 2
    tiles = tuple(Tile(c, r, Rect(c * step_x - x0, y_top - r * step_y - ph, pw, ph))
                  for r in range(rows) for c in range(columns))
    marks: list[Mark] = []
    for r in range(rows):
        for c in range(columns - 1):  # vertical strips, between a page and the one to its right
            window = tiles[r * columns + c].window
            for share in (0.3, 0.7):
                marks.append(Mark("", window.right - OVERLAP / 2, window.y + window.height * share))
    for r in range(rows - 1):         # horizontal strips, between a page and the one below it
        for c in range(columns):
            window = tiles[r * columns + c].window
            for share in (0.3, 0.7):
                marks.append(Mark("", window.x + window.width * share, window.y + OVERLAP / 2))
    labelled = tuple(Mark(f"R{i + 1}", m.x, m.y) for i, m in enumerate(marks))
    return PosterPlan(page, poster, columns, rows, tiles, labelled)


def _draw_mark(canvas: Canvas, mark: Mark, x: float, y: float, below: bool) -> None:
    canvas.setStrokeColor("#000000")
    canvas.setLineWidth(0.3)
    canvas.circle(pt(x), pt(y), pt(MARK_RADIUS * 0.6), stroke=1, fill=0)
    canvas.line(pt(x - MARK_RADIUS), pt(y), pt(x + MARK_RADIUS), pt(y))
    canvas.line(pt(x), pt(y - MARK_RADIUS), pt(x), pt(y + MARK_RADIUS))
    canvas.setFillColor("#000000")
    canvas.setFont(SANS_BOLD, MIN_TEXT_PT)
    if below:
        canvas.drawCentredString(pt(x), pt(y - MARK_RADIUS - 2.2), mark.label)
    else:
        canvas.drawString(pt(x + MARK_RADIUS + 0.8), pt(y - 0.8), mark.label)


def under_marks(plan: PosterPlan, tile: Tile) -> list[Mark]:
    """The registration targets a page prints: those in its strips that go under a neighbour (its right
    strip, under the page to its right, and its bottom strip, under the page below), never those in the
    strips it lays over its left and upper neighbours, which stay visible on the finished map."""
    w = tile.window
    right = tile.column < plan.columns - 1
    bottom = tile.row < plan.rows - 1
    return [m for m in plan.marks if w.x <= m.x <= w.right and w.y <= m.y <= w.top
            and ((right and m.x > w.right - OVERLAP) or (bottom and m.y < w.y + OVERLAP))]


def _edge_lines(canvas: Canvas, plan: PosterPlan, tile: Tile, dx: float, dy: float) -> None:
    """Dashed lines where the neighbour laid on top has its trimmed edge (the edge hides them)."""
    w = tile.window
    canvas.saveState()
    canvas.setStrokeColor("#000000")
    canvas.setLineWidth(0.3)
    canvas.setDash(2, 2)
    if tile.column < plan.columns - 1:
        x = w.right - OVERLAP + dx
        canvas.line(pt(x), pt(w.y + dy), pt(x), pt(w.top + dy))
    if tile.row < plan.rows - 1:
        y = w.y + OVERLAP + dy
        canvas.line(pt(w.x + dx), pt(y), pt(w.right + dx), pt(y))
    canvas.restoreState()


def _cut_marks(canvas: Canvas, window: Rect, paper: PaperSize) -> None:
    canvas.setStrokeColor("#000000")
    canvas.setLineWidth(0.3)
    gap, length = 0.8, PAGE_MARGIN - 0.8 - PRINTABLE_MARGIN_MM  # the marks stop at the printable margin
    for x in (window.x, window.right):
        for y, sign in ((window.y, -1), (window.top, 1)):
            canvas.line(pt(x), pt(y + sign * gap), pt(x), pt(y + sign * (gap + length)))
    for y in (window.y, window.top):
        for x, sign in ((window.x, -1), (window.right, 1)):
            canvas.line(pt(x + sign * gap), pt(y), pt(x + sign * (gap + length)), pt(y))


def word(key: str, **fields: object) -> str:
    return label("jsmn-map", key, **fields)


def _neighbours(plan: PosterPlan, tile: Tile) -> str:
    parts = []
    for side, dc, dr in (("left", -1, 0), ("right", 1, 0), ("above", 0, -1), ("below", 0, 1)):
        c, r = tile.column + dc, tile.row + dr
        if 0 <= c < plan.columns and 0 <= r < plan.rows:
            parts.append(word(side, page=plan.tile(c, r).name))
    return " \u00b7 ".join(parts)


def draw_tile_page(canvas: Canvas, plan: PosterPlan, tile: Tile, crop_marks: bool, title: str) -> None:
    paper = plan.paper
    page_window = Rect(PAGE_MARGIN, PAGE_MARGIN, tile.window.width, tile.window.height)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(pt(page_window.x), pt(page_window.y), pt(page_window.width), pt(page_window.height))
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(pt(PAGE_MARGIN - tile.window.x), pt(PAGE_MARGIN - tile.window.y))
    canvas.doForm(MAP_FORM)
    canvas.restoreState()
    dx, dy = PAGE_MARGIN - tile.window.x, PAGE_MARGIN - tile.window.y
    w = tile.window
    for mark in under_marks(plan, tile):
        vertical_strip = mark.x > w.right - OVERLAP
        _draw_mark(canvas, mark, mark.x + dx, mark.y + dy, below=vertical_strip)
    _edge_lines(canvas, plan, tile, dx, dy)
    if crop_marks:
        _cut_marks(canvas, page_window, paper)
    canvas.setFont(SANS_BOLD, 7)
    canvas.setFillColor(FOOTER_INK)
    canvas.drawString(pt(PAGE_MARGIN + 3), pt(FOOTER_BASELINE_MM), word("page", page=tile.name, column=tile.column + 1,
                                                                      columns=plan.columns, row=tile.row + 1,
                                                                      rows=plan.rows))
    canvas.setFont(FOOTER_FONT, 6.5)
    canvas.drawRightString(pt(paper.width - PAGE_MARGIN - 3), pt(FOOTER_BASELINE_MM),
                           word("overlap", game=title, overlap=f"{OVERLAP:g}"))
    canvas.drawString(pt(PAGE_MARGIN + 3), pt(paper.height - FOOTER_BASELINE_MM - 2),
                      word("trim", neighbours=_neighbours(plan, tile)))
    set_page_boxes(canvas, page_window, page_window, paper.width, paper.height)
    canvas.showPage()


GUIDE_STEPS = ("step_1", "step_2", "step_3", "step_4", "step_5")  # their labels, in order


def draw_guide(canvas: Canvas, plan: PosterPlan, style: JsmnStyle, title: str) -> None:
    paper = plan.paper
    left, top = PAGE_MARGIN + 4, paper.height - PAGE_MARGIN - 4
    canvas.setFillColor(style.ink)
    canvas.setFont(SERIF_BOLD, 20)
    canvas.drawString(pt(left), pt(top - 7), word("guide"))
    canvas.setFont(SANS, 9)
    canvas.setFillColor(style.muted)
    canvas.drawString(pt(left), pt(top - 13), word("guide_subtitle", game=title, pages=plan.columns * plan.rows,
                                                             columns=plan.columns, rows=plan.rows, paper=paper.name,
                                                             overlap=f"{OVERLAP:g}"))
    width = paper.width - 2 * left
    span_x = plan.tiles[-1].window.right - plan.tiles[0].window.x
    span_y = plan.tiles[0].window.top - plan.tiles[-1].window.y
    scale = min(width / span_x, (paper.height * 0.5) / span_y)
    ox = left + (width - span_x * scale) / 2 - plan.tiles[0].window.x * scale
    oy = top - 20 - span_y * scale - plan.tiles[-1].window.y * scale
    canvas.saveState()
    canvas.translate(pt(ox), pt(oy))
    canvas.scale(scale, scale)
    canvas.doForm(MAP_FORM)
    canvas.restoreState()
    canvas.setStrokeColor(TILE_INK)
    canvas.setLineWidth(0.9)
    for tile in plan.tiles:
        w = tile.window
        canvas.rect(pt(ox + w.x * scale), pt(oy + w.y * scale), pt(w.width * scale), pt(w.height * scale), stroke=1,
                    fill=0)
        canvas.setFillColor(TILE_INK)
        canvas.setFont(SANS_BOLD, 16)
        canvas.drawCentredString(pt(ox + (w.x + w.width / 2) * scale), pt(oy + (w.y + w.height / 2) * scale), tile.name)
    y = oy + plan.tiles[-1].window.y * scale - 8
    canvas.setFont(SANS_BOLD, 9)
    canvas.setFillColor(style.ink)
    order = label("card", "list_separator").join(word("order_page", number=i + 2, page=tile.name)
                                                 for i, tile in enumerate(plan.tiles))
    canvas.drawString(pt(left), pt(y), word("where"))
    canvas.setFont(SANS, 8)
    canvas.drawString(pt(left), pt(y - 5), word("order", order=order))
    y -= 13
    for number, step in enumerate(GUIDE_STEPS, 1):
        text = word(step, w=f"{plan.poster[0]:g}", h=f"{plan.poster[1]:g}", overlap=f"{OVERLAP:g}")
        lines = _wrap_words(text, SANS, 8.5, pt(width - 6))
        canvas.setFont(SANS_BOLD, 8.5)
        canvas.drawString(pt(left), pt(y), f"{number}.")
        canvas.setFont(SANS, 8.5)
        for line in lines:
            canvas.drawString(pt(left + 6), pt(y), line)
            y -= 4.2
        y -= 1.5
    canvas.setFont(FOOTER_FONT, 6.5)
    canvas.setFillColor(FOOTER_INK)
    canvas.drawString(pt(PAGE_MARGIN), pt(FOOTER_BASELINE_MM), word("guide_footer", game=title))
    canvas.drawRightString(pt(paper.width - PAGE_MARGIN), pt(FOOTER_BASELINE_MM), retold_notice())
    page = Rect(0, 0, paper.width, paper.height)
    set_page_boxes(canvas, page, page, paper.width, paper.height)
    canvas.showPage()


def _wrap_words(text: str, font: str, size: float, width: float) -> list[str]:
    from ..faces import wrap
    return wrap(text, font, size, width)


def map_layout(content: JsmnContent, resolved: ResolvedOptions) -> MapLayout:
    return MapLayout(content, landscape(resolved.card_size))


def render_map(content: JsmnContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    style = style_for(resolved.options.ink_saver)
    layout = map_layout(content, resolved)
    plan = plan_poster(resolved.paper, layout.size)
    paper = plan.paper
    canvas = new_canvas(path, paper.width, paper.height,
                        title=word("title", game=content.title, paper=paper.name),
                        subject=word("subject", w=f"{layout.size[0]:g}", h=f"{layout.size[1]:g}", pages=len(plan.tiles),
                                     columns=plan.columns, rows=plan.rows, overlap=f"{OVERLAP:g}"))
    width, height = layout.size
    canvas.beginForm(MAP_FORM, 0, 0, pt(width), pt(height))
    canvas.saveState()
    canvas.scale(mm, mm)
    draw_map(canvas, layout, style)
    canvas.restoreState()
    canvas.endForm()
    draw_guide(canvas, plan, style, content.title)
    for tile in plan.tiles:
        draw_tile_page(canvas, plan, tile, resolved.options.crop_marks, content.title)
    canvas.save()
    progress(1)
