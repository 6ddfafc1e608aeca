"""Score by photo: a photo of a player's cards read into the game's calculator, and a seat's cards audited.

Routes (API, in the API blueprint: its error shape, no CSRF, seat tokens):

- ``POST /api/photo/<game>``: the photo itself as the body (``Content-Type: image/jpeg``, ``image/png`` or
  ``image/webp``, at most :data:`companion.photo.MAX_PHOTO_BYTES`): the cards its codes name, each with the
  corners of its code, and what could not be read. Decoded in memory, never stored.
- ``POST /api/photo/<game>/score`` ``{"cards": [ids], "extras": {...}}``: the cards as the player confirmed
  them (read, added or removed by hand) filled into the game's calculator: the calculator's request, its
  total and the breakdown with every point's cause.
- ``POST /api/games/<id>/audit`` ``{"cards": [ids]}`` with the seat's token: the cards the photo shows in
  front of the player compared with where the companion believes they are, each difference in table words
  with a correction the seat may send to ``POST /api/games/<id>/correct``. Only what this seat may know is
  read (its view of the state and its own moves), so no answer depends on another seat's secret.

Pages: ``/calc/<game>/photo`` (every game with a hook) and ``/g/<id>/seat/<n>/photo`` (a seat's audit).

Each game declares its hook in its spec (``GameSpec.photo_module``, a module with ``PHOTO = PhotoScoring(...)``);
nothing here names a game.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Mapping, Sequence

from companion.rules import SPECS


class PhotoRefused(ValueError):
    """Cards no game could show together (a card twice that has one copy...): a 422 with the sentence."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message, self.rule = message, rule


@dataclass(frozen=True)
class Extra:
    """Something the calculator needs that no card shows (a marker held, a track's position): asked beside
    the photo. ``kind`` ``number`` (``low`` to ``high``) or ``flag`` (0 or 1)."""

    name: str
    label: str
    kind: Literal["number", "flag"] = "number"
    low: int = 0
    high: int = 1
    default: int = 0
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "kind": self.kind, "low": self.low, "high": self.high,
                "default": self.default, "rule": self.rule}


@dataclass(frozen=True)
class Laid:
    """A card as the player confirmed it: its card record and, when read from the photo, its code's centre
    and side in the photo's pixels (None for a card added by hand); ``under``: the card the player says lies
    face down under it (a card record), where the game has such cards (:attr:`PhotoScoring.under`)."""

    card: Any
    centre: tuple[float, float] | None = None
    side: float | None = None
    under: Any = None


@dataclass(frozen=True)
class Unseen:
    """What the photo cannot see and the calculator needs: the card lying face down under ``card`` (a card
    read or added), asked in ``question``; the player picks one of ``choices`` (card id, name)."""

    card: str
    question: str
    choices: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "question": self.question,
                "choices": [{"id": choice, "name": name} for choice, name in self.choices]}


@dataclass(frozen=True)
class Scored:
    """The calculator filled from the cards: ``request`` is the calculator's request body for this player
    (``calculator`` names it), ``total`` its total (None when the calculator gives options rather than
    one total), ``headline`` the result in one sentence and ``breakdown`` every point's cause."""

    calculator: str
    request: dict[str, Any]
    total: int | None
    headline: str
    breakdown: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    #: what the photo cannot see and must be told first (then ``total`` is None and nothing is scored yet)
    unseen: list[Unseen] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"calculator": self.calculator, "request": self.request, "total": self.total,
                "headline": self.headline, "breakdown": self.breakdown, "notes": self.notes,
                "unseen": [ask.to_json() for ask in self.unseen]}


@dataclass(frozen=True)
class Difference:
    """One card the photo and the companion disagree on, in table words, with the correction that would make
    the companion agree (``seq`` and ``move``, and ``also`` for later moves of the seat that name the card, for
    ``POST /api/games/<id>/correct``) and its label; or, when no single correction can fix it, ``no_fix``: why,
    in a sentence, and ``move``: the seat's move to open on the corrections page, if one is the cause."""

    card: str
    text: str
    fix: dict[str, Any] | None = None
    fix_label: str | None = None
    no_fix: str | None = None
    move: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "text": self.text, "fix": self.fix, "fix_label": self.fix_label,
                "no_fix": self.no_fix, "move": self.move}


