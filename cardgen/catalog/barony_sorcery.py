"""Barony: Sorcery content: the nine spell cards, their categories, the expansion's Territory tiles and
Mysterious locations, the token counts, the fifth player's pieces, rules and data notes.

``content("barony-sorcery")`` gives a frozen :class:`BaronySorceryContent`. Barony: Sorcery is an
expansion: players own Barony, and only what this box adds is here. The spell cards are numbered 1..9
(card id = spell id, e.g. ``velocity``). The loader lives in :mod:`cardgen.catalog.barony_sorcery_load`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .base import CardAndRuleLookups, DataNote, Provenance, RuleEntry, by_id_or_name

GAME_ID = "barony-sorcery"

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


@dataclass(frozen=True)
class BaronySorceryContent(CardAndRuleLookups[Card]):
    game: str
    title: str
    source: str
    min_players: int
    max_players: int
    base_tiles: int
    tiles_per_player: int
    spells_in_play: int
    exploration_rewards: tuple[int, ...]
    max_controls_per_location: int
    points_per_control: int
    basic_actions: int
    hex_size_mm: float             # the printed tiles' hex across flats (authored: the rulebook gives none)
    hex_size_provenance: Provenance
    territory_tiles: int
    resource_tokens: int
    magic_tokens: int
    control_tokens: int
    control_tokens_per_player: int
    spell_cards: int
    fifth_player: FifthPlayer
    mysterious_by_players: dict[int, int]
    categories: tuple[Category, ...]
    player_colours: tuple[PlayerColour, ...]
    resources: tuple[ResourceKind, ...]
    spells: tuple[Spell, ...]
    cards: tuple[Card, ...]
    tiles: tuple[Tile, ...]
    combination_examples: tuple[Combination, ...]
    rules: tuple[RuleEntry, ...]
    notes: tuple[DataNote, ...]

    def __post_init__(self) -> None:
        keys: dict[str, Card] = {}
        for card in self.cards:
            keys[card.id] = card
            keys[card.name.casefold()] = card
        self._index_lookups(keys)  # card() by id or name in any case, find_card(), rule()

    # -- the fifth player's pieces (flat, as the contract names them) -------------------------------
    @property
    def fifth_player_knights(self) -> int:
        return self.fifth_player.knights

    @property
    def fifth_player_cities(self) -> int:
        return self.fifth_player.cities

    @property
    def fifth_player_strongholds(self) -> int:
        return self.fifth_player.strongholds

    @property
    def fifth_player_villages(self) -> int:
        return self.fifth_player.villages

    @property
    def fifth_player_score_counters(self) -> int:
        return self.fifth_player.score_counters

    # -- look-ups ---------------------------------------------------------------------------------
    def spell(self, ref: str) -> Spell:
        """A spell by id or name, in any case."""
        return by_id_or_name(self.spells, ref, "spell", self.title)

    def category(self, ref: str) -> Category:
        """A category by id or name, in any case."""
        return by_id_or_name(self.categories, ref, "category", self.title)

    def player_colour(self, ref: str) -> PlayerColour:
        return by_id_or_name(self.player_colours, ref, "player colour", self.title)

    def tile(self, ref: str) -> Tile:
        """A tile by id ('tile-3'), or by its location's id or name, in any case."""
        key = ref.strip().casefold()
        for tile in self.tiles:
            if key in (tile.id, tile.location_id) or (tile.location and key == tile.location.casefold()):
                return tile
        raise KeyError(f"no tile '{ref}' in {self.title}")

    def location(self, ref: str) -> Location:
        """A Mysterious location by id or name, in any case."""
        return by_id_or_name(self.locations, ref, "Mysterious location", self.title)

    @property
    def locations(self) -> tuple[Location, ...]:
        return tuple(Location(t.location_id, t.location, t.id) for t in self.tiles if t.mysterious)

    @property
    def mysterious_tiles(self) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if t.mysterious)

    def spells_of(self, category: str) -> tuple[Spell, ...]:
        return tuple(s for s in self.spells if s.category == category)

    def category_of(self, spell: Spell | Card) -> Category:
        return self.category(spell.category)

    def spell_of(self, card: Card) -> Spell:
        return self.spell(card.spell)

    def setup_for(self, players: int) -> SetupCounts:
        """The board for ``players``: 9 tiles each, the right number holding a Mysterious location."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players} to {self.max_players} players, not {players}")
        total = self.tiles_per_player * players
        mysterious = self.mysterious_by_players[players]
        if players == self.max_players:  # every tile of both boxes
            return SetupCounts(players, total, mysterious, len(self.tiles) - mysterious, self.base_tiles)
        return SetupCounts(players, total, mysterious, 0, total - mysterious)

    # -- what a card means --------------------------------------------------------------------------
    def label(self, card: Card) -> str:
        """A short unambiguous label, e.g. 'Velocity (Movement, cost 1)'."""
        return f"{card.name} ({self.category_of(card).name}, cost {card.cost})"

    def ability_text(self, card: Card) -> str:
        """What the card does, in one or two sentences (the card page and search show it)."""
        tokens = "Magic token" if card.cost == 1 else "Magic tokens"
        return f"{self.category_of(card).name} spell, {card.cost} {tokens}: {self.spell_of(card).text}"

    def card_facts(self, card: Card) -> list[tuple[str, str]]:
        """Label/value pairs for a card page: category with colour and symbol, cost, effect, combinations."""
        category = self.category_of(card)
        spell = self.spell_of(card)
        facts = [("Kind", card.kind_label),
                 ("Category", f"{category.name} ({category.colour} card, symbol: {category.symbol_name})"),
                 ("Cost", f"{card.cost} Magic token{'s' if card.cost > 1 else ''}"),
                 ("What it does", spell.text)]
        partners = [s.name for s in self.spells_of(spell.category) if s.id != spell.id]
        facts.append(("Combines with", " and ".join(partners) + f" (the other {category.name} spells)"))
        for example in self.combination_examples:
            if spell.id in example.spells:
                names = " + ".join(self.spell(s).name for s in example.spells)
                facts.append(("Rulebook example", f"{names} for {example.cost} Magic tokens: {example.gives}"))
        return facts

    def card_rules(self, card: Card) -> list[RuleEntry]:
        """The rule entries this card touches, most specific first."""
        wanted = [self.spell_of(card).rule, "barony-sorcery.cast.single", "barony-sorcery.cast.combine",
                  "barony-sorcery.cast.same-category", "barony-sorcery.cast.once", "barony-sorcery.cast.pay",
                  "barony-sorcery.cast.one-action", "barony-sorcery.cast.in-play", "barony-sorcery.setup.spells"]
        if "lone" in self.spell_of(card).text:
            wanted.insert(1, "barony-sorcery.cast.lone")
        return [self.rule(rule_id) for rule_id in dict.fromkeys(wanted) if rule_id in self._rules_by_id]

    def subject_label(self, subject: str) -> str:
        """Who a data note is about, for people: 'the rulebook', 'category Movement', a card's label."""
        kind, _, ref = subject.partition(":")
        try:
            if subject == "rulebook":
                return "the rulebook"
            if kind == "category" and ref:
                return f"category {self.category(ref).name}"
            if kind == "tile" and ref:
                return self.tile(ref).name
            return f"{self.label(self.card(subject))} ({subject})"
        except KeyError:
            return subject


def load(root: Path) -> BaronySorceryContent:
    """Load and validate a Barony: Sorcery data folder; raises DataError listing every problem."""
    from .barony_sorcery_load import load_barony_sorcery  # the loader imports this module's types
    return load_barony_sorcery(root)
