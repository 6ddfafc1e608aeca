"""The Mandragora score sheet: one page per game, a column per sorcerer.

Top to bottom: names and teams, a row per spell cast (spellbook + spell), the subtotal, a strip of
colour symbols to tick the colours left in hand (five colours, black, white for mandrakes), the
Curse marker, the total and the spell count that breaks ties; a countdown tracker and the scoring
rules sit below, so nobody needs the reference sheet to score.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.mandragora import MandragoraContent

from ..colour import tint
from ..documents import finish_single_page
from ..labels import label
from ..options import ResolvedOptions
from ..pdf import new_canvas, pt
from ..registry import Progress
from .style import SANS, SANS_BOLD, SERIF_BOLD, MandragoraStyle, style_for
from .symbols import colour_symbol, mandrake

MARGIN_MM = 12.0
LABEL_MM = 46.0


def word(key: str, **fields: object) -> str:
    return label("mandragora-score-pad", key, **fields)
GRID_LINE = "#B9BDC8"
SPELL_ROW_MM = 6.6
FOOTER_MM = 62.0      # countdown tracker, scoring rules and the worked example below the table


def _header(canvas: Canvas, content: MandragoraContent, style: MandragoraStyle, left: float, right: float,
            top: float) -> float:
    canvas.setFillColor(style.item_frame or style.ink)
    canvas.setFont(SERIF_BOLD, 22)
    canvas.drawString(left, top - pt(7), content.title)
    canvas.setFont(SANS, 10.5)
    canvas.setFillColor(style.muted)
    canvas.drawString(left, top - pt(12.5), word("heading", min=content.min_players, max=content.max_players))
    canvas.setStrokeColor(style.ink)
    canvas.setLineWidth(0.6)
    canvas.setFillColor(style.ink)
    canvas.setFont(SANS_BOLD, 8.5)
    field_left = right - pt(70)
    canvas.drawString(field_left, top - pt(6), word("game_date"))
    canvas.line(field_left + pt(21), top - pt(6.8), right, top - pt(6.8))
    return top - pt(18)


def _rows(content: MandragoraContent, height_mm: float) -> list[tuple[str, str, float]]:
    """(label, kind, height in mm) from top to bottom, as many spell rows as fit ``height_mm``; kinds
    pick how the player cells are drawn."""
    head = [(word("sorcerer"), "name", 10.0), (word("team"), "team", 6.6)]
    tail = [(word("subtotal"), "subtotal", 7.6),
            (word("colours"), "colours", 8.4),
            (word("minus", penalty=content.colour_penalty), "minus", 6.6),
            (word("curse", penalty=content.curse_penalty), "curse", 6.6),
            (word("total"), "total", 9.0),
            (word("count"), "count", 6.6)]
    fixed = sum(h for _, _, h in head + tail)
    spells = max(6, int((height_mm - fixed) // SPELL_ROW_MM))
    return head + [(word("spell", number=n), "spell", SPELL_ROW_MM) for n in range(1, spells + 1)] + tail


def _score_table(canvas: Canvas, content: MandragoraContent, style: MandragoraStyle, left: float, right: float,
                 top: float, bottom: float) -> float:
    players = content.max_players
    label_w = pt(LABEL_MM)
    col_w = (right - left - label_w) / players
    rows = _rows(content, (top - bottom) / pt(1))
    y = top
    highlight = None if style.ink_saver else tint(style.accent, 0.8)
    header_fill = None if style.ink_saver else tint(style.item_frame or style.ink, 0.88)
    hand_colours = [(c.symbol, style.colour_ink(c.id)) for c in content.colours]
    first_spell = True
    for text, kind, height in rows:
        h = pt(height)
        fill = header_fill if kind == "name" else highlight if kind in ("subtotal", "total") else None
        if fill:
            canvas.setFillColor(fill)
            canvas.rect(left, y - h, right - left, h, stroke=0, fill=1)
        bold = kind in ("name", "subtotal", "total")
        canvas.setFillColor(style.ink)
        canvas.setFont(SANS_BOLD if bold else SANS, 9.5 if kind == "total" else 8.2)
        canvas.drawString(left + pt(1.6), y - h / 2 - pt(1.1), text)
        if kind == "spell" and first_spell:
            first_spell = False
            canvas.setFont(SANS, 6.2)
            canvas.setFillColor(style.muted)
            canvas.drawRightString(left + label_w - pt(1.6), y - h / 2 - pt(0.9), word("spell_guide"))
        for p in range(players):
            x = left + label_w + p * col_w
            _cell(canvas, style, kind, x, y - h, col_w, h, hand_colours, content)
        canvas.setStrokeColor(GRID_LINE)
        canvas.setLineWidth(0.9 if kind in ("subtotal", "total", "name") else 0.4)
        canvas.line(left, y - h, right, y - h)
        y -= h
    canvas.setStrokeColor(GRID_LINE)
    canvas.setLineWidth(0.4)
    for p in range(players):
        x = left + label_w + p * col_w
        canvas.line(x, top, x, y)
    canvas.setStrokeColor(style.ink)
    canvas.setLineWidth(0.9)
    canvas.rect(left, y, right - left, top - y, stroke=1, fill=0)
    return y


def _cell(canvas: Canvas, style: MandragoraStyle, kind: str, x: float, y: float, w: float, h: float,
          hand_colours: list[tuple[str, str]], content: MandragoraContent) -> None:
    """One player's cell of a row (x, y bottom-left, in points)."""
    mid = y + h / 2
    canvas.setFillColor(style.muted)
    if kind == "spell":  # light guides for "book + spell = points"
        canvas.setFont(SANS, 8)
        canvas.drawCentredString(x + w * 0.3, mid - pt(1.0), "+")
        canvas.drawCentredString(x + w * 0.62, mid - pt(1.0), "=")
    elif kind == "team":
        canvas.setFont(SANS, 7.5)
        canvas.drawCentredString(x + w / 2, mid - pt(0.9), word("teams"))
    elif kind == "curse":
        box = pt(3.4)
        canvas.setStrokeColor(style.ink)
        canvas.setLineWidth(0.7)
        canvas.rect(x + pt(2), mid - box / 2, box, box, stroke=1, fill=0)
        canvas.setFont(SANS, 6.5)
        canvas.drawString(x + pt(2) + box + pt(1.2), mid - pt(0.8), word("held"))
    elif kind == "colours":
        step = (w - pt(2)) / (len(hand_colours) + 1)
        size = min(pt(3.8), step * 0.82)
        for k, (symbol, ink) in enumerate(hand_colours):
            colour_symbol(canvas, symbol, x + pt(1) + step * (k + 0.5), mid, size, ink)
        mandrake(canvas, x + pt(1) + step * (len(hand_colours) + 0.5), mid, size * 1.1, style.mandrake, "#FFFFFF")


