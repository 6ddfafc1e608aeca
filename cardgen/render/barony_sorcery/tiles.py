"""The nine Barony: Sorcery Territory tiles: three hex spaces in a triangle, at the base game's hex size.

The hex size (across flats) is the build's ``--hex-size`` or the game data's ``hex_size_mm`` (50 mm, our
choice: the rulebook gives none, so owners measure their Barony tiles). Hexes are pointy-topped: two side by
side below, one centred above them. Each land type has its colour, its picture and its name, and a
Mysterious location says so in words with its name and its rewards, so no space is told by colour alone.

Tiles are imposed like cards (each in the rectangle around its triangle, with room for the full bleed all
round); the rectangle's crop marks would mean nothing for a hex outline, so the tile draws its own cut line
(with --crop-marks) and the backs, for duplex printing, carry the same outline mirrored.
"""

from __future__ import annotations

from ..fonts import MIN_TEXT_PT

import math
from dataclasses import dataclass, replace
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from cardgen.catalog.barony_sorcery import MYSTERIOUS, BaronySorceryContent, Tile

from ..colour import shade
from ..imposition import ImpositionSettings, impose, sheet_label
from ..layout import LayoutError, SheetLayout, plan_layout
from ..options import BuildError, ResolvedOptions
from ..pdf import new_canvas, pt
from ..print_specs import CardSize
from ..registry import Progress
from ..symbols import polygon
from .style import GOLD, SANS, SANS_BOLD, SERIF_BOLD, TERRAIN_INKS, WHITE, BaronyStyle, style_for
from .symbols import TERRAIN_DRAWERS, magic

ROOT3 = math.sqrt(3)
CUT_LINE = "#8A8F9C"
TERRAIN_NAMES = {"mountain": "Mountain", "forest": "Forest", "plains": "Plains", "fields": "Fields", "lake": "Lake",
                 MYSTERIOUS: "Mysterious location"}


