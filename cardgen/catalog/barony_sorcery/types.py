"""Barony: Sorcery: the typed records of the card-data layer and the vocabularies they use."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..base import DataNote, Provenance
from . import GAME_ID as GAME_ID  # the front's: its id is known without these records

CategoryId = Literal["movement", "recruitment", "construction"]
CATEGORY_IDS: tuple[str, ...] = ("movement", "recruitment", "construction")

#: Land types of a hex space; "mysterious" is a Mysterious location (nothing may be built there).
TERRAINS: tuple[str, ...] = ("mountain", "forest", "plains", "fields", "lake", "mysterious")
MYSTERIOUS = "mysterious"
#: Symbols the print kit draws beside the colours (so colour is never the only cue), with a spoken name.
CATEGORY_SYMBOLS: dict[str, str] = {"boot": "winged boot", "banner": "banner", "tower": "tower"}
PLAYER_SYMBOLS: dict[str, str] = {"disc": "disc", "square": "square", "triangle": "triangle",
                                  "diamond": "diamond", "star": "star"}


@dataclass(frozen=True)
class Category:
    """A spell category and the colour of its cards (the rulebook's), with a symbol (ours)."""

    id: str
    name: str
    colour: str              # the rulebook's colour word: cyan, maroon, orange
    symbol: str              # a key of CATEGORY_SYMBOLS
    provenance: Provenance = "rulebook"
    symbol_provenance: Provenance = "authored"

    @property
    def symbol_name(self) -> str:
        return CATEGORY_SYMBOLS.get(self.symbol, self.symbol)


@dataclass(frozen=True)
class Spell:
    id: str
    name: str
    category: str            # a category id
    cost: int                # Magic tokens, printed on the left of the card
    text: str                # the card text in our words
    rule: str                # the rule entry stating the effect
    provenance: Provenance = "rulebook"


@dataclass(frozen=True)
class Card:
    """A printed spell card (one per spell)."""

    game: str
    id: str
    number: int
    name: str
    category: str
    cost: int
    spell: str
    provenance: Provenance
    notes: tuple[DataNote, ...] = ()
    kind: Literal["spell"] = "spell"

    @property
    def kind_label(self) -> str:
        return "Spell"


@dataclass(frozen=True)
class PlayerColour:
    id: str
    name: str
    symbol: str              # a key of PLAYER_SYMBOLS
    fifth_player: bool = False
    provenance: Provenance = "authored"

    @property
    def symbol_name(self) -> str:
        return PLAYER_SYMBOLS.get(self.symbol, self.symbol)


@dataclass(frozen=True)
class ResourceKind:
    terrain: str
    count: int
    provenance: Provenance = "authored"


@dataclass(frozen=True)
class Tile:
    """A Territory tile: three hex spaces; a mysterious tile has one space that is a Mysterious location."""

    id: str
    number: int
    hexes: tuple[str, str, str]
    location: str            # the Mysterious location's name ("" when the tile has none)
    location_id: str
    provenance: Provenance = "authored"

    @property
    def mysterious(self) -> bool:
        return bool(self.location)

    @property
    def name(self) -> str:
        return f"Tile {self.number}" + (f": {self.location}" if self.location else "")


@dataclass(frozen=True)
class Location:
    """A Mysterious location (the companion's id for it, its name, the tile holding it)."""

    id: str
    name: str
    tile: str


@dataclass(frozen=True)
class FifthPlayer:
    knights: int
    cities: int
    strongholds: int
    villages: int
    score_counters: int
    reference_sheets: int


@dataclass(frozen=True)
class Combination:
    """One of the rulebook's combination examples: spells, the Magic tokens spent, what the action gives."""

    id: str
    spells: tuple[str, ...]
    cost: int
    gives: str
    not_more: str
    notes: tuple[str, ...] = ()
    provenance: Provenance = "rulebook"


@dataclass(frozen=True)
class SetupCounts:
    """The board for a number of players: tiles in all, expansion tiles with a location, base tiles."""

    players: int
    tiles: int
    mysterious_tiles: int
    other_expansion_tiles: int
    base_tiles: int
