"""Mandragora content: item and spell cards, colours, shop tiles, removals, rules and data notes.

``content("mandragora")`` gives a frozen :class:`MandragoraContent`. Cards are expanded from the
groups in ``cards.toml`` and ``spells.toml`` (ids such as ``ingredient-blue-3``, ``spellbook-red-2``,
``banishment-1``) and numbered 1..82 (items) then 83..106 (spells). Everything a rules module needs
to check a spell (colours, values, mandrakes, the black spellbook) and to score is here as data;
the loader itself lives in :mod:`cardgen.catalog.mandragora.loader`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import CardAndRuleLookups, DataNote, Provenance, RuleEntry
from .types import (
    EFFECT_ICONS,
    WHITE,
    Card,
    Colour,
    ComponentCounts,
    ExampleBreakdown,
    Removal,
    ScoringExample,
    ShopTile,
    Spell,
)


@dataclass(frozen=True)
class MandragoraContent(CardAndRuleLookups[Card]):
    game: str
    title: str
    source: str
    min_players: int
    max_players: int
    players_provenance: Provenance
    team_players: int
    mandrakes_per_player: int
    move_range: int
    countdown_rounds: int
    curse_penalty: int
    colour_penalty: int
    mandrake_hand_colour: str
    spell_values: tuple[int, int]       # lowest, highest
    spellbook_values: tuple[int, int]
    max_mandrakes_per_spell: int
    spellbooks_per_spell: int
    components: ComponentCounts
    colours: tuple[Colour, ...]
    spells: tuple[Spell, ...]
    cards: tuple[Card, ...]
    shops: tuple[ShopTile, ...]
    circle_order: tuple[str, ...]       # shop ids, clockwise from the start tile
    circle_provenance: Provenance
    removals: tuple[Removal, ...]
    scoring_example: ScoringExample
    rules: tuple[RuleEntry, ...]
    notes: tuple[DataNote, ...]

    def __post_init__(self) -> None:
        self._index_lookups({c.id: c for c in self.cards})  # card() by id in any case, find_card(), rule()

    # -- look-ups -------------------------------------------------------------------------------
    def spell(self, ref: str) -> Spell:
        """A spell by id or name, in any case."""
        return self.named("spells", ref, "spell")

    def colour(self, ref: str) -> Colour:
        """A colour by id or name, in any case."""
        return self.named("colours", ref, "colour")

    def shop(self, ref: str) -> ShopTile:
        """A shop tile by id or name, in any case."""
        return self.named("shops", ref, "shop")

    # -- groups of cards ------------------------------------------------------------------------
    @property
    def items(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind != "spell")

    @property
    def spell_cards(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == "spell")

    @property
    def start_shop(self) -> ShopTile:
        return next(s for s in self.shops if s.start)

    def cards_of(self, kind: str, colour: str | None = None) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == kind and (colour is None or c.colour == colour))

    def copies_of(self, spell_id: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.spell == spell_id)

    def spell_of(self, card: Card) -> Spell:
        if card.spell is None:
            raise KeyError(f"{card.id} is not a spell card")
        return self.spell(card.spell)

    def removal_for(self, players: int) -> Removal | None:
        """The removal list for ``players`` sorcerers (None: every card is used)."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players} to {self.max_players} sorcerers, not {players}")
        return next((r for r in self.removals if r.players == players), None)

    def removed_for(self, players: int) -> tuple[Card, ...]:
        """Every item card returned to the box for ``players`` sorcerers, in card order."""
        removal = self.removal_for(players)
        if removal is None:
            return ()
        listed = set(removal.cards)
        return tuple(c for c in self.items if c.id in listed or c.colour in removal.colours)

    def removed_with(self, card: Card) -> tuple[int, ...]:
        """The player counts whose setup returns this card to the box (largest first)."""
        return tuple(sorted((r.players for r in self.removals if card.id in r.cards or card.colour in r.colours),
                            reverse=True))

    # -- what a card means ----------------------------------------------------------------------
    def hand_colour(self, card: Card) -> str | None:
        """The colour a card counts as in hand at the end: its colour, white for mandrakes, else None."""
        if card.kind == "mandrake":
            return WHITE
        if card.kind in ("spellbook", "ingredient"):
            return card.colour
        return None

    def label(self, card: Card) -> str:
        """A short unambiguous label, e.g. 'Blue Spellbook (2)', 'Cursed Scroll (3 curses)'."""
        if card.kind == "cursed_scroll":
            return f"{card.name} ({card.curses} curse{'s' if card.curses > 1 else ''})"
        if card.value is not None:
            return f"{card.name} ({card.value})"
        return card.name

    def ability_text(self, card: Card) -> str:
        """What the card does, in one or two sentences (the card page and search show it)."""
        if card.kind == "spell":
            spell = self.spell_of(card)
            return f"{spell.kind_label} effect: {spell.text}"
        if card.kind == "cursed_scroll":
            return (f"Gives {card.curses} curse{'s' if card.curses > 1 else ''}. Lay it face up in front of you "
                    "as soon as you take it.")
        if card.kind == "mandrake":
            return ("Wild: use it as an ingredient of any colour or as a spellbook, at most one per spell. "
                    f"Left in hand it counts as {self.mandrake_hand_colour}.")
        colour = self.colour(card.colour or "")
        if card.kind == "spellbook":
            needs = ("ingredients all of different colours" if colour.black_magic
                     else f"{colour.name.lower()} ingredients")
            return f"Cast one spell on it with {needs}. It adds {card.value} to that spell's points."
        return (f"Each {colour.name.lower()} ingredient in a {colour.name.lower()} spell raises the power you "
                "may cast by 1.")

    def printed_facts(self, card: Card) -> dict[str, Any]:
        """What the card's face and back print beyond its own record (its version hashes it,
        :mod:`cardgen.catalog.versions`): the resolved kind line and text, its spell (spell cards), its
        colour's name and symbol, the player counts that remove it, its place in its deck, the back's symbols."""
        facts: dict[str, Any] = {"title": self.title, "text": self.ability_text(card),
                                 "removed_with": self.removed_with(card)}
        if card.kind == "spell":
            spell = self.spell_of(card)
            copies = self.copies_of(spell.id)
            facts["spell"] = {"name": spell.name, "kind": spell.kind, "kind_label": spell.kind_label,
                              "effect": spell.effect, "text": spell.text}
            facts["place"] = (card.number - len(self.items), len(self.spell_cards), copies.index(card) + 1, len(copies))
        else:
            facts["place"] = (card.number, len(self.items))
            facts["back_symbols"] = [c.symbol for c in self.colours]
        if card.colour is not None:
            colour = self.colour(card.colour)
            facts["colour"] = {"name": colour.name, "symbol": colour.symbol, "black_magic": colour.black_magic}
        return facts

    def card_facts(self, card: Card) -> list[tuple[str, str]]:
        """Label/value pairs for a card page: kind, colour and symbol, value, curses, effect, removals."""
        facts: list[tuple[str, str]] = [("Kind", card.kind_label)]
        if card.colour is not None:
            colour = self.colour(card.colour)
            facts.append(("Colour", f"{colour.name} (symbol: {colour.symbol_name})"))
        elif card.kind == "mandrake":
            facts.append(("Colour", f"any (wild); {self.mandrake_hand_colour} when left in hand"))
        if card.value is not None:
            facts.append(("Value", str(card.value)))
        if card.kind == "cursed_scroll":
            facts.append(("Curses", str(card.curses)))
        if card.kind == "spell":
            spell = self.spell_of(card)
            facts.append(("Effect", f"{spell.kind_label} ({EFFECT_ICONS[spell.kind]} icon)"))
        facts.append(("What it does", self.ability_text(card)))
        removed = self.removed_with(card)
        if removed:
            facts.append(("Left in the box", " and ".join(f"with {n} sorcerers" for n in removed)))
        return facts

    def card_rules(self, card: Card) -> list[RuleEntry]:
        """The rule entries this card touches, most specific first."""
        wanted: list[str] = []
        if card.kind == "spell":
            wanted += [self.spell_of(card).rule, "mandragora.effect.kinds", "mandragora.spell.power",
                       "mandragora.spell.take", "mandragora.score.spells"]
        elif card.kind == "cursed_scroll":
            wanted += ["mandragora.curse.count", "mandragora.seek.scrolls", "mandragora.curse.most",
                       "mandragora.curse.tie", "mandragora.curse.penalty", "mandragora.effect.banishment",
                       "mandragora.effect.transfer", "mandragora.team.exchange"]
        elif card.kind == "mandrake":
            wanted += ["mandragora.mandrake.wild", "mandragora.mandrake.as-book", "mandragora.spell.one-mandrake",
                       "mandragora.setup.mandrake", "mandragora.score.white", "mandragora.score.mandrake-book"]
        elif card.kind == "spellbook":
            black = self.colour(card.colour or "").black_magic
            wanted += ["mandragora.spell.prepare", "mandragora.spell.one-book",
                       "mandragora.black.magic" if black else "mandragora.spell.same-colour",
                       "mandragora.score.spells", "mandragora.score.colours"]
        else:
            wanted += ["mandragora.spell.prepare", "mandragora.spell.same-colour", "mandragora.spell.power",
                       "mandragora.black.magic", "mandragora.score.colours"]
        if self.removed_with(card):
            wanted.append("mandragora.setup.players")
        return [self.rule(rule_id) for rule_id in dict.fromkeys(wanted) if rule_id in self._rules_by_id]

    def subject_label(self, subject: str) -> str:
        """Who a data note is about, for people: 'the rulebook', 'colour Black', a card's label."""
        kind, _, ref = subject.partition(":")
        try:
            if subject == "rulebook":
                return "the rulebook"
            if kind == "colour" and ref:
                return f"colour {self.colour(ref).name}"
            if kind == "spell" and ref:
                return f"spell {self.spell(ref).name}"
            if kind == "shop" and ref:
                return f"shop {self.shop(ref).name}"
            return f"{self.label(self.card(subject))} ({subject})"
        except KeyError:
            return subject

    def example_breakdown(self) -> ExampleBreakdown:
        """The rulebook's final-scoring example recomputed from the scoring rules' numbers."""
        return self.scoring_example.breakdown(self.curse_penalty, self.colour_penalty)
