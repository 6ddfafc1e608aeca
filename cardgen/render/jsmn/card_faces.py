"""Jonathan Strange & Mr Norrell card fronts. The portrait decks kept secret in hand (invitations,
introductions, spells) are drawn here; the landscape decks kept on the table (feats, named connexions,
books, cards of Marseilles) in :mod:`.table_cards`. Every fact of a card is printed on it, and a QR code
opens its companion page.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.jsmn import (
    DECKS,
    SPELL_TIMINGS,
    Card,
    Introduction,
    Invitation,
    JsmnContent,
    Spell,
)

from ..faces import CodePlace, face_profile, fit_font_size
from ..fonts import MIN_TEXT_PT
from ..labels import label as words
from ..pdf import pt
from ..print_specs import CardSize
from ..qr import QrMatrix
from .card_frame import (
    Box,
    _escape,
    big_number,
    card_scale,
    code_place,
    draw_footer,
    draw_frame,
    draw_header,
    draw_text,
    element_chip,
    number_line,
)
from .style import LONDON_INK, SANS, SANS_BOLD, SERIF_BOLD, WHITE, JsmnStyle
from .symbols import DECK_DRAWERS, l_badge, wax_seal
from .table_cards import draw_table_card

#: The label (``[jsmn]`` in the labels) naming each kind of person an introduction is.
PERSON_LINES = {"historical": "person_historical", "period type": "person_period", "fictional": "person_fictional"}


@dataclass(frozen=True)
class CardFront:
    card: Card
    content: JsmnContent
    style: JsmnStyle
    size: CardSize      # as the card is read: landscape for the table decks
    qr: QrMatrix

    def code_place(self) -> CodePlace:
        """The QR code's square: bottom left of the panel, bottom right on the table decks' landscape cards."""
        return code_place(self.size, card_scale(self.size), right=DECKS[self.card.kind][1] == "landscape")

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        card, style = self.card, self.style
        s = card_scale(self.size)
        ink = style.deck_ink(card.kind)
        box = draw_frame(canvas, self.size, bleed_mm, ink, style, s)
        profile = face_profile(self.size)
        t = profile.text(s)  # the name and the card's text: larger on a tall (tarot) card
        if DECKS[card.kind][1] == "landscape":
            draw_table_card(canvas, box, card, self.content, style, s, self.qr, self.code_place(), t, profile.compact)
            return
        chip_r = pt(5.0 * s)
        element = getattr(card, "element", None)
        cx, cy = box.right - chip_r, box.top - chip_r
        if isinstance(element, str):
            element_chip(canvas, cx, cy, chip_r, element, self.content.element(element).symbol, style, s)
        else:
            DECK_DRAWERS[card.kind](canvas, cx, cy, chip_r * 1.6, ink, style.panel or WHITE)
        # the name keeps 2.5 mm from the corner disc; the rule runs below the disc, never across it
        rule_y = draw_header(canvas, box, DECKS[card.kind][0], card.name, ink, style, t,
                             right_room=2 * chip_r + pt(2.5 * s), rule_at_most=cy - chip_r - pt(1.2 * s))
        lines = [(SANS_BOLD, self.content.title), (SANS, number_line(self.content, card, short=profile.compact))]
        if isinstance(element, str):
            el = self.content.element(element)
            lines.insert(1, (SANS, words("jsmn", "element_line", element=el.name, symbol=el.symbol_name)))
        footer_top = draw_footer(canvas, box, self.qr, self.code_place(), lines, style, s)
        body = Box(box.left, footer_top + pt(1.5 * s), box.right, rule_y - pt(1.8 * s))
        if isinstance(card, Invitation):
            self._invitation(canvas, body, card, t)
        elif isinstance(card, Introduction):
            self._introduction(canvas, body, card, t)
        elif isinstance(card, Spell):
            self._spell(canvas, body, card, t)

    # -- the social engagements -----------------------------------------------------------------------
    def _place(self, canvas: Canvas, body: Box, top: float, verb: str, location_id: str, s: float) -> float:
        """'ATTEND IN' and the location's name (London: its colour, the L badge and 'City of London')."""
        place = self.content.map.location(location_id)
        london = place.region == "city"
        style = self.style
        small = max(MIN_TEXT_PT, 5.2 * s)
        canvas.setFillColor(style.muted)
        canvas.setFont(SANS_BOLD, small)
        canvas.drawString(body.left, top - small, verb)
        y = top - small - pt(1.2 * s)
        left = body.left
        size = 12.0 * s
        if london:
            badge = pt(5.2 * s)
            l_badge(canvas, body.left + badge / 2, y - badge / 2, badge, LONDON_INK, WHITE)
            left += badge + pt(1.2 * s)
        size = fit_font_size(place.name, SERIF_BOLD, body.right - left, size, 7.0 * s)
        canvas.setFillColor(style.readable(LONDON_INK) if london else style.ink)
        canvas.setFont(SERIF_BOLD, size)
        canvas.drawString(left, y - size * 0.8, place.name)
        y -= max(size, pt(5.2 * s) if london else 0) + pt(0.8 * s)
        if london:
            canvas.setFillColor(style.readable(LONDON_INK))
            canvas.setFont(SANS_BOLD, small)
            canvas.drawString(body.left, y - small, words("jsmn", "city_of_london"))
            y -= small + pt(0.8 * s)
        return y

    def _magic_line(self, canvas: Canvas, body: Box, element: str, s: float) -> None:
        name = self.content.element(element).name.lower()
        draw_text(canvas, words("jsmn", "discard_magic", element=name), body.left, body.width,
                  body.bottom + pt(4.0 * s), pt(4.0 * s), self.style, s, largest=6.6, smallest=4.6)

    def _invitation(self, canvas: Canvas, body: Box, card: Invitation, s: float) -> None:
        y = self._place(canvas, body, body.top, words("jsmn", "attend_in"), card.location, s)
        room = y - body.bottom - pt(6 * s)
        box_h = min(room, pt(24 * s))   # the face's free height goes to the card's one rule, set larger
        top = y - pt(1.5 * s)
        ink = self.style.deck_ink(card.kind)
        pale = self.style.pale(ink, 0.88)
        if pale:
            canvas.setFillColor(pale)
            canvas.roundRect(body.left, top - box_h, body.width, box_h, pt(1.5 * s), stroke=0, fill=1)
        else:
            canvas.setStrokeColor(ink)
            canvas.setLineWidth(0.5 * s)
            canvas.roundRect(body.left, top - box_h, body.width, box_h, pt(1.5 * s), stroke=1, fill=0)
        icon = pt(5.5 * s)
        cy = top - box_h / 2
        DECK_DRAWERS["introduction"](canvas, body.left + pt(2 * s) + icon / 2, cy + icon * 0.55, icon,
                                     self.style.deck_ink("introduction"), WHITE)
        DECK_DRAWERS["feat"](canvas, body.left + pt(2 * s) + icon / 2, cy - icon * 0.55, icon,
                             self.style.deck_ink("feat"), WHITE)
        text_left = body.left + icon + pt(3.5 * s)
        draw_text(canvas, words("jsmn", "attend"),
                  text_left, body.right - text_left - pt(1 * s), top - pt(1.2 * s), box_h - pt(2.4 * s),
                  self.style, s, largest=8.6, smallest=4.6)
        self._magic_line(canvas, body, card.element, s)

    def _introduction(self, canvas: Canvas, body: Box, card: Introduction, s: float) -> None:
        style = self.style
        r = pt(8.0 * s)
        cx, cy = body.left + r, body.top - r
        seal = style.fill("#8E2430")
        if seal:
            wax_seal(canvas, cx, cy, 2 * r, seal, seal)
            big_number(canvas, cx, cy + pt(1.0 * s), f"+{card.prestige}", 15 * s, WHITE)
        else:
            canvas.setStrokeColor("#8E2430")
            canvas.setLineWidth(0.9 * s)
            canvas.circle(cx, cy, r * 0.9, stroke=1, fill=0)
            big_number(canvas, cx, cy + pt(1.0 * s), f"+{card.prestige}", 15 * s, "#8E2430")
        canvas.setFont(SANS_BOLD, max(MIN_TEXT_PT, 4.4 * s))
        canvas.setFillColor(WHITE if seal else "#8E2430")
        canvas.drawCentredString(cx, cy - pt(4.2 * s), words("jsmn", "prestige"))
        text_left = cx + r + pt(2 * s)
        draw_text(canvas, words("jsmn", "meet", name=_escape(card.name), prestige=card.prestige), text_left,
                  body.right - text_left, body.top - pt(1 * s), 2 * r - pt(6 * s), style, s, largest=7.2,
                  smallest=4.6)
        canvas.setFillColor(style.muted)
        canvas.setFont(SANS, max(MIN_TEXT_PT, 5.0 * s))
        canvas.drawString(text_left, body.top - 2 * r + pt(1.0 * s), words("jsmn", PERSON_LINES[card.person]))
        self._place(canvas, body, body.top - 2 * r - pt(2.5 * s), words("jsmn", "meet_in"), card.location, s)
        self._magic_line(canvas, body, card.element, s)

    def _spell(self, canvas: Canvas, body: Box, card: Spell, s: float) -> None:
        style = self.style
        ink = style.deck_ink(card.kind)
        small = max(MIN_TEXT_PT, 5.4 * s)
        canvas.setFillColor(style.readable(ink))
        canvas.setFont(SANS_BOLD, small)
        canvas.drawString(body.left, body.top - small, words("jsmn", "cast_when", timing=SPELL_TIMINGS[card.timing].upper())
                          if card.timing == "your-turn" else words("jsmn", "cast_any_time"))
        if card.timing != "your-turn":
            canvas.setFont(SANS, max(MIN_TEXT_PT, small * 0.9))
            canvas.drawString(body.left, body.top - 2.2 * small, words("jsmn", "any_turn"))
        top = body.top - (3.2 if card.timing != "your-turn" else 2.0) * small
        extras = pt(13 * s) if card.elements or card.magicianship else pt(6 * s)
        bottom = draw_text(canvas, _escape(card.text), body.left, body.width, top, top - body.bottom - extras,
                           style, s, largest=8.0, smallest=4.8)
        y = bottom - pt(2 * s)
        if card.elements:
            r = pt(3.2 * s)
            x = body.left + r
            for element in card.elements:
                element_chip(canvas, x, y - r, r, element, self.content.element(element).symbol, style, s)
                canvas.setFillColor(style.ink)
                canvas.setFont(SANS, max(MIN_TEXT_PT, 5.2 * s))
                canvas.drawString(x + r + pt(1 * s), y - r - pt(0.7 * s), self.content.element(element).name)
                x += pt(20 * s)
            y -= 2 * r + pt(1.5 * s)
        if card.magicianship:
            canvas.setFillColor(style.readable(ink))
            canvas.setFont(SANS_BOLD, max(MIN_TEXT_PT, 6.0 * s))
            canvas.drawString(body.left, y - pt(2.4 * s), words("jsmn", "magicianship_played", count=card.magicianship))
        canvas.setFillColor(style.muted)
        canvas.setFont(SANS, max(MIN_TEXT_PT, 5.2 * s))
        canvas.drawString(body.left, body.bottom + pt(0.5 * s),
                          words("jsmn", "discard_for", count=card.discard_prestige))
