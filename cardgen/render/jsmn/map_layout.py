"""Where everything on the Jonathan Strange & Mr Norrell map goes, in millimetres on the poster (origin
bottom-left, y up). Pure arithmetic, so the drawing (:mod:`.map_drawing`) and the tests share it.

The poster is 720 x 500 mm: four pages across and two down on A4 or Letter. The fairy track runs along the top edge and the prestige track
along the bottom; the three book slots stand on the left edge between them (the slot nearest the prestige
track is the one that leaves each year, the one nearest the fairy track where new books enter) and the four
feat slots on the opposite edge; the slots are the size of a landscape card of the chosen card size. The
map of Europe takes the middle, every location at its catalog coordinates (an equirectangular projection
true to scale at the map's middle latitude), with the City of London and the year track beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from cardgen.catalog.jsmn import JsmnContent
from cardgen.catalog.jsmn.map import Location

from ..layout import Rect
from ..print_specs import CardSize

POSTER_W, POSTER_H = 720.0, 500.0
EDGE = 8.0              # border of the poster
BAND = 34.0             # a track band: a heading and two rows of spaces
ROW = 13.0              # a track row's height
TRACK_LABEL = 40.0      # the track's name at the left of its band
GAP = 4.0
SIDE_W = 110.0          # the City of London and the year track beside the map
MAP_PAD = 12.0          # room for labels round the outermost locations


@dataclass(frozen=True)
class Space:
    value: int
    rect: Rect


@dataclass(frozen=True)
class Projection:
    """lon/lat to poster mm: x = (lon - lon0) * cos(lat_mid) * k + x0, y = (lat - lat0) * k + y0."""

    lon0: float
    lat0: float
    scale: float        # mm per degree of latitude
    x_factor: float     # cos of the middle latitude
    x0: float
    y0: float

    def __call__(self, lat: float, lon: float) -> tuple[float, float]:
        return (self.x0 + (lon - self.lon0) * self.x_factor * self.scale, self.y0 + (lat - self.lat0) * self.scale)


def _fit(locations: tuple[Location, ...], box: Rect, pad: float) -> Projection:
    lats = [loc.lat for loc in locations]
    lons = [loc.lon for loc in locations]
    x_factor = math.cos(math.radians((min(lats) + max(lats)) / 2))
    span_x, span_y = (max(lons) - min(lons)) * x_factor, max(lats) - min(lats)
    scale = min((box.width - 2 * pad) / span_x, (box.height - 2 * pad) / span_y)
    x0 = box.x + (box.width - span_x * scale) / 2
    y0 = box.y + (box.height - span_y * scale) / 2
    return Projection(min(lons), min(lats), scale, x_factor, x0, y0)


def _snake(values: list[int], per_row: int, left: float, top: float, width: float) -> list[Space]:
    """Spaces in two rows: the first left to right, the second right to left beneath it."""
    w = width / per_row
    spaces = []
    for i, value in enumerate(values):
        row, col = divmod(i, per_row)
        if row % 2:
            col = per_row - 1 - col
        spaces.append(Space(value, Rect(left + col * w, top - (row + 1) * ROW, w, ROW)))
    return spaces


@dataclass(frozen=True)
class MapLayout:
    content: JsmnContent
    slot: CardSize          # a landscape card: width > height

    @property
    def size(self) -> tuple[float, float]:
        return POSTER_W, POSTER_H

    @cached_property
    def fairy_band(self) -> Rect:
        return Rect(EDGE, POSTER_H - EDGE - BAND, POSTER_W - 2 * EDGE, BAND)

    @cached_property
    def prestige_band(self) -> Rect:
        return Rect(EDGE, EDGE, POSTER_W - 2 * EDGE, BAND)

    @cached_property
    def fairy_spaces(self) -> list[Space]:
        t, band = self.content.tracks, self.fairy_band
        values = list(range(t.fairy_start, t.fairy_length + 1))
        per_row = math.ceil(len(values) / 2)
        return _snake(values, per_row, band.x + TRACK_LABEL, band.top - 6, band.width - TRACK_LABEL)

    @cached_property
    def prestige_spaces(self) -> list[Space]:
        t, band = self.content.tracks, self.prestige_band
        values = list(range(t.prestige_start, t.prestige_length + 1))
        per_row = math.ceil(len(values) / 2)
        return _snake(values, per_row, band.x + TRACK_LABEL, band.top - 6, band.width - TRACK_LABEL)

    @cached_property
    def middle(self) -> Rect:
        bottom = self.prestige_band.top + GAP
        return Rect(EDGE, bottom, POSTER_W - 2 * EDGE, self.fairy_band.y - GAP - bottom)

    def _column(self, count: int, x: float) -> list[Rect]:
        w, h = self.slot.width, self.slot.height
        step = min(h + 8.0, (self.middle.height - 6) / count)
        top = self.middle.top - (self.middle.height - (count - 1) * step - h) / 2
        return [Rect(x, top - h - i * step, w, h) for i in range(count)]

    @cached_property
    def book_slots(self) -> list[Rect]:
        """Top (nearest the fairy track: new books enter) to bottom (nearest the prestige track: leaves)."""
        return self._column(self.content.limits.available_books, self.middle.x + 4)

    @cached_property
    def feat_slots(self) -> list[Rect]:
        return self._column(self.content.limits.available_feats, self.middle.right - 4 - self.slot.width)

    @cached_property
    def europe_panel(self) -> Rect:
        left = self.middle.x + self.slot.width + 12
        right = self.middle.right - self.slot.width - 12 - SIDE_W - GAP
        return Rect(left, self.middle.y, right - left, self.middle.height)

    @cached_property
    def side(self) -> Rect:
        return Rect(self.europe_panel.right + GAP, self.middle.y, SIDE_W, self.middle.height)

    @cached_property
    def year_spaces(self) -> list[Space]:
        years = self.content.tracks.years
        h = 12.5
        top = self.side.y + len(years) * h
        return [Space(year, Rect(self.side.x, top - (i + 1) * h, self.side.width, h)) for i, year in enumerate(years)]

    @cached_property
    def city_panel(self) -> Rect:
        bottom = self.year_spaces[0].rect.top + 12
        return Rect(self.side.x, bottom, self.side.width, self.side.top - bottom)

    @cached_property
    def europe(self) -> Projection:
        places = tuple(loc for loc in self.content.map.locations if loc.region != "city")
        return _fit(places, self.europe_panel, MAP_PAD)

    @cached_property
    def city(self) -> Projection:
        panel = self.city_panel
        inner = Rect(panel.x, panel.y + 18, panel.width, panel.height - 30)
        return _fit(self.content.map.of_region("city"), inner, 12)

    def position(self, location_id: str) -> tuple[float, float]:
        """Where a location's space is drawn: on the Europe map, or in the City of London panel."""
        loc = self.content.map.location(location_id)
        project = self.city if loc.region == "city" else self.europe
        return project(loc.lat, loc.lon)
