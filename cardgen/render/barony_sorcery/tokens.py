"""Barony: Sorcery tokens on one sheet of square 20 mm tokens (cut on the grid): 30 Magic tokens, 25 Control
tokens (5 in each player colour, each colour with its own symbol and name), 20 Resource tokens (one land type
each, with its picture and name) and the fifth player's pieces as tokens (7 knights, 5 cities, 2 strongholds,
14 villages, 1 score counter) in the fifth colour.

Each token has the same picture on both sides: the back page repeats the fronts (mirrored for long-edge
duplex, or unmirrored after the fronts to cut and glue).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.barony_sorcery import BaronySorceryContent

from ..faces import fit_font_size
from ..imposition import sheet_label
from ..labels import label
from ..layout import SheetLayout
from ..options import ResolvedOptions
from ..pdf import new_canvas, pt
from ..print_specs import CardSize
from ..registry import Progress
from ..tokens import draw_token_ground, impose_two_sided, token_text_ink
from .style import (
    GOLD,
    MAGIC_INK,
    PLAYER_INKS,
    SANS_BOLD,
    TERRAIN_INKS,
    BaronyStyle,
    style_for,
)
from .symbols import PIECE_DRAWERS, PLAYER_DRAWERS, TERRAIN_DRAWERS, Drawer, magic

TOKEN_MM = 20.0
TOKEN_SIZE = CardSize("token", TOKEN_MM, TOKEN_MM, "square Barony: Sorcery token")


@dataclass(frozen=True)
class Token:
    """A square token: a ground colour, a picture, an optional corner symbol and a one-line caption."""

    caption: str
    ink: str                       # ground in full colour; outline and picture colour in ink-saver mode
    picture: Drawer
    style: BaronyStyle
    corner: Drawer | None = None   # the owner's colour symbol (fifth-player pieces)
    picture_ink: str | None = None  # full colour: the picture's colour if not the text colour
    size: CardSize = TOKEN_SIZE

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        w = pt(self.size.width)
        text_ink = token_text_ink(self.ink, self.style.ink_saver)
        ground = draw_token_ground(canvas, w, bleed_mm, self.ink, text_ink, self.style.ink_saver,
                                   ring_inset_mm=1.2, ring_width=0.5, ink_saver_ring_width=0.8)
        picture_ink = text_ink if self.style.ink_saver or self.picture_ink is None else self.picture_ink
        self.picture(canvas, w / 2, w / 2 + pt(1.4), pt(9.5), picture_ink, ground)
        if self.corner is not None:
            self.corner(canvas, w / 2 + pt(5.2), w / 2 + pt(5.2), pt(3.2), text_ink, ground)
        canvas.setFillColor(text_ink)
        size = fit_font_size(self.caption, SANS_BOLD, pt(14.5), 5.2, 3.4)
        canvas.setFont(SANS_BOLD, size)
        canvas.drawCentredString(w / 2, pt(3.6), self.caption)


def word(key: str, **fields: object) -> str:
    return label("barony-sorcery-tokens", key, **fields)


def token_faces(content: BaronySorceryContent, style: BaronyStyle) -> list[Token]:
    """Every token in sheet order: Magic, Control by colour, Resource by land type, the fifth player's pieces."""
    tokens: list[Token] = []
    magic_token = Token(word("magic"), MAGIC_INK, magic, style, picture_ink=GOLD)
    tokens += [magic_token] * content.magic_tokens
    for colour in content.player_colours:
        control = Token(colour.name.upper(), PLAYER_INKS[colour.id], PLAYER_DRAWERS[colour.symbol],
                        style)
        tokens += [control] * content.control_tokens_per_player
    for resource in content.resources:
        tokens += [Token(label("barony-sorcery-tiles", f"terrain_{resource.terrain}").upper(), TERRAIN_INKS[resource.terrain], TERRAIN_DRAWERS[resource.terrain],
                         style)] * resource.count
    fifth = next(c for c in content.player_colours if c.fifth_player)
    pieces = content.fifth_player
    for name, count in (("knight", pieces.knights), ("city", pieces.cities), ("stronghold", pieces.strongholds),
                        ("village", pieces.villages), ("score counter", pieces.score_counters)):
        caption = word("score" if name == "score counter" else name)
        tokens += [Token(caption, PLAYER_INKS[fifth.id], PIECE_DRAWERS[name], style,
                         corner=PLAYER_DRAWERS[fifth.symbol])] * count
    return tokens


def token_layout(resolved: ResolvedOptions) -> SheetLayout:
    return resolved.layout_for(TOKEN_SIZE)


def render_tokens(content: BaronySorceryContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    faces = token_faces(content, style_for(options.ink_saver))
    layout = token_layout(resolved)
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=word("title", game=content.title, paper=resolved.paper.name),
                        subject=word("subject", count=len(faces), size=f"{TOKEN_MM:g}", per_sheet=layout.per_sheet))
    impose_two_sided(canvas, resolved, layout, faces, sheet_label(word("sheet"), unit=word("unit")))
    canvas.save()
    progress(1)
