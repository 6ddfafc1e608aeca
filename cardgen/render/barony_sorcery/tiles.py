"""The nine Barony: Sorcery Territory tiles: three hex spaces in a triangle, at the base game's hex size.

The hex size (across flats) is the build's ``--hex-size`` or the game data's ``hex_size_mm`` (50 mm, our
choice: the rulebook gives none, so owners measure their Barony tiles). Hexes are pointy-topped: two side by
side below, one centred above them. Each land type has its colour, its picture and its name, and a
Mysterious location says so in words with its name and its rewards, so no space is told by colour alone.

Tiles are nested on a sheet like hexes in a hex grid (:class:`TileSheet`: one pointing up, the next turned
180° into the notch beside it; 6 tiles of 50 mm hexes a sheet on A4 or Letter), each drawn clipped to its own
hexes so a neighbour's bleed never paints over it. Crop marks would mean nothing for a hex outline, so each
tile draws its own cut line (with --crop-marks) and its back, mirrored for long-edge duplex, the same.
Gutter-fold pages nest the tiles the same way on the front half of the page (:func:`plan_folded_tiles`: the
half-page, upright or landscape, that holds the most), with their backs mirrored about the dashed fold line
in the other half: 2 tiles of 50 mm hexes a page on A4 or Letter, where tiles in rectangles took a page each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas
from reportlab.platypus import Paragraph

from cardgen.catalog.barony_sorcery import MYSTERIOUS, BaronySorceryContent, Tile
from cardgen.render.markup import escape

from ..colour import shade
from ..faces import fit_font_size, text_width
from ..fonts import MIN_TEXT_PT
from ..imposition import (
    FOLD_COLOUR,
    LABEL_COLOUR,
    LABEL_FONT,
    ImpositionSettings,
    SheetInfo,
    SheetLabel,
    Side,
    sheet_label,
)
from ..labels import label as words
from ..layout import Rect
from ..options import BuildError, ResolvedOptions
from ..pdf import new_canvas, pt, set_page_boxes
from ..print_specs import CardSize, PaperSize, SheetRules
from ..registry import Progress
from ..symbols import polygon
from .style import (
    GOLD,
    SANS,
    SANS_BOLD,
    SERIF_BOLD,
    TERRAIN_INKS,
    WHITE,
    BaronyStyle,
    style_for,
)
from .symbols import TERRAIN_DRAWERS, magic

ROOT3 = math.sqrt(3)
CUT_LINE = "#8A8F9C"


def word(key: str, **fields: object) -> str:
    return words("barony-sorcery-tiles", key, **fields)


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
        return [e for e, m in zip(edges, mids, strict=True) if mids.count(m) == 1]


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

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        raise NotImplementedError  # each side draws itself (TileFront, TileBack)

    def draw_bleed(self, canvas: Canvas, bleed_mm: float) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class TileFront(_TileSide):
    tile: Tile
    title: str
    rewards: tuple[int, ...]

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        g, style = self.geometry, self.style
        centres = g.centres()
        self.draw_bleed(canvas, bleed_mm)  # the bleed first, then each space exactly
        for terrain, centre in zip(self.tile.hexes, centres, strict=True):
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

    def draw_bleed(self, canvas: Canvas, bleed_mm: float) -> None:
        """Each space's colour grown by the bleed (nothing in ink-saver mode)."""
        if self.style.ink_saver:
            return
        for terrain, centre in zip(self.tile.hexes, self.geometry.centres(), strict=True):
            canvas.setFillColor(TERRAIN_INKS[terrain])
            polygon(canvas, self.geometry.corners_of(centre, pt(bleed_mm)), fill=True, stroke=False)

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
        canvas.drawCentredString(cx, cy - f * 0.2, word(f"terrain_{terrain}").upper())

    def _location(self, canvas: Canvas, centre: tuple[float, float]) -> None:
        f = self.geometry.flats
        cx, cy = centre
        on = self._on(MYSTERIOUS)
        magic(canvas, cx, cy + f * 0.2, f * 0.26, GOLD if not self.style.ink_saver else on, TERRAIN_INKS[MYSTERIOUS])
        size = max(MIN_TEXT_PT, f * 0.075)
        canvas.setFillColor(on)
        canvas.setFont(SANS_BOLD, size * 0.8)
        canvas.drawCentredString(cx, cy + f * 0.02, word("mysterious"))
        name = Paragraph(f"<b>{escape(self.tile.location)}</b>",
                         ParagraphStyle("loc", fontName=SERIF_BOLD, fontSize=size * 1.35, leading=size * 1.45,
                                        textColor=on, alignment=TA_CENTER))
        _, height = name.wrap(f * 0.7, f)
        name.drawOn(canvas, cx - f * 0.35, cy - f * 0.04 - height)
        canvas.setFont(SANS, size * 0.78)
        rewards = " \u00b7 ".join(str(r) for r in self.rewards)
        canvas.drawCentredString(cx, cy - f * 0.04 - height - size * 1.05, word("rewards", rewards=rewards))

    def _label(self, canvas: Canvas) -> None:
        """The tile's number, low in a bottom space that is not the Mysterious location."""
        f = self.geometry.flats
        index = 2 if self.tile.hexes[2] != MYSTERIOUS else 1
        centre = self.geometry.centres()[index]
        canvas.setFillColor(self._on(self.tile.hexes[index]))
        canvas.setFont(SANS, max(MIN_TEXT_PT, f * 0.06))
        canvas.drawCentredString(centre[0], centre[1] - f * 0.36, word("tile", game=self.title, number=self.tile.number))


