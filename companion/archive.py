"""Finished and idle games: list them, export one, purge the old ones (``companion games``,
``companion export``, ``companion purge``).

The schedule: a game that is over is kept :data:`FINISHED_DAYS` days after its last move, any other
game :data:`IDLE_DAYS` days after its last move (or its start). ``companion serve`` removes what is
past that by itself, when it starts and every :data:`PURGE_EVERY_HOURS` hours while it runs
(:class:`PurgeSchedule`; ``companion purge`` does the same by hand); ``companion export`` first writes a game out as JSON for
whoever wants to keep it. The move log is append-only for the server; only a purge removes a game,
its seats, tokens and log, in one transaction.
"""

from __future__ import annotations

import fcntl
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

from companion.rules import finished, rules_for
from companion.store import Store

FINISHED_DAYS = 30
IDLE_DAYS = 90
PURGE_EVERY_HOURS = 6


def games(store: Store) -> list[dict[str, Any]]:
    """Every game: id, game, players, version, created, last (its last entry or its start), over."""
    out = []
    for row in store.game_rows():
        _, _, state = store.latest(row["id"])
        out.append({"id": row["id"], "game": row["game"], "players": json.loads(row["players"]),
                    "version": row["version"], "created": row["created"], "last": row["last"] or row["created"],
                    "over": finished(rules_for(row["game"]), state)})
    return out


def due(store: Store, now: datetime | None = None, finished_days: int = FINISHED_DAYS,
        idle_days: int = IDLE_DAYS) -> list[dict[str, Any]]:
    """The games the schedule says to remove now."""
    now = now or datetime.now(timezone.utc)
    return [g for g in games(store)
            if now - datetime.fromisoformat(g["last"]) > timedelta(days=finished_days if g["over"] else idle_days)]


def export(store: Store, game_id: str) -> dict[str, Any]:
    """One game in full, as the host's own record: setup, every log entry as reported, the resolved timeline
    (each live move with every seat's total after it: the history every other reader reads) and the scores."""
    row, entries = store.stored_game(game_id)
    rules = rules_for(row["game"])
    _, _, state = store.latest(game_id)
    return {"id": row["id"], "game": row["game"], "players": json.loads(row["players"]),
            "options": json.loads(row["options"]), "seed": row["seed"], "created": row["created"],
            "version": row["version"], "initial_state": json.loads(row["initial_state"]),
            "log": [{**e, "move": json.loads(e["move"])} for e in entries],
            "timeline": [{"seq": seq, "seat": seat, "totals": _totals(rules, after)}
                         for seq, seat, after in store.timeline(game_id)],
            "scores": rules.score(state),
            "over": finished(rules, state)}


def _totals(rules: Any, state: Any) -> list[int]:
    """Every seat's total after a move, as the result's chart plots it (``charted_totals``: totals typed in at the
    end count once the table confirmed them), so that both read the one history alike."""
    return [int(total) for total in rules.charted_totals(state, rules.score(state))]


def purge(store: Store, game_ids: list[str]) -> int:
    """Remove these games with their seats, tokens and move log; returns how many were removed."""
    return store.purge(game_ids)


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def schedule_for(database: str | Path, **settings: Any) -> Any:
    """The purge schedule of a ``--db``: :class:`PurgeSchedule` beside a SQLite file, or for every node on
    one PostgreSQL database (:class:`companion.store.postgres.PostgresPurgeSchedule`); ``settings`` as theirs."""
    from companion.store.postgres import PostgresPurgeSchedule, is_postgres

    if is_postgres(str(database)):
        return PostgresPurgeSchedule(str(database), **settings)
    return PurgeSchedule(database, **settings)


class PurgeSchedule:
    """The purge ``companion serve`` runs by itself: at start and every ``every`` while it serves.

    Every worker process asks :meth:`run_if_due` now and then; a lock file beside the database
    (``<database>.purge``) holds the time of the last purge, so one process purges per period however
    many ask, and a restart within the period does not purge again. ``clock`` is injectable (tests)."""

    def __init__(self, db_path: str | Path, every: timedelta = timedelta(hours=PURGE_EVERY_HOURS),
                 finished_days: int = FINISHED_DAYS, idle_days: int = IDLE_DAYS,
                 clock: Callable[[], datetime] | None = None) -> None:
        self.db_path, self.every, self.clock = Path(db_path), every, clock or utc_now
        self.finished_days, self.idle_days = finished_days, idle_days
        self.stamp_path = self.db_path.with_name(self.db_path.name + ".purge")

    def last_run(self) -> datetime | None:
        try:
            return datetime.fromisoformat(self.stamp_path.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            return None

    def run_if_due(self) -> list[dict[str, Any]] | None:
        """Purge the games past the schedule if no process did in the last period: the games removed,
        or None when it was not time (or another process is purging right now)."""
        with self.stamp_path.open("a+", encoding="utf-8") as stamp:
            try:
                fcntl.flock(stamp, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return None
            now = self.clock()
            last = self.last_run()
            if last is not None and now - last < self.every:
                return None
            store = Store(self.db_path)
            try:
                gone = due(store, now, self.finished_days, self.idle_days)
                purge(store, [g["id"] for g in gone])
            finally:
                store.close()
            stamp.seek(0)
            stamp.truncate()
            stamp.write(now.isoformat())
            stamp.flush()
            return gone
