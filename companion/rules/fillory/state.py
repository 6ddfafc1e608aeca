"""Magicians of Fillory: the game state, a mutable working copy for moves, and the JSON round trip.

Where every card lies is one tuple of locations aligned with :data:`CARDS` (the 110 cards in card
number order), so "every card is in exactly one place" holds by construction. A location is
``"deck"``, ``"discard"``, ``"neutral"``, ``"zone:<seat>"`` or ``"hand:<seat>"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Literal, Mapping, TypeVar

from cardgen.catalog import content
from cardgen.catalog.fillory import Card, FilloryContent, Trait

from ..base import IllegalMove

GAME_ID = "fillory"
GAME: FilloryContent = content(GAME_ID)
CARDS: tuple[Card, ...] = tuple(sorted(GAME.cards, key=lambda card: card.number))
CARD_IDS: tuple[str, ...] = tuple(card.id for card in CARDS)
CARD_INDEX: dict[str, int] = {card_id: i for i, card_id in enumerate(CARD_IDS)}
#: Each card's traits, aligned with :data:`CARDS` (and so with a state's locations).
CARD_TRAITS: tuple[tuple[str, ...], ...] = tuple(card.traits for card in CARDS)
#: Card ids carrying each trait, in card number order.
CARDS_WITH: dict[str, tuple[str, ...]] = {t.name: tuple(c.id for c in CARDS if t.name in c.traits) for t in GAME.traits}
RULE_IDS: frozenset[str] = frozenset(rule.id for rule in GAME.rules)

Phase = Literal["deal", "play", "over"]
Step = Literal["draw", "action", "ability", "trick", "score", "end"]
PHASES: tuple[str, ...] = ("deal", "play", "over")
STEPS: tuple[str, ...] = ("draw", "action", "ability", "trick", "score", "end")
FIXED_PLACES: tuple[str, ...] = ("deck", "discard", "neutral")

T = TypeVar("T")


@dataclass(frozen=True)
class LedgerEntry:
    """One cause of victory points: a scored trait (``cards`` cards, their square) or a card trick."""

    kind: Literal["score", "trick"]
    trait: str
    cards: int
    points: int

    def cause(self) -> str:
        """What gained the points, without them: every page and export shows ``cause: points`` ("Hedge ×1: 1";
        it was "Hedge ×1 = 1: 1")."""
        if self.kind == "score":
            return f"{self.trait} ×{self.cards}"
        return f"{self.trait} trick"


@dataclass(frozen=True)
class FilloryState:
    players: tuple[str, ...]
    first_seat: int
    phase: Phase
    locations: tuple[str, ...]                  # aligned with CARDS
    ledger: tuple[tuple[LedgerEntry, ...], ...]  # per seat, in the order the points were gained
    turn_seat: int | None = None
    step: Step | None = None
    turn_number: int = 0
    extra_action: bool = False                  # the Time trick was used this turn
    pending: str | None = None                  # id of the played card whose ability waits
    winner: int | None = None
    #: a Religion or Threat trick waiting for its victim to say which card left their hand: (victim seat,
    #: the trick's trait); only the victim knows, so only the victim's phone reports it (move ``lose_card``)
    loss: tuple[int, str] | None = None
    #: a game begun before format 2 (see :func:`upgrade_format_1`): a Religion or Threat trick's ``take`` (the
    #: card the thief named, as earlier versions asked) is used when the victim's hand holds it
    legacy_take: bool = False

    def where(self, card_id: str) -> str:
        return self.locations[CARD_INDEX[card_id]]

    def cards_at(self, place: str) -> list[str]:
        """Card ids at ``place`` in card number order."""
        return [card for card, loc in zip(CARD_IDS, self.locations, strict=True) if loc == place]

    def count_at(self, place: str) -> int:
        return self.locations.count(place)

    def by_place(self) -> dict[str, list[str]]:
        """Every occupied place with its card ids in card number order (one pass over the cards)."""
        found: dict[str, list[str]] = {}
        for card, place in zip(CARD_IDS, self.locations, strict=True):
            found.setdefault(place, []).append(card)
        return found

    def vp(self, seat: int) -> int:
        return sum(entry.points for entry in self.ledger[seat])

    def scored(self, seat: int) -> dict[str, int]:
        return {e.trait: e.points for e in self.ledger[seat] if e.kind == "score"}


def trait_counts(locations: Iterable[str], place: str) -> dict[str, int]:
    """How many cards at ``place`` carry each trait, from a state's or board's locations (one pass)."""
    counts: dict[str, int] = {}
    for traits, where in zip(CARD_TRAITS, locations, strict=True):
        if where == place:
            for trait in traits:
                counts[trait] = counts.get(trait, 0) + 1
    return counts


class Board:
    """A mutable working copy of a state while one move is applied; :meth:`freeze` gives the result.

    The ledger is copied per seat only when :meth:`award` adds to it (each seat's entries stay a tuple).
    """

    def __init__(self, state: FilloryState):
        self.state = state
        self.locations = list(state.locations)
        self.ledger: list[tuple[LedgerEntry, ...]] = list(state.ledger)
        self.phase: Phase = state.phase
        self.turn_seat = state.turn_seat
        self.step: Step | None = state.step
        self.turn_number = state.turn_number
        self.extra_action = state.extra_action
        self.pending = state.pending
        self.winner = state.winner
        self.loss = state.loss

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.players

    def where(self, card_id: str) -> str:
        return self.locations[CARD_INDEX[card_id]]

    def cards_at(self, place: str) -> list[str]:
        return [card for card, loc in zip(CARD_IDS, self.locations, strict=True) if loc == place]

    def count_at(self, place: str) -> int:
        return self.locations.count(place)

    def count_with(self, place: str, trait: str) -> int:
        """How many cards at ``place`` have ``trait``."""
        return trait_counts(self.locations, place).get(trait, 0)

    def move(self, card_id: str, place: str) -> None:
        self.locations[CARD_INDEX[card_id]] = place

    def reshuffle(self) -> None:
        """The deck ran out: the discard pile becomes the new deck (rule fillory.draw.reshuffle)."""
        self.locations = ["deck" if loc == "discard" else loc for loc in self.locations]

    def vp(self, seat: int) -> int:
        return sum(entry.points for entry in self.ledger[seat])

    def award(self, seat: int, entry: LedgerEntry) -> None:
        """Add points; reaching the target ends the game at once with this seat as the winner."""
        self.ledger[seat] = (*self.ledger[seat], entry)
        if self.vp(seat) >= GAME.victory_points:
            self.phase = "over"
            self.winner = seat
            self.turn_seat = None
            self.step = None
            self.pending = None
            self.loss = None

    def freeze(self) -> FilloryState:
        state = self.state
        return FilloryState(
            players=state.players, first_seat=state.first_seat, phase=self.phase,
            locations=tuple(self.locations), ledger=tuple(self.ledger),
            turn_seat=self.turn_seat, step=self.step, turn_number=self.turn_number,
            extra_action=self.extra_action, pending=self.pending, winner=self.winner, loss=self.loss,
            legacy_take=state.legacy_take,
        )


# --- reading move fields -------------------------------------------------------------------------

def _note_aliases(field_names: tuple[str, ...], known: Any) -> dict[str, str]:
    """Spellings the rulebook printed and the data normalised (notes.toml), e.g. 'Jane', 'Creatures'."""
    found: dict[str, str] = {}
    for note in GAME.notes:
        if note.action == "normalised" and note.field in field_names and known(note.printed) is None:
            target = known(note.used)
            if target is not None:
                found[note.printed.strip().casefold()] = target
    return found


CARD_ALIASES: dict[str, str] = _note_aliases(("ability", "name"), lambda ref: getattr(GAME.find_card(ref), "id", None))
TRAIT_ALIASES: dict[str, str] = _note_aliases(("traits",), lambda ref: getattr(GAME.find_trait(ref), "name", None))


def _plain(ref: str) -> str:
    return ref.replace("\u2019", "'").replace("\u2018", "'").strip()


def lookup_card(ref: str) -> str | None:
    """The id of the card a player means: its id or name in any case, or a spelling the rulebook used."""
    plain = _plain(ref)
    found = GAME.find_card(plain) or GAME.find_card(plain.lower())
    return found.id if found is not None else CARD_ALIASES.get(plain.casefold())


def _resolved(refs: Iterable[str], look: Callable[[str], T | None]) -> dict[str, T]:
    """``look(ref)`` worked out once for each of ``refs`` it resolves."""
    return {ref: found for ref in refs if (found := look(ref)) is not None}


#: :func:`lookup_card` worked out once for every card id (what moves almost always carry).
KNOWN_CARD_REFS: dict[str, str] = _resolved(CARD_IDS, lookup_card)


def card_id(ref: Any, field_name: str) -> str:
    """A card id for a move field; IllegalMove (rule None) when the field names no card."""
    if isinstance(ref, str) and ref in KNOWN_CARD_REFS:
        return KNOWN_CARD_REFS[ref]
    if not isinstance(ref, str) or not ref.strip():
        raise IllegalMove(f"field '{field_name}' must name a card", None)
    found = lookup_card(ref)
    if found is None:
        raise IllegalMove(f"there is no card called '{ref}' in {GAME.title}", None)
    return found


#: :func:`trait_of` worked out once for every trait name.
KNOWN_TRAIT_REFS: dict[str, Trait] = _resolved((t.name for t in GAME.traits), GAME.find_trait)


def trait_of(ref: Any, field_name: str = "trait") -> Trait:
    if isinstance(ref, str) and ref in KNOWN_TRAIT_REFS:
        return KNOWN_TRAIT_REFS[ref]
    if not isinstance(ref, str) or not ref.strip():
        raise IllegalMove(f"field '{field_name}' must name a trait", None)
    found = GAME.find_trait(ref) or GAME.find_trait(TRAIT_ALIASES.get(ref.strip().casefold(), ""))
    if found is None:
        raise IllegalMove(f"there is no trait called '{ref}' in {GAME.title}", None)
    return found


def name(card: str) -> str:
    return GAME.card(card).name


def place_label(place: str, players: tuple[str, ...], me: int | None) -> str | None:
    """Where a card is, in words, if that is public (hands and the deck are secret)."""
    if place == "neutral":
        return "the neutral zone"
    if place == "discard":
        return "the discard pile"
    kind, _, seat_text = place.partition(":")
    seat = int(seat_text) if seat_text else -1
    if kind == "zone":
        return "your control zone" if seat == me else f"{players[seat]}'s control zone"
    if kind == "hand" and seat == me:
        return "your hand"
    return None


def not_at(card: str, wanted: str, board: Board, me: int, rule: str) -> IllegalMove:
    """The refusal for a card that is not where the move needs it (naming its place if public)."""
    actual = place_label(board.where(card), board.players, me)
    tail = f"; it is in {actual}" if actual else ""
    return IllegalMove(f"{name(card)} is not in {wanted}{tail}", rule)


def rule_for_trick(trait: str) -> str:
    rule = f"fillory.trick.{trait.lower()}"
    return rule if rule in RULE_IDS else "fillory.trick.discard"


def rule_for_last_card(trait: str) -> str:
    """The rule for a trick that draws two cards when only one is left to draw (``fillory.trick.character-last``,
    our reading: it goes to either place), else the trick's own rule."""
    rule = f"{rule_for_trick(trait)}-last"
    return rule if rule in RULE_IDS else rule_for_trick(trait)


# --- JSON ----------------------------------------------------------------------------------------

#: the traits whose card trick takes a card from an opponent's hand at random (Religion, Threat): the victim
#: says which (FilloryState.loss)
LOSS_TRAITS = frozenset(t.name for t in GAME.traits if t.trick is not None and t.trick.kind in
                        ("steal_random", "force_discard"))


def state_to_json(state: FilloryState) -> dict[str, Any]:
    return {
        "game": GAME_ID,
        "players": list(state.players),
        "first_seat": state.first_seat,
        "phase": state.phase,
        "locations": {CARDS[i].id: loc for i, loc in enumerate(state.locations)},
        "ledger": [[{"kind": e.kind, "trait": e.trait, "cards": e.cards, "points": e.points} for e in entries]
                   for entries in state.ledger],
        "turn": {"seat": state.turn_seat, "step": state.step, "number": state.turn_number,
                 "extra_action": state.extra_action, "pending": state.pending,
                 **({"loss": list(state.loss)} if state.loss is not None else {})},  # (absent: as stored before)
        "winner": state.winner,
        **({"legacy_take": True} if state.legacy_take else {}),
    }


def _valid_places(seats: int) -> frozenset[str]:
    return frozenset(FIXED_PLACES) | {f"{kind}:{s}" for kind in ("zone", "hand") for s in range(seats)}


def state_from_json(data: Mapping[str, Any]) -> FilloryState:
    """The exact inverse of :func:`state_to_json`; ValueError names the first thing wrong."""
    try:
        if data.get("game") != GAME_ID:
            raise ValueError(f"not a {GAME_ID} state")
        players = tuple(str(p) for p in data["players"])
        raw_places = data["locations"]
        if set(raw_places) != set(CARD_INDEX):
            raise ValueError("locations must list every card exactly once")
        valid = _valid_places(len(players))
        bad = [cid for cid, place in raw_places.items() if not isinstance(place, str) or place not in valid]
        if bad:
            raise ValueError(f"card '{bad[0]}' has an unknown location {raw_places[bad[0]]!r}")
        if data["phase"] not in PHASES:
            raise ValueError(f"unknown phase {data['phase']!r}")
        turn = data["turn"]
        if turn["step"] is not None and turn["step"] not in STEPS:
            raise ValueError(f"unknown step {turn['step']!r}")
        if turn["pending"] is not None and turn["pending"] not in CARD_INDEX:
            raise ValueError(f"unknown pending card {turn['pending']!r}")
        loss = turn.get("loss")
        if loss is not None and not (isinstance(loss, list) and len(loss) == 2 and isinstance(loss[0], int)
                                     and 0 <= loss[0] < len(players) and loss[1] in LOSS_TRAITS):
            raise ValueError(f"a waiting loss must be [seat, a trait among {sorted(LOSS_TRAITS)}], not {loss!r}")
        ledger = tuple(
            tuple(LedgerEntry(kind=e["kind"], trait=str(e["trait"]), cards=int(e["cards"]), points=int(e["points"]))
                  for e in entries)
            for entries in data["ledger"]
        )
        if any(e.kind not in ("score", "trick") for entries in ledger for e in entries):
            raise ValueError("a ledger entry's kind must be 'score' or 'trick'")
        if len(ledger) != len(players):
            raise ValueError("the ledger needs one list per player")
        return FilloryState(
            players=players, first_seat=int(data["first_seat"]), phase=data["phase"],
            locations=tuple(raw_places[card.id] for card in CARDS), ledger=ledger,
            turn_seat=None if turn["seat"] is None else int(turn["seat"]), step=turn["step"],
            turn_number=int(turn["number"]), extra_action=bool(turn["extra_action"]),
            pending=turn["pending"], winner=None if data["winner"] is None else int(data["winner"]),
            loss=None if loss is None else (int(loss[0]), str(loss[1])),
            legacy_take=data.get("legacy_take", False) is True,
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed {GAME_ID} state: {exc!r}") from None


def upgrade_format_1(data: dict[str, Any]) -> dict[str, Any]:
    """A state stored in format 1 (before a Religion or Threat trick passed over the card its thief named): the
    game keeps the reading it began with, so that its log replays as it was played."""
    return {**data, "legacy_take": True}
