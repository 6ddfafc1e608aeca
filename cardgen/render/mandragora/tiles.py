"""The 10 Mandragora shop tiles: square faces imposed like cards, each sheet followed by its backs.

Day and night never differ by colour alone: day tiles are light with a sun and say "face up", night
tiles are dark (in ink-saver mode: hatched edges) with a moon and stars and say "face down". The
start tile carries the rulebook's curve along its bottom edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.mandragora import MandragoraContent, ShopTile

from ..colour import tint
from ..faces import fit_font_size, text_width, tracked_text
from ..imposition import ImpositionSettings, impose, sheet_label
from ..labels import label
from ..layout import SheetLayout
from ..options import ResolvedOptions
from ..pdf import new_canvas, pt
from ..print_specs import CardSize
from ..registry import Progress
from .style import (
    SANS,
    SANS_BOLD,
    SERIF_BOLD,
    SERIF_CAP_HEIGHT,
    MandragoraStyle,
    style_for,
)
from .symbols import mandrake, moon, sun

TILE_MM = 84.0   # square shop tiles: 6 per A4 or Letter sheet with the default 3 mm bleed
TILE_SIZE = CardSize("shop tile", TILE_MM, TILE_MM, "square Mandragora shop tile")
WHITE = "#FFFFFF"


def word(key: str, **fields: object) -> str:
    return label("mandragora-tiles", key, **fields)


def tile_layout(resolved: ResolvedOptions) -> SheetLayout:
    return resolved.layout_for(TILE_SIZE)


def _mini_card(canvas: Canvas, x: float, y: float, face_up: bool, ink: str, ground: str) -> None:
    """A tiny card icon: outlined with a mark when face up, filled when face down."""
    w, h = pt(4.2), pt(6.0)
    canvas.setStrokeColor(ink)
    canvas.setFillColor(ink)
    canvas.setLineWidth(0.8)
    canvas.roundRect(x, y, w, h, pt(0.7), stroke=1, fill=0 if face_up else 1)
    if face_up:
        canvas.circle(x + w / 2, y + h / 2, pt(1.0), stroke=0, fill=1)
    else:
        canvas.setStrokeColor(ground)
        canvas.setLineWidth(0.5)
        canvas.roundRect(x + pt(0.8), y + pt(0.8), w - pt(1.6), h - pt(1.6), pt(0.4), stroke=1, fill=0)


@dataclass(frozen=True)
class ShopTileFront:
    shop: ShopTile
    style: MandragoraStyle
    size: CardSize = TILE_SIZE

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        style, shop = self.style, self.shop
        night = shop.time == "night"
        ground = style.night if night else style.day
        ink = style.night_ink if night else style.day_ink
        w = pt(self.size.width)
        b = pt(bleed_mm)
        if ground:
            canvas.setFillColor(ground)
            canvas.rect(-b, -b, w + 2 * b, w + 2 * b, stroke=0, fill=1)
        else:
            canvas.setStrokeColor(style.outline or style.muted)
            canvas.setLineWidth(0.4)
            canvas.rect(0, 0, w, w, stroke=1, fill=0)
        if night:
            self._night_sky(canvas, w, ink, ground)
        inset = pt(4.0)
        canvas.setStrokeColor(style.accent)
        canvas.setLineWidth(1.2)
        canvas.roundRect(inset, inset, w - 2 * inset, w - 2 * inset, pt(3), stroke=1, fill=0)
        canvas.setLineWidth(0.4)
        canvas.roundRect(inset + pt(1.4), inset + pt(1.4), w - 2 * inset - pt(2.8), w - 2 * inset - pt(2.8), pt(2),
                         stroke=1, fill=0)
        cx = w / 2
        canvas.setFillColor(ink)
        tracked_text(canvas, cx, w - pt(12.5), word("night_shop" if night else "day_shop"), SANS_BOLD, 8.5, 0.35)
        # the start tile gives up some picture height to its curve along the bottom
        picture_y, picture_size, name_top, restock_y = (57, 23, 40, 26) if shop.start else (52, 30, 32, 16)
        picture = moon if night else sun
        picture(canvas, cx, pt(picture_y), pt(picture_size), style.accent if not style.ink_saver else tint(ink, 0.4),
                ground or WHITE)
        name_size = fit_font_size(shop.name, SERIF_BOLD, w - pt(16), 19, 11)
        canvas.setFillColor(ink)
        canvas.setFont(SERIF_BOLD, name_size)
        canvas.drawCentredString(cx, pt(name_top) - name_size * SERIF_CAP_HEIGHT, shop.name)
        self._restock(canvas, cx, pt(restock_y), night, ink, ground or WHITE)
        if shop.start:
            self._start_curve(canvas, w, ink)

    def _night_sky(self, canvas: Canvas, w: float, ink: str, ground: str | None) -> None:
        """Scattered dots of stars (full colour) or hatched edges (ink-saver): night at a glance."""
        if ground is None:
            canvas.saveState()
            canvas.setStrokeColor(self.style.muted)
            canvas.setLineWidth(0.5)
            band = pt(4.0)
            clip = canvas.beginPath()
            clip.rect(0, 0, w, w)
            clip.rect(band, band, w - 2 * band, w - 2 * band)
            canvas.clipPath(clip, stroke=0, fill=0, fillMode=0)  # even-odd: only the edge band
            step = pt(2.2)
            for k in range(int(2 * w / step) + 2):
                canvas.line(k * step - w, 0, k * step, w)
            canvas.restoreState()
            return
        canvas.setFillColor(ink)
        stars = 60
        for k in range(stars):  # a fixed scatter (golden-angle spiral), the same on every night tile
            r = w * 0.5 * math.sqrt((k + 0.5) / stars)
            angle = k * 2.39996
            x, y = w / 2 + r * math.cos(angle), w / 2 + r * math.sin(angle)
            if abs(x - w / 2) < w * 0.36 and w * 0.14 < y < w * 0.9:
                continue  # keep the middle clear for the moon, the name and the restock line
            canvas.circle(x, y, pt(0.25 + 0.25 * (k % 3)), stroke=0, fill=1)

    def _restock(self, canvas: Canvas, cx: float, y: float, night: bool, ink: str, ground: str) -> None:
        text = word("restock_down" if night else "restock_up")
        size = 9.0
        width = text_width(text, SANS, size)
        icon_w = pt(4.2) + pt(2.0)
        left = cx - (width + icon_w) / 2
        _mini_card(canvas, left, y - pt(1.2), not night, ink, ground)
        canvas.setFillColor(ink)
        canvas.setFont(SANS, size)
        canvas.drawString(left + icon_w, y, text)

    def _start_curve(self, canvas: Canvas, w: float, ink: str) -> None:
        """The rulebook's mark of the start tile: a curve along the bottom edge, labelled."""
        canvas.setStrokeColor(self.style.accent if not self.style.ink_saver else ink)
        canvas.setLineWidth(2.4)
        canvas.setLineCap(1)
        path = canvas.beginPath()
        path.moveTo(pt(9), pt(8))
        path.curveTo(pt(24), pt(19), w - pt(24), pt(19), w - pt(9), pt(8))
        canvas.drawPath(path, stroke=1, fill=0)
        canvas.setFillColor(ink)
        canvas.setFont(SANS_BOLD, 7.0)
        canvas.drawCentredString(w / 2, pt(18.5), word("start"))


