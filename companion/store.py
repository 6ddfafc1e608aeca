"""The companion's database: games, seats and an append-only move log in SQLite.

This module and its private half, :mod:`companion.store_db` (the file, its schema and its
transactions), are the only code that opens the database; import everything from here. Every
read-modify-write runs inside ``BEGIN IMMEDIATE`` so that concurrent gunicorn workers queue for the
write lock up front instead of failing with "database is locked" when a deferred read transaction
tries to upgrade. The database runs in WAL mode (readers never wait for the writer) with
``synchronous=NORMAL`` and a busy timeout.

State is the replay of the move log from the state stored right after setup. The latest state and
its version are cached on the game row, so a read never replays; an undo appends an ``undo`` entry
and replays the live (not undone) moves once. Version = number of log entries (0 after setup).
"""

from __future__ import annotations

import json
import logging
import os
import random
import secrets
import threading
from collections import OrderedDict
from typing import Any, Mapping

import sqlite_utils

from companion.fast_json import dumps_compact
from companion.rules import IllegalMove, SetupError, rules_for, spec_for
from companion.store_db import (BUSY_TIMEOUT_SECONDS, MIGRATIONS, WRITER_LOCK_SUFFIX, NotFound, SeatTaken,
                                SqliteFile, Stale, StoreUnavailable, _dumps, _now, _rows, hash_token)

__all__ = ["BUSY_TIMEOUT_SECONDS", "JOIN_ALPHABET", "JOIN_CODE_LENGTH", "MAX_LOG_ENTRIES", "MIGRATIONS", "STATE_CACHE_SIZE",
           "WRITER_LOCK_SUFFIX", "NotFound", "SeatTaken", "Stale", "State", "Store", "StoreUnavailable",
           "hash_token"]

State = Any  # each rules module has its own frozen State dataclass
log = logging.getLogger(__name__)

#: Join codes avoid characters that are easy to misread on a phone: no 0/O and no 1/I.
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 6
STATE_CACHE_SIZE = 256
#: the most log entries (moves and undos) one game keeps: several times the longest real game
MAX_LOG_ENTRIES = 5000
TOKEN_CACHE_SIZE = 4096


