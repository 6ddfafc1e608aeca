"""The companion's database: games, seats and an append-only move log (SQLite by default).

Import everything from here (``from companion.store import Store, NotFound, ...``): this package is the only
code that opens the database. Its modules, by concern:

- :mod:`.facade` — :class:`Store`, built from the parts below: new games, join codes, a game's info,
  and whole games for :mod:`companion.archive` (listing, export rows, purge);
- :mod:`.seats` — seat tokens, claims, releases, hand-over codes, renames, and their log entries;
- :mod:`.moves` — moves, undos, corrections and put-backs written to the log; replays and the one
  resolved timeline every reader of history reads;
- :mod:`.states` — the state cache (parsed states per game and version, shared by a process's requests)
  and how a state is stored (the game's state format version) and read back;
- :mod:`.timeline` — the log read as a whole: live moves, undos, corrections, moves put in, put-backs
  (pure code, no database);
- :mod:`.words` — the log in words, each move redacted for the phone that reads it;
- :mod:`.errors`, :mod:`.common` — the exceptions, small shared helpers, the per-game cap on the log;
- :mod:`.backend` — **the seam**: the :class:`~.backend.Backend` protocol every statement goes through;
- :mod:`.sqlite` — the SQLite backend: the file, its schema and numbered migrations (the last number is the
  format version), WAL mode, ``synchronous=NORMAL``, a busy timeout, a writer lock across processes,
  ``BEGIN IMMEDIATE`` writes, and the checks that the file is still the one opened, whole;
- :mod:`.postgres` — the PostgreSQL backend, for a ``postgresql://`` database several servers share: the same
  migrations in its SQL, a row lock per game, a pool per process, live updates by ``LISTEN``/``NOTIFY``;
- :mod:`.copy` — every game of one database copied into another, verified by replaying (``companion db copy``);
- :mod:`.watch` — how a process hears of versions other processes wrote (live updates);
- :mod:`.limit_counters` — the per-address limit counters every process shares (a ``limits`` storage).

What a backend must provide (:class:`~.backend.Backend`): ``read()``, a transaction seeing one snapshot;
``write(game_id)``, a read-modify-write transaction serialised with every other write to that game (SQLite:
``BEGIN IMMEDIATE`` and one writer; PostgreSQL: a row lock, ``SELECT ... FOR UPDATE`` on the game) that rolls
back when it raises and raises :class:`StoreUnavailable` with a sentence when the database fails;
``lock_game(db, game_id)`` for a write of several games (a purge: each locked in turn); ``rows(sql,
params)`` for one SELECT; ``delete_log(db, game_ids)`` for a purge (the log stays append-only otherwise);
``changes()`` and ``limit_counters()``; ``migrations()``; ``close()``; and ``kind``, ``path``, ``target``.
The connections it yields take ``execute(sql, params)`` with ``?`` placeholders and give DB-API cursors.
The store's SQL is plain SQL SQLite and PostgreSQL both accept; the schema is the backend's own.

The rules of the log: state is the replay of the move log from the state stored right after setup. The
latest state and its version are cached on the game row, so a read never replays. The log is never
rewritten: an undo appends an ``undo`` entry, a correction a ``correct`` entry (the new move for an earlier
seq, or none), a put-back a ``revert`` entry, and seat events (release, hand-over, rename, rematch) a
``seat`` entry; the live moves are the moves with every undo and correction applied. A retried action id
gets its first answer again. Undo and correction replay the live moves from the nearest state this process
still holds that the change leaves untouched, before the write transaction; inside it they only check that
the game has not moved on and write. Version = number of log entries (0 after setup).

Seats: a seat is held by at most one phone. The tokens ``create_game`` hands out hold their seats
from the start (the home page asks for a token of the first seat only); ``claim_seat`` gives a free
seat to the phone that joins with the code; ``release_seat`` (the host) and a hand-over revoke the
seat's token at once.
"""

from companion.rules import IllegalMove
from companion.store.backend import Backend, Changes, Connection, open_backend
from companion.store.common import MAX_LOG_ENTRIES, RECOVERY_ENTRIES, State, hash_token
from companion.store.errors import (
           CorrectionRefused,
           NotFound,
           SeatRefused,
           SeatTaken,
           Stale,
           StoreUnavailable,
           TokenUsed,
)
from companion.store.facade import Store
from companion.store.seats import (
           HANDOVER_CODE_LENGTH,
           HANDOVER_MINUTES,
           JOIN_ALPHABET,
           JOIN_CODE_LENGTH,
)
from companion.store.sqlite import BUSY_TIMEOUT_SECONDS, MIGRATIONS, WRITER_LOCK_SUFFIX
from companion.store.states import GAME_CACHE_SIZE, STATE_CACHE_SIZE
from companion.store.timeline import LiveMove

__all__ = ["BUSY_TIMEOUT_SECONDS", "GAME_CACHE_SIZE", "HANDOVER_CODE_LENGTH", "HANDOVER_MINUTES", "JOIN_ALPHABET",
           "JOIN_CODE_LENGTH", "MAX_LOG_ENTRIES", "MIGRATIONS", "RECOVERY_ENTRIES", "STATE_CACHE_SIZE",
           "WRITER_LOCK_SUFFIX", "Backend", "Changes", "Connection", "CorrectionRefused", "IllegalMove", "LiveMove", "NotFound", "SeatRefused", "SeatTaken", "Stale", "TokenUsed",
           "State", "Store", "StoreUnavailable", "hash_token", "open_backend"]
