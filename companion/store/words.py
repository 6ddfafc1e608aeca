"""The log in words: each entry described and redacted for the phone that reads it."""

from __future__ import annotations

import bisect
import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from companion.rules import rules_for
from companion.rules.base import seat_name
from companion.rules.fields import a_quoted, wrong_field
from companion.store.backend import fetch_rows
from companion.store.states import StateCache
from companion.store.timeline import _Revisions, _Timeline, move_kind, stored_move

log = logging.getLogger(__name__)


def _readable(rules: Any, move: Any) -> bool:
    """Whether a stored move is one this version reads: a known type, only its fields, each of its kind."""
    if not isinstance(move, Mapping):
        return False
    kinds = {m.type: m.kinds for m in rules.SPEC.moves}.get(move_kind(move))
    return kinds is not None and not set(move) - {"type", *kinds} and wrong_field(move, kinds) is None


def _redacted(rules: Any, move: Any, actor: int, viewer: int | None) -> dict[str, Any]:
    """``rules.redact_move``, tolerant of what an older version stored: a move this version cannot read
    shows only its type (nothing of it can leak, no page trips over it)."""
    try:
        if _readable(rules, move):
            shown: dict[str, Any] = rules.redact_move(move, actor, viewer)
            return shown
    except Exception:
        log.warning("a stored %s move cannot be redacted: %r", rules.GAME_ID, move, exc_info=True)
    kind = move.get("type") if isinstance(move, Mapping) else None
    return {"type": kind} if isinstance(kind, str) else {}


def _said(rules: Any, move: Any, actor: int, names: Sequence[str]) -> str:
    """The public words for a stored move (``describe_move`` of its public part), tolerant of what an older
    version stored."""
    try:
        if _readable(rules, move):
            return str(rules.describe_move(rules.redact_move(move, actor, None), actor, names))
    except Exception:
        log.warning("a stored %s move cannot be described: %r", rules.GAME_ID, move, exc_info=True)
    kind = move.get("type") if isinstance(move, Mapping) else None
    what = f"{a_quoted(kind[:40])} move" if isinstance(kind, str) else "a move"
    return f"{seat_name(names, actor)} made {what} this version of the companion cannot read"


def _cleared_text(body: Mapping[str, Any]) -> str:
    """The log's words for the confirmations of the end a change cleared (a correction or a put-back that
    changed what they confirmed): every phone reads that the table confirms again."""
    cleared = body.get("cleared")
    if not isinstance(cleared, list) or not cleared:
        return ""
    return ("; every confirmation of the totals is cleared (move " + ", ".join(str(d) for d in cleared) +
            "): the table confirms them again")


def _ending_text(ending: Any, names: Sequence[str]) -> str:
    """The log's words for an end that a change moved (``{"was", "now"}`` as :func:`_ending` gives them)."""
    if not isinstance(ending, Mapping):
        return ""
    def who(seats: Any) -> str:
        listed = [seat_name(names, s) for s in seats] if isinstance(seats, list) else []
        return " and ".join(listed) if listed else "nobody"
    was, now = ending.get("was"), ending.get("now")
    if now is None:
        return "; the game is no longer over: it goes on from here"
    if was is None:
        return f"; with it the game is over: {who(now)} {'win' if isinstance(now, list) and len(now) > 1 else 'wins'}"
    return f"; the end changes: {who(now)} now {'win' if len(now) > 1 else 'wins'} (before: {who(was)})"


def _seat_text(event: Any, names: Sequence[str]) -> str:
    """A seat entry's log line; one this version does not write (another version's, or a damaged row) is said to be
    unreadable, as a move is, rather than failing every page of the game."""
    try:
        return _seat_words(event, names)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return "A seat entry this version of the companion cannot read"


def _seat_words(event: Mapping[str, Any], names: Sequence[str]) -> str:
    if event["type"] == "rematch":
        return "A rematch was started" if event["seat"] is None else f"{names[int(event['seat'])]} started a rematch"
    seat = int(event["seat"])
    if event["type"] == "release":
        return f"{names[seat]}'s seat was released: it can be joined again with the game's code"
    if event["type"] == "handover":
        return f"{names[seat]}'s seat moved to another phone"
    if event["type"] == "rename":
        return f"{event['was']} is now called {event['name']}"
    raise ValueError(event["type"])


#: the log entries the log cache of a process holds at most, over every game it holds (the least recently
#: read games go first): four full-length games, or about a hundred ordinary ones (0.6-1 KB an entry)
LOG_CACHE_ENTRIES = 20_000


@dataclass(frozen=True)
class _ReadLog:
    """A game's log as of ``version``, read and resolved: what a log read describes entries from."""

    version: int
    players: str                 # the players' names as stored (JSON), at that version
    entries: Sequence[Mapping[str, Any]]  # the timeline's own list
    timeline: _Timeline
    authors: dict[int, int]      # move seq -> its seat (shared, new keys only, like the timeline's versions)

    def after(self, since: int) -> Sequence[Mapping[str, Any]]:
        """The entries after seq ``since`` (the log is in seq order)."""
        return self.entries[bisect.bisect_right(self.entries, since, key=lambda e: int(e["seq"])):]


