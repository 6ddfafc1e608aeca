"""The state cache: parsed states per (game, version), shared by every request of a process."""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Mapping

from companion.fast_json import dumps_compact
from companion.rules import IllegalMove, rules_for, spec_for
from companion.store.backend import Backend, Connection, fetch_rows, open_backend
from companion.store.common import State, hash_token
from companion.store.errors import NotFound

STATE_CACHE_SIZE = 256
GAME_CACHE_SIZE = 4096
#: seat tokens whose seat a process remembers (:meth:`StateCache.known_seat`)
TOKEN_CACHE_SIZE = 8192


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


class Written(dict):  # type: ignore[type-arg]
    """A write's answer (version, seq) that this request itself wrote, not a retried action id's earlier one:
    the state at its version is the one this process just worked out (:meth:`StateCache.answered`)."""


class StateCache:
    """The database (a :class:`~companion.store.backend.Backend`) with the parsed states this process holds."""

    def __init__(self, target: str | os.PathLike[str] | Backend) -> None:
        self._states: OrderedDict[tuple[str, int], State] = OrderedDict()
        self._states_lock = threading.Lock()
        # A game's rules module id never changes: moves look it up here before taking the write lock.
        # (Seat tokens' seats are remembered only as a guess, checked again where a move writes: a release or
        # hand-over in another process revokes a token at once; known_seat.)
        self._games: dict[str, str] = {}
        self._token_seats: dict[tuple[str, str], int] = {}
        #: every statement of the store goes through it (companion.store.backend)
        self.backend: Backend = open_backend(target)

    @property
    def path(self) -> Path | None:
        """The database file (None: a database server's)."""
        return self.backend.path

    def close(self) -> None:
        """Close every connection this store opened (in this process)."""
        self.backend.close()

    def migrations(self) -> list[dict[str, Any]]:
        """The migrations applied, in order: the last one's number is the database's format version."""
        return self.backend.migrations()

    def _game_row(self, db: Connection | None, game_id: str, columns: str = "*") -> dict[str, Any]:
        """The game's row (``db``: inside a transaction; None: one statement of its own)."""
        sql = f"SELECT {columns} FROM games WHERE id = ?"
        rows = fetch_rows(db, sql, [game_id]) if db is not None else self.backend.rows(sql, [game_id])
        if not rows:
            raise NotFound(f"there is no game '{game_id}'")
        return rows[0]

    def version(self, game_id: str) -> int:
        return int(self._game_row(None, game_id, "version")["version"])

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
        row = self._game_row(None, game_id, "game, version")
        version = int(row["version"])
        cached = self._cached(game_id, version)
        if cached is not None:
            return row["game"], version, cached
        row = self._game_row(None, game_id, "game, version, state")  # may be newer by now: fine
        version = int(row["version"])
        state = _state_from(row["game"], row["state"])
        self._remember(game_id, version, state)
        return row["game"], version, state

    def answered(self, game_id: str, answer: Mapping[str, Any]) -> tuple[str, int, State]:
        """(game, version, state) to answer a write with: for a write this request made (:class:`Written`), the
        state it wrote, which was the game's latest when it committed (no round trip); else :meth:`latest`."""
        if isinstance(answer, Written):
            game = self._games.get(game_id)
            state = self._cached(game_id, int(answer["version"]))
            if game is not None and state is not None:
                return game, int(answer["version"]), state
        return self.latest(game_id)

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        raise NotImplementedError  # (companion.store.seats.Seats)

    def known_seat(self, game_id: str, token: str) -> int | None:
        """The seat this token held when this process last found it (no query; None: not found here yet).
        Only a guess: a release or hand-over through another process revokes a token at once, so a move
        made with it checks it again where it writes (:meth:`~companion.store.moves.Moves.apply_move`'s ``token``)."""
        return self._token_seats.get((game_id, hash_token(token)))

    def forget_token(self, game_id: str, token: str) -> None:
        self._token_seats.pop((game_id, hash_token(token)), None)

    def _remember_token(self, game_id: str, token: str, seat: int) -> None:
        if len(self._token_seats) >= TOKEN_CACHE_SIZE:
            self._token_seats.clear()  # simplest bound, as for the games' rules
        self._token_seats[(game_id, hash_token(token))] = seat

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
