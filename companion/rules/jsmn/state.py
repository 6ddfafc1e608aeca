"""Jonathan Strange & Mr Norrell: the frozen state, the catalog look-ups the rules use, magicianship, JSON.

The companion tracks what the table reports: the year, the cards of Marseilles revealed, the fairy, the
prestige track with its stack, each magician's board (covered actions, connexions), location, books and
named connexions (all public), the number of invitations, introductions and spells in each hand, and, in
each seat's private ledger, the feats of magic in front of it with their tokens, its completed feats and
the spells it has played. Card ids come from ``data/jsmn``; hands are counts, never card lists.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal, Mapping, TypeVar

from cardgen.catalog import content
from cardgen.catalog.jsmn import (
    Book,
    Feat,
    Introduction,
    Invitation,
    MarseillesCard,
    NamedConnexion,
    Spell,
)

from ..base import IllegalMove

GAME_ID = "jsmn"
GAME = content(GAME_ID)
RULE_IDS: frozenset[str] = frozenset(rule.id for rule in GAME.rules)

Phase = Literal["setup", "preparation", "turn", "over"]
PHASES: tuple[str, ...] = ("setup", "preparation", "turn", "over")
Step = Literal["action", "visits", "magic"]

ELEMENTS: tuple[str, ...] = tuple(e.id for e in GAME.elements)
TOKENS_PER_ELEMENT: int = GAME.contents.tokens_per_element
LIMITS = GAME.limits
TRACKS = GAME.tracks
ACTION_IDS: tuple[str, ...] = (*(a.id for a in GAME.actions), "unique")
STUDY: dict[str, tuple[str, ...]] = {a.id: a.study for a in GAME.actions if a.study}
CONNEXION_TYPES: tuple[str, ...] = tuple(c.id for c in GAME.connexion_types)
CONNEXION_DISCS: int = GAME.contents.connexion_discs
MAGICIANS: dict[str, Any] = {m.id: m for m in GAME.magicians}
MAGICIAN_ORDER: tuple[str, ...] = tuple(m.id for m in GAME.magicians)
PUPIL: int = GAME.magicianship.pupil
BOOK_VALUE: int = GAME.magicianship.book

INVITATIONS: dict[str, Invitation] = {c.id: c for c in GAME.invitations}
INTRODUCTIONS: dict[str, Introduction] = {c.id: c for c in GAME.introductions}
FEATS: dict[str, Feat] = {c.id: c for c in GAME.feats}
FEAT_NEEDS: dict[str, dict[str, int]] = {f.id: dict(f.requires) for f in GAME.feats}
SPELLS: dict[str, Spell] = {c.id: c for c in GAME.spells}
NAMED: dict[str, NamedConnexion] = {c.id: c for c in GAME.named_connexions}
BOOKS: dict[str, Book] = {c.id: c for c in GAME.books}
MARSEILLES: dict[str, MarseillesCard] = {c.id: c for c in GAME.marseilles}
LOCATIONS: dict[str, Any] = {loc.id: loc for loc in GAME.map.locations}
OCCUPIABLE: tuple[str, ...] = tuple(loc.id for loc in GAME.map.occupiable)
TOTAL_SPELLS: int = GAME.contents.spells


T = TypeVar("T")


def replace(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for these plain frozen records (no __post_init__), about five times faster:
    a random game makes some forty thousand copies."""
    fields_of: Any = getattr(obj, "__dataclass_fields__")  # noqa: B009 (T is any dataclass)
    if not changes.keys() <= fields_of.keys():
        raise TypeError(f"{type(obj).__name__} has no field {', '.join(sorted(changes.keys() - fields_of.keys()))}")
    copy = object.__new__(type(obj))
    copy.__dict__.update(obj.__dict__)
    copy.__dict__.update(changes)
    return copy


def rule(rule_id: str) -> str:
    """A rule id that exists in rules.toml (a typo here fails at import time, not at the table)."""
    if rule_id not in RULE_IDS:
        raise KeyError(f"no rule {rule_id} in data/jsmn/rules.toml")
    return rule_id


def refuse(message: str, rule_id: str, pending: Mapping[str, Any] | None = None) -> IllegalMove:
    return IllegalMove(message, rule(rule_id), pending=pending)


def connexion_first(players: tuple[str, ...], seat: int) -> IllegalMove:
    """The refusal of a move while ``seat`` has a connexion to choose: it names that choice (``pending``: the
    connexion forms of ``choices``), so a correction that opened it can ask for it first."""
    return refuse("choose the connexion you have just gained first", "jsmn.connexion.gain",
                  {"seat": seat, "move": "connexion", "choice": "j-conn", "rule": "jsmn.connexion.gain",
                   "title": f"{players[seat]} chooses the connexion just gained"})


