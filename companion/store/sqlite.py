"""The SQLite backend (:class:`SqliteBackend`, the embedded default): the file, its schema and its transactions.

The schema and its migrations (:data:`MIGRATIONS`, numbered: the last is the format version), one
connection per thread (and per process after a fork), WAL mode, ``synchronous=NORMAL``, a busy timeout,
a writer lock shared across processes, the ``BEGIN IMMEDIATE`` write and snapshot read transactions, and
the checks that the file this process opened is still there, whole and unchanged (deleted, replaced,
cut short or written over while the server runs: every write is refused with a sentence saying so).
Live updates (:class:`SqliteChanges`) and the per-address limit counters (a file beside the database)
are in :mod:`.watch` and :mod:`.limit_counters`.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

from limits.storage import Storage

from companion.store.backend import GAME_SEATS, Changes, Connection, fetch_rows
from companion.store.common import _now
from companion.store.errors import StoreUnavailable

try:
    import fcntl
except ImportError:  # not POSIX: writers queue in SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]

BUSY_TIMEOUT_SECONDS = 10.0
WRITER_LOCK_SUFFIX = ".writer-lock"
WAL_SIZE_LIMIT = 4 * 1024 * 1024

MIGRATIONS: tuple[tuple[str, str], ...] = (
    ("create games, seats, seat tokens and the move log", """
        CREATE TABLE games (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,                 -- the game's spec id (companion.rules.SPECS)
            join_code TEXT NOT NULL UNIQUE,
            players TEXT NOT NULL,              -- JSON list of names, in seat order
            options TEXT NOT NULL,              -- JSON object given at setup
            seed INTEGER NOT NULL,              -- seed of the random.Random given to setup
            initial_state TEXT NOT NULL,        -- JSON state right after setup: replays start here
            state TEXT NOT NULL,                -- JSON state after every live move (the cache)
            version INTEGER NOT NULL DEFAULT 0, -- number of log entries
            created TEXT NOT NULL
        );
        CREATE TABLE seats (
            game_id TEXT NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            claimed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seat)
        );
        CREATE TABLE seat_tokens (
            token_hash TEXT PRIMARY KEY,        -- sha256 of a secrets.token_urlsafe token
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            origin TEXT NOT NULL CHECK (origin IN ('created', 'claimed')),
            created TEXT NOT NULL,
            FOREIGN KEY (game_id, seat) REFERENCES seats(game_id, seat)
        );
        CREATE TABLE moves (
            game_id TEXT NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('move', 'undo')),
            move TEXT NOT NULL,                 -- JSON move as reported, or {"type": "undo", "seq": n}
            undoes INTEGER,                     -- undo entries: the seq of the move taken back
            action_id TEXT NOT NULL,
            result TEXT NOT NULL,               -- JSON answer, repeated for a retried action_id
            created TEXT NOT NULL,
            PRIMARY KEY (game_id, seq),
            UNIQUE (game_id, action_id)
        );
        CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
            BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
        CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
            BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    """),
    ("held seats, a host token, seat hand-over codes; corrections and seat events in the log", """
        ALTER TABLE games ADD COLUMN host_token_hash TEXT;  -- sha256 of the host's token (NULL: older games)
        CREATE TABLE seat_tokens_v2 (
            token_hash TEXT PRIMARY KEY,
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            origin TEXT NOT NULL CHECK (origin IN ('created', 'claimed', 'handed')),
            created TEXT NOT NULL,
            revoked TEXT,                       -- set when the seat is released or handed over
            FOREIGN KEY (game_id, seat) REFERENCES seats(game_id, seat)
        );
        INSERT INTO seat_tokens_v2 (token_hash, game_id, seat, origin, created)
            SELECT token_hash, game_id, seat, origin, created FROM seat_tokens;
        DROP TABLE seat_tokens;
        ALTER TABLE seat_tokens_v2 RENAME TO seat_tokens;
        CREATE INDEX seat_tokens_by_seat ON seat_tokens (game_id, seat);
        CREATE TABLE seat_handovers (
            code_hash TEXT PRIMARY KEY,         -- sha256 of the one-time code
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            created TEXT NOT NULL,
            expires TEXT NOT NULL,
            used TEXT,
            FOREIGN KEY (game_id, seat) REFERENCES seats(game_id, seat)
        );
        DROP TRIGGER moves_no_update;
        DROP TRIGGER moves_no_delete;
        CREATE TABLE moves_v2 (
            game_id TEXT NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('move', 'undo', 'correct', 'seat')),
            move TEXT NOT NULL,                 -- the move as reported; {"type": "undo", "seq": n};
                                                -- {"type": "correct", "seq": n, "move": m | null, "drop": [..]};
                                                -- {"type": "release" | "handover" | "rename", "seat": n, ...}
            undoes INTEGER,                     -- undo and correct entries: the seq of the move they change
            action_id TEXT NOT NULL,
            result TEXT NOT NULL,
            created TEXT NOT NULL,
            PRIMARY KEY (game_id, seq),
            UNIQUE (game_id, action_id)
        );
        INSERT INTO moves_v2 SELECT game_id, seq, seat, kind, move, undoes, action_id, result, created FROM moves;
        DROP TABLE moves;
        ALTER TABLE moves_v2 RENAME TO moves;
        CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
            BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
        CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
            BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    """),
    ("put back a move taken back or removed, undo a correction: revert entries in the log (issue 21)", """
        DROP TRIGGER moves_no_update;
        DROP TRIGGER moves_no_delete;
        CREATE TABLE moves_v3 (
            game_id TEXT NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('move', 'undo', 'correct', 'seat', 'revert')),
            move TEXT NOT NULL,                 -- the move as reported; {"type": "undo", "seq": n};
                                                -- {"type": "correct", "seq": n, "move": m | null, "drop": [..],
                                                --  "also": [{"seq", "move"}], "insert": [seq, ..]};
                                                -- {"type": "revert", "entry": n, "drop": [..]};
                                                -- {"type": "release" | "handover" | "rename", "seat": n, ...}
            undoes INTEGER,                     -- undo and correct entries: the seq of the move they change;
                                                -- a move a correction put in: the move it comes before
            action_id TEXT NOT NULL,
            result TEXT NOT NULL,
            created TEXT NOT NULL,
            PRIMARY KEY (game_id, seq),
            UNIQUE (game_id, action_id)
        );
        INSERT INTO moves_v3 SELECT game_id, seq, seat, kind, move, undoes, action_id, result, created FROM moves;
        DROP TABLE moves;
        ALTER TABLE moves_v3 RENAME TO moves;
        CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
            BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
        CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
            BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    """),
)


#: where ``companion serve`` tells its workers which file it started on: ``<device>:<inode>:<absolute path>``
FILE_ID_ENV = "COMPANION_DATABASE_FILE_ID"


def served_file(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """The (device, inode) ``companion serve`` started on, if it started on ``path`` (:data:`FILE_ID_ENV`)."""
    device, _, rest = os.environ.get(FILE_ID_ENV, "").partition(":")
    inode, _, served = rest.partition(":")
    if not served or os.path.abspath(served) != os.path.abspath(path):
        return None
    try:
        return int(device), int(inode)
    except ValueError:
        return None


def tell_workers(path: str | os.PathLike[str]) -> None:
    """Record the file at ``path`` as the one this server started on, for the workers it starts
    (:func:`served_file`); nothing when there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return
    os.environ[FILE_ID_ENV] = f"{info.st_dev}:{info.st_ino}:{os.path.abspath(path)}"


