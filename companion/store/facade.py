"""The :class:`Store`: games and their move logs, built from the store's parts."""

from __future__ import annotations

import json
import logging
import random
import secrets
from typing import Any, Collection, Mapping, Sequence

from companion.rules import SetupError, rules_for
from companion.store.backend import Connection, fetch_rows
from companion.store.common import _dumps, _now, hash_token
from companion.store.errors import NotFound
from companion.store.moves import Moves
from companion.store.seats import JOIN_ALPHABET, JOIN_CODE_LENGTH, Seats
from companion.store.states import _state_json
from companion.store.words import LogReader

log = logging.getLogger(__name__)


class Store(Seats, Moves, LogReader):
    """Games and their move logs in one SQLite file; safe across threads and processes."""

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
        with self.backend.write(None) as db:  # (a game no other write can know of yet)
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
    def _fresh_id(db: Connection) -> str:
        while True:
            candidate = secrets.token_hex(6)
            if not fetch_rows(db, "SELECT 1 FROM games WHERE id = ?", [candidate]):
                return candidate

    @staticmethod
    def _fresh_join_code(db: Connection) -> str:
        while True:
            candidate = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
            if not fetch_rows(db, "SELECT 1 FROM games WHERE join_code = ?", [candidate]):
                return candidate

    def game_id_for_code(self, join_code: str) -> str | None:
        """The game with this join code (any case, surrounding spaces ignored), or None. A code expires when
        its game is over and every seat is held (nobody joins a finished game, and its code is no clue to
        anyone); while the host has freed a seat of a finished game, the code takes its player back to it
        (to correct a move only that seat may, say), as the release's log line promises."""
        code = join_code.strip().upper()
        if not code.isascii() or not code.isalnum():  # (a code is letters and digits: nothing else is looked up)
            return None
        rows = self.backend.rows("SELECT id FROM games WHERE join_code = ?", [code])
        if not rows:
            return None
        game_id = str(rows[0]["id"])
        game, _, state = self.latest(game_id)
        if rules_for(game).outcome(state).over and all(self.info(game_id)["claimed"]):
            return None
        return game_id

    def info(self, game_id: str) -> dict[str, Any]:
        return self.info_and_seat(game_id, None)[0]

    def info_and_seat(self, game_id: str, token: str | None) -> tuple[dict[str, Any], int | None]:
        """:meth:`info` and :meth:`seat_for_token`'s answer for ``token`` (None: no token sent) in one statement
        (a state read's one round trip to a database server, not two; PostgreSQL's reads that arrive together
        share one: :mod:`companion.store.batches`)."""
        rows = self.backend.game_seats(game_id, None if token is None else hash_token(token))
        if not rows:
            raise NotFound(f"there is no game '{game_id}'")
        row = rows[0]
        claimed = [bool(r["claimed"]) for r in rows if r["claimed"] is not None]
        held = [r for r in rows if r["token_seat"] is not None]
        seat = None
        if held:
            seat = int(held[0]["token_seat"])
            if not held[0]["claimed"]:  # an old database's seat, held from its token's first use on
                seat = self.seat_for_token(game_id, str(token))
                claimed = self.info(game_id)["claimed"]
            else:
                self._remember_token(game_id, str(token), seat)
        return {"id": row["id"], "game": row["game"], "join_code": row["join_code"],
                "players": json.loads(row["players"]), "claimed": claimed, "version": row["version"],
                "created": row["created"]}, seat

    def game_count(self) -> int:
        return int(self.backend.rows("SELECT count(*) AS n FROM games")[0]["n"])

    def options(self, game_id: str) -> dict[str, Any]:
        """The options the game was set up with (public: every phone saw them chosen); for a rematch."""
        options: dict[str, Any] = json.loads(self._game_row(None, game_id, "options")["options"])
        return options

    # -- whole games: listing, export, purge (companion.archive) -------------------------------

    def game_rows(self) -> list[dict[str, Any]]:
        """Every game: id, game, players (JSON), version, created and ``last``, the time of its last log entry
        (None: no entry yet), oldest first."""
        return self.backend.rows("SELECT g.id, g.game, g.players, g.version, g.created,"
                                 " (SELECT max(created) FROM moves m WHERE m.game_id = g.id) AS last"
                                 " FROM games g ORDER BY g.created")

    def stored_game(self, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A game's row as stored (set-up, seed, initial state: no tokens) and every log entry, from one
        snapshot: what an export writes out."""
        with self.backend.read() as db:
            row = self._game_row(db, game_id, "id, game, join_code, players, options, seed, initial_state, version,"
                                              " created")
            entries = fetch_rows(db, "SELECT seq, seat, kind, move, undoes, created FROM moves WHERE game_id = ?"
                                     " ORDER BY seq", [game_id])
        return row, entries

    def purge(self, game_ids: Sequence[str]) -> int:
        """Remove these games with their seats, tokens, hand-over codes and move log, in one transaction (the
        only way anything leaves the log); returns how many games were removed."""
        if not game_ids:
            return 0
        ids = list(game_ids)
        marks = ",".join("?" * len(ids))
        with self.backend.write(None) as db:
            for game_id in ids:
                self.backend.lock_game(db, game_id)
            self.backend.delete_log(db, ids)
            for table in ("seat_tokens", "seat_handovers", "seats"):
                db.execute(f"DELETE FROM {table} WHERE game_id IN ({marks})", ids)
            removed = db.execute(f"DELETE FROM games WHERE id IN ({marks})", ids).rowcount
        with self._states_lock:
            for key in [key for key in self._states if key[0] in set(ids)]:
                del self._states[key]
        return int(removed)
