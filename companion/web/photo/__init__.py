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
    and side in the photo's pixels (None for a card added by hand)."""

    card: Any
    centre: tuple[float, float] | None = None
    side: float | None = None


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

    def to_json(self) -> dict[str, Any]:
        return {"calculator": self.calculator, "request": self.request, "total": self.total,
                "headline": self.headline, "breakdown": self.breakdown, "notes": self.notes}


@dataclass(frozen=True)
class Difference:
    """One card the photo and the companion disagree on, in table words, with the correction that would make
    the companion agree (``seq`` and ``move`` for ``POST /api/games/<id>/correct``), or None when the table
    must say how it happened (e.g. a card the app has nowhere near this player)."""

    card: str
    text: str
    fix: dict[str, Any] | None = None
    fix_label: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "text": self.text, "fix": self.fix, "fix_label": self.fix_label}


@dataclass(frozen=True)
class SeatMove:
    """One of this seat's own moves still in effect, as the log gives it to this seat."""

    seq: int
    move: Mapping[str, Any]


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
        if i not in pairs and rest:
            pairs[i] = rest.pop(0)
        out.append((a, second[pairs[i]] if i in pairs else None))
    return out


__all__ = ["Audit", "Difference", "Extra", "Laid", "PhotoRefused", "PhotoScoring", "Scored", "SeatMove",
           "code_geometry", "games_with_photo", "hook", "nearest_pairs"]


def front_audit(*, front: Sequence[str], found: Sequence[str], where: Callable[[str], str | None],
                name: Callable[[str], str], moves: Sequence[SeatMove],
                swappable: Callable[[Mapping[str, Any]], bool], field_name: str = "card") -> list[Difference]:
    """The differences between the cards the app has in front of the seat (``front``) and those the photo
    shows there (``found``), in table words.

    A card the photo shows that the app has elsewhere, beside a card the app has in front of the seat that
    the photo does not show and that one of the seat's own moves put there (``swappable``), is most likely a
    mis-tap: the fix is that move with the card the photo shows (the store replays every later move and
    refuses the correction, naming the move, if one no longer fits). ``where(card)`` says where the app has a
    card in words this seat may read ("in your hand", "in front of Ben"), or None for nowhere this seat
    can see."""
    in_front = list(dict.fromkeys(front))
    shown = list(dict.fromkeys(found))
    extra = [card for card in shown if card not in in_front]
    missing = [card for card in in_front if card not in shown]
    latest: dict[str, SeatMove] = {}
    for seat_move in moves:
        placed = seat_move.move.get(field_name)
        if isinstance(placed, str) and swappable(seat_move.move):
            latest[placed] = seat_move
    out: list[Difference] = []
    for card in extra:
        place = where(card)
        said = (f"The app thinks {name(card)} is {place}" if place else
                f"The app does not have {name(card)} in front of you or anywhere you can see")
        partner = next((other for other in missing if other in latest), None)
        if partner is not None:
            missing.remove(partner)
            made = latest[partner]
            out.append(Difference(card, f"{said} and {name(partner)} in front of you; the photo shows "
                                        f"{name(card)} in front of you, not {name(partner)}.",
                                  {"seq": made.seq, "move": {**made.move, field_name: card}},
                                  f"Move {made.seq} was {name(card)}, not {name(partner)}"))
        else:
            out.append(Difference(card, f"{said}; the photo shows {name(card)} in front of you."))
    for card in missing:
        out.append(Difference(card, f"The app thinks {name(card)} is in front of you; the photo does not show it."))
    return out


def own_moves(log: Sequence[Mapping[str, Any]], seat: int) -> list[SeatMove]:
    """This seat's moves still in effect, as corrected, oldest first, from the log as this seat reads it."""
    moves: dict[int, Mapping[str, Any]] = {}
    for entry in log:
        if entry["kind"] == "move" and entry["seat"] == seat and not entry["undone"]:
            moves[entry["seq"]] = entry["move"]
        elif entry["kind"] == "correct" and entry["move"].get("seq") in moves:
            target = entry["move"]["seq"]
            if entry["move"].get("move") is None:
                moves.pop(target, None)
            else:
                moves[target] = entry["move"]["move"]
            for dropped in entry["move"].get("drop") or ():
                moves.pop(dropped, None)
    return [SeatMove(seq, move) for seq, move in sorted(moves.items())]


__all__ += ["front_audit", "own_moves"]