@dataclass(frozen=True)
class HexGeometry:
    """Three pointy-topped hexes ``across_flats`` mm wide in a triangle, in points from the tile's bottom-left."""

    across_flats: float   # mm

    @property
    def flats(self) -> float:
        return pt(self.across_flats)

    @property
    def corners(self) -> float:
        return self.flats * 2 / ROOT3

    @property
    def size(self) -> CardSize:
        corners_mm = self.across_flats * 2 / ROOT3
        return CardSize("territory tile", 2 * self.across_flats, 1.75 * corners_mm,
                        f"three {self.across_flats:g} mm hexes in a triangle")

    def centres(self) -> tuple[tuple[float, float], ...]:
        """Top, bottom right, bottom left (the order of a tile's ``hexes``)."""
        f, c = self.flats, self.corners
        return ((f, 1.25 * c), (1.5 * f, 0.5 * c), (0.5 * f, 0.5 * c))

    def corners_of(self, centre: tuple[float, float], grow: float = 0.0) -> list[tuple[float, float]]:
        """The six corners of a hex, grown outwards by ``grow`` points across each flat."""
        r = self.corners / 2 + grow * 2 / ROOT3
        cx, cy = centre
        return [(cx + r * math.cos(math.radians(90 + 60 * k)), cy + r * math.sin(math.radians(90 + 60 * k)))
                for k in range(6)]

    def outer_edges(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """The edges of the triangle's outline (those no two hexes share): where to cut."""
        edges = []
        for centre in self.centres():
            corners = self.corners_of(centre)
            edges += [(corners[k], corners[(k + 1) % 6]) for k in range(6)]
        def mid(edge: tuple[tuple[float, float], tuple[float, float]]) -> tuple[float, float]:
            return (round((edge[0][0] + edge[1][0]) / 2, 3), round((edge[0][1] + edge[1][1]) / 2, 3))
        mids = [mid(e) for e in edges]
        return [e for e, m in zip(edges, mids) if mids.count(m) == 1]


def _cut_outline(canvas: Canvas, geometry: HexGeometry) -> None:
    canvas.setStrokeColor(CUT_LINE)
    canvas.setLineWidth(0.3)
    path = canvas.beginPath()
    for a, b in geometry.outer_edges():
        path.moveTo(*a)
        path.lineTo(*b)
    canvas.drawPath(path, stroke=1, fill=0)


@dataclass(frozen=True)
class _TileSide:
    """One side of a territory tile: its style, its hexes' geometry, and whether to draw the cut line."""

    style: BaronyStyle
    geometry: HexGeometry
    cut_line: bool

    @property
    def size(self) -> CardSize:
        return self.geometry.size


@dataclass(frozen=True)
class TileFront(_TileSide):
    tile: Tile
    title: str
    rewards: tuple[int, ...]

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        g, style = self.geometry, self.style
        centres = g.centres()
        if not style.ink_saver:
            for terrain, centre in zip(self.tile.hexes, centres):  # the bleed first, then each space exactly
                canvas.setFillColor(TERRAIN_INKS[terrain])
                polygon(canvas, g.corners_of(centre, pt(bleed_mm)), fill=True, stroke=False)
        for terrain, centre in zip(self.tile.hexes, centres):
            ink = TERRAIN_INKS[terrain]
            canvas.setFillColor(ink)
            canvas.setStrokeColor(shade(ink, 0.35))
            canvas.setLineWidth(0.8 if style.ink_saver else 0.5)
            polygon(canvas, g.corners_of(centre), fill=not style.ink_saver, stroke=True)
            if terrain == MYSTERIOUS:
                self._location(canvas, centre)
            else:
                self._land(canvas, terrain, centre)
        self._label(canvas)
        if self.cut_line or style.ink_saver:
            _cut_outline(canvas, g)

    def _on(self, terrain: str) -> str:
        """Picture and text colour on a space: white or near-black on the fill, the land's own ink on paper."""
        ink = TERRAIN_INKS[terrain]
        if self.style.ink_saver:
            return shade(ink, 0.3)
        return "#1E1E28" if terrain in ("plains", "fields") else WHITE

    def _land(self, canvas: Canvas, terrain: str, centre: tuple[float, float]) -> None:
        f = self.geometry.flats
        cx, cy = centre
        on = self._on(terrain)
        TERRAIN_DRAWERS[terrain](canvas, cx, cy + f * 0.08, f * 0.36, on, TERRAIN_INKS[terrain])
        canvas.setFillColor(on)
        size = max(MIN_TEXT_PT, f * 0.085)
        canvas.setFont(SANS_BOLD, size)
        canvas.drawCentredString(cx, cy - f * 0.2, TERRAIN_NAMES[terrain].upper())

    def _location(self, canvas: Canvas, centre: tuple[float, float]) -> None:
        f = self.geometry.flats
        cx, cy = centre
        on = self._on(MYSTERIOUS)
        magic(canvas, cx, cy + f * 0.2, f * 0.26, GOLD if not self.style.ink_saver else on, TERRAIN_INKS[MYSTERIOUS])
        size = max(MIN_TEXT_PT, f * 0.075)
        canvas.setFillColor(on)
        canvas.setFont(SANS_BOLD, size * 0.8)
        canvas.drawCentredString(cx, cy + f * 0.02, "MYSTERIOUS LOCATION")
        name = Paragraph(f"<b>{escape(self.tile.location)}</b>",
                         ParagraphStyle("loc", fontName=SERIF_BOLD, fontSize=size * 1.35, leading=size * 1.45,
                                        textColor=on, alignment=TA_CENTER))
        _, height = name.wrap(f * 0.7, f)
        name.drawOn(canvas, cx - f * 0.35, cy - f * 0.04 - height)
        canvas.setFont(SANS, size * 0.78)
        rewards = " \u00b7 ".join(str(r) for r in self.rewards)
        canvas.drawCentredString(cx, cy - f * 0.04 - height - size * 1.05, f"magic {rewards} \u00b7 no building")

    def _label(self, canvas: Canvas) -> None:
        """The tile's number, low in a bottom space that is not the Mysterious location."""
        f = self.geometry.flats
        index = 2 if self.tile.hexes[2] != MYSTERIOUS else 1
        centre = self.geometry.centres()[index]
        canvas.setFillColor(self._on(self.tile.hexes[index]))
        canvas.setFont(SANS, max(MIN_TEXT_PT, f * 0.06))
        canvas.drawCentredString(centre[0], centre[1] - f * 0.36, f"{self.title} \u00b7 tile {self.tile.number}")


class TileBack(_TileSide):
    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        g, style = self.geometry, self.style
        lines = GOLD if style.back else "#4B2C7F"
        for centre in g.centres():
            if style.back:
                canvas.setFillColor(style.back)
                polygon(canvas, g.corners_of(centre, pt(bleed_mm)), fill=True, stroke=False)
        for centre in g.centres():
            canvas.setStrokeColor(lines)
            canvas.setLineWidth(0.6)
            polygon(canvas, g.corners_of(centre, -pt(1.6)), fill=False, stroke=True)
            magic(canvas, centre[0], centre[1], g.flats * 0.3, lines, style.back or WHITE)
        if self.cut_line or style.ink_saver:
            _cut_outline(canvas, g)


def hex_size_of(content: BaronySorceryContent, resolved: ResolvedOptions) -> float:
    """The hex size asked for, else the game data's default (mm across flats)."""
    return resolved.options.hex_size if resolved.options.hex_size is not None else content.hex_size_mm


def tile_layout(resolved: ResolvedOptions, geometry: HexGeometry) -> SheetLayout:
    """Tiles with the full bleed all round: the gap between two tiles holds both bleeds."""
    bleed = resolved.options.bleed
    rules = replace(resolved.specs.sheet, gutter=max(resolved.specs.sheet.gutter, 2 * bleed))
    try:
        return plan_layout(resolved.paper, geometry.size, bleed, rules)
    except LayoutError as exc:
        raise BuildError(f"{exc} (choose a smaller --hex-size)") from exc


def render_tiles(content: BaronySorceryContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    style = style_for(options.ink_saver)
    geometry = HexGeometry(hex_size_of(content, resolved))
    layout = tile_layout(resolved, geometry)
    fronts = [TileFront(style, geometry, options.crop_marks, tile, content.title, content.exploration_rewards)
              for tile in content.tiles]
    back = TileBack(style, geometry, options.crop_marks)
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=f"{content.title}: Territory tiles ({geometry.across_flats:g} mm hexes, "
                              f"{resolved.paper.name})",
                        subject=f"{len(fronts)} Territory tiles, hexes {geometry.across_flats:g} mm across flats, "
                                f"{layout.per_sheet} per sheet")
    settings = replace(ImpositionSettings.from_options(options), crop_marks=False)  # the tiles draw their own
    impose(canvas, layout, resolved.specs.sheet, fronts, [back] * len(fronts), settings,
           sheet_label(f"Barony: Sorcery tiles ({geometry.across_flats:g} mm hexes)", unit="tiles"))
    canvas.save()
    progress(1)
