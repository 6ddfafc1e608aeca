"""The landscape cards kept face up on the table: feats of magic, named connexions, books of magic and the
cards of Marseilles. Drawn inside the frame :class:`~.card_faces.CardFront` has already painted; the QR code
sits bottom right, the deck and number lines bottom left.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.jsmn import (
    DECKS,
    Book,
    Card,
    Feat,
    JsmnContent,
    MarseillesCard,
    NamedConnexion,
)

from ..faces import CodePlace, text_width
from ..fonts import MIN_TEXT_PT
from ..labels import counted
from ..labels import label as words
from ..pdf import pt
from ..qr import QrMatrix
from .card_frame import (
    ANY,
    Box,
    _escape,
    big_number,
    draw_footer,
    draw_header,
    draw_text,
    element_chip,
    element_name,
    number_line,
    symbol_of,
)
from .style import FAIRY_INK, SANS, SANS_BOLD, SERIF_ITALIC, WHITE, JsmnStyle
from .symbols import envelope, interlinked_rings, star, thistle_down

TOKEN_RING_MM = 11.5    # a ring per token a feat needs (the tokens themselves are 16 mm and overlap it)


def draw_table_card(canvas: Canvas, box: Box, card: Card, content: JsmnContent, style: JsmnStyle, s: float,
                    qr: QrMatrix, place: CodePlace, t: float | None = None, compact: bool = False) -> None:
    """A table card's face, its code where ``place`` says (bottom right); ``t`` is the scale of its name (its size's face profile: larger on tarot); a
    ``compact`` (mini) card leaves off the sentences that repeat what its symbols show."""
    t = s if t is None else t
    ink = style.deck_ink(card.kind)
    badge = pt(7.5 * s) if isinstance(card, Feat) else 0.0
    rule_y = draw_header(canvas, box, DECKS[card.kind][0], card.name, ink, style, t,
                         right_room=2 * badge + pt(1.5 * s) if badge else 0.0, rule_beside=bool(badge))
    lines = [(SANS_BOLD, content.title), (SANS, number_line(content, card))]
    draw_footer(canvas, box, qr, place, lines, style, s)
    qr_left = place.square()[0]
    body = Box(box.left, box.bottom + pt(8.0 * s), qr_left - pt(1.5 * s), rule_y - pt(1.6 * s))
    if isinstance(card, Feat):
        _feat(canvas, box, body, card, content, style, s, badge)
    elif isinstance(card, NamedConnexion):
        _connexion(canvas, box, body, card, content, style, s)
    elif isinstance(card, Book):
        _book(canvas, box, body, card, content, style, s, compact)
    elif isinstance(card, MarseillesCard):
        _marseilles(canvas, box, body, card, content, style, s)


def _feat(canvas: Canvas, box: Box, body: Box, card: Feat, content: JsmnContent, style: JsmnStyle, s: float,
          badge: float) -> None:
    ink = style.deck_ink(card.kind)
    cx, cy = box.right - badge, box.top - badge
    fill = style.fill(ink)
    if fill:
        star(canvas, cx, cy, 2 * badge * 1.05, fill, WHITE)
    else:
        canvas.setStrokeColor(ink)
        canvas.setLineWidth(0.9 * s)
        canvas.circle(cx, cy, badge * 0.8, stroke=1, fill=0)
    big_number(canvas, cx, cy - pt(0.4 * s), str(card.magicianship), 13 * s, WHITE if fill else ink)
    ring = pt(TOKEN_RING_MM * s)
    gap = pt(1.6 * s)
    x, top = body.left, body.top
    canvas.setLineWidth(0.7 * s)
    for element, count in card.requires:
        for _ in range(count):
            canvas.setStrokeColor(style.element_ink(element))
            canvas.setDash(2 * s, 1.2 * s)
            canvas.circle(x + ring / 2, top - ring / 2, ring / 2, stroke=1, fill=0)
            canvas.setDash()
            element_chip(canvas, x + ring / 2, top - ring / 2, ring * 0.3, element, symbol_of(content, element), style, s)
            x += ring + gap
    needs = words("card", "list_separator").join(counted("jsmn", "element_count", n, element=(
        content.element(e).counted_name(n) if e != ANY else element_name(content, e)).lower()) for e, n in card.requires)
    draw_text(canvas, words("jsmn", "feat_needs", needs=needs, count=card.magicianship), body.left, body.width, top - ring - pt(1.5 * s), top - ring - body.bottom - pt(1 * s),
              style, s, largest=7.0, smallest=4.6)


def _connexion(canvas: Canvas, box: Box, body: Box, card: NamedConnexion, content: JsmnContent, style: JsmnStyle,
               s: float) -> None:
    kind = content.connexion_type(card.connexion_type)
    ink = style.deck_ink(card.kind)
    icon = pt(7 * s)
    interlinked_rings(canvas, body.left + icon / 2, body.top - icon / 2, icon, ink, WHITE)
    left = body.left + icon + pt(1.5 * s)
    canvas.setFillColor(style.readable(ink))
    canvas.setFont(SANS_BOLD, max(MIN_TEXT_PT, 6.6 * s))
    canvas.drawString(left, body.top - pt(2.6 * s), words("jsmn", "connexion", kind=kind.name.upper()))
    canvas.setFont(SANS, max(MIN_TEXT_PT, 5.0 * s))
    canvas.setFillColor(style.muted)
    canvas.drawString(left, body.top - pt(5.6 * s), words("jsmn", "mark_space"))
    y = draw_text(canvas, words("jsmn", "when_taken", text=_escape(card.text)), body.left, body.width,
                  body.top - icon - pt(2 * s), pt(14 * s), style, s, largest=7.6, smallest=5.0)
    draw_text(canvas, words("jsmn", "then_lasting", text=_escape(kind.text)), body.left, body.width, y - pt(1.5 * s),
              y - pt(1.5 * s) - body.bottom, style, s, largest=6.6, smallest=4.4, colour=style.muted)


def _book(canvas: Canvas, box: Box, body: Box, card: Book, content: JsmnContent, style: JsmnStyle, s: float,
          compact: bool = False) -> None:
    canvas.setFillColor(style.muted)
    canvas.setFont(SERIF_ITALIC, max(MIN_TEXT_PT, 6.6 * s))
    canvas.drawString(body.left, body.top - pt(2.4 * s), card.author)
    cost, place, count = {"double": (card.element, card.element, 2), "any": (card.element, ANY, 1),
                          "convert": (ANY, card.element, 1)}[card.form]
    r = pt(3.4 * s)
    y = body.top - pt(5 * s) - r
    small = max(MIN_TEXT_PT, 6.2 * s)
    label_w = max(pt(11 * s), text_width(words("jsmn", "discard"), SANS_BOLD, small) + pt(1.0 * s))  # the chips after it
    canvas.setFont(SANS_BOLD, small)
    canvas.setFillColor(style.ink)
    canvas.drawString(body.left, y - small * 0.35, words("jsmn", "discard"))
    x = body.left + label_w + r
    element_chip(canvas, x, y, r, cost, symbol_of(content, cost), style, s)
    canvas.setFont(SANS, small)
    canvas.setFillColor(style.ink)
    canvas.drawString(x + r + pt(1.2 * s), y - small * 0.35, words("jsmn", "card_of", element=element_name(content, cost).lower())
                      if cost != ANY else words("jsmn", "card_of_any"))
    y -= 2 * r + pt(1.8 * s)
    canvas.setFont(SANS_BOLD, small)
    canvas.drawString(body.left, y - small * 0.35, words("jsmn", "place"))
    x = body.left + label_w + r
    for _ in range(count):
        element_chip(canvas, x, y, r, place, symbol_of(content, place), style, s)
        x += 2 * r + pt(1 * s)
    canvas.setFont(SANS, small)
    canvas.setFillColor(style.ink)
    canvas.drawString(x - r + pt(1.2 * s), y - small * 0.35,
                      counted("jsmn", "tokens", count, element=element_name(content, place).lower())
                      if place != ANY else words("jsmn", "token_of_any"))
    told = "" if compact else f"{_escape(card.text)} "  # the DISCARD and PLACE rows above say it too
    draw_text(canvas, told + words("jsmn", "book_use"),
              body.left, body.width, y - r - pt(1.8 * s), y - r - pt(1.8 * s) - body.bottom,
              style, s, largest=6.4, smallest=4.4, colour=style.muted)


def _marseilles(canvas: Canvas, box: Box, body: Box, card: MarseillesCard, content: JsmnContent, style: JsmnStyle,
                s: float) -> None:
    canvas.setFillColor(style.muted)
    canvas.setFont(SERIF_ITALIC, max(MIN_TEXT_PT, 7.0 * s))
    canvas.drawString(body.left, body.top - pt(2.4 * s), card.english)
    icon = pt(7 * s)
    y = body.top - pt(4.5 * s) - icon / 2
    thistle_down(canvas, body.left + icon / 2, y, icon, FAIRY_INK, WHITE)
    big_number(canvas, body.left + icon + pt(5 * s), y, f"+{card.strength}", 12 * s, style.ink)
    canvas.setFont(SANS_BOLD, max(MIN_TEXT_PT, 5.0 * s))
    canvas.setFillColor(style.muted)
    x2 = body.left + body.width / 2 + pt(3 * s)
    label, label_x, label_size = words("jsmn", "fairy_strength"), body.left + icon + pt(10 * s), max(MIN_TEXT_PT, 5.0 * s)
    if text_width(label, SANS_BOLD, label_size) > x2 - label_x:  # a mini card: the thistle-down says whose
        label = words("jsmn", "strength")
        x2 = max(x2, label_x + text_width(label, SANS_BOLD, label_size) + pt(1.5 * s))
    canvas.drawString(label_x, y - pt(0.8 * s), label)
    envelope(canvas, x2 + icon / 2, y, icon * 0.9, style.deck_ink("invitation"), WHITE)
    big_number(canvas, x2 + icon + pt(3.5 * s), y, str(card.invitations), 12 * s, style.ink)
    canvas.setFont(SANS_BOLD, max(MIN_TEXT_PT, 5.0 * s))
    canvas.setFillColor(style.muted)
    canvas.drawString(x2 + icon + pt(7 * s), y + pt(0.2 * s), words("jsmn", "invitations"))
    canvas.drawString(x2 + icon + pt(7 * s), y - pt(2.2 * s), words("jsmn", "drawn"))
    r = pt(3.4 * s)
    y -= icon / 2 + pt(3 * s) + r
    canvas.drawString(body.left, y + r + pt(0.8 * s), words("jsmn", "elements_this_year"))
    x = body.left + r
    for element in card.elements:
        element_chip(canvas, x, y, r, element, symbol_of(content, element), style, s)
        canvas.setFont(SANS, max(MIN_TEXT_PT, 5.6 * s))
        canvas.setFillColor(style.ink)
        name = content.element(element).name
        canvas.drawString(x + r + pt(1 * s), y - pt(0.8 * s), name)
        x += pt(19 * s)
