"""The map of Europe and London as a graph, with the rulebook's London rule.

Locations are Europe locations, City of London locations and the London space. The London space is
never occupied: a path to London leads to every City location, and from a City location a magician may
move to any other City location or to any location next to London. ``neighbours`` and ``steps``
answer "where can one step go" and "how many steps apart" under that rule.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Literal

from ..base import Provenance, name_index

Region = Literal["europe", "city", "london"]
REGIONS: tuple[str, ...] = ("europe", "city", "london")


@dataclass(frozen=True)
class Location:
    id: str
    name: str
    region: Region
    lat: float
    lon: float
    provenance: Provenance

    @property
    def occupiable(self) -> bool:
        return self.region != "london"


@dataclass(frozen=True)
class MapPath:
    between: tuple[str, str]
    provenance: Provenance


@dataclass(frozen=True)
class EuropeMap:
    locations: tuple[Location, ...]
    paths: tuple[MapPath, ...]
    london_space: str
    _adjacent: dict[str, frozenset[str]] = field(default_factory=dict, compare=False, repr=False)
    _by_key: dict[str, Location] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_adjacent", self._build_adjacency())
        object.__setattr__(self, "_by_key", name_index(self.locations))  # every seat view names locations

    def _build_adjacency(self) -> dict[str, frozenset[str]]:
        direct: dict[str, set[str]] = {loc.id: set() for loc in self.locations}
        for path in self.paths:
            a, b = path.between
            if a in direct and b in direct:
                direct[a].add(b)
                direct[b].add(a)
        city = {loc.id for loc in self.locations if loc.region == "city"}
        by_london = direct.get(self.london_space, set())
        out: dict[str, frozenset[str]] = {}
        for loc in self.locations:
            if not loc.occupiable:
                continue
            if loc.region == "city":
                out[loc.id] = frozenset((city - {loc.id}) | by_london)
            else:
                steps = direct[loc.id]
                out[loc.id] = frozenset((steps - {self.london_space}) | (city if self.london_space in steps else set()))
        return out

    def location(self, ref: str) -> Location:
        found = self._by_key.get(ref.strip().casefold())
        if found is None:
            raise KeyError(f"no location '{ref}' on the map")
        return found

    @property
    def occupiable(self) -> tuple[Location, ...]:
        return tuple(loc for loc in self.locations if loc.occupiable)

    def of_region(self, region: str) -> tuple[Location, ...]:
        return tuple(loc for loc in self.locations if loc.region == region)

    def neighbours(self, location_id: str) -> frozenset[str]:
        """Where one ordinary step from ``location_id`` may go (never the London space itself)."""
        return self._adjacent.get(location_id, frozenset())

    def steps_from(self, start: str) -> dict[str, int]:
        """Ordinary steps from ``start`` to every location reachable from it."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self._adjacent.get(here, ()):
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return seen

    def steps(self, start: str, end: str) -> int | None:
        """The fewest ordinary steps from ``start`` to ``end`` (None: unreachable)."""
        return self.steps_from(start).get(end)

    def is_connected(self) -> bool:
        places = [loc.id for loc in self.occupiable]
        return bool(places) and len(self.steps_from(places[0])) == len(places)
