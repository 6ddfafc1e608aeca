"""Barony: Sorcery: the frozen state, the Mysterious locations on the board, and the JSON round trip.

The companion tracks only what the expansion adds: Magic tokens (each seat's and the supply's; the
30 tokens only ever move between them, so seats + supply == 30 always), the Control tokens on the
Mysterious locations in arrival order, the spells drawn at setup, and at the end each seat's
base-game points as the players enter them. Knights, cities and turns stay on the real board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping

from cardgen.catalog.barony_sorcery import Location

from .cast import GAME, GAME_ID, SPELL_ORDER, find_spell

Phase = Literal["play", "scoring", "review", "over"]
PHASES: tuple[str, ...] = ("play", "scoring", "review", "over")

MAGIC_TOKENS: int = GAME.magic_tokens
CONTROL_TOKENS: int = GAME.control_tokens_per_player
REWARDS: tuple[int, ...] = tuple(GAME.exploration_rewards)
MAX_CONTROLS: int = GAME.max_controls_per_location
POINTS_PER_CONTROL: int = GAME.points_per_control
SPELLS_IN_PLAY: int = GAME.spells_in_play
MAX_BASE_POINTS = 999
RULE_IDS: frozenset[str] = frozenset(rule.id for rule in GAME.rules)


#: Every Mysterious location of the expansion's tiles, in tile order (id, name, tile id).
LOCATIONS: tuple[Location, ...] = GAME.locations
LOCATION_BY_ID: dict[str, Location] = {loc.id: loc for loc in LOCATIONS}
_LOCATION_KEYS: dict[str, Location] = {key: loc for loc in LOCATIONS
                                       for key in (loc.id, loc.name.casefold(), loc.tile)}


def find_location(ref: Any) -> Location | None:
    """A Mysterious location by its id, its name (any case) or the id of its tile."""
    if not isinstance(ref, str):
        return None
    return _LOCATION_KEYS.get(ref.strip().casefold())


@dataclass(frozen=True)
class BaronyState:
    players: tuple[str, ...]
    spells: tuple[str, ...]                  # ids of the spells in play, in card order
    locations: tuple[str, ...]               # ids of the Mysterious locations on the board, in tile order
    controls: tuple[tuple[int, ...], ...]    # per location: the seats whose Control tokens are on it, in arrival order
    magic: tuple[int, ...]                   # Magic tokens per seat
    supply: int                              # Magic tokens next to the board
    phase: Phase = "play"
    base_points: tuple[int | None, ...] = ()  # per seat, once entered in the scoring phase
    confirmed: tuple[bool, ...] = ()          # per seat, in review: this seat has confirmed every total

    def __post_init__(self) -> None:
        if not self.confirmed:  # nobody has confirmed anything yet
            object.__setattr__(self, "confirmed", tuple(False for _ in self.players))

    def visited(self, seat: int) -> list[str]:
        """Location ids holding ``seat``'s Control token, in board order."""
        return [loc for loc, seats in zip(self.locations, self.controls, strict=True) if seat in seats]

    def controls_placed(self, seat: int) -> int:
        return sum(seat in seats for seats in self.controls)

    def tokens_left(self, seat: int) -> int:
        return CONTROL_TOKENS - self.controls_placed(seat)

    def controls_on(self, location_id: str) -> tuple[int, ...]:
        return self.controls[self.locations.index(location_id)]

    def closed(self, location_id: str) -> bool:
        """Whether nobody can place a Control token here any more: it holds 3, or one of every player's
        (with 2 players a location both have visited pays nobody: each player is rewarded only once)."""
        return len(self.controls_on(location_id)) >= min(MAX_CONTROLS, len(self.players))

    def next_reward(self, location_id: str) -> int:
        """Magic tokens the next visitor would get (0 once nobody can visit it), before the supply cap."""
        placed = len(self.controls_on(location_id))
        return REWARDS[placed] if placed < len(REWARDS) and not self.closed(location_id) else 0

    def control_points(self, seat: int) -> int:
        return POINTS_PER_CONTROL * self.controls_placed(seat)


# --- JSON ----------------------------------------------------------------------------------------

def state_to_json(state: BaronyState) -> dict[str, Any]:
    return {
        "game": GAME_ID,
        "players": list(state.players),
        "spells": list(state.spells),
        "locations": [{"id": loc, "controls": list(seats)} for loc, seats in zip(state.locations, state.controls, strict=True)],
        "magic": list(state.magic),
        "supply": state.supply,
        "phase": state.phase,
        "base_points": list(state.base_points),
        "confirmed": list(state.confirmed),
    }


def upgrade_format_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 -> 2: the review of the totals before the end (nobody has confirmed them yet)."""
    return {**data, "confirmed": [False for _ in data.get("players", ())]}


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}, got {value!r}")
    return value


def state_from_json(data: Mapping[str, Any]) -> BaronyState:
    """The exact inverse of :func:`state_to_json`; ValueError names the first thing wrong."""
    try:
        if data.get("game") != GAME_ID:
            raise ValueError(f"not a {GAME_ID} state")
        players = tuple(str(p) for p in data["players"])
        seats = len(players)
        spells = tuple(data["spells"])
        if any(getattr(find_spell(s), "id", None) != s for s in spells) or len(set(spells)) != len(spells):
            raise ValueError("spells must be distinct spell ids")
        if tuple(sorted(spells, key=SPELL_ORDER.__getitem__)) != spells:
            raise ValueError("spells must be in card order")
        locations = tuple(str(entry["id"]) for entry in data["locations"])
        if any(loc not in LOCATION_BY_ID for loc in locations) or len(set(locations)) != len(locations):
            raise ValueError("locations must be distinct Mysterious location ids")
        controls = tuple(tuple(_whole(s, "a Control token's seat", 0, seats - 1) for s in entry["controls"])
                         for entry in data["locations"])
        if any(len(c) > MAX_CONTROLS or len(set(c)) != len(c) for c in controls):
            raise ValueError(f"a location holds at most {MAX_CONTROLS} Control tokens, one per seat")
        magic = tuple(_whole(m, "a seat's Magic tokens", 0, MAGIC_TOKENS) for m in data["magic"])
        supply = _whole(data["supply"], "the supply", 0, MAGIC_TOKENS)
        if len(magic) != seats or sum(magic) + supply != MAGIC_TOKENS:
            raise ValueError(f"the seats' Magic tokens and the supply must make {MAGIC_TOKENS}")
        if data["phase"] not in PHASES:
            raise ValueError(f"unknown phase {data['phase']!r}")
        base = tuple(None if p is None else _whole(p, "base points", 0, MAX_BASE_POINTS) for p in data["base_points"])
        if len(base) != seats:
            raise ValueError("base_points needs one entry per seat")
        confirmed = tuple(data["confirmed"])
        if len(confirmed) != seats or not all(isinstance(c, bool) for c in confirmed):
            raise ValueError("confirmed needs one true or false per seat")
        if any(confirmed) and data["phase"] not in ("review", "over"):
            raise ValueError("the totals are confirmed only while they are reviewed")
        return BaronyState(players=players, spells=spells, locations=locations, controls=controls, magic=magic,
                           supply=supply, phase=data["phase"], base_points=base, confirmed=confirmed)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed {GAME_ID} state: {exc!r}") from None
