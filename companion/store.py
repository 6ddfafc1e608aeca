"""The companion's database: games, seats and an append-only move log in SQLite.

This module and its private half, :mod:`companion.store_db` (the file, its schema and its
transactions), are the only code that opens the database; import everything from here. Every
read-modify-write runs inside ``BEGIN IMMEDIATE`` so that concurrent gunicorn workers queue for the
write lock up front instead of failing with "database is locked" when a deferred read transaction
tries to upgrade. The database runs in WAL mode (readers never wait for the writer) with
``synchronous=NORMAL`` and a busy timeout.

State is the replay of the move log from the state stored right after setup. The latest state and
its version are cached on the game row, so a read never replays. The log is never rewritten: an
undo appends an ``undo`` entry, a correction a ``correct`` entry (the new move for an earlier seq,
or none), and seat events (release, hand-over, rename) a ``seat`` entry; the live moves are the
moves with every undo and correction applied. Undo and correction replay the live moves from the
nearest state this process still holds that the change leaves untouched, before the write lock is
taken; inside the lock they only check that the game has not moved on and write.
Version = number of log entries (0 after setup).

Seats: a seat is held by at most one phone. The tokens ``create_game`` hands out hold their seats
from the start (the home page asks for a token of the first seat only); ``claim_seat`` gives a free
seat to the phone that joins with the code; ``release_seat`` (the host) and a hand-over revoke the
seat's token at once.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import random
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Collection, Mapping, Sequence

import sqlite_utils

from companion.fast_json import dumps_compact
from companion.rules import IllegalMove, SetupError, rules_for, spec_for
from companion.rules.base import clean_name, seat_name
from companion.rules.fields import wrong_field
from companion.store_db import (BUSY_TIMEOUT_SECONDS, MIGRATIONS, WRITER_LOCK_SUFFIX, NotFound, SeatTaken,
                                SqliteFile, Stale, StoreUnavailable, _dumps, _now, _rows, hash_token)

__all__ = ["BUSY_TIMEOUT_SECONDS", "HANDOVER_MINUTES", "JOIN_ALPHABET", "JOIN_CODE_LENGTH", "MAX_LOG_ENTRIES",
           "MIGRATIONS", "STATE_CACHE_SIZE", "WRITER_LOCK_SUFFIX", "CorrectionRefused", "NotFound", "SeatTaken",
           "Stale", "State", "Store", "StoreUnavailable", "hash_token"]

State = Any  # each rules module has its own frozen State dataclass
log = logging.getLogger(__name__)

#: Join codes avoid characters that are easy to misread on a phone: no 0/O and no 1/I.
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 6
HANDOVER_CODE_LENGTH = 8
#: A hand-over code works once, for this long after the seat's holder asked for it.
HANDOVER_MINUTES = 15
STATE_CACHE_SIZE = 256
#: the most log entries one game keeps (moves, notes, undos, corrections, reverts, renames): several times
#: the longest real game
MAX_LOG_ENTRIES = 5000
#: entries past :data:`MAX_LOG_ENTRIES` kept only for a seat's recovery (a release, a hand-over) and
#: the note of a rematch, so a lost phone's seat can still be freed in a full game, a bounded number of times
RECOVERY_ENTRIES = 100
GAME_CACHE_SIZE = 4096


class CorrectionRefused(IllegalMove):
    """A correction (or undo) after which a later move no longer fits: ``seq`` names that move."""

    def __init__(self, message: str, rule: str | None, seq: int) -> None:
        super().__init__(message, rule)
        self.seq = seq


@dataclass(frozen=True)
class LiveMove:
    """One move of the game as it stands: its seq in the log, its author and the move (as corrected)."""

    seq: int
    seat: int
    move: dict[str, Any]


class Store(SqliteFile):
    """Games and their move logs in one SQLite file; safe across threads and processes."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._states: OrderedDict[tuple[str, int], State] = OrderedDict()
        self._states_lock = threading.Lock()
        # A game's rules module id never changes: moves look it up here before taking the write lock.
        # (Seat tokens are not cached: a release or hand-over in another process revokes one at once.)
        self._games: dict[str, str] = {}
        super().__init__(path)

    # -- games and seats ---------------------------------------------------------------------

    def create_game(self, game: str, players: list[str], options: dict[str, Any],
                    held: Collection[int] | None = None) -> dict[str, Any]:
        """Set up a new game. Every seat in ``held`` (default: all) gets a token and is held by
        whoever receives it; the other seats are free for the phones that join with the code. The
        answer also carries the ``host_token`` of the phone that created the game."""
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
            given = ", ".join(f"'{name}'" for name in options) or "none given"
            raise SetupError(f"the options do not fit {rules.TITLE} (given: {given}); see its page in "
                             f"docs/games for what each takes") from error
        names = [p["name"] for p in rules.view(state, None)["players"]]
        state_json = _state_json(game, rules, state)
        holding = set(range(len(names))) if held is None else set(held)
        seats: list[dict[str, Any]] = [{"seat": i, "name": name, **({"token": secrets.token_urlsafe(24)} if i in holding else {})}
                 for i, name in enumerate(names)]
        host_token = secrets.token_urlsafe(24)
        created = _now()
        with self._write() as db:
            game_id, code = self._fresh_id(db), self._fresh_join_code(db)
            db.execute("INSERT INTO games (id, game, join_code, players, options, seed, initial_state, state,"
                       " version, created, host_token_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
                       [game_id, game, code, _dumps(names), _dumps(dict(options)), seed, state_json, state_json,
                        created, hash_token(host_token)])
            for s in seats:
                db.execute("INSERT INTO seats (game_id, seat, name, claimed) VALUES (?, ?, ?, ?)",
                           [game_id, s["seat"], s["name"], int("token" in s)])
                if "token" in s:
                    db.execute("INSERT INTO seat_tokens (token_hash, game_id, seat, origin, created)"
                               " VALUES (?, ?, ?, 'created', ?)", [hash_token(s["token"]), game_id, s["seat"], created])
        self._remember(game_id, 0, state)
        return {"id": game_id, "game": game, "join_code": code, "version": 0, "seats": seats,
                "host_token": host_token}

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
        """The seat this token holds now (None: no seat of this game, or a token released or handed on).

        A database written before held seats left the seats of API-created games free although their tokens
        were handed out: such a seat becomes held the first time its token is used (and joining then never
        takes it), so an old game's seat cannot be claimed by a stranger once its phone has come back."""
        rows = _rows(self._db(), "SELECT t.seat, s.claimed FROM seat_tokens t JOIN seats s ON s.game_id = t.game_id"
                                 " AND s.seat = t.seat WHERE t.token_hash = ? AND t.game_id = ? AND t.revoked IS NULL",
                     [hash_token(token), game_id])
        if not rows:
            return None
        seat = int(rows[0]["seat"])
        if not rows[0]["claimed"]:
            with self._write() as db:
                db.execute("UPDATE seats SET claimed = 1 WHERE game_id = ? AND seat = ?", [game_id, seat])
        return seat

    def token_gone(self, game_id: str, token: str) -> int | None:
        """The seat a token of this game held before it was released or handed on (None: never a token here,
        or one that still works), so an old phone can be told what happened instead of a bare refusal."""
        rows = _rows(self._db(), "SELECT seat FROM seat_tokens WHERE token_hash = ? AND game_id = ?"
                                 " AND revoked IS NOT NULL", [hash_token(token), game_id])
        return int(rows[0]["seat"]) if rows else None

    def is_host(self, game_id: str, token: str) -> bool:
        """Whether ``token`` is the host token of this game (the phone that created it)."""
        rows = _rows(self._db(), "SELECT host_token_hash FROM games WHERE id = ?", [game_id])
        return bool(rows) and rows[0]["host_token_hash"] is not None and \
            secrets.compare_digest(rows[0]["host_token_hash"], hash_token(token))

    def _seat_row(self, db: sqlite_utils.Database, game_id: str, seat: int) -> dict[str, Any]:
        self._game_row(db, game_id, "id")
        rows = _rows(db, "SELECT name, claimed FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat])
        if not rows:
            count = _rows(db, "SELECT count(*) AS n FROM seats WHERE game_id = ?", [game_id])[0]["n"]
            raise NotFound(f"this game has no seat {seat}; its seats are 0 to {count - 1}")
        return rows[0]

    def claim_seat(self, game_id: str, seat: int) -> str:
        """A token for a seat no phone holds; a held seat is never taken (:class:`SeatTaken`)."""
        token = secrets.token_urlsafe(24)
        with self._write() as db:
            row = self._seat_row(db, game_id, seat)
            if row["claimed"]:
                raise SeatTaken(f"seat {seat} ({row['name']}) is already taken")
            self._revoke(db, game_id, seat)     # an old database's unused token for this seat stops working
            db.execute("UPDATE seats SET claimed = 1 WHERE game_id = ? AND seat = ?", [game_id, seat])
            db.execute("INSERT INTO seat_tokens (token_hash, game_id, seat, origin, created)"
                       " VALUES (?, ?, ?, 'claimed', ?)",
                       [hash_token(token), game_id, seat, _now()])
        return token

    def game_count(self) -> int:
        return int(self._db().execute("SELECT count(*) FROM games").fetchone()[0])

    def release_seat(self, game_id: str, seat: int) -> dict[str, Any]:
        """The host frees a seat: its token stops working at once, the log says so, and the seat can
        be joined again with the game's code. A seat nobody holds is :class:`SeatTaken`'s 409."""
        with self._write() as db:
            row = self._seat_row(db, game_id, seat)
            if not row["claimed"]:
                raise SeatTaken(f"no phone holds seat {seat} ({row['name']}): it can already be joined with the code")
            self._revoke(db, game_id, seat)
            db.execute("UPDATE seats SET claimed = 0 WHERE game_id = ? AND seat = ?", [game_id, seat])
            answer = self._seat_event(db, game_id, seat, {"type": "release", "seat": seat})
        return answer

    def note_rematch(self, game_id: str, by: int | None, rematch_id: str) -> dict[str, Any]:
        """Say in a finished game's log that its rematch ``rematch_id`` was started (by seat ``by``'s phone,
        or None: a phone holding no seat). A new version, so every phone on the game hears of it live."""
        with self._write() as db:
            return self._seat_event(db, game_id, 0 if by is None else by,
                                    {"type": "rematch", "seat": by, "game": rematch_id})

    def rematch_of(self, game_id: str) -> str | None:
        """The id of the latest rematch started from this game, if any."""
        rows = _rows(self._db(), "SELECT move FROM moves WHERE game_id = ? AND kind = 'seat' ORDER BY seq DESC",
                     [game_id])
        events = (json.loads(row["move"]) for row in rows)  # a handful: releases, hand-overs, renames
        return next((str(e["game"]) for e in events if e["type"] == "rematch"), None)

    def handover_code(self, game_id: str, seat: int) -> dict[str, Any]:
        """A one-time code another phone uses to take this seat over (a newer code replaces it)."""
        code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(HANDOVER_CODE_LENGTH))
        now = datetime.now(timezone.utc)
        expires = (now + timedelta(minutes=HANDOVER_MINUTES)).isoformat(timespec="milliseconds")
        with self._write() as db:
            self._seat_row(db, game_id, seat)
            db.execute("UPDATE seat_handovers SET used = ? WHERE game_id = ? AND seat = ? AND used IS NULL",
                       [_now(), game_id, seat])
            db.execute("INSERT INTO seat_handovers (code_hash, game_id, seat, created, expires) VALUES (?, ?, ?, ?, ?)",
                       [hash_token(code), game_id, seat, now.isoformat(timespec="milliseconds"), expires])
        return {"code": code, "expires": expires}

    def handover_offer(self, code: str) -> dict[str, Any] | None:
        """The game and seat a usable hand-over code is for (nothing is used up), or None."""
        rows = _rows(self._db(), "SELECT h.game_id, h.seat, s.name FROM seat_handovers h JOIN seats s"
                                 " ON s.game_id = h.game_id AND s.seat = h.seat WHERE h.code_hash = ?"
                                 " AND h.used IS NULL AND h.expires >= ?", [hash_token(code.strip().upper()), _now()])
        return {"id": rows[0]["game_id"], "seat": int(rows[0]["seat"]), "name": rows[0]["name"]} if rows else None

    def take_handover(self, code: str) -> dict[str, Any]:
        """The seat a hand-over code was made for, with a new token; the old phone's token stops working."""
        token = secrets.token_urlsafe(24)
        cleaned = code.strip().upper()
        with self._write() as db:
            rows = _rows(db, "SELECT game_id, seat, expires, used FROM seat_handovers WHERE code_hash = ?",
                         [hash_token(cleaned)])
            if not rows or rows[0]["used"] is not None or rows[0]["expires"] < _now():
                raise NotFound(f"the hand-over code '{cleaned}' is unknown, used or expired; ask the seat's phone "
                               "for a new one")
            game_id, seat = rows[0]["game_id"], int(rows[0]["seat"])
            db.execute("UPDATE seat_handovers SET used = ? WHERE code_hash = ?", [_now(), hash_token(cleaned)])
            self._revoke(db, game_id, seat)
            db.execute("UPDATE seats SET claimed = 1 WHERE game_id = ? AND seat = ?", [game_id, seat])
            db.execute("INSERT INTO seat_tokens (token_hash, game_id, seat, origin, created)"
                       " VALUES (?, ?, ?, 'handed', ?)", [hash_token(token), game_id, seat, _now()])
            answer = self._seat_event(db, game_id, seat, {"type": "handover", "seat": seat})
        return {"id": game_id, "seat": seat, "token": token, "version": answer["version"]}

    def rename_seat(self, game_id: str, seat: int, name: str) -> dict[str, Any]:
        """A new name for a seat's player (1 to 40 characters, unlike every other player's)."""
        new = clean_name(name)
        with self._write() as db:
            row = self._game_row(db, game_id, "game, players, state, version")
            self._seat_row(db, game_id, seat)
            names = json.loads(row["players"])
            if not new or len(new) > 40:
                raise IllegalMove("a player's name is 1 to 40 characters", None)
            if any(n.casefold() == new.casefold() for i, n in enumerate(names) if i != seat):
                raise IllegalMove(f"another player is already called {new}", None)
            old = names[seat]
            if new == old:
                raise IllegalMove(f"{old} is already called {new}", None)
            names[seat] = new
            rules = rules_for(row["game"])
            version = int(row["version"])
            state = self._cached(game_id, version)
            if state is None:
                state = _state_from(row["game"], row["state"])
            state = _named(state, names)
            db.execute("UPDATE games SET players = ?, state = ? WHERE id = ?",
                       [_dumps(names), _state_json(row["game"], rules, state), game_id])
            db.execute("UPDATE seats SET name = ? WHERE game_id = ? AND seat = ?", [new, game_id, seat])
            answer = self._seat_event(db, game_id, seat, {"type": "rename", "seat": seat, "name": new, "was": old})
        self._remember(game_id, answer["version"], state)
        return answer

    @staticmethod
    def _revoke(db: sqlite_utils.Database, game_id: str, seat: int) -> None:
        db.execute("UPDATE seat_tokens SET revoked = ? WHERE game_id = ? AND seat = ? AND revoked IS NULL",
                   [_now(), game_id, seat])
        db.execute("UPDATE seat_handovers SET used = ? WHERE game_id = ? AND seat = ? AND used IS NULL",
                   [_now(), game_id, seat])

    def _seat_event(self, db: sqlite_utils.Database, game_id: str, seat: int, event: dict[str, Any]) -> dict[str, Any]:
        """Append a seat entry to the log (the game's state is unchanged, but for a rename's names)."""
        row = self._game_row(db, game_id, "version")
        _check_room(int(row["version"]), event["type"] != "rename")
        seq = int(row["version"]) + 1
        answer = {"version": seq, "seq": seq}
        db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                   " VALUES (?, ?, ?, 'seat', ?, NULL, ?, ?, ?)",
                   [game_id, seq, seat, _dumps(event), f"seat-{secrets.token_hex(8)}", dumps_compact(answer), _now()])
        db.execute("UPDATE games SET version = ? WHERE id = ?", [seq, game_id])
        state = self._cached(game_id, seq - 1)
        if state is not None and event["type"] != "rename":
            self._remember(game_id, seq, state)
        return answer

    # -- state -------------------------------------------------------------------------------

    def version(self, game_id: str) -> int:
        return int(self._game_row(self._db(), game_id, "version")["version"])

    def current(self, game_id: str) -> tuple[int, State]:
        """(version, state) from the cached state on the game row: no replay."""
        _, version, state = self.latest(game_id)
        return version, state

    def state_at(self, game_id: str, version: int) -> tuple[int, State]:
        """(version, state) for a version just read (by :meth:`info`): that version's parsed state when it is
        cached, with no query (states per version never change), else :meth:`current`'s."""
        cached = self._cached(game_id, version)
        return (version, cached) if cached is not None else self.current(game_id)

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
        with self._write() as db:
            row, earlier = _game_and_earlier_answer(db, game_id, seat, action_id, "move")
            if earlier is not None:
                return earlier
            current = int(row["version"])
            if version != current:
                raise Stale(current)
            _check_room(current)
            if prepared is None:  # the state at this version was not at hand: read it now
                rules = rules_for(row["game"])
                state_json = self._game_row(db, game_id, "state")["state"]
                prepared = _applied(rules, _state_from(row["game"], state_json), seat, move, row["game"])
            if isinstance(prepared, BaseException):
                raise prepared
            new_state, new_json, kept = prepared
            seq = current + 1
            answer = {"version": seq, "seq": seq}
            db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                       " VALUES (?, ?, ?, 'move', ?, NULL, ?, ?, ?)",
                       [game_id, seq, seat, _dumps(kept), action_id, dumps_compact(answer), _now()])
            db.execute("UPDATE games SET version = ?, state = ? WHERE id = ?", [seq, new_json, game_id])
        self._remember(game_id, seq, new_state)
        return answer

    def _prepare_move(self, game_id: str, seat: int, version: int,
                      move: Mapping[str, Any]) -> tuple[State, str, dict[str, Any]] | Exception | None:
        """The rules' verdict on ``move`` at ``version`` (new state and its JSON, or the error to raise),
        worked out without the write lock; None when the game is not at that version (or not there)."""
        state = self._cached(game_id, version)
        game = self._games.get(game_id)
        if state is None or game is None:
            rows = _rows(self._db(), "SELECT game, version, state FROM games WHERE id = ?", [game_id])
            if not rows or int(rows[0]["version"]) != version:
                return None
            game = rows[0]["game"]
            if len(self._games) >= GAME_CACHE_SIZE:
                self._games.clear()  # simplest bound, as for the tokens
            self._games[game_id] = game
            if state is None:
                state = _state_from(game, rows[0]["state"])
                self._remember(game_id, version, state)
        return _applied(rules_for(game), state, seat, move, game)

    # -- undo and correction -------------------------------------------------------------------

    def undo(self, game_id: str, seat: int, version: int, action_id: str) -> dict[str, Any]:
        """Take back the last live move (any seat may; private notes are passed over): appends an undo
        entry. The replay runs before the write lock; inside it the version is checked again."""
        def change(timeline: _Timeline) -> tuple[dict[str, Any], int, list[LiveMove]]:
            target = timeline.last_public()
            if target is None:
                raise IllegalMove("there is no move left to take back", None)
            entry = {"type": "undo", "seq": target.seq}
            return entry, target.seq, [m for m in timeline.live if m.seq != target.seq]

        return self._rewrite(game_id, seat, version, action_id, "undo", change)

    def correct(self, game_id: str, seat: int, version: int, action_id: str, seq: int,
                move: Mapping[str, Any] | None, drop: Sequence[int] = (),
                also: Sequence[Mapping[str, Any]] = (), insert: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
        """Replace live move ``seq`` by ``move`` (None: remove it) and replay every later move on the
        corrected history; ``drop`` names later moves to remove with it, ``also`` later moves to correct
        with it (``{"seq", "move"}``), ``insert`` moves the rules now need before a later move
        (``{"before", "seat", "move"}``, see :class:`_Revisions`). A later move that no longer fits refuses
        the whole correction (:class:`CorrectionRefused` names its seq): nothing changes."""
        return self._rewrite(game_id, seat, version, action_id, "correct",
                             _correction(seat, seq, move, drop, also, insert))

    def revert(self, game_id: str, seat: int, version: int, action_id: str, entry: int,
               drop: Sequence[int] = ()) -> dict[str, Any]:
        """Cancel the undo or correction logged as ``entry``: the move taken back or removed is put back,
        a correction is undone (with the moves it put in), and every later move is replayed (``drop``:
        later moves to remove with it; one that no longer fits refuses, as for :meth:`correct`). Only the
        seat that made the change or the seat whose move it changed may; a change is cancelled once."""
        def change(timeline: _Timeline) -> tuple[dict[str, Any], int, list[LiveMove]]:
            return _Revisions.reverted_live(timeline, seat, entry, drop)

        return self._rewrite(game_id, seat, version, action_id, "revert", change)

    def preview(self, game_id: str, seat: int, seq: int, move: Mapping[str, Any] | None,
                drop: Sequence[int] = (), also: Sequence[Mapping[str, Any]] = (),
                insert: Sequence[Mapping[str, Any]] = ()) -> tuple[LiveMove | None, State]:
        """What :meth:`correct` would meet, without writing: ``(None, the corrected state)`` if it fits,
        else ``(the first later move that no longer fits, the corrected state just before it)``. For the
        corrections page, which asks then how to fix that move (or for the move the rules now need)."""
        game, initial, timeline = self._timeline_of(game_id)
        _, _, new_live = _correction(seat, seq, move, drop, also, insert)(timeline)
        return _Revisions.replay_until_misfit(timeline, _named(_state_from(game, initial), timeline.names), new_live)

    def state_before(self, game_id: str, seq: int) -> tuple[LiveMove, State]:
        """Live move ``seq`` and the state just before it (the point of the game its choice form is made
        for); NotFound if it is no live move."""
        game, initial, timeline = self._timeline_of(game_id)
        state = _named(_state_from(game, initial), timeline.names)
        for live in timeline.live:
            if live.seq == seq:
                return live, state
            state = _replayed(timeline, state, live)
        raise NotFound(f"move {seq} is not a move of the game as it stands")

    def live_moves(self, game_id: str) -> list[LiveMove]:
        """The moves of the game as it stands, in order (every undo, correction and put-back applied)."""
        return self._timeline_of(game_id)[2].live

    def _timeline_of(self, game_id: str) -> tuple[str, str, _Timeline]:
        with self._read() as db:
            row = self._game_row(db, game_id, "game, initial_state, players")
            entries = _rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                            [game_id])
        return row["game"], row["initial_state"], _Timeline(rules_for(row["game"]), entries, json.loads(row["players"]))

    def _rewrite(self, game_id: str, seat: int, version: int, action_id: str, kind: str,
                 change: Any) -> dict[str, Any]:
        with self._read() as db:
            row = self._game_row(db, game_id, "game, version, initial_state, players")
            earlier = self._earlier_answer(db, game_id, seat, action_id, kind)
            if earlier is not None:
                return earlier
            current = int(row["version"])
            if version != current:
                raise Stale(current)
            _check_room(current)  # (before the replay: a full game costs no work)
            entries = _rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                            [game_id])
        rules = rules_for(row["game"])
        timeline = _Timeline(rules, entries, json.loads(row["players"]))
        before = self._cached(game_id, current)
        if before is None:
            before = _state_from(row["game"], self._game_row(self._db(), game_id, "state")["state"])
        ended = _ending(rules, before)
        timeline.over = (rules.outcome(before).reason or "it has ended") if ended is not None else None
        entry, first_changed, new_live = change(timeline)
        put_in = entry.pop("_put_in", [])  # moves a correction puts in: entries of their own (_Revisions)
        state = self._rebuild(game_id, row["game"], timeline, row["initial_state"], first_changed, new_live, seat)
        ends = _ending(rules, state)
        if ends != ended:  # the end moved: the log line says so, on every phone (never a silent new winner)
            entry["ending"] = {"was": ended, "now": ends}
        state_json = _state_json(row["game"], rules, state)
        with self._write() as db:
            now, earlier = _game_and_earlier_answer(db, game_id, seat, action_id, kind)
            if earlier is not None:
                return earlier
            if int(now["version"]) != current:  # someone wrote while this replayed: nothing changes
                raise Stale(int(now["version"]))
            _check_room(current)
            seq = current + 1
            answer = {"version": seq + len(put_in), "seq": seq,
                      {"undo": "undid", "revert": "reverted"}.get(kind, "corrected"): first_changed}
            if put_in:
                answer["inserted"] = entry["insert"]
            db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [game_id, seq, seat, kind, _dumps(entry), first_changed, action_id, dumps_compact(answer),
                        _now()])
            for n, (before, author, move) in enumerate(put_in, start=1):
                db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                           " VALUES (?, ?, ?, 'move', ?, ?, ?, ?, ?)",
                           [game_id, seq + n, author, _dumps(move), before, f"insert-{secrets.token_hex(8)}",
                            dumps_compact({"version": seq + n, "seq": seq + n}), _now()])
            db.execute("UPDATE games SET version = ?, state = ? WHERE id = ?", [answer["version"], state_json, game_id])
        self._remember(game_id, answer["version"], state)
        return answer

    def _rebuild(self, game_id: str, game: str, timeline: _Timeline, initial_json: str, first_changed: int,
                 new_live: list[LiveMove], seat: int) -> State:
        """The state after ``new_live``, replayed from the latest state this process holds that comes
        before ``first_changed`` and that no later undo or correction touched (else from set-up)."""
        base_version, base = 0, None
        with self._states_lock:
            held = [v for (g, v) in self._states if g == game_id and v < first_changed]
        for candidate in sorted(held, reverse=True):
            if timeline.untouched_up_to(candidate):
                base = self._cached(game_id, candidate)
                if base is not None:
                    base_version = candidate
                    break
        if base is None:
            base_version = 0
            base = _state_from(game, initial_json)
        state = _named(base, timeline.names)
        for live in new_live:
            if live.seq <= base_version:
                continue
            try:
                state = timeline.rules.apply(state, live.seat, live.move)
            except IllegalMove as error:
                if live.move.get("type") in timeline.private:
                    continue  # a private note that no longer fits is passed over: it is advice only
                name = timeline.names[live.seat]
                if live.seat == seat:
                    raise CorrectionRefused(f"your move {live.seq} would no longer fit: {error.message}",
                                            error.rule, live.seq) from None
                # another seat's move: its reason may rest on what only that seat knows
                raise CorrectionRefused(f"{name}'s move {live.seq} would no longer fit; correct or remove that "
                                        "move too", None, live.seq) from None
        return state

    def replay(self, game_id: str) -> State:
        """The state rebuilt from the log alone (the cache is not consulted): for checks and repairs. A live
        move the rules no longer take (stored by an older version) raises, as it would in a correction."""
        with self._read() as db:
            row = self._game_row(db, game_id, "game, initial_state, players")
            entries = _rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                                    [game_id])
        timeline = _Timeline(rules_for(row["game"]), entries, json.loads(row["players"]))
        steps, _ = timeline.steps(_state_from(row["game"], row["initial_state"]), strict=True)
        return steps[-1][2]

    def options(self, game_id: str) -> dict[str, Any]:
        """The options the game was set up with (public: every phone saw them chosen); for a rematch."""
        options: dict[str, Any] = json.loads(self._game_row(self._db(), game_id, "options")["options"])
        return options

    def timeline(self, game_id: str) -> list[tuple[int, int | None, State]]:
        """``(seq, seat, state after it)`` for the start (seq 0, seat None) and each live move, in order: the
        one resolved timeline (every undo, correction, removal and cleared confirmation applied, private
        notes that no longer fit passed over: the replay the state itself is). Every reader of a game's
        history (result page, chart, exports, archive) reads it. A live move the rules no longer take
        (stored by an older version) is passed over, and the state stored on the game row, what the table
        saw, closes the timeline: the last step always holds the game's current state."""
        with self._read() as db:
            row = self._game_row(db, game_id, "game, initial_state, players, version")
            entries = _rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                                    [game_id])
        version = int(row["version"])
        rules = rules_for(row["game"])
        timeline = _Timeline(rules, entries, json.loads(row["players"]))
        steps, skipped = timeline.steps(_state_from(row["game"], row["initial_state"]))
        if skipped:
            log.warning("game %s: live moves %s no longer apply; the stored state closes its timeline", game_id,
                        skipped)
            current = self._cached(game_id, version)
            if current is None:  # (a rare path: the state read now may be a newer version's, which is fine)
                current = self.current(game_id)[1]
            last_seq, last_seat, _ = steps[-1]
            steps.append((max([last_seq, *skipped]), last_seat, current))
        return steps

    # -- the log -----------------------------------------------------------------------------

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
        with self._read() as db:
            row = self._game_row(db, game_id, "game, players")
            entries = _rows(db, "SELECT seq, seat, kind, move, undoes, created FROM moves"
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


def _ending(rules: Any, state: State) -> list[int] | None:
    """How a game stands at its end: None while it goes on, else its winning seats (empty: nobody wins, a
    stalled game). A change to history compares this before and after, so the log says when the end moved."""
    outcome = rules.outcome(state)
    if outcome.over:
        return sorted(set(outcome.winners or (() if outcome.winner is None else (outcome.winner,))))
    if rules.SPEC.can_stall and rules.stalled(state):
        return []
    return None


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


def _check_room(entries: int, recovery: bool = False) -> None:
    """Refuse a new log entry in a game that holds ``entries`` when it is full: every write counts
    (moves, private notes, undos, corrections, reverts, renames); a seat's release or hand-over and a
    rematch's note may use :data:`RECOVERY_ENTRIES` more."""
    if entries >= MAX_LOG_ENTRIES + (RECOVERY_ENTRIES if recovery else 0):
        raise IllegalMove(f"this game has reached {MAX_LOG_ENTRIES:,} moves, the most one game keeps; "
                          "start a new game to go on", None)


def _seat_text(event: Mapping[str, Any], names: Sequence[str]) -> str:
    if event["type"] == "rematch":
        return "A rematch was started" if event["seat"] is None else f"{names[int(event['seat'])]} started a rematch"
    seat = int(event["seat"])
    if event["type"] == "release":
        return f"{names[seat]}'s seat was released: it can be joined again with the game's code"
    if event["type"] == "handover":
        return f"{names[seat]}'s seat moved to another phone"
    return f"{event['was']} is now called {event['name']}"


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
        for e in entries:
            kind, seq = e["kind"], int(e["seq"])
            if kind == "move":
                move = json.loads(e["move"])
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
                body = json.loads(e["move"])
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
        self.changes, self.inserted_by = _Revisions.index(entries)
        if self.reverted:  # a move put back is no longer gone; a correction taken back no longer replaces
            self.gone -= set(items)
            self.replaced = {s for s in self.replaced if s in items and items[s].move != self._versions[s][0][1]}

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
                if live.move.get("type") in self.private:
                    continue  # advice only: a note that no longer fits is passed over, as in every replay
                if strict:
                    raise
                skipped.append(live.seq)
                continue
            steps.append((live.seq, live.seat, state))
        return steps, skipped

    def last_public(self) -> LiveMove | None:
        """The last live move that is not a private note (notes never block anyone's undo)."""
        return next((m for m in reversed(self.live) if m.move.get("type") not in self.private), None)

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
        if target.seat != seat and target.move.get("type") in timeline.private:
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
        spec = timeline.rules.SPEC
        if target.move.get("type") in spec.final_once_over and timeline.over is not None:
            # the table settled the end on this move: changing it now is refused as the move itself would be
            raise IllegalMove(f"The game is over: {timeline.over}, so move {seq} stands as the table confirmed "
                              "it", spec.over_rule)
        entry: dict[str, Any] = {"type": "correct", "seq": seq, "move": None if move is None else dict(move)}
        if dropped:
            entry["drop"] = dropped
        # any change clears the confirmations of the end made after it (they confirmed other totals);
        # only the removal of a confirmation itself leaves the others standing
        confirming = spec.end_confirmations
        if not (move is None and target.move.get("type") in confirming):
            cleared = [m.seq for m in timeline.live if m.seq > seq and m.seq not in dropped
                       and m.move.get("type") in confirming]
            if cleared:
                entry["cleared"] = cleared
                dropped = sorted({*dropped, *cleared})
        new_live = [m if m.seq != seq else LiveMove(m.seq, m.seat, dict(move or {})) for m in timeline.live
                    if m.seq not in dropped and (m.seq != seq or move is not None)]
        if not also and not insert:
            return entry, seq, new_live
        return _Revisions.amended(timeline, seat, seq, entry, new_live, also, insert)

    return change


def _game_and_earlier_answer(db: Any, game_id: str, seat: int, action_id: str,
                             kind: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Inside the write lock: the game's row (game, version) and the first answer to a retried
    ``action_id`` (None if it is new); NotFound if there is no such game."""
    rows = _rows(db, "SELECT g.game, g.version, m.seat, m.kind, m.result FROM games g"
                     " LEFT JOIN moves m ON m.game_id = g.id AND m.action_id = ? WHERE g.id = ?", [action_id, game_id])
    if not rows:
        raise NotFound(f"there is no game '{game_id}'")
    row = rows[0]
    return row, _earlier(row if row["kind"] is not None else None, seat, action_id, kind)


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


class _Reading(dict):  # type: ignore[type-arg]
    """A move that notes which of its fields the rules read (the referee's own checks iterate it, unnoted)."""

    def __init__(self, move: Mapping[str, Any]) -> None:
        super().__init__(move)
        self.read: set[Any] = set()

    def __getitem__(self, key: Any) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.read.add(key)
        return super().__contains__(key)


def _applied(rules: Any, state: State, seat: int, move: Mapping[str, Any],
             game: str) -> tuple[State, str, dict[str, Any]] | Exception:
    """The state after ``move``, its JSON and the move as the store keeps it, or the exception the rules
    raised (to be raised later). A field the move type declares that the rules did not use here (a trick's
    field its effect has no use for) is dropped before it is stored, once the move without it gives the same
    state: the log keeps what the table did, never a field nothing read."""
    try:
        reading = _Reading(move)
        new_state = rules.apply(state, seat, reading)
        new_json = _state_json(game, rules, new_state)
        kept = dict(move)
        unused = [name for name in move if name != "type" and name not in reading.read]
        if unused:
            trimmed = {name: value for name, value in move.items() if name not in unused}
            try:
                same = _state_json(game, rules, rules.apply(state, seat, trimmed)) == new_json
            except IllegalMove:
                same = False
            if same:
                kept = trimmed
        return new_state, new_json, kept
    except Exception as error:  # an IllegalMove, or a bug: raised in the same place as before
        return error


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
        new = _Revisions.fold([e for e in entries if int(e["seq"]) < seq], timeline.reverted)
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
    def index(entries: Sequence[Mapping[str, Any]]) -> tuple[dict[int, tuple[int, int]], dict[int, list[int]]]:
        """Per undo or correction entry: (the seat that made it, the seat whose move it changed); per
        correction, the moves it put in."""
        authors: dict[int, int] = {}
        changes: dict[int, tuple[int, int]] = {}
        inserted: dict[int, list[int]] = {}
        for e in entries:
            kind, seq = e["kind"], int(e["seq"])
            if kind == "move":
                authors[seq] = int(e["seat"])
            elif kind == "undo":
                target = int(e["undoes"])
                changes[seq] = (int(e["seat"]), authors.get(target, int(e["seat"])))
            elif kind == "correct":
                body = json.loads(e["move"])
                changes[seq] = (int(e["seat"]), authors.get(int(body["seq"]), int(e["seat"])))
                if body.get("insert"):
                    inserted[seq] = [int(x) for x in body["insert"]]
        return changes, inserted

    @staticmethod
    def fold(entries: Sequence[Mapping[str, Any]], skip: Collection[int]) -> dict[int, LiveMove]:
        """The live moves after ``entries``, as if the entries in ``skip`` had never been made."""
        items: dict[int, LiveMove] = {}
        for e in entries:
            kind, seq = e["kind"], int(e["seq"])
            if seq in skip:
                continue
            if kind == "move":
                items = _place(items, LiveMove(seq, int(e["seat"]), json.loads(e["move"])), items_before(items, e))
            elif kind == "undo":
                items.pop(int(e["undoes"]), None)
            elif kind in ("correct", "revert"):
                body = json.loads(e["move"])
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
    def _writable(timeline: _Timeline, seat: int, author: int, move: Mapping[str, Any], what: str) -> None:
        """A move another seat wrote (or will have written) may be set by ``seat`` only if it hides nothing."""
        if author != seat and (move.get("type") in timeline.private
                               or timeline.rules.redact_move(dict(move), author, None) != dict(move)):
            raise IllegalMove(f"{what} holds what only {timeline.names[author]} may see: only they can set it", None)

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
            _Revisions._writable(timeline, seat, author, items[later].move, f"move {later}")
            items[later] = LiveMove(later, author, dict(move))
            fixed.append({"seq": later, "move": dict(move)})
            first = min(first, later)
        added: list[int] = []
        for n, extra in enumerate(insert):
            before, author, move = int(extra["before"]), int(extra["seat"]), extra["move"]
            if before not in items or before <= seq or not 0 <= author < len(timeline.names) \
                    or not isinstance(move, Mapping):
                raise IllegalMove(f"a move can be put in only before a live move after move {seq}", None)
            _Revisions._writable(timeline, seat, author, move, "the move put in")
            new_seq = timeline.next_seq + 1 + n   # the correction's own entry comes first
            items = _place(items, LiveMove(new_seq, author, dict(move)), before)
            added.append(new_seq)
            first = min(first, _first_from(items, new_seq))
        if fixed:
            entry["also"] = fixed
        if added:
            entry["insert"] = added
            entry["_put_in"] = [(int(x["before"]), int(x["seat"]), dict(x["move"])) for x in insert]  # for _rewrite
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
        actor, author = made
        if seat not in (actor, author):
            raise IllegalMove(f"only {timeline.names[actor]} or {timeline.names[author]} can put back this change",
                              None)
        skip = set(timeline.reverted) | {entry, *timeline.inserted_by.get(entry, ())}
        items = _Revisions.fold([e for e in timeline.entries], skip)
        live = {m.seq for m in timeline.live}
        dropped = sorted(set(drop))
        for later in dropped:
            if later not in items or later not in live:
                raise IllegalMove(f"'drop' names move {later}, which is not a live move", None)
            items.pop(later)
        body: dict[str, Any] = {"type": "revert", "entry": entry}
        if dropped:
            body["drop"] = dropped
        old = {m.seq: m for m in timeline.live}
        first = _first_difference(old, items, min(old) if old else 1)
        # as for a correction: the confirmations of the end made after the change are cleared, unless the
        # change gives back or takes away only confirmations
        confirming = timeline.rules.SPEC.end_confirmations
        changed = [m for s, m in {**old, **items}.items() if old.get(s) != items.get(s)]
        only_confirmations = all(m.move.get("type") in confirming for m in changed)
        cleared = [s for s, m in items.items() if s > first and s in old and m.move.get("type") in confirming]
        if cleared and not only_confirmations:
            body["cleared"] = cleared
            for s in cleared:
                items.pop(s)
        return body, first, list(items.values())

    @staticmethod
    def replay_until_misfit(timeline: _Timeline, state: State, new_live: Sequence[LiveMove]
                            ) -> tuple[LiveMove | None, State]:
        for live in new_live:
            try:
                state = timeline.rules.apply(state, live.seat, live.move)
            except IllegalMove:
                if live.move.get("type") in timeline.private:
                    continue
                return live, state
        return None, state


def _replayed(timeline: _Timeline, state: State, live: LiveMove) -> State:
    """The state after ``live`` (a private note that no longer fits is passed over, as in a replay)."""
    try:
        return timeline.rules.apply(state, live.seat, live.move)
    except IllegalMove:
        if live.move.get("type") in timeline.private:
            return state
        raise
