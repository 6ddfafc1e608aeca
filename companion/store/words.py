"""The log in words: each entry described and redacted for the phone that reads it."""

from __future__ import annotations

import json
import logging
from typing import Any, Mapping, Sequence

from companion.rules import rules_for
from companion.rules.base import seat_name
from companion.rules.fields import wrong_field
from companion.store.backend import fetch_rows
from companion.store.states import StateCache
from companion.store.timeline import _Revisions, _Timeline

log = logging.getLogger(__name__)


def _readable(rules: Any, move: Any) -> bool:
    """Whether a stored move is one this version reads: a known type, only its fields, each of its kind."""
    if not isinstance(move, Mapping):
        return False
    kinds = {m.type: m.kinds for m in rules.SPEC.moves}.get(move.get("type"))
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
    what = f"a '{kind[:40]}' move" if isinstance(kind, str) else "a move"
    return f"{seat_name(names, actor)} made {what} this version of the companion cannot read"


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


def _seat_text(event: Mapping[str, Any], names: Sequence[str]) -> str:
    if event["type"] == "rematch":
        return "A rematch was started" if event["seat"] is None else f"{names[int(event['seat'])]} started a rematch"
    seat = int(event["seat"])
    if event["type"] == "release":
        return f"{names[seat]}'s seat was released: it can be joined again with the game's code"
    if event["type"] == "handover":
        return f"{names[seat]}'s seat moved to another phone"
    return f"{event['was']} is now called {event['name']}"


class LogReader(StateCache):
    """The log as phones read it."""

    def log(self, game_id: str, viewer: int | None, since: int = 0) -> list[dict[str, Any]]:
        """Log entries after ``since``, each move redacted for ``viewer`` (None: the public table).

        ``undone`` marks a move taken back or removed by a correction, ``corrected`` one replaced."""
        rules, names, entries, timeline = self._read_log(game_id)
        return self._described(rules, names, entries, timeline, viewer, [e for e in entries if e["seq"] > since])

    def recent_log(self, game_id: str, viewer: int | None, last: int
                   ) -> tuple[list[dict[str, Any]], str | None, int | None]:
        """The newest ``last`` log entries as :meth:`log` gives them, the public words of the move an undo
        would take back now and the seat that made it (None: nothing to take back), from one read of the
        log. A page shows only the newest lines: describing every entry of a long game was most of a live
        part's time."""
        rules, names, entries, timeline = self._read_log(game_id)
        target = timeline.last_public()
        undo_text = None if target is None else _said(rules, target.move, target.seat, names)
        lines = self._described(rules, names, entries, timeline, viewer, entries[-last:] if last > 0 else [])
        return lines, undo_text, None if target is None else target.seat

    def _read_log(self, game_id: str) -> tuple[Any, list[str], list[dict[str, Any]], _Timeline]:
        with self.backend.read() as db:
            row = self._game_row(db, game_id, "game, players")
            entries = fetch_rows(db, "SELECT seq, seat, kind, move, undoes, created FROM moves"
                                " WHERE game_id = ? ORDER BY seq", [game_id])
        rules = rules_for(row["game"])
        names = json.loads(row["players"])
        return rules, names, entries, _Timeline(rules, entries, names)

    @staticmethod
    def _described(rules: Any, names: list[str], entries: list[dict[str, Any]], timeline: _Timeline,
                   viewer: int | None, chosen: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The ``chosen`` entries (of ``entries``, the whole log) in words, redacted for ``viewer``."""
        authors = {e["seq"]: int(e["seat"]) for e in entries if e["kind"] == "move"}
        out: list[dict[str, Any]] = []
        for e in chosen:
            actor = int(e["seat"])
            move = json.loads(e["move"])
            kind = e["kind"]
            extra: dict[str, Any] = {}
            if kind == "move":
                shown = _redacted(rules, move, actor, viewer)
                public = _redacted(rules, move, actor, None)
                text = _said(rules, move, actor, names)
                # a private note, or a move that holds what the table may not see: only its author may
                # rewrite it (correct() refuses the others); the same for every viewer
                extra = {"private": move.get("type") in timeline.private, "hidden": public != move}
                if e.get("undoes") is not None:  # put in by a correction (issue 21)
                    extra["before"] = int(e["undoes"])
            elif kind == "undo":
                shown = move
                target = e["undoes"]
                author = authors.get(target, actor)
                before = timeline.move_before(target, e["seq"])
                what = "" if before is None else ": " + _said(rules, before, author, names)
                whose = "their" if author == actor else f"{names[author]}'s"
                text = f"{names[actor]} took back {whose} move {target}{what}" + _ending_text(move.get("ending"), names)
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
                if move.get("drop"):
                    text += "; removed with it: move " + ", ".join(str(d) for d in move["drop"])
                text += _Revisions.words(move)
                if move.get("cleared"):
                    text += ("; every confirmation of the totals is cleared (move " +
                             ", ".join(str(d) for d in move["cleared"]) + "): the table confirms them again")
                text += _ending_text(move.get("ending"), names)
                extra = {**extra, "author": author}
            elif kind == "revert":
                shown = move
                text, author = _Revisions.described(rules, names, timeline, actor, move, e["seq"])
                text += _ending_text(move.get("ending"), names)
                extra = {"author": author}
            else:
                shown = move
                text = _seat_text(move, names)
            out.append({"seq": e["seq"], "seat": actor, "kind": kind, "move": shown, "text": text,
                        "undone": e["seq"] in timeline.gone, "corrected": e["seq"] in timeline.replaced,
                        **({"put_back": True} if e["seq"] in timeline.reverted else {}),
                        "at": e["created"], **extra})
        return out