def _refused(file: Path, message: str) -> StoreUnavailable:
    """Why ``file`` cannot take a move: the whole message for the server's log and the command line, and for
    the phones the same sentence with the file's folder left out (a phone learns the file's name, never where
    the server keeps it)."""
    folder = str(file.parent).rstrip(os.sep) + os.sep
    return StoreUnavailable(message, public=message.replace(folder, "") if folder != os.sep else message)


def _unavailable(path: Path, error: BaseException) -> StoreUnavailable:
    reason = str(error)
    if isinstance(error, sqlite3.Error):
        if "readonly" in reason:
            reason = "the file is read-only, and the companion writes every move to it"
        elif "unable to open" in reason:
            reason = "the file cannot be opened or created (is its folder writable?)"
        elif "not a database" in reason:
            reason = "the file is not a SQLite database"
    elif isinstance(error, OSError) and error.strerror:
        reason = f"its folder cannot be created ({error.strerror.lower()}: {error.filename})"
    return _refused(path, f"{path}: {reason}")


#: What to do, after each reason the database cannot take a move (each names the file first)
DELETED = ("was deleted while the server ran, so no move can be kept; nothing since was saved. Stop the "
           "server and start it again (a new, empty database is made) or restore the file from a backup first")
REPLACED = ("was replaced by another file while the server ran; the server will not write to a file it did "
            "not open. Restart the server to use the new file")