@dataclass(frozen=True)
class Seat:
    """One magician. ``feats``, ``completed`` and ``spells_played`` are the private ledger."""

    magician: str
    prestige: int = 0
    arrival: int = 0                          # stack order on the prestige track: higher is nearer the top
    location: str | None = None
    covered: tuple[str, ...] = ()             # actions whose symbol a disc covers
    connexions: tuple[str, ...] = ()          # connexion types with a disc, in the order gained
    named: tuple[str, ...] = ()               # named connexion cards in front of the seat
    books: tuple[str, ...] = ()               # books of magic in front of the seat
    invitations: int = 0                      # in hand (counts only: the companion never sees a hand)
    introductions: int = 0
    spells: int = 0
    spells_played: tuple[str, ...] = ()       # private: every spell this seat has cast
    feats: tuple[tuple[str, tuple[str, ...]], ...] = ()   # private: (feat id, tokens on it) in front
    completed: tuple[str, ...] = ()           # private: completed feats, face down
    started: bool = False                     # its three starting feats are reported

    @property
    def hand(self) -> int:
        return self.invitations + self.introductions

    def has(self, connexion: str) -> bool:
        return connexion in self.connexions

    def tokens_on(self, feat: str) -> tuple[str, ...] | None:
        for fid, tokens in self.feats:
            if fid == feat:
                return tokens
        return None


@dataclass(frozen=True)
class Turn:
    """The turn in progress: what the chosen action and the cards played so far allow."""

    seat: int
    step: Step = "action"
    action: str | None = None                 # an action id, "unique" or "still"
    moves: int = 0
    max_moves: int = LIMITS.max_moves
    engagements: int = 0
    max_engagements: int = LIMITS.max_engagements
    kings_roads: bool = False                 # one move to anywhere is still unused
    coachman: bool = True                     # one two-location move is still unused (with the coachman)
    long_move: bool = False                   # one three-location move (Michael Scot's Bridle)
    elements: tuple[str, ...] = ()            # elements made available for this turn
    borrowed: str | None = None               # John Segundus's borrowed connexion type
    book_uses: int = 1
    books_used: tuple[str, ...] = ()          # one entry per use of a book this turn
    advisor_used: bool = False
    free_tokens: tuple[str, ...] = ()         # tokens to place without a discard: "available" or listed elements
    teilo: bool = False                       # the next introduction may be fulfilled anywhere
    pending: int = 0                          # connexions gained and not yet chosen
    last_introduction: int = 0                # prestige the latest introduction gave (Canute's Tide)
    held_back: bool = False
    intro_from: int = 0                       # the prestige space the latest introduction started from
    intro_gained: int = 0                     # connexions the latest introduction gave (Canute's Tide)
    cards_played: tuple[str, ...] = ()        # one-copy cards that left the hand this turn (since the last draw)


@dataclass(frozen=True)
class JsmnState:
    players: tuple[str, ...]
    seats: tuple[Seat, ...]
    difficulty: int = 0
    phase: Phase = "setup"
    year: int = TRACKS.first_year
    marseilles: tuple[str, ...] = ()          # revealed cards in order; the last is this year's
    fairy: int = 0
    turn: Turn | None = None
    played: tuple[int, ...] = ()              # seats that have taken their turn this year, in order
    book_row: tuple[str, ...] = ()            # index 0 nearest the prestige track (discarded each year)
    book_discard: tuple[str, ...] = ()
    named_row: tuple[str, ...] = ()
    clock: int = 0                            # the last arrival number given out on the prestige track
    defeated_by: int | None = None
    prepared: bool = False                    # this year's preparation is done
    #: a game stored before state format 2 keeps the Canute's Tide it began with (the spell stayed playable
    #: until the turn's next introduction or connexion, and took 1 prestige whatever the introduction gave)
    legacy_canute: bool = False
    #: a game stored before state format 3 keeps the track's end it began with (a disc on the last space that
    #: "gained" prestige there went on top of the stack without moving)
    legacy_cap_stack: bool = False

    # -- public facts -------------------------------------------------------------------------------
    @property
    def card(self) -> MarseillesCard | None:
        return MARSEILLES[self.marseilles[-1]] if self.marseilles else None

    def order(self) -> list[int]:
        """Seats from the highest prestige down; on one space, from the top of the stack down."""
        return sorted(range(len(self.seats)), key=lambda s: (-self.seats[s].prestige, -self.seats[s].arrival))

    def still_to_play(self) -> list[int]:
        return [s for s in self.order() if s not in self.played]

    def available_elements(self) -> tuple[str, ...]:
        card = self.card
        extra = self.turn.elements if self.turn is not None else ()
        base = card.elements if card is not None else ()
        return tuple(e for e in ELEMENTS if e in base or e in extra)

    def supply(self) -> dict[str, int]:
        """Element tokens next to the board: 13 each, less those on feats in progress."""
        left = dict.fromkeys(ELEMENTS, TOKENS_PER_ELEMENT)
        for seat in self.seats:
            for _, tokens in seat.feats:
                for element in tokens:
                    left[element] -= 1
        return left

    def feats_out(self) -> set[str]:
        """Feats in front of any player or completed (not in the row or the deck)."""
        return {fid for seat in self.seats for fid, _ in seat.feats} | \
            {fid for seat in self.seats for fid in seat.completed}

    def books_unseen(self) -> list[str]:
        """Books that may be revealed next: the deck, or the discard pile shuffled once the deck is empty."""
        taken = set(self.book_row) | {b for seat in self.seats for b in seat.books}
        deck = [b for b in BOOKS if b not in taken and b not in self.book_discard]
        return deck or [b for b in self.book_discard if b not in taken]

    def spells_left(self) -> int:
        """Spells in the deck and its discard pile (shuffled into a new deck when the deck is empty): the 24 of
        the game less those in hands and the magicianship spells kept in front of their casters."""
        kept = sum(1 for seat in self.seats for s in seat.spells_played if SPELLS[s].magicianship)
        return TOTAL_SPELLS - sum(seat.spells for seat in self.seats) - kept

    def named_unseen(self) -> list[str]:
        taken = set(self.named_row) | {n for seat in self.seats for n in seat.named}
        return [n for n in NAMED if n not in taken]

    def with_seat(self, index: int, **changes: Any) -> JsmnState:
        seats = list(self.seats)
        seats[index] = replace(seats[index], **changes)
        return replace(self, seats=tuple(seats))


