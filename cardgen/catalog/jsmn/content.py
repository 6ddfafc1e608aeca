"""Jonathan Strange & Mr Norrell content: the seven decks, the map of Europe and London, the tracks, the
magician boards, the connexion types, the elements, the token counts, rules and data notes.

``content("jsmn")`` gives a frozen :class:`JsmnContent`. The 189 cards are numbered deck by deck
(invitations 1..48, introductions 49..96, feats 97..129, spells 130..153, named connexions 154..159,
books 160..177, cards of Marseilles 178..189); a card's id is its record's id (``private-ball``,
``flora-greysteel``, ``teilos-hand``). Game facts and boards are typed objects too; the loader lives in
:mod:`cardgen.catalog.jsmn.loader`, the map's movement rules in :mod:`cardgen.catalog.jsmn.map`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import CardAndRuleLookups, DataNote, RuleEntry
from .map import EuropeMap
from .types import (
    DECKS,
    SPELL_TIMINGS,
    Action,
    Book,
    Card,
    ConnexionType,
    Contents,
    Element,
    ExampleTurn,
    Feat,
    Introduction,
    Invitation,
    Limits,
    Magician,
    MagicianshipValues,
    MarseillesCard,
    NamedConnexion,
    Spell,
    Tracks,
)


@dataclass(frozen=True)
class JsmnContent(CardAndRuleLookups[Card]):
    game: str
    title: str
    source: str
    min_players: int
    max_players: int
    limits: Limits
    magicianship: MagicianshipValues
    contents: Contents
    tracks: Tracks
    elements: tuple[Element, ...]
    any_element_symbol: str
    actions: tuple[Action, ...]
    connexion_types: tuple[ConnexionType, ...]
    magicians: tuple[Magician, ...]
    map: EuropeMap
    cards: tuple[Card, ...]
    example: ExampleTurn
    rules: tuple[RuleEntry, ...]
    notes: tuple[DataNote, ...]

    def __post_init__(self) -> None:
        self._index_lookups({c.id: c for c in self.cards})  # card() by id in any case, find_card(), rule()

    # -- look-ups -------------------------------------------------------------------------------
    def element(self, ref: str) -> Element:
        return self.named("elements", ref, "element")

    def magician(self, ref: str) -> Magician:
        return self.named("magicians", ref, "magician")

    def connexion_type(self, ref: str) -> ConnexionType:
        return self.named("connexion_types", ref, "connexion type")

    def action(self, ref: str) -> Action:
        return self.named("actions", ref, "action")

    def deck(self, kind: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == kind)

    @property
    def invitations(self) -> tuple[Invitation, ...]:
        return tuple(c for c in self.cards if isinstance(c, Invitation))

    @property
    def introductions(self) -> tuple[Introduction, ...]:
        return tuple(c for c in self.cards if isinstance(c, Introduction))

    @property
    def feats(self) -> tuple[Feat, ...]:
        return tuple(c for c in self.cards if isinstance(c, Feat))

    @property
    def spells(self) -> tuple[Spell, ...]:
        return tuple(c for c in self.cards if isinstance(c, Spell))

    @property
    def named_connexions(self) -> tuple[NamedConnexion, ...]:
        return tuple(c for c in self.cards if isinstance(c, NamedConnexion))

    @property
    def books(self) -> tuple[Book, ...]:
        return tuple(c for c in self.cards if isinstance(c, Book))

    @property
    def marseilles(self) -> tuple[MarseillesCard, ...]:
        return tuple(c for c in self.cards if isinstance(c, MarseillesCard))

    @property
    def token_counts(self) -> dict[str, int]:
        """Token and piece counts for the print kit."""
        c = self.contents
        return {"element tokens": c.element_tokens, "discs": c.discs, "fairy disc": c.fairy_discs,
                "year token": c.year_tokens, "magician pieces": c.magician_pieces}

    # -- what a card means ----------------------------------------------------------------------
    def label(self, card: Card) -> str:
        """A short unambiguous label, e.g. 'Flora Greysteel (2 prestige)', 'Le Monde (The World)'."""
        if isinstance(card, Introduction):
            return f"{card.name} ({card.prestige} prestige)"
        if isinstance(card, Feat):
            return f"{card.name} ({card.magicianship} magicianship)"
        if isinstance(card, MarseillesCard):
            return f"{card.name} ({card.english})"
        if isinstance(card, Invitation):
            return f"{card.name} ({self.map.location(card.location).name})"
        return card.name

    def _elements(self, ids: tuple[str, ...]) -> str:
        return ", ".join(self.element(e).name.lower() for e in ids)

    def ability_text(self, card: Card) -> str:
        """What the card does, in one or two sentences (the card page and search show it)."""
        if isinstance(card, Invitation):
            where = self.map.location(card.location).name
            return (f"Attend it in {where} to draw two introductions, take two available feats of magic, or one "
                    f"of each. Or discard it to do {card.element} magic.")
        if isinstance(card, Introduction):
            where = self.map.location(card.location).name
            return (f"Meet this person in {where} to gain {card.prestige} prestige. Or discard it to do "
                    f"{card.element} magic.")
        if isinstance(card, Feat):
            needs = ", ".join(f"{n} {self.element(e).name.lower()}" for e, n in card.requires)
            return (f"Complete it with exactly {needs} token(s) to gain {card.magicianship} magicianship and "
                    "draw a spell.")
        if isinstance(card, (Spell, NamedConnexion)):
            return card.text
        if isinstance(card, Book):
            return f"{card.text} Worth 1 magicianship. Once per turn."
        if isinstance(card, MarseillesCard):
            return (f"The fairy grows {card.strength} stronger. Available elements this year: "
                    f"{self._elements(card.elements)}. Each player draws {card.invitations} invitation(s) "
                    "at the end of their turn.")
        return ""

    def printed_facts(self, card: Card) -> dict[str, Any]:
        """What the card's face prints beyond its own record (its version hashes it,
        :mod:`cardgen.catalog.versions`): the elements it names (name and symbol), its map location (name and
        whether it is in the City of London), its connexion type, its place in its deck and the deck's size."""
        refs: list[str] = []
        for name in ("element", "elements", "requires"):
            value = getattr(card, name, None)
            if isinstance(value, str):
                refs.append(value)
            elif isinstance(value, tuple):
                refs.extend(v[0] if isinstance(v, tuple) else v for v in value)
        known = self.element_ids
        elements = {e: (self.element(e).name, self.element(e).symbol) for e in refs if e in known}
        first, size = self._deck_spans[card.kind]
        facts: dict[str, Any] = {"title": self.title, "elements": elements, "any_symbol": self.any_element_symbol,
                                 "place": (card.number - first + 1, size, len(self.cards))}
        location = getattr(card, "location", None)
        if isinstance(location, str):
            place = self.map.location(location)
            facts["location"] = {"name": place.name, "region": place.region}
        kind = getattr(card, "connexion_type", None)
        if isinstance(kind, str):
            facts["connexion_type"] = self.connexion_type(kind)
        return facts

    @property
    def element_ids(self) -> frozenset[str]:
        found: frozenset[str] | None = self.__dict__.get("_element_ids")
        if found is None:
            found = frozenset(e.id for e in self.elements)
            object.__setattr__(self, "_element_ids", found)
        return found

    @property
    def _deck_spans(self) -> dict[str, tuple[int, int]]:
        """Each deck's first card number and size (a card's place in its deck, without a scan per card)."""
        spans: dict[str, tuple[int, int]] | None = self.__dict__.get("_spans")
        if spans is None:
            spans = {}
            for c in self.cards:
                first, size = spans.get(c.kind, (c.number, 0))
                spans[c.kind] = (min(first, c.number), size + 1)
            object.__setattr__(self, "_spans", spans)
        return spans

    def card_facts(self, card: Card) -> list[tuple[str, str]]:
        """Label/value pairs for a card page."""
        facts: list[tuple[str, str]] = [("Deck", f"{card.kind_label} ({DECKS[card.kind][1]} card)")]
        element = getattr(card, "element", None)
        if isinstance(element, str):
            el = self.element(element)
            facts.append(("Element", f"{el.name} (symbol: {el.symbol_name})"))
        if isinstance(card, (Invitation, Introduction)):
            place = self.map.location(card.location)
            facts.append(("Location", place.name + (" (City of London)" if place.region == "city" else "")))
        if isinstance(card, Introduction):
            facts += [("Prestige", str(card.prestige)), ("Person", card.person)]
        elif isinstance(card, Feat):
            facts += [("Magicianship", str(card.magicianship)), ("Requires", ", ".join(
                f"{n} × {self.element(e).name}" for e, n in card.requires))]
        elif isinstance(card, Spell):
            facts += [("When", SPELL_TIMINGS[card.timing]), ("Or", f"discard it for {card.discard_prestige} prestige")]
            if card.magicianship:
                facts.append(("Magicianship", f"+{card.magicianship} once played"))
        elif isinstance(card, NamedConnexion):
            facts.append(("Connexion", self.connexion_type(card.connexion_type).name))
        elif isinstance(card, Book):
            facts += [("Source", card.author), ("Magicianship", "+1")]
        elif isinstance(card, MarseillesCard):
            facts += [("Fairy strength", f"+{card.strength}"), ("Invitations drawn", str(card.invitations)),
                      ("Available elements", self._elements(card.elements))]
        facts.append(("What it does", self.ability_text(card)))
        return facts

    def card_rules(self, card: Card) -> list[RuleEntry]:
        """The rule entries this card touches, most specific first."""
        wanted = list(CARD_RULES.get(card.kind, ()))
        if isinstance(card, (Invitation, Introduction)) and self.map.location(card.location).region == "city":
            wanted.append("jsmn.move.london")
        if isinstance(card, NamedConnexion):
            wanted.insert(0, f"jsmn.connexion.{card.connexion_type}")
        if isinstance(card, Spell) and card.id in SPELL_RULES:
            wanted.insert(0, SPELL_RULES[card.id])
        return [self.rule(rule_id) for rule_id in dict.fromkeys(wanted) if rule_id in self._rules_by_id]

    def subject_label(self, subject: str) -> str:
        """Who a data note is about, for people: 'the rulebook', 'location Padua', a card's label."""
        kind, _, ref = subject.partition(":")
        try:
            if subject in ("rulebook", "balance"):
                return "the rulebook" if subject == "rulebook" else "the balance of the authored numbers"
            if kind == "location":
                return f"location {self.map.location(ref).name}"
            if kind == "magician":
                return f"magician {self.magician(ref).name}"
            if kind == "element":
                return f"element {self.element(ref).name}"
            if kind == "connexion-type":
                return f"connexion type {self.connexion_type(ref).name}"
            return f"{self.label(self.card(subject))} ({subject})"
        except KeyError:
            return subject


