"""What every Jonathan Strange & Mr Norrell card shares: its frame, header, footer (QR code, number),
element chips, fitted text blocks, and the one back each of the seven decks has.

Cards are designed on a poker card (63 x 88 mm, or 88 x 63 for the landscape decks) and scale with the
card size. A face draws at its own origin, its trim's bottom-left corner.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.jsmn import DECKS, Card, JsmnContent

from ..faces import (
    CodePlace,
    card_ground,
    draw_card_qr,
    draw_paragraph,
    emblem_back,
    fit_font_size,
    stacked_lines,
    tracked_text,
    wrapped_paragraph,
)
from ..fonts import MIN_TEXT_PT
from ..labels import label as words
from ..pdf import draw_reused, pt
from ..print_specs import CardSize
from ..qr import QrMatrix
from .style import (
    CAP_HEIGHT,
    LIGHT_OUTLINE,
    SANS,
    SANS_BOLD,
    SERIF_BOLD,
    SERIF_CAP_HEIGHT,
    WHITE,
    JsmnStyle,
)
from .symbols import DECK_DRAWERS, ELEMENT_DRAWERS

PORTRAIT_REFERENCE = (63.0, 88.0)
QR_SQUARE_MM = 17.0     # code plus quiet zone: scans from a poker card at arm's length
ANY = "any"


def card_scale(size: CardSize) -> float:
    """How much bigger than a poker card this card is (either way round)."""
    short, long = sorted((size.width, size.height))
    return min(short / PORTRAIT_REFERENCE[0], long / PORTRAIT_REFERENCE[1])


def landscape(size: CardSize) -> CardSize:
    """The same card turned sideways (the decks kept on the table)."""
    return CardSize(f"{size.name} landscape", size.height, size.width, size.description)


@dataclass(frozen=True)
class Box:
    """The panel's usable area in points."""

    left: float
    bottom: float
    right: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left


def panel_area(size: CardSize, s: float) -> Box:
    """The light panel's padded area inside the frame, in points: where a face's text and code go."""
    w, h = pt(size.width), pt(size.height)
    inset = pt(max(2.4, 3.0 * s))
    pad = pt(2.0 * s)
    return Box(inset + pad, inset + pad, w - inset - pad, h - inset - pad)


def code_place(size: CardSize, s: float, *, right: bool) -> CodePlace:
    """A front's QR code square: in the bottom left corner of :func:`panel_area` (bottom right if ``right``:
    the table decks)."""
    box = panel_area(size, s)
    return CodePlace(box.right if right else box.left, box.bottom, s, QR_SQUARE_MM, right=right)


def draw_frame(canvas: Canvas, size: CardSize, bleed_mm: float, ink: str, style: JsmnStyle, s: float) -> Box:
    """The deck-coloured frame (with bleed) and the light panel inside it; returns the panel's padded area
    (:func:`panel_area`)."""
    w, h = pt(size.width), pt(size.height)
    frame = style.fill(ink)
    card_ground(canvas, w, h, bleed_mm, frame, LIGHT_OUTLINE)
    inset = pt(max(2.4, 3.0 * s))
    if style.panel:
        canvas.setFillColor(style.panel)
        canvas.roundRect(inset, inset, w - 2 * inset, h - 2 * inset, pt(2.2 * s), stroke=0, fill=1)
    else:
        canvas.setStrokeColor(ink)
        canvas.setLineWidth(1.0 * s)
        canvas.roundRect(inset, inset, w - 2 * inset, h - 2 * inset, pt(2.2 * s), stroke=1, fill=0)
    return panel_area(size, s)


def draw_header(canvas: Canvas, box: Box, deck_label: str, name: str, ink: str, style: JsmnStyle, s: float,
                right_room: float = 0.0, rule_at_most: float | None = None, rule_beside: bool = False) -> float:
    """Deck label in small capitals, then the card's name (shrunk or wrapped to fit); returns the rule's y.
    ``rule_at_most``: the rule goes no higher (below a corner disc, not across it); ``rule_beside``: the rule
    stops where ``right_room`` begins (beside a corner badge, not across or behind it)."""
    width = box.width - right_room
    small = max(MIN_TEXT_PT, 5.4 * s)
    canvas.setFillColor(style.readable(ink))
    canvas.setFont(SANS_BOLD, small)
    label_y = box.top - small * CAP_HEIGHT
    canvas.drawString(box.left, label_y, deck_label.upper(), charSpace=0.6 * s)
    size = fit_font_size(name, SERIF_BOLD, width, 12.5 * s, 9.0 * s)
    top = label_y - pt(1.4 * s)
    if stringWidth(name, SERIF_BOLD, size) <= width:  # one line: no paragraph needed
        canvas.setFillColor(style.ink)
        canvas.setFont(SERIF_BOLD, size)
        canvas.drawString(box.left, top - size * 0.88, name)
        height = size * 1.08
    else:
        para = wrapped_paragraph(_escape(name), SERIF_BOLD, size, size * 1.08, style.ink, width, TA_LEFT)
        draw_paragraph(canvas, para, box.left, top - para.height)
        height = para.height
    rule_y = top - height - pt(1.2 * s)
    if rule_at_most is not None:
        rule_y = min(rule_y, rule_at_most)
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(0.6 * s)
    canvas.line(box.left, rule_y, box.right - (right_room if rule_beside else 0.0), rule_y)
    return rule_y