def _fresh_read(rules: Any, version: int, players: str, rows: list[dict[str, Any]]) -> _ReadLog:
    """A game's log read whole: its entries ``rows`` (every one, in order) resolved at ``version``."""
    timeline = _Timeline(rules, rows, json.loads(players))
    return _ReadLog(version, players, timeline.entries, timeline,
                    {int(e["seq"]): int(e["seat"]) for e in rows if e["kind"] == "move"})


class LogReader(StateCache):
    """The log as phones read it.

    A read costs in proportion to the entries it returns, not to the log: each process keeps the log it
    last read of each game (:class:`_ReadLog`, up to :data:`LOG_CACHE_ENTRIES` entries in all) with its
    resolved timeline, and a later read fetches only the entries written since. When those are moves made
    in turn or seat entries, the timeline is extended by them; an undo, a correction or a put-back changes
    earlier moves, so the log is read and resolved again in full (as often as the table changes its
    history, not as often as phones read). Every read checks the game's version in the same snapshot."""

    def __init__(self, target: Any) -> None:
        super().__init__(target)
        self._logs: OrderedDict[str, _ReadLog] = OrderedDict()
        self._logs_lock = threading.Lock()
        self._logs_entries = 0

    def log(self, game_id: str, viewer: int | None, since: int = 0, until: int | None = None) -> list[dict[str, Any]]:
        """Log entries after ``since``, each move redacted for ``viewer`` (None: the public table).

        ``undone`` marks a move taken back or removed by a correction, ``corrected`` one replaced. ``until``:
        the log as it stood at that version (the one ``viewer``'s token was checked at: a release, a hand-over
        or a move written since is not shown to a token that may no longer hold the seat)."""
        rules, names, read = self._read_log(game_id)
        if until is not None and read.version > until:
            read = self._read_log_until(game_id, rules, until)
        return self._described(rules, names, read, viewer, read.after(since))

    def _read_log_until(self, game_id: str, rules: Any, version: int) -> _ReadLog:
        """The log as it stood at ``version``, read and resolved apart (not kept: a read overtaken by a write)."""
        with self.backend.read() as db:
            row = self._game_row(db, game_id, "players")
            rows = fetch_rows(db, "SELECT seq, seat, kind, move, undoes, created FROM moves WHERE game_id = ?"
                                  " AND seq <= ? ORDER BY seq", [game_id, version])
        return _fresh_read(rules, version, row["players"], rows)

    def recent_log(self, game_id: str, viewer: int | None, last: int, until: int | None = None
                   ) -> tuple[list[dict[str, Any]], str | None, int | None]:
        """The newest ``last`` log entries as :meth:`log` gives them, the public words of the move an undo
        would take back now and the seat that made it (None: nothing to take back), from one read of the
        log. A page shows only the newest lines: describing every entry of a long game was most of a live
        part's time. ``until``: the log as it stood at that version (as :meth:`log`'s)."""
        rules, names, read = self._read_log(game_id)
        if until is not None and read.version > until:
            read = self._read_log_until(game_id, rules, until)
        target = read.timeline.last_public()
        undo_text = None if target is None else _said(rules, target.move, target.seat, names)
        lines = self._described(rules, names, read, viewer, read.entries[-last:] if last > 0 else [])
        return lines, undo_text, None if target is None else target.seat

    def _read_log(self, game_id: str) -> tuple[Any, list[str], _ReadLog]:
        """The game's rules, its players' names and its log as it stands (see the class)."""
        with self._logs_lock:
            held = self._logs.get(game_id)
        with self.backend.read() as db:
            row = self._game_row(db, game_id, "game, players, version")
            version = int(row["version"])
            start = held.version if held is not None and held.version <= version else 0
            new = [] if start == version else fetch_rows(
                db, "SELECT seq, seat, kind, move, undoes, created FROM moves WHERE game_id = ? AND seq > ?"
                    " ORDER BY seq", [game_id, start])
            if start and (len(new) != version - start or not all(_Timeline.appendable(e) for e in new)):
                start = 0
                new = fetch_rows(db, "SELECT seq, seat, kind, move, undoes, created FROM moves WHERE game_id = ?"
                                     " ORDER BY seq", [game_id])
        rules = rules_for(row["game"])
        names = json.loads(row["players"])
        if start and held is not None:
            if not new and held.players == row["players"]:
                read = held
            else:
                authors = held.authors
                authors.update((int(e["seq"]), int(e["seat"])) for e in new if e["kind"] == "move")
                timeline = held.timeline.extended(new, names)
                read = _ReadLog(version, row["players"], timeline.entries, timeline, authors)
        else:
            read = _fresh_read(rules, version, row["players"], new)
        self._hold_log(game_id, read)
        return rules, names, read

    def _hold_log(self, game_id: str, read: _ReadLog) -> None:
        with self._logs_lock:
            held = self._logs.get(game_id)
            if held is not None and held.version > read.version:
                return  # another request read a newer version meanwhile: keep that one
            if held is not None:
                self._logs_entries -= len(held.entries)
            self._logs[game_id] = read
            self._logs.move_to_end(game_id)
            self._logs_entries += len(read.entries)
            while self._logs_entries > LOG_CACHE_ENTRIES and len(self._logs) > 1:
                _, gone = self._logs.popitem(last=False)
                self._logs_entries -= len(gone.entries)

    @staticmethod
    def _described(rules: Any, names: list[str], read: _ReadLog, viewer: int | None,
                   chosen: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The ``chosen`` entries (of the log ``read``) in words, redacted for ``viewer``."""
        timeline, authors = read.timeline, read.authors
        out: list[dict[str, Any]] = []
        for e in chosen:
            actor = int(e["seat"])
            kind = e["kind"]
            move = stored_move(e["move"]) if kind == "move" else json.loads(e["move"])
            extra: dict[str, Any] = {}
            if kind == "move":
                shown = _redacted(rules, move, actor, viewer)
                public = _redacted(rules, move, actor, None)
                text = _said(rules, move, actor, names)
                # a private note, or a move that holds what the table may not see: only its author may
                # rewrite it (correct() refuses the others); the same for every viewer
                extra = {"private": move_kind(move) in timeline.private, "hidden": public != move}
                if e.get("undoes") is not None:  # put in by a correction (issue 21)
                    extra["before"] = int(e["undoes"])
            elif kind == "undo":
                shown = move
                target = e["undoes"]
                author = authors.get(target, actor)
                before = timeline.move_before(target, e["seq"])
                what = "" if before is None else ": " + _said(rules, before, author, names)
                whose = "their" if author == actor else f"{names[author]}'s"
                ending = _ending_text(move.get("ending"), names)
                if ending:  # one sentence: the move's own full stop gives way to the "; …" that follows
                    what = what.rstrip(".")
                text = f"{names[actor]} took back {whose} move {target}{what}" + ending
                extra = {"author": author}
            elif kind == "correct":
                target = move["seq"]
                author = authors.get(target, actor)
                whose = "their" if author == actor else f"{names[author]}'s"
                shown = dict(move)
                if move["move"] is None:
                    before = timeline.move_before(target, e["seq"])
                    what = "" if before is None else " (" + _said(rules, before, author, names).rstrip(".") + ")"
                    text = f"{names[actor]} removed {whose} move {target}{what}"
                else:
                    shown["move"] = _redacted(rules, move["move"], author, viewer)
                    now = _said(rules, move["move"], author, names).rstrip(".")
                    text = f"{names[actor]} corrected {whose} move {target}; it now reads: {now}"
                    extra = {"reads": now}
                if move.get("also"):  # the later moves changed with it, each redacted for its own author
                    shown["also"] = [{**a, "move": _redacted(rules, a["move"], authors.get(int(a["seq"]), actor), viewer)}
                                     for a in move["also"]]
                if move.get("drop"):
                    text += "; removed with it: move " + ", ".join(str(d) for d in move["drop"])
                text += _Revisions.words(move)
                text += _cleared_text(move)
                text += _ending_text(move.get("ending"), names)
                extra = {**extra, "author": author}
            elif kind == "revert":
                shown = move
                text, author = _Revisions.described(rules, names, timeline, actor, move, e["seq"])
                text += _cleared_text(move)
                text += _ending_text(move.get("ending"), names)
                extra = {"author": author}
            else:
                # a rematch's new game id is a way into that game (its table shows the join code): the log,
                # read by anyone with this game's id (a shared result link), leaves it out; the old game's
                # seats and host are offered the rematch on their pages
                shown = ({k: v for k, v in move.items() if k != "game"}
                         if isinstance(move, dict) and move.get("type") == "rematch" else move)
                text = _seat_text(move, names)
            if kind in ("undo", "correct"):  # every seat whose move it changed (told, may put it back)
                extra["touched"] = sorted(timeline.touched.get(int(e["seq"]), {extra["author"]}))
            out.append({"seq": e["seq"], "seat": actor, "kind": kind, "move": shown, "text": text,
                        "undone": e["seq"] in timeline.gone, "corrected": e["seq"] in timeline.replaced,
                        **({"put_back": True} if e["seq"] in timeline.reverted else {}),
                        "at": e["created"], **extra})
        return out


#: the same tolerant readers for the pages that show stored moves outside the log (the corrections pages)
redacted_stored = _redacted
described_stored = _said