#: Rule entries each deck's cards touch; the loader checks every one exists in rules.toml.
CARD_RULES: dict[str, tuple[str, ...]] = {
    "invitation": ("jsmn.engage.invitation", "jsmn.visit.limits", "jsmn.engage.location", "jsmn.magic.discard",
                   "jsmn.hand.limit", "jsmn.tidy.draw"),
    "introduction": ("jsmn.engage.introduction", "jsmn.visit.limits", "jsmn.engage.location",
                     "jsmn.prestige.stack", "jsmn.connexion.gain", "jsmn.magic.discard", "jsmn.hand.limit"),
    "feat": ("jsmn.feat.complete", "jsmn.magic.place", "jsmn.magic.available", "jsmn.feat.take",
             "jsmn.magicianship.total"),
    "spell": ("jsmn.spell.cast", "jsmn.spell.discard", "jsmn.spell.timing", "jsmn.feat.complete"),
    "connexion": ("jsmn.connexion.named", "jsmn.connexion.gain", "jsmn.connexion.filled"),
    "book": ("jsmn.book.use", "jsmn.book.forms", "jsmn.book.once", "jsmn.action.acquire-book", "jsmn.year.books",
             "jsmn.magicianship.total"),
    "marseilles": ("jsmn.year.marseilles", "jsmn.magic.available", "jsmn.tidy.draw", "jsmn.fairy.track",
                   "jsmn.year.sequence"),
}
SPELL_RULES: dict[str, str] = {"teilos-hand": "jsmn.spell.teilos-hand", "daedaluss-rose": "jsmn.spell.daedaluss-rose"}
