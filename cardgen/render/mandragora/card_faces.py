"""Mandragora card faces: item fronts, spell fronts and the two backs.

Each face draws at its own origin (trim bottom-left) and scales with the card size (designed on a
poker card). A front reads top to bottom: a corner index (colour symbol and value, repeated upside
down in the opposite corner for a fanned hand), the name and what kind of card it is, a picture,
what the card does, and a footer with the QR code to the card's companion page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.enums import TA_CENTER
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from cardgen.catalog.mandragora import EFFECT_KINDS, Card, MandragoraContent
from cardgen.render.markup import escape

from ..colour import tint
from ..faces import (
    CodePlace,
    card_ground,
    card_scale,
    double_border,
    double_ring,
    draw_card_qr,
    draw_paragraph,
    eight_pointed_star,
    face_profile,
    fit_font_size,
    fitting_lines,
    text_width,
    tracked_text,
    wrap,
    wrapped_paragraph,
)
from ..fonts import MIN_TEXT_PT
from ..labels import counted
from ..labels import label as words
from ..pdf import draw_reused, pt
from ..print_specs import CardSize
from ..qr import QrMatrix
from .glyphs import spell_glyph
from .style import (
    CAP_HEIGHT,
    SANS,
    SANS_BOLD,
    SERIF_BOLD,
    SERIF_CAP_HEIGHT,
    MandragoraStyle,
)
from .symbols import EFFECT_DRAWERS, book, colour_symbol, evil_eye, mandrake, scroll

QR_SQUARE_MM = 18.5     # code plus quiet zone; the code itself is ~14-15 mm across
MIN_FOOTER_TEXT_MM = 20.0  # below this the bottom-right index gives its room to the footer text
WHITE = "#FFFFFF"


def panel_box(size: CardSize, scale: float) -> tuple[float, float, float, float]:
    """The reading panel (x, y, w, h) in points."""
    w, h = pt(size.width), pt(size.height)
    inset = pt(max(2.4, 3.0 * scale))
    return (inset, inset, w - 2 * inset, h - 2 * inset)


def text_area(size: CardSize, scale: float) -> tuple[float, float, float, float]:
    """The panel's padded area (left, right, top, bottom) in points: where a front's text and code go."""
    px, py, pw, ph = panel_box(size, scale)
    pad = pt(2.4 * scale)
    return px + pad, px + pw - pad, py + ph - pad, py + pad


def draw_frame(canvas: Canvas, size: CardSize, bleed: float, scale: float, frame: str | None,
               panel: str | None, edge: str) -> tuple[float, float, float, float]:
    """Bleed and border in ``frame``, the reading panel in ``panel``; ink-saver (no fills): a light cut
    guide and a thin panel edge in ``edge``. Returns the panel (x, y, w, h) in points."""
    w, h = pt(size.width), pt(size.height)
    box = panel_box(size, scale)
    radius = pt(2.2 * scale)
    card_ground(canvas, w, h, bleed, frame, "#C4C8D2")
    if panel:
        canvas.setFillColor(panel)
        canvas.roundRect(*box, radius=radius, stroke=0, fill=1)
    else:
        canvas.setStrokeColor(edge)
        canvas.setLineWidth(0.9 * scale)
        canvas.roundRect(*box, radius=radius, stroke=1, fill=0)
    return box


def _paragraph(markup: str, font_size: float, colour: str, width: float, *, centred: bool = True) -> Paragraph:
    """Card text wrapped to ``width`` points (kept: the same texts recur across the decks)."""
    return wrapped_paragraph(markup, SANS, font_size, font_size * 1.2, colour, width, TA_CENTER if centred else 0)


def removal_text(players: tuple[int, ...]) -> str:
    """'Out with 2 sorcerers' / 'Out with 3 or 2 sorcerers', smallest count first."""
    if not players:
        return ""
    counts = sorted(players)
    listed = f" {words('mandragora', 'or')} ".join(str(n) for n in counts)
    return words("mandragora", "out_with", counts=listed)


@dataclass(frozen=True)
class CardFront:
    """The front of any Mandragora card (items and spells share the frame, index, text and footer)."""

    card: Card
    content: MandragoraContent
    style: MandragoraStyle
    size: CardSize
    qr: QrMatrix

    @property
    def ink(self) -> str:
        return self.style.card_ink(self.card)

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        s = card_scale(self.size)
        draw_frame(canvas, self.size, bleed_mm, s, self.style.frame_for(self.card), self.style.panel, self.ink)
        left, right, top, bottom = text_area(self.size, s)
        t = face_profile(self.size).text(s)  # the header and the text: larger on a tall (tarot) card
        header_bottom = self._header(canvas, left, right, top, t)
        footer_top = self._footer(canvas, left, right, bottom, s)
        text_top = self._text(canvas, left, right, footer_top + pt(1.6 * s), header_bottom, t)
        art_top, art_bottom = header_bottom - pt(2.0 * s), text_top + pt(1.6 * s)
        art = min(art_top - art_bottom, (right - left) * 0.75)
        if art >= pt(9):
            self._art(canvas, (left + right) / 2, (art_top + art_bottom) / 2, art, s)

    # -- the corner index ---------------------------------------------------------------------------
    def _index(self, canvas: Canvas, x: float, top: float, s: float) -> float:
        """Symbol over value at (x, top); returns the index width in points.

        Cards of one colour and value share their index: it is drawn once as a form and placed again.
        """
        card = self.card
        canvas.saveState()
        canvas.translate(x, top)
        draw_reused(canvas, ("mandragora-index", id(self.style), card.kind, card.colour, card.value, card.curses, s),
                    (-pt(6 * s), -pt(26 * s), pt(16 * s), pt(6 * s)), lambda: self._draw_index(canvas, 0, 0, s),
                    keep=self.style)
        canvas.restoreState()
        return pt(8.0 * s) + (pt(1.2 * s) if card.kind == "spell" else 0.0)

    def _draw_index(self, canvas: Canvas, x: float, top: float, s: float) -> float:
        width = pt(8.0 * s)
        cx = x + width / 2
        light = self.style.panel or WHITE
        card = self.card
        if card.kind == "spell":
            r = pt(4.6 * s)
            if self.style.ink_saver:
                canvas.setStrokeColor(self.ink)
                canvas.setLineWidth(1.1 * s)
                canvas.circle(cx + pt(0.6 * s), top - r, r, stroke=1, fill=0)
                canvas.setFillColor(self.ink)
            else:
                canvas.setFillColor(self.ink)
                canvas.circle(cx + pt(0.6 * s), top - r, r, stroke=0, fill=1)
                canvas.setFillColor(WHITE)
            size = 15.0 * s
            canvas.setFont(SERIF_BOLD, size)
            canvas.drawCentredString(cx + pt(0.6 * s), top - r - size * SERIF_CAP_HEIGHT / 2, str(card.value))
            return width + pt(1.2 * s)
        symbol_size = pt(6.6 * s)
        sy = top - symbol_size / 2
        if card.colour is not None:
            colour_symbol(canvas, self.content.colour(card.colour).symbol, cx, sy, symbol_size, self.ink, light)
        elif card.kind == "mandrake":
            mandrake(canvas, cx, sy, symbol_size, self.ink, light)
        else:
            evil_eye(canvas, cx, sy, symbol_size, self.ink, light)
        number = str(card.value) if card.value is not None else (str(card.curses) if card.curses else "")
        if number:
            size = 12.0 * s
            canvas.setFillColor(self.style.readable(self.ink))
            canvas.setFont(SERIF_BOLD, size)
            canvas.drawCentredString(cx, top - symbol_size - pt(1.0 * s) - size * SERIF_CAP_HEIGHT, number)
        return width

    # -- header ---------------------------------------------------------------------------------
    def _kind_line(self) -> str:
        card = self.card
        if card.kind == "spell":
            spell = self.content.spell_of(card)
            return words("mandragora", "effect", kind=EFFECT_KINDS[spell.kind]).upper()
        if card.kind == "cursed_scroll":
            return counted("mandragora", "curses", card.curses).upper()
        if card.kind == "mandrake":
            return words("mandragora", "wild").upper()
        colour = self.content.colour(card.colour or "")
        if card.kind == "spellbook":
            magic = words("mandragora", "black_magic") if colour.black_magic else colour.name
            return counted("mandragora", "worth", card.value or 0, magic=magic).upper()
        return words("mandragora", "ingredient", colour=colour.name).upper()

    def _header(self, canvas: Canvas, left: float, right: float, top: float, s: float) -> float:
        index_w = self._index(canvas, left, top, s)
        if self.card.kind == "spell":  # the effect icon balances the value in the other corner
            r = pt(3.6 * s)
            cx, cy = right - r, top - r - pt(0.4 * s)
            if self.style.medallion(self.style.accent):
                canvas.setFillColor(self.style.medallion(self.style.accent))
                canvas.circle(cx, cy, r, stroke=0, fill=1)
            else:
                canvas.setStrokeColor(self.style.accent)
                canvas.setLineWidth(0.7 * s)
                canvas.circle(cx, cy, r, stroke=1, fill=0)
            kind = self.content.spell_of(self.card).kind
            EFFECT_DRAWERS[kind](canvas, cx, cy, r * 1.35, self.style.ink, self.style.panel or WHITE)
            text_right = right - 2 * r - pt(1.0 * s)
        else:
            text_right = right
        text_left = left + index_w + pt(1.4 * s)
        width = text_right - text_left
        name = self.card.name
        size = fit_font_size(name, SERIF_BOLD, width, 14.0 * s, 8.5 * s)
        canvas.setFillColor(self.style.ink)
        canvas.setFont(SERIF_BOLD, size)
        baseline = top - size * SERIF_CAP_HEIGHT - pt(0.6 * s)
        canvas.drawString(text_left, baseline, name)
        kind_line = self._kind_line()
        small = fit_font_size(kind_line, SANS_BOLD, width, 5.8 * s, 3.8)
        canvas.setFillColor(self.style.readable(self.ink))
        canvas.setFont(SANS_BOLD, small)
        kind_base = baseline - small - pt(1.3 * s)
        # too long for a mini card's header even at 6 pt: wrapped onto a second line, not set smaller
        kind_lines = wrap(kind_line, SANS_BOLD, small, width) if text_width(kind_line, SANS_BOLD, small) > width \
            else [kind_line]
        for index, line in enumerate(kind_lines):
            if index:
                kind_base -= small * 1.15
            canvas.drawString(text_left, kind_base, line)
        below = kind_base
        removal = removal_text(self.content.removed_with(self.card))
        if removal:  # a pill under the kind line: this card goes back in the box for smaller games
            size = fit_font_size(removal, SANS_BOLD, width - pt(2.4 * s), 5.2 * s, 3.6)
            height = size + pt(1.5 * s)
            pill_top = kind_base - pt(1.3 * s)
            canvas.setStrokeColor(self.style.accent)
            canvas.setLineWidth(0.6 * s)
            canvas.roundRect(text_left, pill_top - height, text_width(removal, SANS_BOLD, size) + pt(2.4 * s), height,
                             radius=height / 2, stroke=1, fill=0)
            canvas.setFillColor(self.style.ink)
            canvas.setFont(SANS_BOLD, size)
            canvas.drawString(text_left + pt(1.2 * s), pill_top - height + (height - size * CAP_HEIGHT) / 2, removal)
            below = pill_top - height
        rule_y = min(below - pt(1.6 * s), top - pt(13.5 * s))
        canvas.setStrokeColor(self.style.accent)
        canvas.setLineWidth(0.6 * s)
        canvas.line(text_left, rule_y, text_right, rule_y)
        return rule_y

    # -- picture --------------------------------------------------------------------------------
    def _art(self, canvas: Canvas, cx: float, cy: float, size: float, s: float) -> None:
        """The picture, centred on (cx, cy); cards of one colour, kind and value share it (one form)."""
        card = self.card
        canvas.saveState()
        canvas.translate(cx, cy)
        draw_reused(canvas, ("mandragora-art", id(self.style), card.kind, card.colour, card.value, card.curses,
                             card.spell, size, s),
                    (-size, -size, size, size), lambda: self._draw_art(canvas, 0, 0, size, s), keep=self.style)
        canvas.restoreState()

    def _draw_art(self, canvas: Canvas, cx: float, cy: float, size: float, s: float) -> None:
        card, ink = self.card, self.ink
        light = self.style.panel or WHITE
        disc = self.style.medallion(ink)
        r = size / 2
        if disc:
            canvas.setFillColor(disc)
            canvas.circle(cx, cy, r, stroke=0, fill=1)
        canvas.setStrokeColor(ink if not disc else tint(ink, 0.45))
        canvas.setLineWidth(0.7 * s)
        canvas.circle(cx, cy, r - pt(0.9 * s), stroke=1, fill=0)
        if card.kind == "spell":
            spell = self.content.spell_of(card)
            spell_glyph(canvas, spell.effect, spell.kind, cx, cy, size * 0.56, ink, disc or light)
        elif card.kind == "mandrake":
            mandrake(canvas, cx, cy - size * 0.02, size * 0.7, ink, disc or light)
        elif card.kind == "cursed_scroll":
            scroll(canvas, cx, cy + size * 0.1, size * 0.46, ink, disc or light)
            eye, gap = size * 0.2, size * 0.05
            row = card.curses * eye + (card.curses - 1) * gap
            for k in range(card.curses):
                evil_eye(canvas, cx - row / 2 + eye / 2 + k * (eye + gap), cy - size * 0.25, eye, ink, disc or light)
        elif card.kind == "spellbook":
            colour = self.content.colour(card.colour or "")
            book(canvas, cx - size * 0.03, cy, size * 0.62, ink, light)
            colour_symbol(canvas, colour.symbol, cx - size * 0.01, cy, size * 0.24, light, ink)
            self._value_badge(canvas, cx + size * 0.24, cy - size * 0.24, size * 0.13, s)
        else:
            colour = self.content.colour(card.colour or "")
            colour_symbol(canvas, colour.symbol, cx, cy, size * 0.62, ink, disc or light)

    def _value_badge(self, canvas: Canvas, cx: float, cy: float, r: float, s: float) -> None:
        canvas.setFillColor(self.style.panel or WHITE)
        canvas.setStrokeColor(self.ink)
        canvas.setLineWidth(1.0 * s)
        canvas.circle(cx, cy, r, stroke=1, fill=1)
        size = r * 1.3
        canvas.setFillColor(self.style.readable(self.ink))
        canvas.setFont(SERIF_BOLD, size)
        canvas.drawCentredString(cx, cy - size * SERIF_CAP_HEIGHT / 2, str(self.card.value))

    # -- text -----------------------------------------------------------------------------------
    def _text(self, canvas: Canvas, left: float, right: float, bottom: float, top_limit: float, s: float) -> float:
        """What the card does, centred above the footer; returns the top of the text."""
        sizes: tuple[float, ...]
        if self.card.kind == "spell":
            text = self.content.spell_of(self.card).text
            sizes = (8.4, 8.0, 7.6, 7.2, 6.8, 6.4, 6.0)
        else:
            text = self.content.ability_text(self.card)
            sizes = (7.4, 7.0, 6.6, 6.2, 5.8)
        width = right - left
        room = (top_limit - bottom) * 0.55
        for base in sizes:
            para = _paragraph(escape(text), max(MIN_TEXT_PT, base * s), self.style.ink, width)
            height = para.height
            if height <= room or base == sizes[-1]:
                draw_paragraph(canvas, para, left, bottom)
                return bottom + float(height)
        return bottom  # pragma: no cover - the loop always returns

    # -- footer ---------------------------------------------------------------------------------
    def code_place(self) -> CodePlace:
        """The QR code's square: bottom left of the text area."""
        s = card_scale(self.size)
        left, _, _, bottom = text_area(self.size, s)
        return CodePlace(left, bottom, s, QR_SQUARE_MM)

    def _footer(self, canvas: Canvas, left: float, right: float, bottom: float, s: float) -> float:
        """QR bottom-left (:meth:`code_place`), game and card number beside it, the turned index bottom-right
        (when it fits)."""
        qr_x, qr_y, qr_size = draw_card_qr(canvas, self.qr, self.code_place(), ink=self.style.ink,
                                           ink_saver=self.style.ink_saver)
        text_left = qr_x + qr_size + pt(0.6 * s)
        index_w = pt(8.0 * s)
        text_right = right - index_w - pt(1.0 * s)
        if text_right - text_left >= pt(MIN_FOOTER_TEXT_MM):
            canvas.saveState()  # the index again, upside down, for a hand fanned the other way up
            canvas.translate(right, bottom)
            canvas.rotate(180)
            self._index(canvas, 0, 0, s)  # turned half round: its top edge sits on the panel's bottom
            canvas.restoreState()
        else:  # small cards: the footer text needs the room more
            text_right = right
        small = max(MIN_TEXT_PT, 5.0 * s)
        card = self.card
        if card.kind == "spell":
            copies = self.content.copies_of(card.spell or "")
            place = words("mandragora", "spell_place", position=card.number - len(self.content.items),
                          count=len(self.content.spell_cards))
            detail = words("mandragora", "copy", name=card.name, copy=copies.index(card) + 1, copies=len(copies))
        else:
            place = words("mandragora", "item_place", position=card.number, count=len(self.content.items))
            detail = words("card", "scan")
        y = bottom + pt(0.3)
        lines = fitting_lines([(SANS, detail), (SANS, place), (SANS_BOLD, words("mandragora", "game"))], text_right - text_left)
        for font, text in lines:  # the lowest first; on a mini card the detail line may be left off
            size = fit_font_size(text, font, text_right - text_left, small, 3.6)
            canvas.setFillColor(self.style.muted)
            canvas.setFont(font, size)
            canvas.drawString(text_left, y, text)
            y += size * 1.3
        return max(y, qr_y + qr_size)