class Store(SqliteFile):
    """Games and their move logs in one SQLite file; safe across threads and processes."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._states: OrderedDict[tuple[str, int], State] = OrderedDict()
        self._states_lock = threading.Lock()
        # Seat tokens are never revoked, so a token once found keeps its seat: every move and seat
        # read checks one, and this saves the hash and the query.
        self._token_seats: dict[tuple[str, str], int] = {}
        # A game's rules module id never changes: moves look it up here before taking the write lock.
        self._games: dict[str, str] = {}
        super().__init__(path)

    # -- games and seats ---------------------------------------------------------------------

    def create_game(self, game: str, players: list[str], options: dict[str, Any]) -> dict[str, Any]:
        """Set up a new game; every seat gets a host token (the creator may hand them out)."""
        rules = rules_for(game)
        if not isinstance(options, Mapping):
            raise SetupError("options must be an object")
        seed = secrets.randbits(63)
        try:
            state = rules.setup(list(players), dict(options), random.Random(seed))
        except SetupError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
            # an option of a type the rules did not expect (a list where a name goes, ...): the rules
            # should have said so themselves; logged for them, answered as the setup error it is
            log.warning("setup of %s refused options %r", game, dict(options), exc_info=True)
            names = ", ".join(f"'{name}'" for name in options) or "none given"
            raise SetupError(f"the options do not fit {rules.TITLE} (given: {names}); see its page in "
                             f"docs/games for what each takes") from error
        names = [p["name"] for p in rules.view(state, None)["players"]]
        state_json = _state_json(game, rules, state)
        seats = [{"seat": i, "name": name, "token": secrets.token_urlsafe(24)} for i, name in enumerate(names)]
        created = _now()
        with self._write() as db:
            game_id, code = self._fresh_id(db), self._fresh_join_code(db)
            db.execute("INSERT INTO games (id, game, join_code, players, options, seed, initial_state, state,"
                       " version, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                       [game_id, game, code, _dumps(names), _dumps(dict(options)), seed, state_json, state_json,
                        created])
            for s in seats:
                db.execute("INSERT INTO seats (game_id, seat, name) VALUES (?, ?, ?)", [game_id, s["seat"], s["name"]])
                db.execute("INSERT INTO seat_tokens (token_hash, game_id, seat, origin, created)"
                           " VALUES (?, ?, ?, 'created', ?)", [hash_token(s["token"]), game_id, s["seat"], created])
        self._remember(game_id, 0, state)
        return {"id": game_id, "game": game, "join_code": code, "version": 0, "seats": seats}

    @staticmethod
    def _fresh_id(db: sqlite_utils.Database) -> str:
        while True:
            candidate = secrets.token_hex(6)
            if not _rows(db, "SELECT 1 FROM games WHERE id = ?", [candidate]):
                return candidate

    @staticmethod
    def _fresh_join_code(db: sqlite_utils.Database) -> str:
        while True:
            candidate = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
            if not _rows(db, "SELECT 1 FROM games WHERE join_code = ?", [candidate]):
                return candidate

    def game_id_for_code(self, join_code: str) -> str | None:
        """The game with this join code (any case, surrounding spaces ignored), or None; a code expires
        when its game is over (nobody joins a finished game, and its code is no clue to anyone)."""
        code = join_code.strip().upper()
        rows = _rows(self._db(), "SELECT id FROM games WHERE join_code = ?", [code])
        if not rows:
            return None
        game, _, state = self.latest(rows[0]["id"])
        return None if rules_for(game).outcome(state).over else str(rows[0]["id"])

    def _game_row(self, db: sqlite_utils.Database, game_id: str, columns: str = "*") -> dict[str, Any]:
        rows = _rows(db, f"SELECT {columns} FROM games WHERE id = ?", [game_id])
        if not rows:
            raise NotFound(f"there is no game '{game_id}'")
        return rows[0]

    def info(self, game_id: str) -> dict[str, Any]:
        # one statement (so one snapshot without a transaction of its own): the game, once per seat
        rows = _rows(self._db(), "SELECT g.id, g.game, g.join_code, g.players, g.version, g.created, s.claimed"
                                 " FROM games g LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ? ORDER BY s.seat",
                     [game_id])
        if not rows:
            raise NotFound(f"there is no game '{game_id}'")
        row = rows[0]
        claimed = [bool(r["claimed"]) for r in rows if r["claimed"] is not None]
        return {"id": row["id"], "game": row["game"], "join_code": row["join_code"],
                "players": json.loads(row["players"]), "claimed": claimed, "version": row["version"],
                "created": row["created"]}

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        known = self._token_seats.get((game_id, token))
        if known is not None:
            return known
        rows = _rows(self._db(), "SELECT seat FROM seat_tokens WHERE token_hash = ? AND game_id = ?",
                                     [hash_token(token), game_id])
        if not rows:
            return None
        seat = int(rows[0]["seat"])
        if len(self._token_seats) >= TOKEN_CACHE_SIZE:
            self._token_seats.clear()  # simplest bound; the next checks refill it
        self._token_seats[(game_id, token)] = seat
        return seat

    def claim_seat(self, game_id: str, seat: int) -> str:
        """A new token for a seat nobody has claimed yet (host tokens stay valid)."""
        token = secrets.token_urlsafe(24)
        with self._write() as db:
            self._game_row(db, game_id, "id")
            rows = _rows(db, "SELECT name, claimed FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat])
            if not rows:
                count = _rows(db, "SELECT count(*) AS n FROM seats WHERE game_id = ?", [game_id])[0]["n"]
                raise NotFound(f"this game has no seat {seat}; its seats are 0 to {count - 1}")
            if rows[0]["claimed"]:
                raise SeatTaken(f"seat {seat} ({rows[0]['name']}) is already taken")
            db.execute("UPDATE seats SET claimed = 1 WHERE game_id = ? AND seat = ?", [game_id, seat])
            db.execute("INSERT INTO seat_tokens (token_hash, game_id, seat, origin, created)"
                       " VALUES (?, ?, ?, 'claimed', ?)",
                       [hash_token(token), game_id, seat, _now()])
        return token

    def game_count(self) -> int:
        return int(self._db().execute("SELECT count(*) FROM games").fetchone()[0])

    # -- state -------------------------------------------------------------------------------

    def version(self, game_id: str) -> int:
        return int(self._game_row(self._db(), game_id, "version")["version"])

    def current(self, game_id: str) -> tuple[int, State]:
        """(version, state) from the cached state on the game row: no replay."""
        _, version, state = self.latest(game_id)
        return version, state

    def latest(self, game_id: str) -> tuple[str, int, State]:
        """(game, version, state) as :meth:`current`; the state's JSON is read only when no parsed copy
        of that version is cached (it is most of the row's bytes, and usually is cached)."""
        row = self._game_row(self._db(), game_id, "game, version")
        version = int(row["version"])
        cached = self._cached(game_id, version)
        if cached is not None:
            return row["game"], version, cached
        row = self._game_row(self._db(), game_id, "game, version, state")  # may be newer by now: fine
        version = int(row["version"])
        state = _state_from(row["game"], row["state"])
        self._remember(game_id, version, state)
        return row["game"], version, state

    def _cached(self, game_id: str, version: int) -> State | None:
        with self._states_lock:
            cached = self._states.get((game_id, version))
            if cached is not None:
                self._states.move_to_end((game_id, version))
            return cached

    def _remember(self, game_id: str, version: int, state: State) -> None:
        """States are immutable, so one parsed per (game, version) can be shared by every request."""
        with self._states_lock:
            self._states[(game_id, version)] = state
            self._states.move_to_end((game_id, version))
            while len(self._states) > STATE_CACHE_SIZE:
                self._states.popitem(last=False)

    def _earlier_answer(self, db: sqlite_utils.Database, game_id: str, seat: int, action_id: str,
                        kind: str) -> dict[str, Any] | None:
        rows = _rows(db, "SELECT seat, kind, result FROM moves WHERE game_id = ? AND action_id = ?",
                             [game_id, action_id])
        return _earlier(rows[0] if rows else None, seat, action_id, kind)

    def apply_move(self, game_id: str, seat: int, version: int, action_id: str,
                   move: Mapping[str, Any]) -> dict[str, Any]:
        """Check ``move`` against the rules and append it; a retried action_id gets its first answer.

        The rules are applied to the state at ``version`` before the write lock is taken (a state per
        version never changes), so writers queue only for the checks and the two writes. Inside the
        lock the order of answers is as it always was: an earlier answer for a retried action id,
        else 409 if the game has moved on, else the rules' verdict."""
        prepared = self._prepare_move(game_id, seat, version, move)
        move_json = _dumps(dict(move))
        with self._write() as db:
            rows = _rows(db, "SELECT g.game, g.version, m.seat, m.kind, m.result FROM games g"
                             " LEFT JOIN moves m ON m.game_id = g.id AND m.action_id = ? WHERE g.id = ?",
                         [action_id, game_id])
            if not rows:
                raise NotFound(f"there is no game '{game_id}'")
            row = rows[0]
            earlier = _earlier(row if row["kind"] is not None else None, seat, action_id, "move")
            if earlier is not None:
                return earlier
            current = int(row["version"])
            if version != current:
                raise Stale(current)
            if current >= MAX_LOG_ENTRIES:
                raise IllegalMove(f"this game has reached {MAX_LOG_ENTRIES:,} moves, the most one game keeps; "
                                  "start a new game to go on", None)
            if prepared is None:  # the state at this version was not at hand: read it now
                rules = rules_for(row["game"])
                state_json = self._game_row(db, game_id, "state")["state"]
                prepared = _applied(rules, _state_from(row["game"], state_json), seat, move, row["game"])
            if isinstance(prepared, BaseException):
                raise prepared
            new_state, new_json = prepared
            seq = current + 1
            answer = {"version": seq, "seq": seq}
            db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                       " VALUES (?, ?, ?, 'move', ?, NULL, ?, ?, ?)",
                       [game_id, seq, seat, move_json, action_id, dumps_compact(answer), _now()])
            db.execute("UPDATE games SET version = ?, state = ? WHERE id = ?", [seq, new_json, game_id])
        self._remember(game_id, seq, new_state)
        return answer

    def _prepare_move(self, game_id: str, seat: int, version: int,
                      move: Mapping[str, Any]) -> tuple[State, str] | Exception | None:
        """The rules' verdict on ``move`` at ``version`` (new state and its JSON, or the error to raise),
        worked out without the write lock; None when the game is not at that version (or not there)."""
        state = self._cached(game_id, version)
        game = self._games.get(game_id)
        if state is None or game is None:
            rows = _rows(self._db(), "SELECT game, version, state FROM games WHERE id = ?", [game_id])
            if not rows or int(rows[0]["version"]) != version:
                return None
            game = rows[0]["game"]
            if len(self._games) >= TOKEN_CACHE_SIZE:
                self._games.clear()  # simplest bound, as for the tokens
            self._games[game_id] = game
            if state is None:
                state = _state_from(game, rows[0]["state"])
                self._remember(game_id, version, state)
        return _applied(rules_for(game), state, seat, move, game)

    def undo(self, game_id: str, seat: int, version: int, action_id: str) -> dict[str, Any]:
        """Take back the last live move (only its own seat may); appends an undo entry and replays."""
        with self._write() as db:
            row = self._game_row(db, game_id, "game, version, initial_state, players")
            earlier = self._earlier_answer(db, game_id, seat, action_id, "undo")
            if earlier is not None:
                return earlier
            current = int(row["version"])
            if version != current:
                raise Stale(current)
            entries = _rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                                    [game_id])
            undone = {e["undoes"] for e in entries if e["kind"] == "undo"}
            live = [e for e in entries if e["kind"] == "move" and e["seq"] not in undone]
            if not live:
                raise IllegalMove("there is no move left to take back", None)
            last = live[-1]
            if last["seat"] != seat:
                names = json.loads(row["players"])
                raise IllegalMove(f"only {names[last['seat']]}, who made the last move, can take it back", None)
            rules = rules_for(row["game"])
            state = _state_from(row["game"], row["initial_state"])
            for entry in live[:-1]:
                state = rules.apply(state, entry["seat"], json.loads(entry["move"]))
            seq = current + 1
            answer = {"version": seq, "seq": seq, "undid": last["seq"]}
            db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                       " VALUES (?, ?, ?, 'undo', ?, ?, ?, ?, ?)",
                       [game_id, seq, seat, _dumps({"type": "undo", "seq": last["seq"]}), last["seq"], action_id,
                        dumps_compact(answer), _now()])
            db.execute("UPDATE games SET version = ?, state = ? WHERE id = ?",
                       [seq, _state_json(row["game"], rules, state), game_id])
        self._remember(game_id, seq, state)
        return answer

    def replay(self, game_id: str) -> State:
        """The state rebuilt from the log alone (the cache is not consulted): for checks and repairs."""
        with self._read() as db:
            row = self._game_row(db, game_id, "game, initial_state")
            entries = _rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                                    [game_id])
        rules = rules_for(row["game"])
        undone = {e["undoes"] for e in entries if e["kind"] == "undo"}
        state = _state_from(row["game"], row["initial_state"])
        for entry in entries:
            if entry["kind"] == "move" and entry["seq"] not in undone:
                state = rules.apply(state, entry["seat"], json.loads(entry["move"]))
        return state

    def options(self, game_id: str) -> dict[str, Any]:
        """The options the game was set up with (public: every phone saw them chosen); for a rematch."""
        options: dict[str, Any] = json.loads(self._game_row(self._db(), game_id, "options")["options"])
        return options

    def timeline(self, game_id: str) -> list[tuple[int, int | None, State]]:
        """``(seq, seat, state after it)`` for the start (seq 0, seat None) and each move still standing
        (undone moves and undo entries left out), in order: a finished game's score over time."""
        with self._read() as db:
            row = self._game_row(db, game_id, "game, initial_state")
            entries = _rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                                    [game_id])
        rules = rules_for(row["game"])
        undone = {e["undoes"] for e in entries if e["kind"] == "undo"}
        state = _state_from(row["game"], row["initial_state"])
        steps: list[tuple[int, int | None, State]] = [(0, None, state)]
        for entry in entries:
            if entry["kind"] == "move" and entry["seq"] not in undone:
                state = rules.apply(state, entry["seat"], json.loads(entry["move"]))
                steps.append((int(entry["seq"]), int(entry["seat"]), state))
        return steps

    # -- the log -----------------------------------------------------------------------------

    def log(self, game_id: str, viewer: int | None, since: int = 0) -> list[dict[str, Any]]:
        """Log entries after ``since``, each move redacted for ``viewer`` (None: the public table)."""
        with self._read() as db:
            row = self._game_row(db, game_id, "game, players")
            undone = {r["undoes"] for r in _rows(
                db, "SELECT undoes FROM moves WHERE game_id = ? AND kind = 'undo'", [game_id])}
            entries = _rows(db, "SELECT seq, seat, kind, move, undoes, created FROM moves"
                                " WHERE game_id = ? AND seq > ? ORDER BY seq", [game_id, since])
            taken_back = {r["seq"]: r for r in _rows(
                db, "SELECT seq, seat, move FROM moves WHERE game_id = ? AND seq IN (SELECT undoes FROM moves"
                " WHERE game_id = ? AND kind = 'undo' AND seq > ?)", [game_id, game_id, since])}
        rules = rules_for(row["game"])
        names = json.loads(row["players"])
        out: list[dict[str, Any]] = []
        for e in entries:
            actor = int(e["seat"])
            move = json.loads(e["move"])
            if e["kind"] == "move":
                shown = rules.redact_move(move, actor, viewer)
                text = rules.describe_move(rules.redact_move(move, actor, None), actor, names)
            else:
                shown = move
                target = taken_back.get(e["undoes"])
                what = ""
                if target is not None:
                    public = rules.redact_move(json.loads(target["move"]), int(target["seat"]), None)
                    what = ": " + rules.describe_move(public, int(target["seat"]), names)
                text = f"{names[actor]} took back move {e['undoes']}{what}"
            out.append({"seq": e["seq"], "seat": actor, "kind": e["kind"], "move": shown, "text": text,
                        "undone": e["seq"] in undone, "at": e["created"]})
        return out