@dataclass(frozen=True)
class SeatMove:
    """One of this seat's own moves still in effect, as the game stands; ``last``: no move of any seat
    follows it (public: every phone sees how many moves there are)."""

    seq: int
    move: Mapping[str, Any]
    last: bool = False


#: a correction (``{"seq", "move", "also"?}``) and its label in table words, or None and the sentence that says
#: why no single correction fixes it
Fixed = tuple[dict[str, Any] | None, str]


@dataclass(frozen=True)
class Placed:
    """A card one of the seat's own moves put in front of it: ``swap(other)`` is that move with ``other`` in
    its place (None when that move could not have named ``other``: another kind of card), ``remove()`` the
    move without the card (each a :data:`Fixed`)."""

    card: str
    seq: int
    swap: Callable[[str], Fixed | None]
    remove: Callable[[], Fixed]


#: (the seat's view of the state, the seat, the card ids the photo shows in front of the player as confirmed,
#: the seat's own moves in effect, oldest first) -> the differences, in table words
Audit = Callable[[Mapping[str, Any], int, Sequence[str], Sequence[SeatMove]], list[Difference]]


@dataclass(frozen=True)
class PhotoScoring:
    """A game's hook: what to photograph, the extras, how cards fill the calculator, and (for a tracked game)
    how a seat's photo is audited."""

    what: str                                            # what to lay down for the photo, in a sentence
    score: Callable[[Sequence[Laid], Mapping[str, int]], Scored]
    extras: tuple[Extra, ...] = ()
    audit: Audit | None = None
    audit_what: str = "the cards in front of you"        # what the seat photographs for an audit
    #: the card some cards hide face down, in words ("the spellbook under it"); None: no card hides another
    under: str | None = None
    #: (the seat's view, the seat) -> {card id: the card under it} as the seat's own reported moves say, to
    #: pre-fill what the photo cannot see on a tracked seat's page (only what the seat may know)
    known_under: Callable[[Mapping[str, Any], int], dict[str, str]] | None = None


def hook(game: str) -> PhotoScoring | None:
    """The game's photo hook, as its spec declares it; None for a game without one (or not served)."""
    spec = SPECS.get(game)
    if spec is None or spec.photo_module is None:
        return None
    from cardgen.catalog import DataError

    try:
        module = importlib.import_module(spec.photo_module)
    except DataError:
        return None
    found = getattr(module, "PHOTO", None)
    if not isinstance(found, PhotoScoring):
        raise TypeError(f"{spec.photo_module} declares no PHOTO = PhotoScoring(...)")
    return found


def games_with_photo() -> list[str]:
    return [game for game, spec in SPECS.items() if spec.photo_module is not None]


def code_geometry(corners: Sequence[Sequence[float]] | None) -> tuple[tuple[float, float] | None, float | None]:
    """A code's centre and side from its four corners (None, None without them)."""
    if not corners or len(corners) != 4:
        return None, None
    xs = [float(c[0]) for c in corners]
    ys = [float(c[1]) for c in corners]
    side = ((xs[1] - xs[0]) ** 2 + (ys[1] - ys[0]) ** 2) ** 0.5
    return (sum(xs) / 4, sum(ys) / 4), side


def nearest_pairs(first: Sequence[Laid], second: Sequence[Laid], reach: float = 6.0) -> list[tuple[Laid, Laid | None]]:
    """Each of ``first`` with the nearest unpaired one of ``second`` within ``reach`` code sides (closest pairs
    first); cards added by hand (no place) pair in order with what is left."""
    pairs: dict[int, int] = {}
    taken: set[int] = set()
    candidates = []
    for i, a in enumerate(first):
        for j, b in enumerate(second):
            if a.centre is not None and b.centre is not None:
                side = max(a.side or 1.0, b.side or 1.0)
                distance = ((a.centre[0] - b.centre[0]) ** 2 + (a.centre[1] - b.centre[1]) ** 2) ** 0.5
                if distance <= reach * side:
                    candidates.append((distance, i, j))
    for _, i, j in sorted(candidates):
        if i not in pairs and j not in taken:
            pairs[i] = j
            taken.add(j)
    rest = [j for j in range(len(second)) if j not in taken]
    out: list[tuple[Laid, Laid | None]] = []
    for i, a in enumerate(first):
        if i not in pairs:  # a card with no place pairs with what is left; two placed cards only when near
            pick = next((j for j in rest if a.centre is None or second[j].centre is None), None)
            if pick is not None:
                pairs[i] = pick
                rest.remove(pick)
        out.append((a, second[pairs[i]] if i in pairs else None))
    return out