def _footer(canvas: Canvas, content: MandragoraContent, style: MandragoraStyle, left: float, right: float,
            top: float) -> None:
    canvas.setFillColor(style.item_frame or style.ink)
    canvas.setFont(SERIF_BOLD, 11)
    canvas.drawString(left, top - pt(5), word("countdown"))
    canvas.setFont(SANS, 8.2)
    canvas.setFillColor(style.ink)
    x = left
    for text in (word("deck_empty"), "III", "II", word("final_round")):
        box = pt(3.4)
        canvas.setStrokeColor(style.ink)
        canvas.setLineWidth(0.7)
        canvas.rect(x, top - pt(11.2), box, box, stroke=1, fill=0)
        canvas.drawString(x + box + pt(1.4), top - pt(10.4), text)
        x += box + pt(1.4) + pt(len(text) * 1.6 + 6)
    canvas.setFont(SANS_BOLD, 8.2)  # the team variant's totals, on the same line at the right
    team_left = right - pt(92)
    for k, team in enumerate((word("team_a"), word("team_b"))):
        tx = team_left + k * pt(47)
        canvas.drawString(tx, top - pt(10.4), team)
        canvas.setLineWidth(0.6)
        canvas.line(tx + pt(21), top - pt(11.2), tx + pt(43), top - pt(11.2))
    canvas.setFillColor(style.item_frame or style.ink)
    canvas.setFont(SERIF_BOLD, 11)
    canvas.drawString(left, top - pt(19), word("scoring"))
    lines = [word("scoring_1"), word("scoring_2"),
             word("scoring_3", penalty=content.colour_penalty, colour=content.mandrake_hand_colour.lower(),
                  curse=content.curse_penalty),
             word("scoring_4")]
    example = content.scoring_example
    result = content.example_breakdown()
    lines.append(word("example", sums=" + ".join(str(v) for v in result.spells), spells=result.spells_total,
                      curse=result.curse, left=example.colours_in_hand - example.colours_removed, penalty=result.colours,
                      total=result.total, printed=example.printed_total))
    canvas.setFont(SANS, 8.2)
    canvas.setFillColor(style.ink)
    y = top - pt(24)
    for line in lines:
        canvas.drawString(left, y, line)
        y -= pt(4.2)


def render_score_pad(content: MandragoraContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    paper = resolved.paper
    style = style_for(content, resolved.specs.theme(content.game), resolved.options.ink_saver)
    canvas = new_canvas(path, paper.width, paper.height, title=word("title", game=content.title), subject=word("subject"))
    left, right = pt(MARGIN_MM), pt(paper.width - MARGIN_MM)
    top, bottom = pt(paper.height - MARGIN_MM), pt(MARGIN_MM)
    y = _header(canvas, content, style, left, right, top)
    y = _score_table(canvas, content, style, left, right, y, bottom + pt(FOOTER_MM))
    _footer(canvas, content, style, left, right, y - pt(4))
    finish_single_page(canvas, paper, word("footer", game=content.title), left, bottom)
    progress(1)
