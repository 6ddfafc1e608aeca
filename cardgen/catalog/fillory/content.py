"""Magicians of Fillory: the loaded content with its look-ups (cards by id or name, traits, rules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import CardAndRuleLookups, DataNote, Provenance, RuleEntry
from .types import Card, Trait


@dataclass(frozen=True)
class FilloryContent(CardAndRuleLookups[Card]):
    game: str
    title: str
    source: str
    min_players: int
    max_players: int
    victory_points: int
    starting_hand: int
    hand_limit: int
    cards: tuple[Card, ...]
    traits: tuple[Trait, ...]
    setup_neutral: tuple[str, ...]  # card ids
    rules: tuple[RuleEntry, ...]
    notes: tuple[DataNote, ...]
    players_provenance: Provenance = "authored"

    def __post_init__(self) -> None:
        index: dict[str, Card] = {}
        for c in self.cards:
            index[c.id] = c
            index[c.name.casefold()] = c
        self._index_lookups(index)  # card() by id or by name in any case, find_card(), rule()
        object.__setattr__(self, "_traits", {t.name.casefold(): t for t in self.traits})

    def trait(self, name: str) -> Trait:
        traits: dict[str, Trait] = self._traits  # type: ignore[attr-defined]
        found = traits.get(name.strip().casefold())
        if found is None:
            raise KeyError(f"no trait '{name}' in {self.title}")
        return found

    def find_trait(self, name: str) -> Trait | None:
        try:
            return self.trait(name)
        except KeyError:
            return None

    def ability_text(self, card: Card) -> str:
        """The special ability as one short sentence, e.g. 'Summon Julia, Alice or Penny'."""
        parts: list[str] = []
        groups: list[tuple[str, list[str]]] = []
        for opt in card.ability:
            if groups and groups[-1][0] == opt.action:
                groups[-1][1].append(opt.label(self))
            else:
                groups.append((opt.action, [opt.label(self)]))
        # "Summon or Banish Plot" when both actions name the same single target
        if len(groups) == 2 and groups[0][1] == groups[1][1] and len(groups[0][1]) == 1:
            return f"{groups[0][0].title()} or {groups[1][0].title()} {groups[0][1][0]}"
        for action, labels in groups:
            listed = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]
            parts.append(f"{action.title()} {listed}")
        return " or ".join(parts)

    def printed_facts(self, card: Card) -> dict[str, Any]:
        """What the card's face prints beyond its own record (its version hashes it,
        :mod:`cardgen.catalog.versions`): the resolved ability line (other cards' names), each trait's
        trick, its number of the deck's and whether it starts in the neutral zone."""
        return {"title": self.title, "ability": self.ability_text(card),
                "tricks": [[t, self.trait(t).trick] for t in card.traits],
                "of": len(self.cards), "in_setup": card.id in self.setup_neutral}

    def cards_with(self, trait: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if trait in c.traits)