class TileBack(_TileSide):
    def draw_bleed(self, canvas: Canvas, bleed_mm: float) -> None:
        if self.style.back:
            canvas.setFillColor(self.style.back)
            for centre in self.geometry.centres():
                polygon(canvas, self.geometry.corners_of(centre, pt(bleed_mm)), fill=True, stroke=False)

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        g, style = self.geometry, self.style
        lines = GOLD if style.back else "#4B2C7F"
        self.draw_bleed(canvas, bleed_mm)
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


@dataclass(frozen=True)
class FoldedTiles:
    """A gutter-fold page of tiles: ``half`` nests the fronts in the left half of a ``width`` x ``height``
    page; each back goes to its front's place mirrored about the fold (``width / 2``)."""

    half: TileSheet
    width: float
    height: float

    def back(self, place: TilePlace) -> TilePlace:
        """Mirrored about the fold: a mirrored triangle is the same triangle turned the other way."""
        return TilePlace(self.width - place.x, place.y, (-place.turn) % 360)


def plan_folded_tiles(paper: PaperSize, geometry: HexGeometry, bleed: float, rules: SheetRules,
                      count: int) -> FoldedTiles:
    """The gutter-fold page (upright or landscape) whose half nests the most tiles (upright on a tie)."""
    best: FoldedTiles | None = None
    for width, height in ((paper.width, paper.height), (paper.height, paper.width)):
        try:
            half = plan_tile_sheet(PaperSize(f"{paper.name} half", width / 2, height), geometry, bleed, rules, count)
        except BuildError:
            continue
        if best is None or half.per_sheet > best.half.per_sheet:
            best = FoldedTiles(half, width, height)
    if best is None:
        raise BuildError(f"a {geometry.across_flats:g} mm hex tile with {bleed:g} mm bleed does not fit on half a "
                         f"{paper.name} page for a gutter fold (choose a smaller --hex-size)")
    return best


def impose_folded_tiles(canvas: Canvas, fold: FoldedTiles, rules: SheetRules, fronts: Sequence[_TileSide],
                        backs: Sequence[_TileSide], label: SheetLabel) -> int:
    """Gutter-fold pages of tiles: fronts nested in the left half, their backs mirrored about the dashed
    fold line; returns the number of pages written."""
    sheet = fold.half
    per_sheet, sheets = sheet.per_sheet, sheet.sheets_for(len(fronts))
    for number in range(sheets):
        canvas.setPageSize((pt(fold.width), pt(fold.height)))
        start = number * per_sheet
        faces = list(fronts[start:start + per_sheet])
        places = list(sheet.places)[:len(faces)]
        _draw_tiles(canvas, sheet, faces, places)
        _draw_tiles(canvas, sheet, list(backs[start:start + per_sheet]), [fold.back(p) for p in places])
        canvas.saveState()
        canvas.setStrokeColor(FOLD_COLOUR)
        canvas.setLineWidth(0.4)
        canvas.setDash(3, 2)
        canvas.line(pt(fold.width / 2), pt(rules.margin), pt(fold.width / 2), pt(fold.height - rules.margin))
        canvas.restoreState()
        info = SheetInfo("front", number + 1, sheets, start + 1, min(len(fronts), start + per_sheet))
        _draw_label(canvas, sheet, label(info) + " \u00b7 " + words("sheet", "fold"), rules.margin)
        front = sheet.trim(places)
        trim = Rect(front.x, front.y, fold.width - front.x - front.x, front.height)
        set_page_boxes(canvas, trim, trim.grown(sheet.bleed, sheet.bleed, sheet.bleed, sheet.bleed), fold.width,
                       fold.height)
        canvas.showPage()
    return sheets


