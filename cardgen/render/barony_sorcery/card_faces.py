"""Barony: Sorcery spell cards: the front of each of the nine spells and the one back they share.

A front draws at its own origin (trim bottom-left) and scales with the card size (designed on a poker
card). The category shows three ways: the frame's colour (the rulebook's cyan, maroon or orange), its
symbol (boot, banner, tower) and its name. The cost sits large on the left, as on the printed cards: a
Magic-token disc with the number, then one small token per Magic token to pay. The footer holds the QR
code to the card's companion page.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from cardgen.catalog.barony_sorcery import BaronySorceryContent, Card
from cardgen.render.markup import escape

from ..colour import tint
from ..faces import (
    CodePlace,
    card_ground,
    card_scale,
    draw_card_qr,
    emblem_back,
    face_profile,
    fit_font_size,
    stacked_lines,
    tracked_text,
)
from ..fonts import MIN_TEXT_PT
from ..labels import counted
from ..labels import label as words
from ..pdf import pt
from ..print_specs import CardSize
from ..qr import QrMatrix
from .style import (
    GOLD,
    LIGHT_OUTLINE,
    MAGIC_INK,
    SANS,
    SANS_BOLD,
    SERIF_BOLD,
    SERIF_CAP_HEIGHT,
    WHITE,
    BaronyStyle,
)
from .symbols import CATEGORY_DRAWERS, magic

QR_SQUARE_MM = 18.5     # code plus quiet zone, like the other games' cards
COST_BAND_MM = 12.5     # the left-hand cost column


def magic_token(canvas: Canvas, cx: float, cy: float, r: float, style: BaronyStyle, s: float) -> None:
    """A Magic token as drawn on the cards: a violet disc with a gold rim (ink-saver: an outlined ring)."""
    if style.ink_saver:
        canvas.setStrokeColor(MAGIC_INK)
        canvas.setLineWidth(1.0 * s)
        canvas.circle(cx, cy, r, stroke=1, fill=0)
        return
    canvas.setFillColor(MAGIC_INK)
    canvas.setStrokeColor(GOLD)
    canvas.setLineWidth(1.1 * s)
    canvas.circle(cx, cy, r, stroke=1, fill=1)


def _panel(size: CardSize, s: float) -> tuple[float, float, float, float]:
    """A front's reading panel (x, y, w, h) in points."""
    w, h = pt(size.width), pt(size.height)
    inset = pt(max(2.4, 3.0 * s))
    return inset, inset, w - 2 * inset, h - 2 * inset


def _text_area(size: CardSize, s: float) -> tuple[float, float, float, float]:
    """The panel's padded area (left, right, top, bottom) in points: where a front's text and code go."""
    px, py, pw, ph = _panel(size, s)
    pad = pt(2.2 * s)
    return px + pad, px + pw - pad, py + ph - pad, py + pad