# -- magicianship (the private ledger) -------------------------------------------------------------

def ledger(seat: Seat) -> list[dict[str, Any]]:
    """The sources of a seat's magicianship, one row per cause (rule jsmn.magicianship.total)."""
    rows: list[dict[str, Any]] = []
    for fid in seat.completed:
        feat = FEATS[fid]
        rows.append({"cause": f"Feat of magic: {feat.name}", "points": feat.magicianship, "card": fid})
    for bid in seat.books:
        rows.append({"cause": f"Book of magic: {BOOKS[bid].name}", "points": BOOK_VALUE, "card": bid})
    if seat.has("pupil"):
        rows.append({"cause": "Pupil", "points": PUPIL, "card": None})
    for sid in seat.spells_played:
        if SPELLS[sid].magicianship:
            rows.append({"cause": f"Spell: {SPELLS[sid].name}", "points": SPELLS[sid].magicianship, "card": sid})
    return rows


def magicianship(seat: Seat) -> int:
    return sum(row["points"] for row in ledger(seat))


# -- JSON -----------------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _dataclass_json(obj: Any) -> dict[str, Any]:
    return {f.name: _plain(getattr(obj, f.name)) for f in fields(obj)}


def state_to_json(state: JsmnState) -> dict[str, Any]:
    data = _dataclass_json(state)
    data["seats"] = [_dataclass_json(s) for s in state.seats]
    data["turn"] = None if state.turn is None else _dataclass_json(state.turn)
    data["game"] = GAME_ID
    return data


def _tuple(value: Any) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list, got {value!r}")
    return tuple(value)


def _seat(data: Mapping[str, Any]) -> Seat:
    values = dict(data)
    for key in ("covered", "connexions", "named", "books", "spells_played", "completed"):
        values[key] = tuple(str(v) for v in _tuple(values[key]))
    values["feats"] = tuple((str(fid), tuple(str(t) for t in _tuple(tokens)))
                            for fid, tokens in _tuple(values["feats"]))
    return Seat(**values)


def _turn(data: Mapping[str, Any] | None) -> Turn | None:
    if data is None:
        return None
    values = dict(data)
    for key in ("elements", "books_used", "free_tokens", "cards_played"):
        if key in values:               # cards_played: absent from states stored before it existed
            values[key] = tuple(str(v) for v in _tuple(values[key]))
    return Turn(**values)


def state_from_json(data: Mapping[str, Any]) -> JsmnState:
    """The exact inverse of :func:`state_to_json`; ValueError names what is wrong."""
    if not isinstance(data, Mapping) or data.get("game") != GAME_ID:
        raise ValueError("not a Jonathan Strange & Mr Norrell state")
    try:
        values = {k: v for k, v in data.items() if k != "game"}
        values["players"] = tuple(str(p) for p in _tuple(values["players"]))
        values["seats"] = tuple(_seat(s) for s in _tuple(values["seats"]))
        values["turn"] = _turn(values["turn"])
        for key in ("marseilles", "played", "book_row", "book_discard", "named_row"):
            values[key] = _tuple(values[key])
        if values["phase"] not in PHASES:
            raise ValueError(f"unknown phase {values['phase']!r}")
        return JsmnState(**values)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"bad Jonathan Strange & Mr Norrell state: {exc}") from None


def upgrade_format_1(data: dict[str, Any]) -> dict[str, Any]:
    """A state stored in format 1 (before Canute's Tide answered only its introduction's moment): the game
    keeps the reading it began with, so that its log replays as it was played."""
    return {**data, "legacy_canute": True}


def upgrade_format_2(data: dict[str, Any]) -> dict[str, Any]:
    """A state stored in format 2 (before a disc on the last prestige space kept its place in the stack when
    it gained prestige there): the game keeps the reading it began with, so that its log replays as it was
    played (the stack decides the turn order and the last tie)."""
    return {**data, "legacy_cap_stack": True}