def draw_text(canvas: Canvas, markup: str, left: float, width: float, top: float, room: float, style: JsmnStyle,
              s: float, *, largest: float = 8.0, smallest: float = 5.0, centred: bool = False,
              colour: str | None = None) -> float:
    """A paragraph at the largest size (in half-point steps) that fits ``room`` points below ``top``;
    returns its bottom. Never below ``MIN_TEXT_PT``."""
    smallest = max(smallest, MIN_TEXT_PT)
    size = max(largest * s, smallest)
    while True:
        para = wrapped_paragraph(markup, SANS, size, size * 1.22, colour or style.ink, width,
                                 TA_CENTER if centred else TA_LEFT)
        if para.height <= room or size <= smallest:
            break
        size -= 0.5
    draw_paragraph(canvas, para, left, top - para.height)
    return top - float(para.height)


def element_chip(canvas: Canvas, cx: float, cy: float, radius: float, element: str, symbol: str,
                 style: JsmnStyle, s: float) -> None:
    """An element's disc: its colour and its own symbol (a ring and a coloured symbol in ink-saver mode).
    Drawn once per canvas and size, then placed again as a form."""
    ink = style.element_ink(element)
    fill = style.fill(ink)

    def draw() -> None:
        if fill:
            canvas.setFillColor(fill)
            canvas.circle(0, 0, radius, stroke=0, fill=1)
            ELEMENT_DRAWERS[symbol](canvas, 0, 0, radius * 1.3, WHITE, fill)
        else:
            canvas.setStrokeColor(ink)
            canvas.setLineWidth(0.8 * s)
            canvas.circle(0, 0, radius, stroke=1, fill=0)
            ELEMENT_DRAWERS[symbol](canvas, 0, 0, radius * 1.3, ink, WHITE)
    edge = radius + 1.0 * s + 1
    canvas.saveState()
    canvas.translate(cx, cy)
    draw_reused(canvas, ("jsmn-chip", element, symbol, round(radius, 3), round(s, 4), fill is None),
                (-edge, -edge, edge, edge), draw)
    canvas.restoreState()


def symbol_of(content: JsmnContent, element: str) -> str:
    return content.any_element_symbol if element == ANY else content.element(element).symbol


def element_name(content: JsmnContent, element: str) -> str:
    return "any element" if element == ANY else content.element(element).name


def draw_footer(canvas: Canvas, box: Box, qr: QrMatrix, place: CodePlace, lines: list[tuple[str, str]],
                style: JsmnStyle, s: float) -> float:
    """The QR code where ``place`` says (a bottom corner of ``box``) and a few small lines beside it; returns the
    footer's top."""
    qr_x, qr_y, size = draw_card_qr(canvas, qr, place, ink=style.ink, ink_saver=style.ink_saver)
    qr_right = place.right
    text_left = box.left if qr_right else qr_x + size + pt(0.8 * s)
    width = (qr_x - pt(0.8 * s) - box.left) if qr_right else box.right - text_left
    small = max(MIN_TEXT_PT, 5.0 * s)
    canvas.setFillColor(style.muted)
    y = stacked_lines(canvas, lines, text_left, box.bottom + pt(0.6 * s), width, small)
    return qr_y + size if not qr_right else y


def number_line(content: JsmnContent, card: Card, short: bool = False) -> str:
    """'invitation 3/48 · card 3/189', 'card of Marseilles 1/12 · card 178/189'; ``short`` (a mini card, whose
    header already names the deck): '3/48 · card 3/189'."""
    deck = content.deck(card.kind)
    position = card.number - deck[0].number + 1
    if short:
        return words("jsmn", "number_line_short", position=position, count=len(deck), number=card.number,
                     total=len(content.cards))
    label = DECKS[card.kind][0]
    return words("jsmn", "number_line", deck=f"{label[:1].lower()}{label[1:]}", position=position, count=len(deck),
                 number=card.number, total=len(content.cards))


def big_number(canvas: Canvas, cx: float, cy: float, text: str, size: float, colour: str) -> None:
    canvas.setFillColor(colour)
    canvas.setFont(SERIF_BOLD, size)
    canvas.drawCentredString(cx, cy - size * SERIF_CAP_HEIGHT / 2, text)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@dataclass(frozen=True)
class DeckBack:
    """The back every card of one deck shares: the deck's colour, picture and name."""

    kind: str
    style: JsmnStyle
    size: CardSize

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        s = card_scale(self.size)
        style, ink = self.style, self.style.deck_ink(self.kind)
        w, h = pt(self.size.width), pt(self.size.height)
        fill = style.fill(ink)
        lines = "#E9D9A6" if fill else ink
        inset, r = emblem_back(canvas, w, h, bleed_mm, s, ground=fill, outline=LIGHT_OUTLINE, lines=lines,
                               emblem=DECK_DRAWERS[self.kind], ring=0.24, emblem_size=1.2)
        label = DECKS[self.kind][0].upper()
        size = fit_font_size(label, SERIF_BOLD, w - 2 * inset - pt(8 * s), 11 * s, 6 * s)
        tracked_text(canvas, w / 2, h / 2 + r + pt(4 * s), label, SERIF_BOLD, size, 0.12)
        tracked_text(canvas, w / 2, h / 2 - r - pt(6.5 * s), words("jsmn", "back_bottom"), SANS, max(MIN_TEXT_PT, 5.2 * s), 0.3)