@dataclass(frozen=True)
class SpellFront:
    card: Card
    content: BaronySorceryContent
    style: BaronyStyle
    size: CardSize
    qr: QrMatrix

    @property
    def ink(self) -> str:
        return self.style.category_ink(self.content.category_of(self.card).colour)

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        s = card_scale(self.size)
        style, ink = self.style, self.ink
        w, h = pt(self.size.width), pt(self.size.height)
        frame = style.frame(ink)
        card_ground(canvas, w, h, bleed_mm, frame, LIGHT_OUTLINE)
        px, py, pw, ph = _panel(self.size, s)
        if style.panel:
            canvas.setFillColor(style.panel)
            canvas.roundRect(px, py, pw, ph, pt(2.2 * s), stroke=0, fill=1)
        else:
            canvas.setStrokeColor(ink)
            canvas.setLineWidth(1.0 * s)
            canvas.roundRect(px, py, pw, ph, pt(2.2 * s), stroke=1, fill=0)
        left, right, top, bottom = _text_area(self.size, s)
        footer_top = self._footer(canvas, left, right, bottom, s)
        band_right = self._cost(canvas, px, footer_top + pt(1.2 * s), top, s)
        t = face_profile(self.size).text(s)  # the name and the effect: larger on a tall (tarot) card
        header_bottom = self._header(canvas, band_right + pt(1.6 * s), right, top, t)
        text_top = self._text(canvas, band_right + pt(1.2 * s), right, footer_top + pt(1.6 * s), header_bottom, t)
        art_top, art_bottom = header_bottom - pt(1.8 * s), text_top + pt(1.6 * s)
        art = min(art_top - art_bottom, (right - band_right) * 0.8)
        if art >= pt(9):
            self._art(canvas, (band_right + right) / 2, (art_top + art_bottom) / 2, art, s)

    # -- the cost column on the left ---------------------------------------------------------------
    def _cost(self, canvas: Canvas, panel_left: float, bottom: float, top: float, s: float) -> float:
        """The cost: a large token with the number, the word MAGIC, one small token per Magic token.
        Returns the column's right edge."""
        style = self.style
        band_w = pt(COST_BAND_MM * s)
        pale = style.pale(self.ink, 0.78)
        if pale:
            canvas.setFillColor(pale)
            canvas.roundRect(panel_left, bottom, band_w, top - bottom + pt(2.2 * s), pt(2.2 * s), stroke=0, fill=1)
        else:
            canvas.setStrokeColor(self.ink)
            canvas.setLineWidth(0.5 * s)
            canvas.line(panel_left + band_w, bottom, panel_left + band_w, top + pt(1.0 * s))
        cx = panel_left + band_w / 2
        r = pt(4.9 * s)
        cy = top - r - pt(0.6 * s)
        magic_token(canvas, cx, cy, r, style, s)
        size = 21.0 * s
        canvas.setFillColor(WHITE if not style.ink_saver else MAGIC_INK)
        canvas.setFont(SERIF_BOLD, size)
        canvas.drawCentredString(cx, cy - size * SERIF_CAP_HEIGHT / 2, str(self.card.cost))
        canvas.setFillColor(style.readable(MAGIC_INK))
        small = max(MIN_TEXT_PT, 4.6 * s)
        canvas.setFont(SANS_BOLD, small)
        canvas.drawCentredString(cx, cy - r - pt(1.0 * s) - small * 0.72, words("barony-sorcery", "magic"))
        pip = pt(2.0 * s)
        y = cy - r - pt(3.6 * s) - pip
        for _ in range(self.card.cost):
            magic_token(canvas, cx, y, pip, style, s * 0.6)
            magic(canvas, cx, y, pip * 1.5, GOLD if not style.ink_saver else MAGIC_INK, MAGIC_INK)
            y -= 2 * pip + pt(1.0 * s)
        return panel_left + band_w

    # -- the name and category ---------------------------------------------------------------------
    def _header(self, canvas: Canvas, left: float, right: float, top: float, s: float) -> float:
        category = self.content.category_of(self.card)
        symbol = pt(7.0 * s)
        CATEGORY_DRAWERS[category.symbol](canvas, right - symbol / 2, top - symbol / 2, symbol, self.ink,
                                          self.style.panel or WHITE)
        width = right - symbol - pt(1.2 * s) - left
        size = fit_font_size(self.card.name, SERIF_BOLD, width, 15.0 * s, 8.0 * s)
        canvas.setFillColor(self.style.ink)
        canvas.setFont(SERIF_BOLD, size)
        baseline = top - size * SERIF_CAP_HEIGHT - pt(0.6 * s)
        canvas.drawString(left, baseline, self.card.name)
        line = words("barony-sorcery", "category_spell", category=category.name).upper()
        small = fit_font_size(line, SANS_BOLD, width, 5.8 * s, 3.8)
        canvas.setFillColor(self.style.readable(self.ink))
        canvas.setFont(SANS_BOLD, small)
        line_y = baseline - small - pt(1.3 * s)
        canvas.drawString(left, line_y, line)
        rule_y = min(line_y - pt(1.6 * s), top - symbol - pt(1.2 * s))
        canvas.setStrokeColor(self.ink)
        canvas.setLineWidth(0.6 * s)
        canvas.line(left, rule_y, right, rule_y)
        return rule_y

    def _art(self, canvas: Canvas, cx: float, cy: float, size: float, s: float) -> None:
        disc = self.style.pale(self.ink, 0.84)
        r = size / 2
        if disc:
            canvas.setFillColor(disc)
            canvas.circle(cx, cy, r, stroke=0, fill=1)
        canvas.setStrokeColor(self.ink if not disc else tint(self.ink, 0.4))
        canvas.setLineWidth(0.7 * s)
        canvas.circle(cx, cy, r - pt(0.9 * s), stroke=1, fill=0)
        symbol = self.content.category_of(self.card).symbol
        CATEGORY_DRAWERS[symbol](canvas, cx, cy, size * 0.56, self.ink, disc or self.style.panel or WHITE)

    def _text(self, canvas: Canvas, left: float, right: float, bottom: float, top_limit: float, s: float) -> float:
        """The spell's effect, centred above the footer; returns the top of the text."""
        text = escape(self.content.spell_of(self.card).text)
        room = (top_limit - bottom) * 0.6
        sizes = (8.6, 8.2, 7.8, 7.4, 7.0, 6.6, 6.2, 5.8)
        for base in sizes:
            size = max(MIN_TEXT_PT, base * s)
            para = Paragraph(text, ParagraphStyle("spell", fontName=SANS, fontSize=size, leading=size * 1.2,
                                                  textColor=self.style.ink, alignment=TA_CENTER))
            _, height = para.wrap(right - left, room)
            if height <= room or base == sizes[-1]:
                para.drawOn(canvas, left, bottom)
                return bottom + float(height)
        return bottom  # pragma: no cover - the loop always returns

    def code_place(self) -> CodePlace:
        """The QR code's square: bottom left of the text area."""
        s = card_scale(self.size)
        left, _, _, bottom = _text_area(self.size, s)
        return CodePlace(left, bottom, s, QR_SQUARE_MM)

    def _footer(self, canvas: Canvas, left: float, right: float, bottom: float, s: float) -> float:
        """QR bottom-left (:meth:`code_place`), the game, card number and cost beside it; returns the footer's top."""
        qr_x, qr_y, qr_size = draw_card_qr(canvas, self.qr, self.code_place(), ink=self.style.ink,
                                           ink_saver=self.style.ink_saver)
        text_left = qr_x + qr_size + pt(0.8 * s)
        width = right - text_left
        small = max(MIN_TEXT_PT, 5.2 * s)
        lines = [(SANS_BOLD, f"{self.content.title}"),
                 (SANS, words("barony-sorcery", "spell_number", number=self.card.number, count=len(self.content.cards))),
                 (SANS, counted("barony-sorcery", "cost", self.card.cost))]
        canvas.setFillColor(self.style.muted)
        stacked_lines(canvas, lines, text_left, bottom + pt(1.0 * s), width, small)
        return qr_y + qr_size


@dataclass(frozen=True)
class SpellBack:
    """The back all nine spell cards share (they are drawn at random, so the backs must not tell them apart)."""

    style: BaronyStyle
    size: CardSize

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        s = card_scale(self.size)
        style = self.style
        w, h = pt(self.size.width), pt(self.size.height)
        lines = GOLD if style.back else MAGIC_INK
        emblem_back(canvas, w, h, bleed_mm, s, ground=style.back, outline=LIGHT_OUTLINE, lines=lines, emblem=magic,
                    ring=0.3, emblem_size=1.5)
        tracked_text(canvas, w / 2, h - pt(16 * s), words("barony-sorcery", "back_top"), SERIF_BOLD, 13 * s, 0.25)
        tracked_text(canvas, w / 2, h - pt(21 * s), words("barony-sorcery", "back_middle"), SANS, max(MIN_TEXT_PT, 6.5 * s), 0.5)
        tracked_text(canvas, w / 2, pt(13 * s), words("barony-sorcery", "back_bottom"), SANS_BOLD, max(MIN_TEXT_PT, 7 * s), 0.6)
