"""Jonathan Strange & Mr Norrell tokens, two-sided (the same picture on both sides), cut on the grid:

- 16 mm squares: the 78 element tokens (13 of each of the six elements, each element with its own symbol
  and name), the year token, the fairy disc and the four magician pieces (shape, colour and name);
- 12 mm squares: the 44 player discs (11 in each magician's colour, each colour with its magician's shape).

Counts come from the catalog's component list.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.jsmn import JsmnContent

from ..faces import fit_font_size
from ..imposition import sheet_label
from ..labels import label
from ..layout import SheetLayout
from ..options import ResolvedOptions
from ..pdf import new_canvas, pt
from ..print_specs import CardSize
from ..registry import Progress
from ..tokens import draw_token_ground, impose_two_sided_groups, token_text_ink
from .style import FAIRY_INK, MAGICIAN_INKS, SANS_BOLD, JsmnStyle, style_for
from .symbols import ELEMENT_DRAWERS, MAGICIAN_DRAWERS, Drawer, hourglass, thistle_down

TOKEN_MM = 16.0
DISC_MM = 12.0
TOKEN_SIZE = CardSize("token", TOKEN_MM, TOKEN_MM, "square Strange & Norrell token")
DISC_SIZE = CardSize("disc", DISC_MM, DISC_MM, "square Strange & Norrell player disc")
YEAR_INK = "#5A4632"


@dataclass(frozen=True)
class Token:
    """A square token: a ground colour, a round picture and a one-word caption."""

    caption: str
    ink: str
    picture: Drawer
    style: JsmnStyle
    size: CardSize = TOKEN_SIZE

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        w = pt(self.size.width)
        text_ink = token_text_ink(self.ink, self.style.ink_saver)
        ground = draw_token_ground(canvas, w, bleed_mm, self.ink, text_ink, self.style.ink_saver,
                                   ring_inset_mm=0.9, ring_width=0.4, ink_saver_ring_width=0.6)
        self.picture(canvas, w / 2, w / 2 + w * 0.09, w * 0.5, text_ink, ground)
        canvas.setFillColor(text_ink)
        size = fit_font_size(self.caption, SANS_BOLD, w * 0.7, 4.6 * w / pt(TOKEN_MM), 3.0)
        canvas.setFont(SANS_BOLD, size)
        canvas.drawCentredString(w / 2, w * 0.2, self.caption)


def word(key: str, **fields: object) -> str:
    return label("jsmn-tokens", key, **fields)


def marker_faces(content: JsmnContent, style: JsmnStyle) -> list[Token]:
    """The 16 mm sheet: element tokens by element, then the year token, the fairy disc, the magician pieces."""
    faces: list[Token] = []
    for element in content.elements:
        token = Token(element.name.upper(), style.element_ink(element.id), ELEMENT_DRAWERS[element.symbol], style)
        faces += [token] * content.contents.tokens_per_element
    faces += [Token(word("year"), YEAR_INK, hourglass, style)] * content.contents.year_tokens
    faces += [Token(word("fairy"), FAIRY_INK, thistle_down, style)] * content.contents.fairy_discs
    for magician in content.magicians[:content.contents.magician_pieces]:
        surname = magician.name.split()[-1].upper()
        faces.append(Token(surname, MAGICIAN_INKS[magician.colour], MAGICIAN_DRAWERS[magician.symbol], style))
    return faces


def disc_faces(content: JsmnContent, style: JsmnStyle) -> list[Token]:
    """The 12 mm sheet: each magician's discs (action, prestige and connexion discs)."""
    faces: list[Token] = []
    for magician in content.magicians:
        surname = magician.name.split()[-1].upper()
        disc = Token(surname, MAGICIAN_INKS[magician.colour], MAGICIAN_DRAWERS[magician.symbol], style, DISC_SIZE)
        faces += [disc] * content.contents.discs_per_colour
    return faces


def token_layout(resolved: ResolvedOptions, size: CardSize) -> SheetLayout:
    return resolved.layout_for(size)


def render_tokens(content: JsmnContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    style = style_for(options.ink_saver)
    markers, discs = marker_faces(content, style), disc_faces(content, style)
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=word("title", game=content.title, paper=resolved.paper.name),
                        subject=word("subject", tokens=content.contents.element_tokens,
                                     pieces=content.contents.magician_pieces, token_size=f"{TOKEN_MM:g}",
                                     discs=len(discs), disc_size=f"{DISC_MM:g}"))
    impose_two_sided_groups(canvas, resolved, [  # one duplex sheet when the paper holds both
        (TOKEN_SIZE, markers, sheet_label(word("sheet_tokens"), unit=word("unit_tokens"))),
        (DISC_SIZE, discs, sheet_label(word("sheet_discs"), unit=word("unit_discs")))])
    canvas.save()
    progress(1)
