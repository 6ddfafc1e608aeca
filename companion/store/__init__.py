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

from companion.rules import IllegalMove
from companion.store.common import MAX_LOG_ENTRIES, RECOVERY_ENTRIES, State, hash_token
from companion.store.errors import (
           CorrectionRefused,
           NotFound,
           SeatTaken,
           Stale,
           StoreUnavailable,
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
           "WRITER_LOCK_SUFFIX", "CorrectionRefused", "IllegalMove", "LiveMove", "NotFound", "SeatTaken", "Stale",
           "State", "Store", "StoreUnavailable", "hash_token"]