@dataclass(frozen=True)
class CardBack:
    """A deck's back: a ring emblem and the game's name, the same either way up."""

    style: MandragoraStyle
    size: CardSize
    deck: str                # "items" or "spells"
    symbols: tuple[str, ...] = ()  # colour symbols around the item emblem

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        s = card_scale(self.size)
        style = self.style
        ground = None if style.ink_saver else (style.item_frame if self.deck == "items" else style.spell_frame)
        lines = style.outline if style.ink_saver else style.accent
        assert lines is not None
        w, h = pt(self.size.width), pt(self.size.height)
        card_ground(canvas, w, h, bleed_mm, ground, lines)
        inset = pt(max(2.4, 3.0 * s))
        canvas.setStrokeColor(lines)
        double_border(canvas, inset, inset, w - 2 * inset, h - 2 * inset, s, 0.9)
        cx, cy = w / 2, h / 2
        radius = min(w, h) * 0.3
        double_ring(canvas, cx, cy, radius, s)
        light = ground or WHITE
        if self.deck == "items":
            mandrake(canvas, cx, cy, radius * 1.05, lines, light)
            for k, symbol in enumerate(self.symbols):
                angle = math.pi / 2 + k * 2 * math.pi / max(1, len(self.symbols))
                colour_symbol(canvas, symbol, cx + radius * 1.22 * math.cos(angle), cy + radius * 1.22 * math.sin(angle),
                              radius * 0.26, lines, light)
        else:
            canvas.setFillColor(lines)
            eight_pointed_star(canvas, cx, cy, radius * 0.82, radius * 0.34, 0.6 * s)
            canvas.circle(cx, cy, radius * 0.16, stroke=0, fill=1)
        label = words("mandragora", "back_items" if self.deck == "items" else "back_spells")
        for turn in (0, 180):
            canvas.saveState()
            canvas.translate(cx, cy)
            canvas.rotate(turn)
            self._title(canvas, h, label, lines, s)
            canvas.restoreState()

    def _title(self, canvas: Canvas, height: float, label: str, colour: str, s: float) -> None:
        big, small = 11.0 * s, max(MIN_TEXT_PT, 5.6 * s)
        base = height * 0.5 - pt(max(2.4, 3.0 * s)) - pt(4.2 * s) - big * SERIF_CAP_HEIGHT
        canvas.setFillColor(colour)
        tracked_text(canvas, 0, base, words("mandragora", "game"), SERIF_BOLD, big, 0.22)
        tracked_text(canvas, 0, base - small * 1.9, label, SANS, small, 0.5)
