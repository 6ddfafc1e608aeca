"""Magicians of Fillory card faces: the front of each card and the shared back.

Both draw at their own origin (trim bottom-left) and scale their type with the card size, so poker,
bridge, tarot and mini cards all come out of the same code. Hierarchy, top to bottom: the card's
name, its traits as labelled chips, its special ability, the card tricks its traits give, and a
footer with the card number and a QR code to the card's companion page.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from cardgen.catalog.fillory import Card, FilloryContent
from cardgen.render.markup import escape

from ..drawable_text import unfitted
from ..faces import (
    CodePlace,
    card_scale,
    double_border,
    double_ring,
    draw_card_qr,
    draw_paragraph,
    eight_pointed_star,
    face_profile,
    fit_font_size,
    text_width,
    tracked_text,
    wrap,
    wrapped_paragraph,
)
from ..fonts import MIN_TEXT_PT
from ..labels import label as words
from ..labels import listed
from ..pdf import draw_reused, pt
from ..print_specs import CardSize
from ..qr import QrMatrix
from .style import BOLD, CAP_HEIGHT, REGULAR, ChipColours, FilloryStyle

QR_SQUARE_MM = 18.5    # code plus quiet zone: the code itself is ~15 mm across at version 4
MIN_TRICK_SIZE = MIN_TEXT_PT  # points: below this the trick texts give way to a pointer to the reference sheet
NAME_LINES = 3               # a name wraps onto this many lines at the most


def _paragraph(markup: str, font_size: float, colour: str, width: float, leading: float = 1.2) -> Paragraph:
    """Card text wrapped to ``width`` points (kept: the same texts recur across the deck)."""
    return wrapped_paragraph(markup, REGULAR, font_size, font_size * leading, colour, width)


def _frame_inset(scale: float) -> float:
    return max(2.4, 3.0 * scale)


def _panel(size: CardSize, scale: float) -> tuple[float, float, float, float]:
    """The reading panel (x, y, w, h) in points."""
    w, h = pt(size.width), pt(size.height)
    inset = pt(_frame_inset(scale))
    return (inset, inset, w - 2 * inset, h - 2 * inset)


def _text_area(size: CardSize, scale: float) -> tuple[float, float, float, float]:
    """The panel's padded area (left, right, top, bottom) in points: where a front's text and code go."""
    px, py, pw, ph = _panel(size, scale)
    pad = pt(2.6 * scale)
    return px + pad, px + pw - pad, py + ph - pad, py + pad


def _draw_background(canvas: Canvas, size: CardSize, style: FilloryStyle, bleed: float, scale: float,
                     panel: bool) -> tuple[float, float, float, float]:
    """Fill the bleed and the border, draw the reading panel; returns the panel (x, y, w, h) in points."""
    w, h, b = pt(size.width), pt(size.height), pt(bleed)
    if style.frame:
        canvas.setFillColor(style.frame)
        canvas.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
    if style.outline:  # ink saver: a light cut guide on the trim instead of a filled border
        canvas.setStrokeColor(style.outline)
        canvas.setLineWidth(0.4)
        canvas.rect(0, 0, w, h, stroke=1, fill=0)
    box = _panel(size, scale)
    if panel:
        if style.panel:
            canvas.setFillColor(style.panel)
            canvas.roundRect(*box, radius=pt(2.2 * scale), stroke=0, fill=1)
        else:
            canvas.setStrokeColor(style.outline or style.muted)
            canvas.setLineWidth(0.6)
            canvas.roundRect(*box, radius=pt(2.2 * scale), stroke=1, fill=0)
    return box


def ability_markup(content: FilloryContent, card: Card) -> str:
    """The special ability as one line of markup, action words bold, in the active language's words:
    "<b>Summon</b> Julia, Alice or Penny", "<b>Summon</b> or <b>Banish</b> Plot" (both actions, one target)."""
    groups: list[tuple[str, list[str]]] = []
    for option in card.ability:
        if groups and groups[-1][0] == option.action:
            groups[-1][1].append(option.label(content))
        else:
            groups.append((option.action, [option.label(content)]))
    verbs = {action: f"<b>{escape(words('fillory', action))}</b>" for action in ("summon", "banish")}
    if len(groups) == 2 and groups[0][1] == groups[1][1] and len(groups[0][1]) == 1:
        return words("fillory", "both_actions", first=verbs[groups[0][0]], second=verbs[groups[1][0]],
                     target=escape(groups[0][1][0]))
    parts = [words("fillory", "ability", action=verbs[action], targets=escape(listed(targets)))
             for action, targets in groups]
    line = parts[0] if parts else ""
    for part in parts[1:]:
        line = words("fillory", "either_ability", first=line, second=part)
    return line


@dataclass(frozen=True)
class FilloryCardFront:
    """The face of one card."""

    card: Card
    content: FilloryContent
    style: FilloryStyle
    size: CardSize
    qr: QrMatrix
    in_setup: bool

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        scale = card_scale(self.size)
        _draw_background(canvas, self.size, self.style, bleed_mm, scale, panel=True)
        left, right, top, bottom = _text_area(self.size, scale)
        t = face_profile(self.size).text(scale)  # the text column: larger on a tall (tarot) card
        y = self._name(canvas, left, right, top, t)
        y = self._ornament(canvas, left, right, y - pt(2.1 * t), t)
        y = self._chips(canvas, left, right, y - pt(2.0 * t), t)
        footer_top = self._footer(canvas, left, bottom, scale)
        if y - pt(2.3 * t) < footer_top:
            raise unfitted(self.card, "name", f"the title and the traits leave no room on the {self.size.name} card above its footer")
        # the tricks' heading and one line of text below the ability box, the QR code's quiet zone below them
        floor = footer_top + pt(0.4 * scale) + pt(2.0 * t) + 2 * max(MIN_TEXT_PT, 5.6 * t) * 1.3
        y = self._ability(canvas, left, right, y - pt(2.3 * t), t, floor)
        # the QR code's white quiet zone already separates it from the text above
        self._tricks(canvas, left, right, y - pt(2.0 * t), footer_top + pt(0.4 * scale), t)

    # -- header -------------------------------------------------------------------------------
    def _name(self, canvas: Canvas, left: float, right: float, top: float, scale: float) -> float:
        """The name on one line (15 to 9.5 pt, scaled), else wrapped on at most :data:`NAME_LINES` lines at 10.5 pt
        down to 6 pt; a name longer than that is refused (:func:`unfitted`), not run over the face."""
        width = right - left
        largest, smallest = 15.0 * scale, 9.5 * scale
        size = fit_font_size(self.card.name, BOLD, width, largest, smallest)
        lines = [self.card.name]
        if text_width(self.card.name, BOLD, size) > width:
            size = max(10.5 * scale, MIN_TEXT_PT)
            lines = wrap(self.card.name, BOLD, size, width)
            while (len(lines) > NAME_LINES or any(text_width(line, BOLD, size) > width for line in lines)) \
                    and size > MIN_TEXT_PT:
                size = max(MIN_TEXT_PT, size - 0.5)
                lines = wrap(self.card.name, BOLD, size, width)
            if len(lines) > NAME_LINES or any(text_width(line, BOLD, size) > width for line in lines):
                raise unfitted(self.card, "name", f"{len(self.card.name)} characters do not fit the "
                               f"{self.size.name} card's title ({NAME_LINES} lines at {MIN_TEXT_PT:g} pt at the least)")
        canvas.setFillColor(self.style.ink)
        canvas.setFont(BOLD, size)
        baseline = top - size * CAP_HEIGHT
        for line in lines:
            canvas.drawString(left, baseline, line)
            baseline -= size * 1.1
        return baseline + size * 1.1

    def _ornament(self, canvas: Canvas, left: float, right: float, y: float, scale: float) -> float:
        """A brass rule with a small diamond in the middle, under the name."""
        mid, r = (left + right) / 2, pt(1.0 * scale)
        canvas.setStrokeColor(self.style.accent)
        canvas.setLineWidth(0.7 * scale)
        canvas.line(left, y, mid - 1.8 * r, y)
        canvas.line(mid + 1.8 * r, y, right, y)
        path = canvas.beginPath()
        path.moveTo(mid - r, y)
        path.lineTo(mid, y + r)
        path.lineTo(mid + r, y)
        path.lineTo(mid, y - r)
        path.close()
        canvas.setFillColor(self.style.accent)
        canvas.drawPath(path, stroke=0, fill=1)
        return y

    def _chips(self, canvas: Canvas, left: float, right: float, top: float, scale: float) -> float:
        """Each trait as its own labelled pill, wrapping onto more lines as needed; returns the bottom."""
        font_size = max(MIN_TEXT_PT, 7.2 * scale)
        height, pad_x, gap = pt(4.8 * scale), pt(1.7 * scale), pt(1.2 * scale)
        x, y = left, top - height
        for trait in self.card.traits:
            width = text_width(trait, BOLD, font_size) + 2 * pad_x
            if x > left and x + width > right:
                x, y = left, y - height - gap
            colours = self.style.chip(trait)

            def chip(trait: str = trait, width: float = width, colours: ChipColours = colours) -> None:
                canvas.setLineWidth(0.6 * scale)
                canvas.setStrokeColor(colours.edge)
                if colours.fill:
                    canvas.setFillColor(colours.fill)
                canvas.roundRect(0, 0, width, height, radius=height / 2, stroke=1, fill=1 if colours.fill else 0)
                canvas.setFillColor(colours.text)
                canvas.setFont(BOLD, font_size)
                canvas.drawString(pad_x, (height - font_size * CAP_HEIGHT) / 2, trait)
            canvas.saveState()  # the same trait chip recurs across the deck: drawn once, placed again
            canvas.translate(x, y)
            edge = 0.6 * scale
            draw_reused(canvas, ("chip", trait, font_size, height, pad_x, edge, colours),
                        (-edge, -edge, width + edge, height + edge), chip)
            canvas.restoreState()
            x += width + gap
        return y

    # -- body ---------------------------------------------------------------------------------
    def _ability(self, canvas: Canvas, left: float, right: float, top: float, scale: float, floor: float) -> float:
        """The special ability in a tinted box, action words in bold, its bottom no lower than ``floor``; returns
        the box bottom."""
        markup = ability_markup(self.content, self.card)
        inner = pt(1.8 * scale)
        label_size = max(MIN_TEXT_PT, 5.6 * scale)
        size = max(12.0 * scale, MIN_TEXT_PT)
        while True:  # shrunk (to 6 pt at the least) until the box leaves the trick heading its line above the footer
            para = _paragraph(markup, size, self.style.ink, right - left - 2 * inner, leading=1.12)
            box_h = inner + label_size * 1.3 + float(para.height) + inner
            if top - box_h >= floor or size <= MIN_TEXT_PT:
                break
            size = max(MIN_TEXT_PT, size - 0.5)
        if top - box_h < floor:
            raise unfitted(self.card, "ability", f"the ability line ({len(markup)} characters, the names it quotes "
                           f"included) does not fit the {self.size.name} card above its footer at {MIN_TEXT_PT:g} pt")
        bottom = top - box_h
        if self.style.ability_fill:
            canvas.setFillColor(self.style.ability_fill)
            canvas.roundRect(left, bottom, right - left, box_h, radius=pt(1.4 * scale), stroke=0, fill=1)
        else:
            canvas.setStrokeColor(self.style.outline or self.style.muted)
            canvas.setLineWidth(0.5)
            canvas.roundRect(left, bottom, right - left, box_h, radius=pt(1.4 * scale), stroke=1, fill=0)
        canvas.setFillColor(self.style.accent)
        canvas.rect(left, bottom + pt(1.2 * scale), pt(0.9 * scale), box_h - pt(2.4 * scale), stroke=0, fill=1)
        canvas.setFillColor(self.style.muted)
        canvas.setFont(BOLD, label_size)
        canvas.drawString(left + inner, top - inner - label_size * CAP_HEIGHT, words("fillory", "when_played"))
        draw_paragraph(canvas, para, left + inner, bottom + inner)
        return bottom

    def _tricks(self, canvas: Canvas, left: float, right: float, top: float, bottom: float,
                scale: float) -> None:
        """The card tricks this card's traits give, as much detail as the space allows."""
        tricks = [(t, self.content.trait(t).trick) for t in self.card.traits]
        entries = [(name, trick.text) for name, trick in tricks if trick is not None]
        label_size = max(MIN_TEXT_PT, 5.6 * scale)
        canvas.setFillColor(self.style.muted)
        canvas.setFont(BOLD, label_size)
        label_base = top - label_size * CAP_HEIGHT
        canvas.drawString(left, label_base, words("fillory", "trick_discard") if entries else words("fillory", "trick"))
        body_top = label_base - pt(1.3 * scale)
        width, room = right - left, body_top - bottom
        if not entries:
            para = _paragraph(escape(words("fillory", "no_trick")), max(MIN_TRICK_SIZE, 7.0 * scale),
                              self.style.muted, width)
            draw_paragraph(canvas, para, left, body_top - para.height)
            return
        sizes = sorted({max(MIN_TRICK_SIZE, f * scale) for f in (8.2, 7.8, 7.4, 7.0, 6.6, 6.2, 5.8)}, reverse=True)
        for font_size in sizes:
            paras = [_paragraph(f"<b>{escape(name)}</b> \u2013 {escape(text)}", font_size, self.style.ink, width, 1.12)
                     for name, text in entries]
            gap = font_size * 0.28
            heights = [p.height for p in paras]
            if sum(heights) + gap * (len(paras) - 1) <= room:
                y = body_top
                for para, height in zip(paras, heights, strict=True):
                    y -= height
                    draw_paragraph(canvas, para, left, y)
                    y -= gap
                return
        names = ", ".join(name for name, _ in entries)
        para = _paragraph(f"<b>{escape(names)}</b>: {escape(words('fillory', 'see_reference'))}", max(MIN_TRICK_SIZE, 6.4 * scale),
                          self.style.ink, width)
        draw_paragraph(canvas, para, left, body_top - para.height)

    # -- footer -------------------------------------------------------------------------------
    def code_place(self) -> CodePlace:
        """The QR code's square: bottom right of the text area, its quiet zone reaching into the padding."""
        scale = card_scale(self.size)
        _, right, _, bottom = _text_area(self.size, scale)
        return CodePlace(right, bottom, scale, QR_SQUARE_MM, right=True)

    def _footer(self, canvas: Canvas, left: float, bottom: float, scale: float) -> float:
        """QR code bottom-right (:meth:`code_place`), number and game bottom-left; returns the footer's top."""
        qr_x, qr_y, qr_size = draw_card_qr(canvas, self.qr, self.code_place(), ink=self.style.ink,
                                           ink_saver=self.style.ink_saver)
        text_right = qr_x - pt(1.5 * scale)
        small = max(MIN_TEXT_PT, 5.2 * scale)
        canvas.setFillColor(self.style.muted)
        room = text_right - left
        # lines that do not fit beside the code at 6 pt (mini cards) are left off, not shrunk
        lines = [(font, text) for font, text in ((REGULAR, words("card", "scan")), (BOLD, words("fillory", "game")))
                 if text_width(text, font, small) <= room]
        for index, (font, text) in enumerate(lines):
            canvas.setFont(font, small)
            canvas.drawString(left, bottom + pt(0.4) + index * small * 1.35, text)
        number = f"{self.card.number}/{len(self.content.cards)}"
        number_size = 11.0 * scale
        canvas.setFillColor(self.style.ink)
        canvas.setFont(BOLD, number_size)
        number_base = bottom + pt(0.4) + (small * (1.35 * len(lines) + 0.2) if lines else 0.0)
        canvas.drawString(left, number_base, number)
        top = number_base + number_size * CAP_HEIGHT
        if self.in_setup:
            top = self._setup_badge(canvas, left, text_right, top + pt(1.6 * scale), scale)
        return max(top, qr_y + qr_size)

    def _setup_badge(self, canvas: Canvas, left: float, right: float, y: float, scale: float) -> float:
        """A pill marking the 13 cards that start face up in the neutral zone."""
        text = words("fillory", "starts_neutral")
        if text_width(text, BOLD, MIN_TEXT_PT) > right - left - pt(2.4 * scale):
            text = words("fillory", "neutral")  # a mini card: the short form at 6 pt rather than the long one smaller
        size = fit_font_size(text, BOLD, right - left - pt(2.4 * scale), 5.4 * scale, MIN_TEXT_PT)
        height = pt(3.6 * scale)
        width = text_width(text, BOLD, size) + pt(2.4 * scale)
        canvas.setStrokeColor(self.style.accent)
        canvas.setLineWidth(0.6 * scale)
        canvas.roundRect(left, y, width, height, radius=height / 2, stroke=1, fill=0)
        canvas.setFillColor(self.style.ink)
        canvas.setFont(BOLD, size)
        canvas.drawString(left + pt(1.2 * scale), y + (height - size * CAP_HEIGHT) / 2, text)
        return y + height