def _earlier(row: Mapping[str, Any] | None, seat: int, action_id: str, kind: str) -> dict[str, Any] | None:
    """The first answer to a retried action id (its log entry ``row``), None for a new one."""
    if row is None:
        return None
    if row["seat"] != seat or row["kind"] != kind:
        raise IllegalMove(f"action id '{action_id}' was already used for a different request; "
                          "send a new action id for a new action", None)
    answer: dict[str, Any] = json.loads(row["result"])
    return answer


def _state_json(game: str, rules: Any, state: State) -> str:
    """A state as the store keeps it: the rules' JSON with the game's state format version."""
    return dumps_compact(spec_for(game).stored_state(rules.state_to_json(state)))


def _state_from(game: str, stored: str) -> State:
    """A stored state, upgraded from whatever format it was stored in (see ``GameSpec.upgraded_state``)."""
    return rules_for(game).state_from_json(spec_for(game).upgraded_state(json.loads(stored)))


def _applied(rules: Any, state: State, seat: int, move: Mapping[str, Any],
             game: str) -> tuple[State, str] | Exception:
    """The state after ``move`` and its JSON, or the exception the rules raised (to be raised later)."""
    try:
        new_state = rules.apply(state, seat, move)
        return new_state, _state_json(game, rules, new_state)
    except Exception as error:  # an IllegalMove, or a bug: raised in the same place as before
        return error
