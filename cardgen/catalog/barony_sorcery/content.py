"""Barony: Sorcery content: the nine spell cards, their categories, the expansion's Territory tiles and
Mysterious locations, the token counts, the fifth player's pieces, rules and data notes.

``content("barony-sorcery")`` gives a frozen :class:`BaronySorceryContent`. Barony: Sorcery is an
expansion: players own Barony, and only what this box adds is here. The spell cards are numbered 1..9
(card id = spell id, e.g. ``velocity``). The loader lives in :mod:`cardgen.catalog.barony_sorcery.loader`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import CardAndRuleLookups, DataNote, Provenance, RuleEntry
from .types import (
    Card,
    Category,
    Combination,
    FifthPlayer,
    Location,
    PlayerColour,
    ResourceKind,
    SetupCounts,
    Spell,
    Tile,
)


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
        return self.named("spells", ref, "spell")

    def category(self, ref: str) -> Category:
        """A category by id or name, in any case."""
        return self.named("categories", ref, "category")

    def player_colour(self, ref: str) -> PlayerColour:
        return self.named("player_colours", ref, "player colour")

    def tile(self, ref: str) -> Tile:
        """A tile by id ('tile-3'), or by its location's id or name, in any case."""
        key = ref.strip().casefold()
        for tile in self.tiles:
            if key in (tile.id, tile.location_id) or (tile.location and key == tile.location.casefold()):
                return tile
        raise KeyError(f"no tile '{ref}' in {self.title}")

    def location(self, ref: str) -> Location:
        """A Mysterious location by id or name, in any case."""
        return self.named("locations", ref, "Mysterious location")

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

    def printed_facts(self, card: Card) -> dict[str, Any]:
        """What the card's face prints beyond its own record (its version hashes it,
        :mod:`cardgen.catalog.versions`): its category's name, colour and symbol, its spell's text, its number."""
        category, spell = self.category_of(card), self.spell_of(card)
        return {"title": self.title, "of": len(self.cards), "text": spell.text,
                "category": {"name": category.name, "colour": category.colour, "symbol": category.symbol}}

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
