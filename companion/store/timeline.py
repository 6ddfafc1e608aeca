"""The log read as a whole: live moves, undos, corrections and put-backs (pure code, no database)."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
from dataclasses import dataclass
from typing import Any, Collection, Mapping, Sequence

from companion.rules import IllegalMove
from companion.store.common import State


@dataclass(frozen=True)
class LiveMove:
    """One move of the game as it stands: its seq in the log, its author and the move (as corrected)."""

    seq: int
    seat: int
    move: dict[str, Any]


def hidden_from(rules: Any, live: LiveMove, seat: int) -> bool:
    """Whether ``live`` holds what ``seat`` may not see (another seat's drawn card, hidden reveal, ...): a
    refusal must then say neither whose move it is nor which, for which of them fails can rest on it."""
    return (live.seat != seat and rules.SPEC.redacted_moves_are_secret
            and rules.redact_move(dict(live.move), live.seat, seat) != dict(live.move))


#: what a seat is told when a later move it may not see into no longer fits (the same words whoever holds what)
HIDDEN_MISFIT = ("a later move of another player, which holds what only they see, would no longer fit. Which one "
                 "it is rests on their secret, so it is not named here: ask at the table; its author can correct "
                 "it from their phone")


def after_the_end(whose: str, seq: int, reason: str) -> str:
    """A refused change after which the game ends before a later move (``whose`` move ``seq``): that the game is
    over there is public, so the move is named whoever made it, and every move after the end goes with it."""
    ending = f". {reason.rstrip('.')}" if reason else ""
    return (f"the game would now end before {whose} move {seq}{ending}. Remove it and every later move with this "
            "change, or change it another way")


def _ending(rules: Any, state: State) -> list[int] | None:
    """How a game stands at its end: None while it goes on, else its winning seats (empty: nobody wins, a
    stalled game). A change to history compares this before and after, so the log says when the end moved."""
    outcome = rules.outcome(state)
    if outcome.over:
        return outcome.winning_seats
    if rules.SPEC.can_stall and rules.stalled(state):
        return []
    return None


def stored_move(text: str) -> dict[str, Any]:
    """A stored move as the readers take it: an object, as the API only ever stores. Anything else (a damaged
    row, another program's) is kept whole under ``"stored"``: a move of no type, which no rules take, so every
    reader shows it as a move this version cannot read instead of failing on it."""
    return _object(json.loads(text))


def _object(move: Any) -> dict[str, Any]:
    return move if isinstance(move, dict) else {"stored": move}


def stored_correction(text: str) -> Any:
    """A stored correction's body as the readers take it: the moves it carries (its ``move``, each ``also``
    item's) made objects as :func:`stored_move` makes a move row, so a damaged or foreign entry is shown as a
    move this version cannot read, never a page's 500."""
    body = json.loads(text)
    if isinstance(body, dict):
        if body.get("move") is not None:
            body["move"] = _object(body["move"])
        if isinstance(body.get("also"), list):
            body["also"] = [{**a, "move": _object(a.get("move"))} if isinstance(a, dict) else a for a in body["also"]]
    return body


def move_kind(move: Mapping[str, Any]) -> str | None:
    """A move's type if it is text, else None: a correction sent through the API may carry any JSON there
    (the rules refuse it when it is replayed; until then it is compared with the spec's move types)."""
    kind = move.get("type") if isinstance(move, Mapping) else None  # (a damaged entry may hold any JSON)
    return kind if isinstance(kind, str) else None


def _named(state: State, names: Sequence[str]) -> State:
    """The state with the players' current names (a rename changes nothing else)."""
    if tuple(state.players) == tuple(names):
        return state
    return dataclasses.replace(state, players=tuple(names))


class _Timeline:
    """The log read as a whole: the live moves (every undo and correction applied), which moves are
    gone or replaced, and, per entry, which earlier moves it changed."""

    def __init__(self, rules: Any, entries: Sequence[Mapping[str, Any]], names: Sequence[str]) -> None:
        self.rules, self.names = rules, list(names)
        self.private: frozenset[str] = rules.SPEC.private_moves
        #: why the game is over as it stands (set by a change that read the state), else None
        self.over: str | None = None
        self.gone: set[int] = set()
        self.replaced: set[int] = set()
        self._touches: list[tuple[int, int]] = []   # (entry seq, the earliest move seq it changed)
        self._versions: dict[int, list[tuple[int, dict[str, Any]]]] = {}  # move seq -> [(from entry, move)]
        self.reverted: set[int] = set()   # entries a later 'revert' entry cancelled (see _Revisions)
        self.next_seq = int(entries[-1]["seq"]) + 1 if entries else 1
        items: dict[int, LiveMove] = {}
        # for the put-backs (_Revisions.revert): the live moves just before each entry a later put-back cancels
        # (dropped once it is put back), each entry's place, and the put-backs so far (their seq and target)
        targets = {int(json.loads(e["move"])["entry"]) for e in entries if e["kind"] == "revert"}
        self._before: dict[int, dict[int, LiveMove]] = {}
        self._place_of: dict[int, int] = {}
        self._reverts: list[tuple[int, int]] = []
        for index, e in enumerate(entries):
            kind, seq = e["kind"], int(e["seq"])
            self._place_of[seq] = index
            if seq in targets:
                self._before[seq] = dict(items)
            if kind == "move":
                move = stored_move(e["move"])
                before = items_before(items, e)
                items = _place(items, LiveMove(seq, int(e["seat"]), move), before)
                self._versions[seq] = [(seq, move)]
                if before is not None:  # a move put in before a later one by a correction (issue 21)
                    self._touches.append((seq, _first_from(items, seq)))
            elif kind == "undo":
                target = int(e["undoes"])
                items.pop(target, None)
                self.gone.add(target)
                self._touches.append((seq, target))
            elif kind == "correct":
                body = stored_correction(e["move"])
                target = int(body["seq"])
                if body["move"] is None:
                    items.pop(target, None)
                    self.gone.add(target)
                elif target in items:
                    items[target] = LiveMove(target, items[target].seat, body["move"])
                    self.replaced.add(target)
                    self._versions.setdefault(target, []).append((seq, body["move"]))
                _Revisions.also(self, items, seq, body)
                # 'drop': later moves removed with it; 'cleared': confirmations of the end it cleared
                later = [int(d) for d in (*body.get("drop", ()), *body.get("cleared", ()))]
                for dropped in later:
                    items.pop(dropped, None)
                    self.gone.add(dropped)
                self._touches.append((seq, min([target, *later, *(int(a["seq"]) for a in body.get("also", ()))])))
            elif kind == "revert":
                items = _Revisions.revert(self, entries, items, seq, json.loads(e["move"]))
        self.live: list[LiveMove] = list(items.values())
        self.entries = entries
        self._before, self._place_of, self._reverts = {}, {}, []  # (needed while the log is read, not after)
        self.changes, self.inserted_by, self.touched = _Revisions.index(entries)
        if self.reverted:  # a move put back is no longer gone; a correction taken back no longer replaces
            self.gone -= set(items)
            self.replaced = {s for s in self.replaced if s in items and items[s].move != self._versions[s][0][1]}

    @staticmethod
    def appendable(entry: Mapping[str, Any]) -> bool:
        """Whether :meth:`extended` can take this entry: a move made in turn (not one a correction put in
        before a later move) or a seat entry; an undo, a correction or a put-back changes earlier moves."""
        return entry["kind"] == "seat" or (entry["kind"] == "move" and entry.get("undoes") is None)

    def extended(self, entries: Sequence[Mapping[str, Any]], names: Sequence[str]) -> _Timeline:
        """This timeline with ``entries`` (all :meth:`appendable`, the next entries of the log) after it, and
        the players' names as they are now: the same as a timeline of the whole log, for the work of the new
        entries alone. This one is left as it was (another reader may hold it); what no new entry changes
        (the sets of moves gone, replaced and put back, the changes per entry) is shared."""
        grown = copy.copy(self)
        grown.names = list(names)
        grown.entries = [*self.entries, *entries]
        grown.live = list(self.live)
        grown._versions = self._versions  # new keys only: a reader of this one never asks for them
        for e in entries:
            if e["kind"] == "move":
                seq, move = int(e["seq"]), stored_move(e["move"])
                grown.live.append(LiveMove(seq, int(e["seat"]), move))
                grown._versions[seq] = [(seq, move)]
        grown.next_seq = int(grown.entries[-1]["seq"]) + 1 if grown.entries else 1
        return grown

    def steps(self, start: State, strict: bool = False) -> tuple[list[tuple[int, int | None, State]], list[int]]:
        """``(seq, seat, state after it)`` from ``start`` (the set-up) through every live move, the replay the
        state is, and the seqs of live moves passed over: a private note that no longer fits always; with
        ``strict`` False also any other move the rules no longer take (stored by an older version), which
        ``strict`` raises instead."""
        state = _named(start, self.names)
        steps: list[tuple[int, int | None, State]] = [(0, None, state)]
        skipped: list[int] = []
        for live in self.live:
            try:
                state = self.rules.apply(state, live.seat, live.move)
            except Exception:  # an IllegalMove, or a rules error on what an older version stored
                if move_kind(live.move) in self.private:
                    continue  # advice only: a note that no longer fits is passed over, as in every replay
                if strict:
                    raise
                skipped.append(live.seq)
                continue
            steps.append((live.seq, live.seat, state))
        return steps, skipped

    def last_public(self) -> LiveMove | None:
        """The last live move that is not a private note (notes never block anyone's undo)."""
        return next((m for m in reversed(self.live) if move_kind(m.move) not in self.private), None)

    def untouched_up_to(self, version: int) -> bool:
        """Whether no entry after ``version`` changed a move at or before it (so the state at that
        version is the state after the live moves up to it)."""
        return all(target > version for entry, target in self._touches if entry > version)

    def move_before(self, seq: int, entry: int) -> dict[str, Any] | None:
        """Move ``seq`` as it read just before log entry ``entry``."""
        versions = [move for since, move in self._versions.get(seq, ()) if since < entry]
        return versions[-1] if versions else None


def _correction(seat: int, seq: int, move: Mapping[str, Any] | None, drop: Sequence[int],
                also: Sequence[Mapping[str, Any]], insert: Sequence[Mapping[str, Any]]) -> Any:
    """The change :meth:`Store.correct` makes to a timeline: ``(log entry, first move changed, new live moves)``."""
    def change(timeline: _Timeline) -> tuple[dict[str, Any], int, list[LiveMove]]:
        live = {m.seq: m for m in timeline.live}
        target = live.get(seq)
        if target is None:
            raise IllegalMove(f"move {seq} is not a move of the game as it stands (taken back, removed, "
                              "or not a move)", None)
        if target.seat != seat and move_kind(target.move) in timeline.private:
            raise IllegalMove(f"move {seq} is {timeline.names[target.seat]}'s private note: only they change it",
                              None)
        if move is not None and target.seat != seat and \
                timeline.rules.redact_move(target.move, target.seat, None) != target.move:
            raise IllegalMove(f"move {seq} holds what only {timeline.names[target.seat]} may see: only they "
                              "can correct it (any seat can remove it)", None)
        dropped = sorted(set(drop))
        for later in dropped:
            if later not in live or later <= seq:
                raise IllegalMove(f"'drop' names move {later}, which is not a live move after move {seq}", None)
            _Revisions._not_their_note(timeline, seat, live[later])
        if move is not None:
            _Revisions._writable(timeline, seat, target.seat, move, f"move {seq}")  # (what it now reads)
            _own_word(timeline, seat, target.seat, target.move, move, f"move {seq}")
        spec = timeline.rules.SPEC
        if move_kind(target.move) in spec.final_once_over and timeline.over is not None:
            # the table settled the end on this move: changing it now is refused as the move itself would be
            raise IllegalMove(f"The game is over: {timeline.over}, so move {seq} stands as the table confirmed "
                              "it", spec.over_rule)
        entry: dict[str, Any] = {"type": "correct", "seq": seq, "move": None if move is None else dict(move)}
        if dropped:
            entry["drop"] = dropped
        # any change clears the confirmations of the end made after it (they confirmed other totals);
        # only the removal of a confirmation itself leaves the others standing
        confirming = spec.end_confirmations
        if not (move is None and move_kind(target.move) in confirming):
            cleared = [m.seq for m in timeline.live if m.seq > seq and m.seq not in dropped
                       and move_kind(m.move) in confirming]
            if cleared:
                entry["cleared"] = cleared
                dropped = sorted({*dropped, *cleared})
        new_live = [m if m.seq != seq else LiveMove(m.seq, m.seat, dict(move or {})) for m in timeline.live
                    if m.seq not in dropped and (m.seq != seq or move is not None)]
        if not also and not insert:
            return entry, seq, new_live
        return _Revisions.amended(timeline, seat, seq, entry, new_live, also, insert)

    return change


def _own_word(timeline: _Timeline, seat: int, author: int, was: Mapping[str, Any] | None, move: Mapping[str, Any],
              what: str) -> None:
    """A confirmation of the end (the spec's ``confirms_end`` moves) is its seat's own word: no other seat may
    write one for it, or turn one of its confirmations into another move, by a correction, its ``also`` or
    its ``insert`` (any seat may still remove one). Else one seat could end the game for the others."""
    confirming = timeline.rules.SPEC.end_confirmations
    if author == seat or not confirming:
        return
    name = timeline.names[author]
    if move_kind(move) in confirming:
        raise IllegalMove(f"{what} would be a confirmation of the end that {name} did not make: a confirmation is "
                          f"{name}'s own word (any seat may remove one; only they confirm)", None)
    if was is not None and move_kind(was) in confirming:
        raise IllegalMove(f"{what} is {name}'s confirmation of the end, their own word: only they change it (any "
                          "seat may remove it)", None)


def _final_moves_stand(timeline: _Timeline, new_live: Sequence[LiveMove]) -> None:
    """Once the game is over, the moves its end was settled on (the spec's ``final_once_over``, e.g. a game's
    base-game points, send-backs and end of the base game) stand: a change that would rewrite, remove or put
    one in by any way (a correction's ``also``, ``drop`` or ``insert``, a put-back) is refused as the move
    itself would be, naming the rule, and nothing changes."""
    final = timeline.rules.SPEC.final_once_over
    if timeline.over is None or not final:
        return
    old = {m.seq: m for m in timeline.live}
    new = {m.seq: m for m in new_live}
    for seq, move in old.items():
        if move_kind(move.move) in final and (seq not in new or new[seq].move != move.move):
            raise IllegalMove(f"The game is over: {timeline.over}, so move {seq} stands as the table confirmed it",
                              timeline.rules.SPEC.over_rule)
    for seq, move in new.items():  # a move put in, or one a correction turns into a move of that kind
        if move_kind(move.move) in final and (seq not in old or move_kind(old[seq].move) not in final):
            raise IllegalMove(f"The game is over: {timeline.over}, so no move of the kind the end was settled "
                              "on can be put in now",
                              timeline.rules.SPEC.over_rule)


# -- issue 21: moves put in by a correction, several moves corrected at once, and putting back ------------
# (kept apart from the rest so that it merges cleanly: _Timeline calls into these for the three kinds of
# entry it did not know before)
#
# - a correction may also correct later moves (``also``: [{"seq", "move"}]) and put in moves the rules now
#   need before a later move (``insert``: [{"before", "seat", "move"}]): each inserted move is a log entry of
#   kind 'move' whose ``undoes`` column names the live move it comes before (its seq is its own, as any move's);
# - a ``revert`` entry ({"type": "revert", "entry": E, "drop": [...]}) cancels an earlier undo or correction
#   E (with the moves E put in): the live moves are then as if E had never been made. It is how a phone puts
#   back a move another phone took back or removed, and how a correction is undone.

def items_before(items: Mapping[int, LiveMove], entry: Mapping[str, Any]) -> int | None:
    """The live move a 'move' entry was put in before (None: a move made in turn, at the end)."""
    before = entry.get("undoes")
    return None if before is None else int(before)


def _place(items: dict[int, LiveMove], move: LiveMove, before: int | None) -> dict[int, LiveMove]:
    """``items`` with ``move`` at the end, or just before live move ``before`` (at the end if it is gone)."""
    if before is None or before not in items:
        items[move.seq] = move
        return items
    placed: dict[int, LiveMove] = {}
    for seq, item in items.items():
        if seq == before:
            placed[move.seq] = move
        placed[seq] = item
    return placed


def may_end_in_secret(timeline: _Timeline, state: State, live: LiveMove, seat: int, first_changed: int) -> bool:
    """Whether ``live``, replayed at ``state`` after a change from move ``first_changed`` that ``seat`` asks for,
    is a point where the game may end on what only its author knows (``GameSpec.may_end_in_secret``, under
    ``sooner_end`` "secret"): another seat's move after the change. Past such a point, whether a later move still
    fits can rest on whether the game ended there, so nothing said about it may differ by it."""
    spec = timeline.rules.SPEC
    if spec.sooner_end != "secret" or live.seat == seat or live.seq <= first_changed:
        return False
    return spec.may_end_in_secret is None or bool(spec.may_end_in_secret(state, live.seat, live.move))


def _first_from(items: Mapping[int, LiveMove], seq: int) -> int:
    """The smallest seq of live move ``seq`` and every move after it (what a change there touches)."""
    order = list(items)
    return min(order[order.index(seq):]) if seq in items else seq


def _first_difference(old: Mapping[int, LiveMove], new: Mapping[int, LiveMove], default: int) -> int:
    """The smallest seq among the moves from the first place two live orders differ (``default``: none)."""
    a, b = list(old.values()), list(new.values())
    for i in range(max(len(a), len(b))):
        if i >= len(a) or i >= len(b) or a[i].seq != b[i].seq or a[i].move != b[i].move:
            return min([m.seq for m in a[i:]] + [m.seq for m in b[i:]])
    return default


class _Revisions:
    """How :class:`_Timeline` reads the entries of issue 21 (``also``, inserted moves, ``revert``)."""

    @staticmethod
    def also(timeline: _Timeline, items: dict[int, LiveMove], seq: int, body: Mapping[str, Any]) -> None:
        for other in body.get("also", ()):
            target = int(other["seq"])
            if target in items:
                items[target] = LiveMove(target, items[target].seat, other["move"])
                timeline.replaced.add(target)
                timeline._versions.setdefault(target, []).append((seq, other["move"]))

    @staticmethod
    def revert(timeline: _Timeline, entries: Sequence[Mapping[str, Any]], items: dict[int, LiveMove], seq: int,
               body: Mapping[str, Any]) -> dict[int, LiveMove]:
        target = int(body["entry"])
        timeline.reverted.add(target)
        for e in entries:
            if int(e["seq"]) == target and e["kind"] == "correct":
                timeline.reverted.update(int(s) for s in json.loads(e["move"]).get("insert", ()))
        # The live moves as if the cancelled entry had never been made: from those just before it, folding only the
        # entries since (a log of take-backs put back cost the whole log again per put-back: seconds a page near the
        # log's cap); the whole log again only if a put-back since cancelled an entry made before it.
        before = timeline._before.pop(target, None)
        since = [t for _, t in itertools.takewhile(lambda made: made[0] > target, reversed(timeline._reverts))]
        if before is not None and target in timeline._place_of and all(t > target for t in since):
            new = _Revisions.fold(entries[timeline._place_of[target] + 1:timeline._place_of[seq]], timeline.reverted,
                                  dict(before))
        else:
            new = _Revisions.fold([e for e in entries if int(e["seq"]) < seq], timeline.reverted)
        timeline._reverts.append((seq, target))
        for dropped in (*body.get("drop", ()), *body.get("cleared", ())):
            new.pop(int(dropped), None)
            timeline.gone.add(int(dropped))
        timeline._touches.append((seq, _first_difference(items, new, target)))
        for s, live in new.items():
            if s not in items or items[s].move != live.move:
                timeline._versions.setdefault(s, []).append((seq, live.move))
        return new

    @staticmethod
    def words(body: Mapping[str, Any]) -> str:
        """What a correction's ``also`` and ``insert`` add to its log line."""
        text = ""
        if body.get("also"):
            text += "; corrected with it: move " + ", ".join(str(a["seq"]) for a in body["also"])
        if body.get("insert"):
            text += "; put in with it: move " + ", ".join(str(x) for x in body["insert"])
        return text

    @staticmethod
    def described(rules: Any, names: Sequence[str], timeline: _Timeline, actor: int, body: Mapping[str, Any],
                  seq: int) -> tuple[str, int]:
        """A revert entry's log line and the seat whose move it gave back."""
        target = int(body["entry"])
        made = next((e for e in timeline.entries if int(e["seq"]) == target), None)
        _, author = timeline.changes.get(target, (actor, actor))
        whose = "their" if author == actor else f"{names[author]}'s"
        text = f"{names[actor]} put back a change"
        if made is not None:
            changed = json.loads(made["move"])
            moved = int(made["undoes"]) if made["kind"] == "undo" else int(changed["seq"])
            now = timeline.move_before(moved, seq + 1) if moved not in timeline.gone else None
            reads = "" if now is None else ": " + rules.describe_move(
                rules.redact_move(now, author, None), author, names).rstrip(".")
            if made["kind"] == "correct" and changed["move"] is not None:
                text = f"{names[actor]} undid the correction of {whose} move {moved}; it reads again{reads}"
            else:
                text = f"{names[actor]} put back {whose} move {moved}{reads}"
        if body.get("drop"):
            text += "; removed with it: move " + ", ".join(str(d) for d in body["drop"])
        return text, author

    @staticmethod
    def index(entries: Sequence[Mapping[str, Any]]
              ) -> tuple[dict[int, tuple[int, int]], dict[int, list[int]], dict[int, frozenset[int]]]:
        """Per undo or correction entry: (the seat that made it, the seat whose move it changed); per
        correction, the moves it put in; per undo or correction, every seat whose move it changed (the move's,
        and for a correction those of the moves it corrected, removed or put in with it): each is told, and
        may put it back."""
        authors: dict[int, int] = {}
        changes: dict[int, tuple[int, int]] = {}
        inserted: dict[int, list[int]] = {}
        touched: dict[int, frozenset[int]] = {}
        for e in entries:
            kind, seq = e["kind"], int(e["seq"])
            if kind == "move":
                authors[seq] = int(e["seat"])
            elif kind == "undo":
                target = int(e["undoes"])
                changes[seq] = (int(e["seat"]), authors.get(target, int(e["seat"])))
                touched[seq] = frozenset({changes[seq][1]})
            elif kind == "correct":
                body = json.loads(e["move"])
                changes[seq] = (int(e["seat"]), authors.get(int(body["seq"]), int(e["seat"])))
                if body.get("insert"):
                    inserted[seq] = [int(x) for x in body["insert"]]
                with_it = [int(a["seq"]) for a in body.get("also", ())] + [int(d) for d in body.get("drop", ())]
                touched[seq] = frozenset({changes[seq][1], *(authors[m] for m in with_it if m in authors)})
        for seq, moves in inserted.items():  # (a move put in is an entry of its own, after its correction's)
            touched[seq] = touched[seq] | {authors[m] for m in moves if m in authors}
        return changes, inserted, touched

    @staticmethod
    def fold(entries: Sequence[Mapping[str, Any]], skip: Collection[int],
             start: dict[int, LiveMove] | None = None) -> dict[int, LiveMove]:
        """The live moves after ``entries`` (from ``start``: the live moves before them, else none), as if the
        entries in ``skip`` had never been made."""
        items: dict[int, LiveMove] = {} if start is None else start
        for e in entries:
            kind, seq = e["kind"], int(e["seq"])
            if seq in skip:
                continue
            if kind == "move":
                items = _place(items, LiveMove(seq, int(e["seat"]), stored_move(e["move"])), items_before(items, e))
            elif kind == "undo":
                items.pop(int(e["undoes"]), None)
            elif kind in ("correct", "revert"):
                body = stored_correction(e["move"])
                if kind == "correct":
                    target = int(body["seq"])
                    if body["move"] is None:
                        items.pop(target, None)
                    elif target in items:
                        items[target] = LiveMove(target, items[target].seat, body["move"])
                    for other in body.get("also", ()):
                        if int(other["seq"]) in items:
                            items[int(other["seq"])] = LiveMove(int(other["seq"]), items[int(other["seq"])].seat,
                                                                other["move"])
                for dropped in (*body.get("drop", ()), *body.get("cleared", ())):
                    items.pop(int(dropped), None)
        return items

    @staticmethod
    def _not_their_note(timeline: _Timeline, seat: int, move: LiveMove) -> None:
        """Another seat's private note goes only by its author's hand, in a ``drop`` as anywhere (a note never
        needs to go with a change: a note that no longer fits is passed over in every replay)."""
        if move.seat != seat and move_kind(move.move) in timeline.private:
            raise IllegalMove(f"'drop' names move {move.seq}, {timeline.names[move.seat]}'s private note: only "
                              "they change it", None)

    @staticmethod
    def _writable(timeline: _Timeline, seat: int, author: int, move: Mapping[str, Any], what: str) -> None:
        """Whether ``seat`` may set ``move`` (as it reads, or will read) for ``author``. Its own, always. Another
        seat's, never in a game with hidden information: whether it fits as written can rest on what only that
        seat holds (a card played from its hand), so the answer would tell the writer that secret (any seat may
        still remove a move; the pages offer no more). Elsewhere only if it hides nothing."""
        if author == seat:
            return
        name = timeline.names[author]
        if timeline.rules.SPEC.hidden_information:
            raise IllegalMove(f"{what} is {name}'s: in a game with hidden information only {name} writes "
                              f"{name}'s moves (any seat may remove one)", None)
        if move_kind(move) in timeline.private or timeline.rules.redact_move(dict(move), author, None) != dict(move):
            raise IllegalMove(f"{what} holds what only {name} may see: only they can set it", None)

    @staticmethod
    def amended(timeline: _Timeline, seat: int, seq: int, entry: dict[str, Any], new_live: list[LiveMove],
                also: Sequence[Mapping[str, Any]], insert: Sequence[Mapping[str, Any]]
                ) -> tuple[dict[str, Any], int, list[LiveMove]]:
        """A correction's ``also`` and ``insert`` on top of its own change (see :func:`_correction`)."""
        items = {m.seq: m for m in new_live}
        first = min([seq, *entry.get("drop", ())])
        fixed: list[dict[str, Any]] = []
        for other in also:
            later, move = int(other["seq"]), other["move"]
            if later not in items or later <= seq or not isinstance(move, Mapping):
                raise IllegalMove(f"'also' names move {later}, which is not a live move after move {seq}", None)
            author = items[later].seat
            _Revisions._writable(timeline, seat, author, items[later].move, f"move {later}")  # as it read
            _Revisions._writable(timeline, seat, author, move, f"move {later}")  # and as it will
            _own_word(timeline, seat, author, items[later].move, move, f"move {later}")
            items[later] = LiveMove(later, author, dict(move))
            fixed.append({"seq": later, "move": dict(move)})
            first = min(first, later)
        added: list[int] = []
        put_in: list[tuple[int, int, dict[str, Any]]] = []
        dropped = set(entry.get("drop", ()))
        order = [m.seq for m in timeline.live]
        for n, extra in enumerate(insert):
            before, author, move = int(extra["before"]), int(extra["seat"]), extra["move"]
            place, known = before, before in items
            if before in dropped:
                # the move it comes before goes with this change (the game now ends there): it goes in where that
                # move was, before the next move kept, else at the end (as the log reads it back: _place)
                place, known = next((s for s in order[order.index(before) + 1:] if s in items), before), True
            if not known or before <= seq or not 0 <= author < len(timeline.names) or not isinstance(move, Mapping):
                raise IllegalMove(f"a move can be put in only before a live move after move {seq}", None)
            _Revisions._writable(timeline, seat, author, move, "the move put in")
            _own_word(timeline, seat, author, None, move, "the move put in")
            new_seq = timeline.next_seq + 1 + n   # the correction's own entry comes first
            items = _place(items, LiveMove(new_seq, author, dict(move)), place)
            added.append(new_seq)
            put_in.append((place, author, dict(move)))
            first = min(first, _first_from(items, new_seq))
        if added and timeline.rules.SPEC.sooner_end == "secret":
            # moves put in out of the order they stand in: an end that rests on a secret, falling between them,
            # would have kept a later one and not an earlier one, and refusing that would have told it
            at = list(items)
            if [at.index(n) for n in added] != sorted(at.index(n) for n in added):
                raise IllegalMove("the moves put in must be listed in the order they come in the game: each one "
                                  "after the one before it", None)
        if fixed:
            entry["also"] = fixed
        if added:
            entry["insert"] = added
            entry["_put_in"] = put_in  # for _rewrite
        return entry, first, list(items.values())

    @staticmethod
    def reverted_live(timeline: _Timeline, seat: int, entry: int, drop: Sequence[int]
                      ) -> tuple[dict[str, Any], int, list[LiveMove]]:
        """What :meth:`Store.revert` changes (the same checks, the log entry, the new live moves)."""
        made = timeline.changes.get(entry)
        if made is None:
            raise IllegalMove(f"entry {entry} of the log is no take-back or correction that can be put back", None)
        if entry in timeline.reverted:
            raise IllegalMove(f"the change logged as entry {entry} was already put back", None)
        actor, _ = made
        allowed = [actor, *sorted(timeline.touched.get(entry, frozenset()) - {actor})]
        if seat not in allowed:
            raise IllegalMove(f"only {' or '.join(timeline.names[s] for s in allowed)} can put back this change", None)
        skip = set(timeline.reverted) | {entry, *timeline.inserted_by.get(entry, ())}
        items = _Revisions.fold([e for e in timeline.entries], skip)
        old = {m.seq: m for m in timeline.live}
        dropped = sorted(set(drop))
        for later in dropped:
            if later not in items or later not in old:
                raise IllegalMove(f"'drop' names move {later}, which is not a live move", None)
            _Revisions._not_their_note(timeline, seat, old[later])
            items.pop(later)
        body: dict[str, Any] = {"type": "revert", "entry": entry}
        if dropped:
            body["drop"] = dropped
        first = _first_difference(old, items, min(old) if old else 1)
        # as for a correction: the confirmations of the end made after the change are cleared, unless the
        # change gives back or takes away only confirmations
        confirming = timeline.rules.SPEC.end_confirmations
        changed = [m for s, m in {**old, **items}.items() if old.get(s) != items.get(s)]
        only_confirmations = all(move_kind(m.move) in confirming for m in changed)
        cleared = [] if only_confirmations else \
            [s for s, m in items.items() if s > first and s in old and move_kind(m.move) in confirming]
        # a confirmation it brings back stands only if nothing but confirmations changed since it was made: it
        # confirmed the totals as they read then (taking one back and putting it back is the same word)
        stale = sorted(s for s, m in items.items() if s not in old and move_kind(m.move) in confirming
                       and not _Revisions.only_confirmations_since(timeline, s))
        if stale and all(m.seq in stale for m in changed):
            whose = sorted({timeline.names[items[s].seat] for s in stale})
            raise IllegalMove(f"that confirmation was of the totals as they read before a later change: "
                              f"{' and '.join(whose)} confirm{'s' if len(whose) == 1 else ''} them again instead",
                              None)
        cleared = sorted({*cleared, *stale})
        if cleared:
            body["cleared"] = cleared
            for s in cleared:
                items.pop(s)
        return body, first, list(items.values())

    @staticmethod
    def only_confirmations_since(timeline: _Timeline, made: int) -> bool:
        """Whether every log entry after entry ``made`` changed confirmations of the end only (or nothing a
        total depends on: a seat's entry, a private note), so that the totals read as they did then."""
        confirming = timeline.rules.SPEC.end_confirmations
        neutral = confirming | timeline.private
        plain: dict[int, bool] = {}

        def kind_at(seq: int, entry: int) -> str | None:
            before = timeline.move_before(seq, entry)
            return None if before is None else move_kind(before)

        def only(e: Mapping[str, Any]) -> bool:
            kind, seq = e["kind"], int(e["seq"])
            if kind == "seat":
                return True
            body = json.loads(e["move"])
            if kind == "move":
                return move_kind(body) in neutral
            if kind == "undo":
                return kind_at(int(e["undoes"]), seq) in neutral
            changed = [int(d) for d in body.get("drop", ())]
            if kind == "correct":
                if body.get("also") or body.get("insert"):
                    return False
                new = body.get("move")
                changed.append(int(body["seq"]))
                if new is not None and move_kind(new) not in neutral:
                    return False
            elif kind == "revert":
                if not plain.get(int(body["entry"]), False):
                    return False
            return all(kind_at(m, seq) in neutral for m in changed)

        for e in timeline.entries:  # (every entry is read: a put-back after it may cancel one made before it)
            plain[int(e["seq"])] = only(e)
            if int(e["seq"]) > made and not plain[int(e["seq"])]:
                return False
        return True

    @staticmethod
    def replay_until_misfit(timeline: _Timeline, state: State, new_live: Sequence[LiveMove],
                            seat: int | None = None, first_changed: int | None = None
                            ) -> tuple[LiveMove | None, State]:
        """The first move of ``new_live`` that no longer fits (None if all do) and the state just before it. For
        ``seat``'s change from ``first_changed``: past a point where the game may have ended on another seat's
        secret (:func:`may_end_in_secret`), a move that no longer fits is passed as the store's correction
        passes it (removed with the change), so the preview says what it says whether the game ended there."""
        passed = False
        for live in new_live:
            point = seat is not None and first_changed is not None and \
                may_end_in_secret(timeline, state, live, seat, first_changed)
            try:
                state = timeline.rules.apply(state, live.seat, live.move)
            except IllegalMove:
                if move_kind(live.move) in timeline.private:
                    continue
                if passed:
                    return None, state
                return live, state
            passed = passed or point
        return None, state


def _replayed(timeline: _Timeline, state: State, live: LiveMove) -> State:
    """The state after ``live`` (a private note that no longer fits is passed over, as in a replay)."""
    try:
        return timeline.rules.apply(state, live.seat, live.move)
    except IllegalMove:
        if move_kind(live.move) in timeline.private:
            return state
        raise