TRUNCATED = ("was cut short or overwritten while the server ran ({detail}), so no move can be kept. Stop the "
             "server and restore the file from a backup (or move it away to start with an empty database)")
READ_ONLY = ("is read-only, and the companion writes every move to it; make it writable (chmod u+w) and "
             "try again, or start the server with another --db")
EMPTY = ("is empty (0 bytes): a database cut short keeps its name but none of its games, so the server will "
         "not start on it as if it were new. Restore it from a backup, or run `companion init-db --db {path}` to "
         "start with an empty database")
DAMAGED = ("is damaged ({detail}); restore it from a backup, or move it away to start with an empty "
           "database")
LOG_GONE = ("'s write-ahead log ({log}) was {what} while the server ran. SQLite keeps the latest moves there "
            "until it writes them into the database file, so {rescued} No move can be kept until the server is "
            "stopped and started again; the -wal and -shm files beside a database are part of it and are never "
            "to be removed while it is served")
RESCUED = "the server wrote every acknowledged move into the database file at once: nothing is lost."
NOT_RESCUED = ("the server tried to write them into the database file at once, but could not finish ({detail}): "
               "the moves since the last such write may be lost when the server stops.")


def _os_thread_local() -> Any:
    """A ``threading.local`` of real OS threads. Under gevent ``threading.local`` is per greenlet, i.e.
    per client connection: each would open (and keep) a SQLite connection of its own. Greenlets of one
    thread never run a statement at the same time, and no store code yields inside a transaction, so
    they can share the thread's connection."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        return monkey.get_original("threading", "local")()
    return threading.local()


def _flock_exclusive(fd: int) -> None:
    """Take the writer lock. Under gevent the wait blocks the whole worker (the GIL is released): it
    lasts as long as the other process's write transaction, a fraction of a millisecond, and measured
    cheaper than handing the wait to gevent's thread pool, whose hand-over of the GIL cost more than
    the wait itself (``bench/bench_api.py --only-moves``, docs/serving.md)."""
    fcntl.flock(fd, fcntl.LOCK_EX)


class SqliteBackend:
    """One SQLite file opened per thread, migrated on open; safe across threads and processes."""

    kind = "sqlite"

    def __init__(self, path: str | os.PathLike[str], allow_empty: bool = False,
                 served_as: tuple[int, int] | None = None) -> None:
        """``allow_empty``: an existing file of 0 bytes is made a new database (``companion init-db``); else it
        is refused (:data:`EMPTY`), since a truncated database looks just like that.

        ``served_as``: the (device, inode) of the file the server started on (``companion serve`` tells its
        workers, :data:`FILE_ID_ENV`). A worker started later (gunicorn replaces one that crashed or timed out)
        opens no other file: if that one was deleted or replaced meanwhile, the store answers every use with
        the reason (503), as the workers that opened it do, instead of making a new, empty database beside the
        old one's log, failing to boot and taking the whole server down."""
        self.path: Path | None = Path(path)
        self.file = Path(path)
        self.target = str(self.file)
        self._identity: tuple[int, int] | None = None  # (device, inode) of the file as opened
        self._gone: StoreUnavailable | None = None      # why this worker could not open the served file
        self._log: tuple[int, int, int] | None = None   # (pid, device, inode) of the -wal file as opened
        self._size = 0                                   # the largest size seen: the file never shrinks
        self._page_size = 0                              # from the header as opened
        self._content_fd: tuple[int, int] | None = None  # (pid, fd) of the file, read for those checks
        self._local = _os_thread_local()
        self._connections: list[sqlite3.Connection] = []
        self._connections_lock = threading.Lock()
        # One writer per process at a time: threads queue here (fair, no sleeping) instead of in
        # SQLite's busy handler, whose back-off sleeps of up to 100 ms make the latency tail long.
        self._write_lock = threading.Lock()
        # ...and one writer across processes: gunicorn's workers queue on an flock of a file beside
        # the database, which the kernel hands over the moment it is free, instead of sleeping in
        # SQLite's busy handler while the lock sits free (measured with bench/bench_api.py, 16
        # connections: moves/s up from ~0.7-1.0k to ~1.3k, p99 from ~90 ms to ~45 ms).
        self._writer_file = self.file.with_name(self.file.name + WRITER_LOCK_SUFFIX)
        self._writer_fd: tuple[int, int] | None = None  # (pid, fd): a forked child opens its own
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            empty = self.file.exists() and self.file.stat().st_size == 0
        except OSError as error:
            raise _unavailable(self.file, error) from None
        if empty and not allow_empty:  # SQLite would take it for a new database: the games' loss unsaid
            raise _refused(self.file, f"{self.file} " + EMPTY.format(path=self.file))
        if served_as is not None:
            try:
                found = self._file_identity()
            except FileNotFoundError:
                self._gone = _refused(self.file, f"{self.file} {DELETED}")
                return
            except OSError as error:
                self._gone = _unavailable(self.file, error)
                return
            if found != served_as:
                self._gone = _refused(self.file, f"{self.file} {REPLACED}")
                return
        try:
            db = self._db()
            if self.journal_mode() != "wal":
                db.execute("PRAGMA journal_mode=wal")
            self._migrate(db)
            problems = [row[0] for row in db.execute("PRAGMA quick_check(3)").fetchall()]
            self._identity = self._file_identity()
            self._page_size = int(db.execute("PRAGMA page_size").fetchone()[0])
            self._size = os.stat(self.file).st_size
            self._note_log()
        except (OSError, sqlite3.Error) as error:
            self.close()
            raise _unavailable(self.file, error) from None
        if problems != ["ok"]:
            self.close()
            raise _refused(self.file, f"{self.file} " + DAMAGED.format(
                detail="SQLite's quick_check: " + "; ".join(problems)))

    # -- the file itself ----------------------------------------------------------------------

    def _file_identity(self) -> tuple[int, int]:
        info = os.stat(self.file)
        return info.st_dev, info.st_ino

    def _log_file(self) -> Path:
        return self.file.with_name(self.file.name + "-wal")

    def _log_identity(self) -> tuple[int, int] | None:
        """The (device, inode) of the -wal file at its path now, or None when there is none."""
        try:
            info = os.stat(self._log_file())
        except FileNotFoundError:
            return None
        return info.st_dev, info.st_ino

    def _note_log(self) -> None:
        """Remember the -wal file this process's connections use (they have it open once they have read)."""
        try:
            found = self._log_identity()
        except OSError:
            return
        if found is not None:
            self._log = (os.getpid(), *found)

    def check_file(self) -> None:
        """Refuse (:class:`StoreUnavailable`) when the file this store opened, or its -wal file, was deleted or
        replaced since: SQLite would go on writing to the open, unlinked file and every move would be lost."""
        if self._gone is not None:
            raise self._gone
        try:
            identity = self._file_identity()
        except FileNotFoundError:
            raise _refused(self.file, f"{self.file} {DELETED}") from None
        except OSError as error:
            raise _unavailable(self.file, error) from None
        if identity != self._identity:
            raise _refused(self.file, f"{self.file} {REPLACED}")
        problem = self._content_problem()
        if problem is not None:
            raise _refused(self.file, f"{self.file} " + TRUNCATED.format(detail=problem))
        self._check_log()

    def _check_log(self) -> None:
        """Refuse when the -wal file this process's connections write to was deleted or replaced since they
        opened it. SQLite would go on appending to the unlinked file, acknowledging every move, and drop it
        all when the server stops: an evening's moves live there until a checkpoint writes them into the
        database file. The connection still reads the unlinked log, so a checkpoint now writes every
        acknowledged move into the database file first; then no write is taken until a restart."""
        if self._log is None or self._log[0] != os.getpid():
            self._note_log()  # (a forked child, or a log made after the open: from now on)
            return
        try:
            now = self._log_identity()
        except OSError:
            return  # (cannot tell: the writes themselves say what is wrong)
        if now == self._log[1:]:
            return
        what = "deleted" if now is None else "replaced by another file"
        try:
            busy, frames, written = self._db().execute("PRAGMA wal_checkpoint(FULL)").fetchone()
            rescued = RESCUED if not busy and written == frames else \
                NOT_RESCUED.format(detail=f"{written} of {frames} pages written, readers busy")
        except sqlite3.Error as error:
            rescued = NOT_RESCUED.format(detail=str(error))
        raise _refused(self.file, f"{self.file}" + LOG_GONE.format(log=self._log_file().name, what=what,
                                                               rescued=rescued))

    def _content_problem(self) -> str | None:
        """What is wrong with the file's size or header, or None. Nothing here makes the file shorter
        (no VACUUM; checkpoints only add pages), so a smaller file was cut by someone else, and a file
        that does not start with SQLite's header, or whose page size changed, was written over; SQLite
        itself would notice neither before the next start."""
        try:
            if self._content_fd is None or self._content_fd[0] != os.getpid():
                self._content_fd = (os.getpid(), os.open(self.file, os.O_RDONLY))
            fd = self._content_fd[1]
            header, size = os.pread(fd, 100, 0), os.fstat(fd).st_size
        except OSError as error:
            return str(error.strerror or error)
        if size < self._size:
            return f"it is {size:,} bytes, down from {self._size:,}"
        self._size = size
        if size == 0 and self._page_size == 0:
            return None
        if not header.startswith(b"SQLite format 3\x00"):
            return "its first bytes are no longer SQLite's header"
        page_size = int.from_bytes(header[16:18], "big")
        if (page_size if page_size != 1 else 65536) != self._page_size:
            return f"its header's page size changed from {self._page_size:,} to {page_size:,}"
        return None

    # -- connections -----------------------------------------------------------------------

    def _db(self) -> sqlite3.Connection:
        """This thread's connection (a new one after a fork, never shared across processes)."""
        if self._gone is not None:
            raise self._gone
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None or getattr(self._local, "pid", None) != os.getpid():
            conn = sqlite3.connect(self.file, timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            # after a checkpoint has written the log back, SQLite cuts the -wal file down to this size
            # instead of leaving it at its peak (it is reused from its start either way)
            conn.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
            db = conn
            self._local.db, self._local.pid = db, os.getpid()
            with self._connections_lock:
                self._connections.append(conn)
        return db

    def close(self) -> None:
        """Close every connection this Store opened (in this process)."""
        with self._connections_lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
            for held in (self._writer_fd, self._content_fd):
                if held is not None and held[0] == os.getpid():
                    os.close(held[1])
            self._writer_fd = self._content_fd = None
        self._local = _os_thread_local()
        self._log = None  # (closed: SQLite may remove the log; the next connection opens it anew)

    def _writer_lock_fd(self) -> int | None:
        """This process's descriptor of the writer lock file (None where flock is unavailable)."""
        if fcntl is None:
            return None
        if self._writer_fd is None or self._writer_fd[0] != os.getpid():
            try:
                fd = os.open(self._writer_file, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                return None  # e.g. a read-only folder: SQLite's busy timeout still serialises writers
            self._writer_fd = (os.getpid(), fd)
        return self._writer_fd[1]

    @contextmanager
    def _across_processes(self) -> Iterator[None]:
        fd = self._writer_lock_fd()
        if fd is None:
            yield
            return
        _flock_exclusive(fd)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    @contextmanager
    def write(self, game_id: str | None = None) -> Iterator[Connection]:
        """A read-modify-write transaction that holds the write lock from its first statement (every write
        is serialised, whatever its game)."""
        db = self._db()
        with self._write_lock, self._across_processes():
            if self._identity is not None:  # (the migrations at open come first)
                self.check_file()
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise self._write_failed(error) from None
            try:
                yield db
            except sqlite3.Error as error:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise self._write_failed(error) from None
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            try:
                db.execute("COMMIT")
            except sqlite3.Error as error:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise self._write_failed(error) from None

    def _write_failed(self, error: sqlite3.Error) -> Exception:
        """A write SQLite refused, as a sentence naming the file (an IntegrityError is our own bug)."""
        if isinstance(error, sqlite3.IntegrityError):
            return error
        if "readonly" in str(error):
            return _refused(self.file, f"{self.file} {READ_ONLY}")
        if "malformed" in str(error) or "not a database" in str(error):
            return _refused(self.file, f"{self.file} " + DAMAGED.format(detail=str(error)))
        if "full" in str(error):
            return _refused(self.file, f"{self.file} could not be written ({error}): free some disk space and "
                                    "try again")
        if "disk I/O" in str(error):  # (not a full disk: SQLite says "database or disk is full" for that)
            return _refused(self.file, f"{self.file} could not be written ({error}): the disk failed, or a file "
                                    "of the database (its -wal or -shm) was removed or changed; stop the server "
                                    "and start it again, and if this goes on, check the disk")
        return _refused(self.file, f"{self.file} could not be written ({error}); try again, and if this goes "
                                "on, restart the server")

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction: several SELECTs that see one consistent snapshot."""
        db = self._db()
        db.execute("BEGIN")
        try:
            yield db
        finally:
            if db.in_transaction:
                db.execute("COMMIT")

    def _migrate(self, db: sqlite3.Connection) -> None:
        with self.write():
            db.execute("CREATE TABLE IF NOT EXISTS migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                       " applied TEXT NOT NULL)")
            # a read-only file opens without complaint and BEGIN IMMEDIATE succeeds on it; a write
            # that changes nothing still fails at once, before the server takes its first move
            db.execute("UPDATE migrations SET number = number WHERE 0")
            done = {row["number"] for row in fetch_rows(db, "SELECT number FROM migrations")}
            for number, (name, script) in enumerate(MIGRATIONS, 1):
                if number in done:
                    continue
                for statement in _split_sql(script):
                    db.execute(statement)
                db.execute("INSERT INTO migrations (number, name, applied) VALUES (?, ?, ?)", [number, name, _now()])

    def journal_mode(self) -> str:
        return str(self._db().execute("PRAGMA journal_mode").fetchone()[0])

    def migrations(self) -> list[dict[str, Any]]:
        return self.rows("SELECT number, name, applied FROM migrations ORDER BY number")

    # -- the rest of the seat (companion.store.backend.Backend) ------------------------------

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """One SELECT on this thread's connection, outside any transaction (one statement is one snapshot)."""
        return fetch_rows(self._db(), sql, params)

    def game_seats(self, game_id: str, token_hash: str | None) -> list[dict[str, Any]]:
        return self.rows(GAME_SEATS, [token_hash, game_id])

    def lock_game(self, db: Connection, game_id: str) -> None:
        """Nothing to do: every write holds the one writer lock from its start."""

    def append_move(self, game_id: str, version: int, seat: int, action_id: str, move: str, result: str,
                    created: str, state: str, token_hash: str | None = None) -> None:
        """None: SQLite serialises every write in-process, so a move takes :meth:`write` (no round trips)."""
        return None

    def delete_log(self, db: Connection, game_ids: Sequence[str]) -> None:
        """Delete these games' log entries: the trigger that keeps the log append-only is dropped for the
        statement and made again in the same transaction (no other writer can see it missing)."""
        marks = ",".join("?" * len(game_ids))
        db.execute("DROP TRIGGER moves_no_delete")
        db.execute(f"DELETE FROM moves WHERE game_id IN ({marks})", list(game_ids))
        db.execute(_NO_DELETE)

    def changes(self) -> Changes:
        from companion.store.watch import SqliteChanges

        if self._gone is not None:
            raise self._gone
        return SqliteChanges(self.file)

    def limit_counters(self) -> Storage:
        """The counters in a file of their own beside the database (``<database>.limits``), so that a burst
        of join attempts never queues behind the moves' writer lock."""
        from companion.store.limit_counters import SqliteStorage

        return SqliteStorage(f"companion-sqlite://{self.file}.limits")


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements; trigger bodies (BEGIN ... END;) stay whole."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements


_NO_DELETE = ("CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves\n"
              "            BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;")