@dataclass(frozen=True)
class ShopTileBack:
    style: MandragoraStyle
    size: CardSize = TILE_SIZE

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        style = self.style
        w, b = pt(self.size.width), pt(bleed_mm)
        lines = style.outline if style.ink_saver else style.accent
        assert lines is not None
        if style.item_frame:
            canvas.setFillColor(style.item_frame)
            canvas.rect(-b, -b, w + 2 * b, w + 2 * b, stroke=0, fill=1)
        canvas.setStrokeColor(lines)
        if style.ink_saver:  # a light cut guide instead of a filled ground
            canvas.setLineWidth(0.4)
            canvas.rect(0, 0, w, w, stroke=1, fill=0)
        canvas.setLineWidth(1.0)
        canvas.roundRect(pt(4), pt(4), w - pt(8), w - pt(8), pt(3), stroke=1, fill=0)
        canvas.circle(w / 2, w / 2, pt(21), stroke=1, fill=0)
        mandrake(canvas, w / 2, w / 2, pt(24), lines, style.item_frame or WHITE)
        canvas.setFillColor(lines)
        tracked_text(canvas, w / 2, w - pt(15), label("mandragora", "game"), SERIF_BOLD, 12, 0.22)
        tracked_text(canvas, w / 2, pt(12), word("back_shop"), SANS, 7, 0.5)


def render_tiles(content: MandragoraContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    style = style_for(content, resolved.specs.theme(content.game), options.ink_saver)
    layout = tile_layout(resolved)
    shops = [content.shop(shop_id) for shop_id in content.circle_order]
    fronts = [ShopTileFront(shop, style) for shop in shops]
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=word("title", game=content.title, paper=resolved.paper.name),
                        subject=word("subject", count=len(fronts), size=f"{TILE_MM:g}", per_sheet=layout.per_sheet))
    settings = ImpositionSettings.from_options(options)
    impose(canvas, layout, resolved.specs.sheet, fronts, [ShopTileBack(style)] * len(fronts), settings,
           sheet_label(word("sheet"), unit=word("unit")))
    canvas.save()
    progress(1)