# -- nested tile sheets ---------------------------------------------------------------------------------

#: Kept free above the bottom margin for the sheet label (mm).
LABEL_BAND = 4.0
#: Kept between the printable margin and a tile's bleed, for the half-width of its outline's stroke (mm).
STROKE_ROOM = 0.2
#: Between two tiles each keeps at least this much of its bleed (or all of a smaller bleed), in mm.
SHARED_BLEED_MIN = 1.0
_PT_MM = 25.4 / 72


@dataclass(frozen=True)
class TilePlace:
    """Where a tile goes on a page: its centroid (mm from the page's bottom-left) and its turn (degrees
    anticlockwise; 180 is a tile pointing down)."""

    x: float
    y: float
    turn: int


@dataclass(frozen=True)
class TileSheet:
    """Tiles nested on a sheet like hexes in a hex grid: strips of tiles pointing up and down in turn (one
    up, the next turned 180° into the notch beside it), the strips stacked into each other's notches, the
    whole turned a quarter when that fits more. Between two tiles lies ``gap`` mm measured square to their
    edges, shared by their bleeds; round the outside each tile has its full bleed."""

    paper: PaperSize
    geometry: HexGeometry
    bleed: float
    gap: float
    along: int     # tiles in a strip
    strips: int
    turned: bool
    places: tuple[TilePlace, ...]

    @property
    def per_sheet(self) -> int:
        return len(self.places)

    def sheets_for(self, count: int) -> int:
        return -(-count // self.per_sheet)

    def back(self, place: TilePlace, offset_x: float = 0.0, offset_y: float = 0.0) -> TilePlace:
        """The back of the tile at ``place`` for long-edge duplex: mirrored across the page's vertical axis
        (a mirrored triangle is the same triangle turned the other way), then moved by the back offset."""
        return TilePlace(self.paper.width - place.x + offset_x, place.y + offset_y, (-place.turn) % 360)

    def hexes(self, place: TilePlace, grow: float = 0.0) -> list[list[tuple[float, float]]]:
        """The corners of the tile's three hexes on the page (mm), grown by ``grow`` mm across each flat."""
        g = self.geometry
        mm = pt(1)
        cx, cy = g.flats, 0.75 * g.corners          # the centroid in the tile's own points
        a = math.radians(place.turn)
        cos, sin = math.cos(a), math.sin(a)
        result = []
        for centre in g.centres():
            corners = []
            for x, y in g.corners_of(centre, pt(grow)):
                x, y = (x - cx) / mm, (y - cy) / mm
                corners.append((place.x + x * cos - y * sin, place.y + x * sin + y * cos))
            result.append(corners)
        return result

    def trim(self, places: Sequence[TilePlace]) -> Rect:
        """The box round the outlines of the tiles at ``places``."""
        points = [p for place in places for corners in self.hexes(place) for p in corners]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _arrangement(geometry: HexGeometry, along: int, strips: int, gap: float) -> list[TilePlace]:
    """Centroids in a strip-wise frame (mm): tile k of strip j. Moving a tile pointing down by ``gap``
    sideways and ``gap/√3`` up, and each strip ``2·gap/√3`` up, opens ``gap`` between every two edges
    that would touch."""
    f = geometry.across_flats
    pitch = 0.75 * f * 2 / ROOT3      # from one row of hexes to the next
    places = []
    for j in range(strips):
        for k in range(along):
            down = k % 2
            x = f * (0.5 + 1.5 * k) + k * gap
            y = pitch * (2 * j + (2 if down else 1) / 3) + j * 2 * gap / ROOT3 + (gap / ROOT3 if down else 0.0)
            places.append(TilePlace(x, y, 180 if down else 0))
    return places


def _extent(geometry: HexGeometry, along: int, strips: int, gap: float) -> tuple[float, float]:
    """Width and height of an arrangement's outlines (mm), in its strip-wise frame."""
    f = geometry.across_flats
    c = f * 2 / ROOT3
    width = (1.5 * (along - 1) + 2) * f + (along - 1) * gap
    height = c + (2 * strips - 1) * 0.75 * c + (strips - 1) * 2 * gap / ROOT3 + (gap / ROOT3 if along > 1 else 0.0)
    return width, height


def plan_tile_sheet(paper: PaperSize, geometry: HexGeometry, bleed: float, rules: SheetRules,
                    count: int) -> TileSheet:
    """The nesting that puts ``count`` tiles on the fewest sheets, then with the widest gap (up to both
    bleeds, never below ``SHARED_BLEED_MIN`` of each), then the fewest turns. The tiles' bleed stays inside
    the printable margin and clear of a band for the sheet label."""
    room_w = paper.width - 2 * (rules.margin + STROKE_ROOM)
    room_h = paper.height - 2 * (rules.margin + STROKE_ROOM) - LABEL_BAND
    least = 2 * min(bleed, SHARED_BLEED_MIN)
    best: tuple[tuple[float, ...], int, int, bool, float] | None = None
    for turned in (False, True):
        w, h = (room_h, room_w) if turned else (room_w, room_h)
        # the bleed grows each hex: by ``bleed`` across its flats (along a strip), more at its corners
        w, h = w - 2 * bleed, h - 2 * bleed * 2 / ROOT3
        along = 1
        while _extent(geometry, along, 1, least)[0] <= w + 1e-9:
            strips = 1
            while _extent(geometry, along, strips, least)[1] <= h + 1e-9:
                # the widest gap that fits, both extents being linear in the gap
                gap = 2 * bleed
                for limit, index in ((w, 0), (h, 1)):
                    at0 = _extent(geometry, along, strips, 0.0)[index]
                    at1 = _extent(geometry, along, strips, 1.0)[index]
                    if at1 > at0:
                        gap = min(gap, (limit - at0) / (at1 - at0))
                per_sheet = along * strips
                key = (-(-count // per_sheet), -round(gap, 6), -per_sheet, float(turned))
                if best is None or key < best[0]:
                    best = (key, along, strips, turned, max(gap, 0.0))
                strips += 1
            along += 1
    if best is None:
        raise BuildError(f"a {geometry.across_flats:g} mm hex tile with {bleed:g} mm bleed does not fit on "
                         f"{paper.name} inside the {rules.margin:g} mm printable margin (choose a smaller --hex-size)")
    _, along, strips, turned, gap = best
    local = _arrangement(geometry, along, strips, gap)
    if turned:
        local = [TilePlace(-p.y, p.x, (p.turn + 90) % 360) for p in local]
    sheet = TileSheet(paper, geometry, bleed, gap, along, strips, turned, tuple(local))
    box = sheet.trim(local)       # centre the outlines in the room above the label band
    dx = paper.width / 2 - (box.x + box.width / 2)
    dy = rules.margin + LABEL_BAND + (paper.height - 2 * rules.margin - LABEL_BAND) / 2 - (box.y + box.height / 2)
    return replace(sheet, places=tuple(TilePlace(p.x + dx, p.y + dy, p.turn) for p in local))


def _draw_tiles(canvas: Canvas, sheet: TileSheet, faces: Sequence[_TileSide], places: Sequence[TilePlace]) -> None:
    """Every tile's full bleed first, then each tile clipped to its own hexes grown by half the gap: a
    neighbour's bleed never paints over a tile, and the clipped regions never overlap."""
    g = sheet.geometry

    def at(place: TilePlace) -> None:
        canvas.translate(pt(place.x), pt(place.y))
        canvas.rotate(place.turn)
        canvas.translate(-g.flats, -0.75 * g.corners)

    for face, place in zip(faces, places, strict=True):
        canvas.saveState()
        at(place)
        face.draw_bleed(canvas, sheet.bleed)
        canvas.restoreState()
    for face, place in zip(faces, places, strict=True):
        canvas.saveState()
        at(place)
        path = canvas.beginPath()
        for centre in g.centres():
            corners = g.corners_of(centre, pt(min(sheet.bleed, sheet.gap / 2)))
            path.moveTo(*corners[0])
            for corner in corners[1:]:
                path.lineTo(*corner)
            path.close()
        canvas.clipPath(path, stroke=0, fill=0, fillMode=FILL_NON_ZERO)  # the grown hexes overlap
        face.draw(canvas, sheet.bleed)
        canvas.restoreState()


def _draw_label(canvas: Canvas, sheet: TileSheet, text: str, margin: float) -> None:
    """The sheet's caption, centred in the band above the bottom margin (the last parts left off if the
    paper is too narrow for it)."""
    room = pt(sheet.paper.width - 2 * margin - 4)
    parts = text.split(" \u00b7 ")
    while len(parts) > 1 and text_width(" \u00b7 ".join(parts), LABEL_FONT, MIN_TEXT_PT) > room:
        parts.pop()
    label = " \u00b7 ".join(parts)
    size = fit_font_size(label, LABEL_FONT, room, 6.5, MIN_TEXT_PT)
    baseline = margin + 0.25 * size * _PT_MM + 0.5
    canvas.saveState()
    canvas.setFillColor(LABEL_COLOUR)
    canvas.setFont(LABEL_FONT, size)
    canvas.drawCentredString(pt(sheet.paper.width / 2), pt(baseline), label)
    canvas.restoreState()


def impose_tiles(canvas: Canvas, sheet: TileSheet, rules: SheetRules, fronts: Sequence[_TileSide],
                 backs: Sequence[_TileSide], settings: ImpositionSettings, label: SheetLabel) -> int:
    """Fronts and backs on nested sheets (see :class:`TileSheet`); returns the number of pages written.
    Duplex: each front page, then its backs mirrored for long-edge flipping and moved by the back offset;
    otherwise all fronts, then all backs where their fronts are (for cutting and gluing)."""
    per_sheet, sheets = sheet.per_sheet, sheet.sheets_for(len(fronts))
    w, h = sheet.paper.width, sheet.paper.height
    pages = 0

    def info(side: Side, number: int) -> SheetInfo:
        first = number * per_sheet
        return SheetInfo(side, number + 1, sheets, first + 1, min(len(fronts), first + per_sheet))

    def page(side: Side, number: int, places: Sequence[TilePlace]) -> None:
        nonlocal pages
        faces = (fronts if side == "front" else backs)[number * per_sheet:(number + 1) * per_sheet]
        places = list(places)[:len(faces)]
        _draw_tiles(canvas, sheet, faces, places)
        _draw_label(canvas, sheet, label(info(side, number)), rules.margin)
        trim = sheet.trim(places)
        set_page_boxes(canvas, trim, trim.grown(sheet.bleed, sheet.bleed, sheet.bleed, sheet.bleed), w, h)
        canvas.showPage()
        pages += 1

    mirrored = [sheet.back(p, settings.back_offset_x, settings.back_offset_y) for p in sheet.places]
    for number in range(sheets):
        page("front", number, sheet.places)
        if settings.duplex:
            page("back", number, mirrored)
    if not settings.duplex:
        for number in range(sheets):
            page("back", number, sheet.places)
    return pages


def render_tiles(content: BaronySorceryContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    style = style_for(options.ink_saver)
    geometry = HexGeometry(hex_size_of(content, resolved))
    fronts = [TileFront(style, geometry, options.crop_marks, tile, content.title, content.exploration_rewards)
              for tile in content.tiles]
    back = TileBack(style, geometry, options.crop_marks)
    settings = replace(ImpositionSettings.from_options(options), crop_marks=False)  # the tiles draw their own
    label = sheet_label(word("sheet", size=f"{geometry.across_flats:g}"), unit=word("unit"))
    if options.gutter_fold:
        fold = plan_folded_tiles(resolved.paper, geometry, options.bleed, resolved.specs.sheet, len(fronts))
        per_sheet = fold.half.per_sheet
    else:
        sheet = plan_tile_sheet(resolved.paper, geometry, options.bleed, resolved.specs.sheet, len(fronts))
        per_sheet = sheet.per_sheet
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=word("title", game=content.title, size=f"{geometry.across_flats:g}", paper=resolved.paper.name),
                        subject=word("subject", count=len(fronts), size=f"{geometry.across_flats:g}",
                                     per_sheet=per_sheet))
    if options.gutter_fold:
        impose_folded_tiles(canvas, fold, resolved.specs.sheet, fronts, [back] * len(fronts), label)
    else:
        impose_tiles(canvas, sheet, resolved.specs.sheet, fronts, [back] * len(fronts), settings, label)
    canvas.save()
    progress(1)
