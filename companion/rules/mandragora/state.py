"""Mandragora: the game state, a mutable working copy for moves, reading move fields, the JSON round trip.

Night shops lie face down and hands are secret, so the state keeps the public table facts exactly
and the hidden cards as counts: cards at each shop, the deck, each hand. What is public by card id
is tracked by card id: the cursed scrolls in front of each seat, the cast spells (spell card,
spellbook card or "mandrake", ingredient colours), the banished scrolls. The item cards returned to
the box for the number of sorcerers follow from the player count. Conservation holds at every step:
deck + shops + hands + scrolls in front + cards in cast spells + banished + returned to the box
is 82, and the spell cards left in the stacks plus those cast are 24.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Literal, Mapping

from cardgen.catalog import content
from cardgen.catalog.mandragora import WHITE, Card, MandragoraContent

from ..base import IllegalMove

GAME_ID = "mandragora"
GAME: MandragoraContent = content(GAME_ID)
ITEMS: tuple[Card, ...] = GAME.items
#: Every card by its exact id (the state stores exact ids; GAME.card() also accepts any case).
CARD: dict[str, Card] = {c.id: c for c in GAME.cards}
SPELL_CARDS: tuple[Card, ...] = GAME.spell_cards
SCROLLS: tuple[Card, ...] = GAME.cards_of("cursed_scroll")
SPELLBOOKS: tuple[Card, ...] = GAME.cards_of("spellbook")
MANDRAKES: tuple[Card, ...] = GAME.cards_of("mandrake")
MANDRAKE = "mandrake"
SHOP_COUNT = len(GAME.shops)
#: Colours of ingredients (black has none) and colours a hand can show at the end (with white).
INGREDIENT_COLOURS: tuple[str, ...] = tuple(c.id for c in GAME.colours if c.ingredients)
HAND_COLOUR_IDS: tuple[str, ...] = (*(c.id for c in GAME.colours), WHITE)
BLACK_BOOK: str = GAME.cards_of("spellbook", "black")[0].id
RULE_IDS: frozenset[str] = frozenset(rule.id for rule in GAME.rules)
REMOVED: dict[int, frozenset[str]] = {n: frozenset(c.id for c in GAME.removed_for(n))
                                      for n in range(GAME.min_players, GAME.max_players + 1)}

Phase = Literal["play", "reckoning", "over"]
PHASES: tuple[str, ...] = ("play", "reckoning", "over")
MARKERS: tuple[str, ...] = ("pending", "III", "II", "final")
PENDING_KINDS: tuple[str, ...] = ("curse_marker", "team_help")


@dataclass(frozen=True)
class Cast:
    """One cast spell: the spell card, the spellbook card (or "mandrake"), the ingredients, the power."""

    spell: str
    book: str
    ingredients: tuple[str, ...]   # colour ids, or "mandrake"
    power: int

    @property
    def cards(self) -> int:
        return 1 + len(self.ingredients)

    @property
    def book_value(self) -> int:
        return 0 if self.book == MANDRAKE else CARD[self.book].value or 0

    @property
    def mandrakes(self) -> int:
        return (self.book == MANDRAKE) + self.ingredients.count(MANDRAKE)

    def label(self) -> str:
        spell = CARD[self.spell]
        book = "Mandrake" if self.book == MANDRAKE else CARD[self.book].name
        return f"{GAME.spell_of(spell).name} {spell.value} + {book} {self.book_value}"


@dataclass(frozen=True)
class Pending:
    """A choice that must be made before play goes on: who passes the Curse marker, or a team option."""

    kind: Literal["curse_marker", "team_help"]
    seat: int                          # the chooser (curse) or the seat with the team option
    candidates: tuple[int, ...] = ()   # curse: the seats that may receive the marker
    partner: int | None = None         # team help: the partner


@dataclass(frozen=True)
class MandragoraState:
    players: tuple[str, ...]
    first_seat: int
    teams: bool
    circle: tuple[str, ...]                      # shop ids clockwise, the start tile first
    phase: Phase
    assistant: int                               # index in the circle
    shop_cards: tuple[int, ...]                  # cards at each shop, aligned with circle
    deck_count: int
    hand_counts: tuple[int, ...]
    scrolls: tuple[tuple[str, ...], ...]         # per seat, in the order gained
    casts: tuple[tuple[Cast, ...], ...]          # per seat, in the order cast
    banished: tuple[str, ...] = ()
    curse_holder: int | None = None
    dropped: tuple[bool, ...] = ()
    countdown_seat: int | None = None
    countdown_marker: str | None = None
    turn_seat: int | None = None
    turn_number: int = 1
    extra_turn: bool = False
    pending: tuple[Pending, ...] = ()
    hand_notes: tuple[tuple[str, ...] | None, ...] = ()   # secret: only that seat sees its note
    reveals: tuple[tuple[str, ...] | None, ...] = ()      # secret until every seat has revealed
    #: a game stored before state format 2 finishes under the reading it began with: a tie the change did not
    #: reach kept the marker, and its holder could pass it at will (so its stored log still replays)
    legacy_tie: bool = False

    # -- derived facts ----------------------------------------------------------------------------
    @property
    def seats(self) -> range:
        return range(len(self.players))

    def curses(self, seat: int) -> int:
        return sum(CARD[s].curses for s in self.scrolls[seat])

    def swiftness(self, seat: int) -> int:
        return sum(1 for c in self.casts[seat] if CARD[c.spell].spell == "swiftness")

    def move_range(self, seat: int) -> int:
        return GAME.move_range + self.swiftness(seat)

    def removed(self) -> frozenset[str]:
        return REMOVED[len(self.players)]

    def cast_spell_ids(self) -> set[str]:
        return {c.spell for seat_casts in self.casts for c in seat_casts}

    def spells_left(self, value: int | None = None) -> list[str]:
        """Spell card ids still in the stacks (of ``value``), in data order."""
        used = self.cast_spell_ids()
        return [c.id for c in SPELL_CARDS if c.id not in used and (value is None or c.value == value)]

    def free_scrolls(self) -> list[Card]:
        """Scrolls still in the deck or at the shops (not in front of anyone, banished or in the box)."""
        taken = {s for seat_scrolls in self.scrolls for s in seat_scrolls} | set(self.banished) | self.removed()
        return [c for c in SCROLLS if c.id not in taken]

    def pool(self) -> int:
        """Cards in the deck and at the shops (the only places a scroll can still be)."""
        return self.deck_count + sum(self.shop_cards)

    def cast_colours(self) -> Counter[str]:
        """Cards of each hand colour (books and ingredients; mandrakes as white) lying in cast spells."""
        used: Counter[str] = Counter()
        for seat_casts in self.casts:
            for c in seat_casts:
                used[WHITE if c.book == MANDRAKE else CARD[c.book].colour or ""] += 1
                for ingredient in c.ingredients:
                    used[WHITE if ingredient == MANDRAKE else ingredient] += 1
        return used

    def cast_books(self) -> set[str]:
        return {c.book for seat_casts in self.casts for c in seat_casts if c.book != MANDRAKE}

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.teams else None

    def opponents(self, seat: int) -> list[int]:
        return [s for s in self.seats if s != seat and s != self.partner(seat)]

    def all_revealed(self) -> bool:
        return all(r is not None for r in self.reveals)


def colour_copies(players: int) -> Counter[str]:
    """Item cards of each hand colour in a game of ``players`` (spellbooks and ingredients; white: mandrakes)."""
    removed = REMOVED[players]
    found: Counter[str] = Counter()
    for card in ITEMS:
        colour = GAME.hand_colour(card)
        if colour is not None and card.id not in removed:
            found[colour] += 1
    return found


def ingredient_copies(players: int) -> Counter[str]:
    removed = REMOVED[players]
    return Counter(c.colour or "" for c in GAME.cards_of("ingredient") if c.id not in removed)


COLOUR_COPIES: dict[int, Counter[str]] = {n: colour_copies(n) for n in REMOVED}
INGREDIENT_COPIES: dict[int, Counter[str]] = {n: ingredient_copies(n) for n in REMOVED}


class Board:
    """A mutable working copy of a state while one move is applied; :meth:`freeze` gives the result."""

    def __init__(self, state: MandragoraState):
        self.state = state
        self.phase: Phase = state.phase
        self.assistant = state.assistant
        self.shop_cards = list(state.shop_cards)
        self.deck_count = state.deck_count
        self.hand_counts = list(state.hand_counts)
        self.scrolls = [list(s) for s in state.scrolls]
        self.casts = [list(c) for c in state.casts]
        self.banished = list(state.banished)
        self.curse_holder = state.curse_holder
        self.dropped = list(state.dropped)
        self.countdown_seat = state.countdown_seat
        self.countdown_marker = state.countdown_marker
        self.turn_seat = state.turn_seat
        self.turn_number = state.turn_number
        self.extra_turn = state.extra_turn
        self.pending = list(state.pending)
        self.hand_notes = list(state.hand_notes)
        self.reveals = list(state.reveals)
        self.grant_extra_turn = False

    def freeze(self) -> MandragoraState:
        return replace(
            self.state, phase=self.phase, assistant=self.assistant, shop_cards=tuple(self.shop_cards),
            deck_count=self.deck_count, hand_counts=tuple(self.hand_counts),
            scrolls=tuple(tuple(s) for s in self.scrolls), casts=tuple(tuple(c) for c in self.casts),
            banished=tuple(self.banished), curse_holder=self.curse_holder, dropped=tuple(self.dropped),
            countdown_seat=self.countdown_seat, countdown_marker=self.countdown_marker, turn_seat=self.turn_seat,
            turn_number=self.turn_number, extra_turn=self.extra_turn, pending=tuple(self.pending),
            hand_notes=tuple(self.hand_notes), reveals=tuple(self.reveals),
        )


# --- reading move fields -------------------------------------------------------------------------

def shop_label(state: MandragoraState, index: int) -> str:
    return GAME.shop(state.circle[index]).name


def scroll_id(ref: Any, candidates: list[str], field_name: str, rule: str, where: str) -> str:
    """A scroll card id among ``candidates`` from its id or its curse value (1-3: the lowest-numbered one)."""
    if isinstance(ref, bool) or not isinstance(ref, (str, int)):
        raise IllegalMove(f"field '{field_name}' must be a cursed scroll's id or its curses (1, 2 or 3)", None)
    if isinstance(ref, int):
        found = [s for s in candidates if CARD[s].curses == ref]
        if not found:
            raise IllegalMove(f"there is no cursed scroll with {ref} curse{'s' * (ref != 1)} {where}", rule)
        return min(found, key=lambda s: CARD[s].number)
    card = GAME.find_card(ref.strip())
    if card is None or card.kind != "cursed_scroll":
        raise IllegalMove(f"'{ref}' in field '{field_name}' is not a cursed scroll", None)
    if card.id in candidates:
        return card.id
    # identical scrolls are interchangeable: another scroll with as many curses serves (the lowest-numbered)
    same = [s for s in candidates if CARD[s].curses == card.curses]
    if not same:
        raise IllegalMove(f"{GAME.label(card)} ({card.id}) is not {where}", rule)
    return min(same, key=lambda s: CARD[s].number)


def seat_field(state: MandragoraState, move: Mapping[str, Any], name: str) -> int | None:
    value = move.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(state.players):
        raise IllegalMove(f"field '{name}' must be a seat number from 0 to {len(state.players) - 1}", None)
    return value


def shop_index(state: MandragoraState, ref: Any, field_name: str) -> int:
    """A shop's index in the circle from the index itself or the shop's id or name."""
    if isinstance(ref, int) and not isinstance(ref, bool):
        if 0 <= ref < SHOP_COUNT:
            return ref
    elif isinstance(ref, str):
        try:
            return state.circle.index(GAME.shop(ref.strip()).id)
        except KeyError:
            pass
    raise IllegalMove(f"field '{field_name}' must be a shop's place in the circle (0-{SHOP_COUNT - 1}) "
                      "or its id or name", None)


# --- JSON ----------------------------------------------------------------------------------------

def state_to_json(state: MandragoraState) -> dict[str, Any]:
    return {
        "game": GAME_ID, "players": list(state.players), "first_seat": state.first_seat, "teams": state.teams,
        "circle": list(state.circle), "phase": state.phase, "assistant": state.assistant,
        "shop_cards": list(state.shop_cards), "deck_count": state.deck_count, "hand_counts": list(state.hand_counts),
        "scrolls": [list(s) for s in state.scrolls],
        "casts": [[{"spell": c.spell, "book": c.book, "ingredients": list(c.ingredients), "power": c.power}
                   for c in seat_casts] for seat_casts in state.casts],
        "banished": list(state.banished), "curse_holder": state.curse_holder, "dropped": list(state.dropped),
        "countdown": {"seat": state.countdown_seat, "marker": state.countdown_marker},
        "turn": {"seat": state.turn_seat, "number": state.turn_number, "extra_turn": state.extra_turn},
        "pending": [{"kind": p.kind, "seat": p.seat, "candidates": list(p.candidates), "partner": p.partner}
                    for p in state.pending],
        "hand_notes": [None if n is None else list(n) for n in state.hand_notes],
        "reveals": [None if r is None else list(r) for r in state.reveals],
        "legacy_tie": state.legacy_tie,
    }


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def state_from_json(data: Mapping[str, Any]) -> MandragoraState:
    """The exact inverse of :func:`state_to_json`; ValueError names the first thing wrong."""
    try:
        if data.get("game") != GAME_ID:
            raise ValueError(f"not a {GAME_ID} state")
        players = tuple(str(p) for p in data["players"])
        if len(players) not in REMOVED:
            raise ValueError(f"a {GAME_ID} state needs {GAME.min_players} to {GAME.max_players} players")
        if data["phase"] not in PHASES:
            raise ValueError(f"unknown phase {data['phase']!r}")
        circle = tuple(str(s) for s in data["circle"])
        if sorted(circle) != sorted(s.id for s in GAME.shops):
            raise ValueError("the circle must hold every shop tile once")
        casts = tuple(tuple(Cast(spell=str(c["spell"]), book=str(c["book"]),
                                 ingredients=tuple(map(str, c["ingredients"])), power=int(c["power"]))
                            for c in seat_casts) for seat_casts in data["casts"])
        known = {c.id for c in GAME.cards}
        if any(c.spell not in known or (c.book != MANDRAKE and c.book not in known) for s in casts for c in s):
            raise ValueError("a cast names an unknown card")
        scrolls = tuple(tuple(map(str, s)) for s in data["scrolls"])
        if any(s not in known for seat_scrolls in scrolls for s in seat_scrolls):
            raise ValueError("an unknown cursed scroll lies in front of a seat")
        pending = tuple(Pending(kind=p["kind"], seat=int(p["seat"]), candidates=tuple(map(int, p["candidates"])),
                                partner=_optional_int(p["partner"])) for p in data["pending"])
        if any(p.kind not in PENDING_KINDS for p in pending):
            raise ValueError("unknown pending choice")
        countdown, turn = data["countdown"], data["turn"]
        if countdown["marker"] is not None and countdown["marker"] not in MARKERS:
            raise ValueError(f"unknown countdown marker {countdown['marker']!r}")
        per_seat = [data["hand_counts"], scrolls, casts, data["dropped"], data["hand_notes"], data["reveals"]]
        if any(len(values) != len(players) for values in per_seat):
            raise ValueError("every per-seat list needs one entry per player")
        return MandragoraState(
            players=players, first_seat=int(data["first_seat"]), teams=bool(data["teams"]), circle=circle,
            phase=data["phase"], assistant=int(data["assistant"]), shop_cards=tuple(map(int, data["shop_cards"])),
            deck_count=int(data["deck_count"]), hand_counts=tuple(map(int, data["hand_counts"])), scrolls=scrolls,
            casts=casts, banished=tuple(map(str, data["banished"])), curse_holder=_optional_int(data["curse_holder"]),
            dropped=tuple(bool(d) for d in data["dropped"]), countdown_seat=_optional_int(countdown["seat"]),
            countdown_marker=countdown["marker"], turn_seat=_optional_int(turn["seat"]),
            turn_number=int(turn["number"]), extra_turn=bool(turn["extra_turn"]), pending=pending,
            hand_notes=tuple(None if n is None else tuple(map(str, n)) for n in data["hand_notes"]),
            reveals=tuple(None if r is None else tuple(map(str, r)) for r in data["reveals"]),
            legacy_tie=bool(data["legacy_tie"]),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed {GAME_ID} state: {exc!r}") from None


def upgrade_format_1(data: dict[str, Any]) -> dict[str, Any]:
    """A state stored in format 1 (before the Curse marker followed the rulebook at every change): the game
    keeps the reading it began with, so that its log replays as it was played."""
    return {**data, "legacy_tie": True}