@dataclass(frozen=True)
class FilloryCardBack:
    """The shared back: a typographic, half-turn symmetric design (looks the same either way up)."""

    style: FilloryStyle
    size: CardSize

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        scale = card_scale(self.size)
        px, py, pw, ph = _draw_background(canvas, self.size, self.style, bleed_mm, scale, panel=False)
        w, h = pt(self.size.width), pt(self.size.height)
        lines = self.style.back_lines
        canvas.setStrokeColor(lines)
        double_border(canvas, px, py, pw, ph, scale, 0.8)
        cx, cy = w / 2, h / 2
        self._emblem(canvas, cx, cy, min(pw, ph) * 0.33, scale)
        self._title(canvas, cx, cy, ph, scale)
        canvas.saveState()
        canvas.translate(cx, cy)
        canvas.rotate(180)
        self._title(canvas, 0, 0, ph, scale)
        canvas.restoreState()

    def _emblem(self, canvas: Canvas, cx: float, cy: float, radius: float, scale: float) -> None:
        """Two rings and an eight-pointed star: a spell circle made of plain geometry."""
        canvas.setStrokeColor(self.style.back_lines)
        double_ring(canvas, cx, cy, radius, scale)
        eight_pointed_star(canvas, cx, cy, radius * 0.86, radius * 0.36, 0.6 * scale)
        canvas.circle(cx, cy, radius * 0.2, stroke=1, fill=0)
        canvas.setFillColor(self.style.back_lines)
        canvas.circle(cx, cy, radius * 0.06, stroke=0, fill=1)

    def _title(self, canvas: Canvas, cx: float, cy: float, panel_h: float, scale: float) -> None:
        """The game's name between the emblem and the border (drawn twice, once turned a half turn)."""
        canvas.setFillColor(self.style.back_text)
        big, small = 10.5 * scale, max(MIN_TEXT_PT, 6.0 * scale)
        base = cy + panel_h * 0.335
        tracked_text(canvas, cx, base, words("fillory", "back_top"), BOLD, big, 0.28)
        tracked_text(canvas, cx, base - small * 1.8, words("fillory", "back_bottom"), REGULAR, small, 0.45)