__all__ = ["Audit", "Difference", "Extra", "Fixed", "Laid", "PhotoRefused", "PhotoScoring", "Placed", "Scored",
           "SeatMove", "Unseen",
           "code_geometry", "games_with_photo", "hook", "nearest_pairs"]


NO_MOVE = ("No move of yours put it there, so no correction of yours fixes it: if the photo is right, report "
           "the move that brought it, or ask whoever reported it to correct theirs.")


def front_audit(*, front: Sequence[str], found: Sequence[str], where: Callable[[str], str | None],
                name: Callable[[str], str], placed: Sequence[Placed] = (),
                face: Callable[[str], Any] | None = None) -> list[Difference]:
    """The differences between the cards the app has in front of the seat (``front``) and those the photo
    shows there (``found``), in table words.

    ``face(card)`` says which cards look the same (identical copies): a copy the photo shows of a card the app
    has in front is that card. A card the photo shows that the app has elsewhere, beside a card the app has in
    front of the seat that the photo does not show and that one of the seat's own moves put there
    (``placed``), is most likely a mis-tap: the fix is that move with the card the photo shows. A card the app
    has in front that the photo does not show, put there by one of the seat's moves, is fixed by that move
    without it. The store replays every later move and refuses the correction, naming the move, if one no
    longer fits. ``where(card)`` says where the app has a card in words this seat may read ("in your hand",
    "in front of Ben"), or None for nowhere this seat can see."""
    key = face or (lambda card: card)
    in_front = list(dict.fromkeys(front))
    spare = [card for card in in_front if card not in found]
    shown: list[str] = []
    for card in dict.fromkeys(found):
        twin = card if card in in_front else next((other for other in spare if key(other) == key(card)), None)
        if twin is not None and twin != card:
            spare.remove(twin)
        shown.append(twin or card)
    extra = [card for card in shown if card not in in_front]
    missing = [card for card in in_front if card not in shown]
    latest = {placement.card: placement for placement in placed}
    out: list[Difference] = []
    for card in extra:
        place = where(card)
        said = (f"The app thinks {name(card)} is {place}" if place else
                f"The app does not have {name(card)} in front of you or anywhere you can see")
        swaps = {other: answer for other in missing
                 if other in latest and (answer := latest[other].swap(card)) is not None}
        partner = next((other for other, (fix, _) in swaps.items() if fix is not None), next(iter(swaps), None))
        if partner is None:
            out.append(Difference(card, f"{said}; the photo shows {name(card)} in front of you.", no_fix=NO_MOVE))
            continue
        missing.remove(partner)
        fix, words = swaps[partner]
        text = (f"{said} and {name(partner)} in front of you; the photo shows {name(card)} in front of you, "
                f"not {name(partner)}.")
        out.append(Difference(card, text, fix, words if fix else None, None if fix else words, latest[partner].seq))
    for card in missing:
        text = f"The app thinks {name(card)} is in front of you; the photo does not show it."
        if card not in latest:
            out.append(Difference(card, text, no_fix="No move of yours put it there, so no correction of yours "
                                                     "fixes it: if the photo is right, ask the table how it left."))
            continue
        fix, words = latest[card].remove()
        out.append(Difference(card, text, fix, words if fix else None, None if fix else words, latest[card].seq))
    return out


def own_moves(live: Sequence[Any], seat: int) -> list[SeatMove]:
    """This seat's moves of the game as it stands (the store's live moves: ``seq``, ``seat``, ``move``), oldest
    first; ``last`` marks the game's last move."""
    final = live[-1].seq if live else None
    return [SeatMove(move.seq, move.move, move.seq == final) for move in live if move.seat == seat]


def swapped(seq: int, move: Mapping[str, Any], label: str, also: Sequence[dict[str, Any]] = ()) -> Fixed:
    """A correction of move ``seq`` to ``move`` (and ``also`` later moves), labelled."""
    fix: dict[str, Any] = {"seq": seq, "move": dict(move)}
    if also:
        fix["also"] = list(also)
    return fix, label


__all__ += ["NO_MOVE", "front_audit", "own_moves", "swapped"]
