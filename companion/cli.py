"""``companion``: serve the phone companion with gunicorn, or create its database.

A thin click layer over :func:`companion.web.create_app`; library errors become one clean line.

Worker choice: gunicorn's gevent worker (:mod:`companion.serving`). Every open phone page holds one
connection for live updates (server-sent events, :mod:`companion.web.live_updates`), and a client
on the Wi-Fi may send half a request and go silent: on gevent each connection is a greenlet, so
thousands of them cost sockets and memory, not threads. gthread (a few threads per process, the
default before) was stopped by eight half-sent requests, and kept every phone polling once a
second. The figures behind the choice, measured with ``bench/bench_serving.py`` against the
gthread server, are in docs/serving.md. SQLite writes are serialised by ``BEGIN IMMEDIATE`` and a
writer lock across processes either way; one process per core (at least 2) uses both cores.

Each worker listens on the port itself (``SO_REUSEPORT``) and the kernel spreads new connections
between them. With one shared listening socket, whichever worker woke first took most of a burst of
connections, and kept them (keep-alive): 21 and 43 of the bench's 64, so one core's worth of CPU
served two thirds of the phones. Spread by the kernel, 31 and 35; four interleaved pairs of
``bench/bench_api.py --only-moves`` runs on a busy machine (load 3.6-5): open-loop move p99 at
1,000/s 7.5-12.4 ms against 35-366 ms, 16 connections 1,756-2,019 moves/s against 1,182-1,525.
A plain bind first checks that nothing else listens there, since SO_REUSEPORT would otherwise let a
second server share the port without a word.
"""

from __future__ import annotations

import errno
import gc
import ipaddress
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import click
import qrcode
from gunicorn import glogging
from gunicorn.app.base import BaseApplication

DEFAULT_PORT = 8000


DEFAULT_THREADS = 4
#: connections one gevent worker serves at once (each open phone page holds one for live updates)
DEFAULT_WORKER_CONNECTIONS = 10000
WORKER_CLASSES = {"gevent": "companion.serving.CompanionWorker", "gthread": "gthread", "sync": "sync"}


def default_workers() -> int:
    """One gunicorn process per core, at least 2 (one may wait on the write lock) and at most 8."""
    return max(2, min(8, os.cpu_count() or 1))


def lan_address() -> str | None:
    """This machine's address on the local network, as phones would reach it (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 9))  # UDP connect only picks a route; nothing leaves the machine
        address = str(probe.getsockname()[0])
    except OSError:
        address = ""
    finally:
        probe.close()
    if address and not address.startswith("127."):
        return address
    try:
        for candidate in socket.gethostbyname_ex(socket.gethostname())[2]:
            if not candidate.startswith("127."):
                return candidate
    except OSError:
        pass
    return None


def phone_urls(host: str, port: int) -> list[str]:
    """The address(es) to open: the LAN address first when listening on every interface."""
    if host in ("0.0.0.0", "", "::"):
        lan = lan_address()
        urls = [f"http://{lan}:{port}/"] if lan else []
        return urls + [f"http://127.0.0.1:{port}/"]
    shown = f"[{host}]" if ":" in host else host
    return [f"http://{shown}:{port}/"]


def _warn_if_another_port(base: str, port: int, source: str) -> None:
    """Say so when the address the cards and join links carry is plain http on another port than the one served
    (a saved address of port 8000, and PORT=9000 for this run): phones opening it would reach nothing. Behind a
    proxy (https, or --trusted-proxy) the address's port is the proxy's, and nothing is said."""
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    if parts.scheme != "http":
        return
    try:
        carried = parts.port or 80
    except ValueError:
        return
    if carried != port:
        shown = parts._replace(netloc=f"{parts.hostname}:{port}").geturl().rstrip("/")
        click.echo(f"Warning: the cards and join links carry {base.rstrip('/')} ({source}), but this server "
                   f"listens on port {port}: phones opening them reach nothing. Serve on port {carried}, or "
                   f"save the address with this port: companion base-url {shown}", err=True)


def is_loopback(host: str) -> bool:
    """Whether ``--host`` listens on this computer only."""
    return host.startswith("127.") or host in ("localhost", "::1")


def address_lines(host: str, port: int, proxied: bool = False) -> tuple[list[str], str | None]:
    """What ``serve`` says about where to open the companion, and the address phones can reach (for the QR
    code), or None when no phone can reach it: 127.0.0.1 is only ever offered as this computer's address.
    ``proxied``: a reverse proxy in front (``--trusted-proxy``) serves the phones, so a server on loopback
    is as it should be."""
    urls = phone_urls(host, port)
    if host in ("0.0.0.0", "", "::"):
        if len(urls) > 1:
            return [f"Open on the phones: {urls[0]}", f"On this computer: {urls[-1]}"], urls[0]
        return ["No network address found: phones cannot reach this computer until it joins the table's "
                "network (then restart).", f"On this computer: {urls[-1]}"], None
    if is_loopback(host):
        if proxied:
            return [f"On this computer: {urls[0]} (--host {host}: only the proxy in front reaches it, and the "
                    "phones reach the proxy)"], None
        return [f"On this computer: {urls[0]} (--host {host} listens on this computer only: phones cannot "
                "reach it; serve with --host 0.0.0.0 for them)"], None
    return [f"Open on the phones: {urls[0]}"], urls[0]


#: ANSI colours set by the QR code itself (black on bright white), so it reads on a dark or a light terminal
QR_COLOURS, QR_RESET = "\x1b[30;107m", "\x1b[0m"


def terminal_qr(text: str) -> str:
    """A QR code drawn with block characters (two modules a character, dark modules dark), in colours of
    its own, for phones to scan off the terminal whatever its theme."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(text)
    code.make(fit=True)
    matrix = [list(map(bool, row)) for row in code.get_matrix()]
    if len(matrix) % 2:
        matrix.append([False] * len(matrix[0]))  # one more row of the light border
    blocks = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
    lines = ["".join(blocks[top, bottom] for top, bottom in zip(matrix[row], matrix[row + 1], strict=True))
             for row in range(0, len(matrix), 2)]
    return "".join(f"{QR_COLOURS}{line}{QR_RESET}\n" for line in lines)


PORT_WAIT_SECONDS = 8.0  # longer than a stopping worker's graceful_timeout below


def _check_port_free(host: str, port: int, wait: float = PORT_WAIT_SECONDS) -> None:
    """Fail cleanly when something already listens there. The workers bind with SO_REUSEPORT, which
    would let a second server share the port silently; a plain bind (as any listener's would be) fails.

    Right after a crash the old workers may still hold the port for a few seconds (they notice that
    their master is gone within a second and stop within the graceful timeout), so a busy port is
    tried again for ``wait`` seconds before giving up."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    deadline = time.monotonic() + wait
    told = False
    while True:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds: TIME_WAIT is fine
            try:
                probe.bind((host, port))
                return
            except OSError as error:
                if error.errno != errno.EADDRINUSE or time.monotonic() > deadline:
                    raise click.ClickException(
                        f"cannot listen on {host}:{port}: {error.strerror or error}"
                        + (" (another server is still listening there: stop it, or choose another --port)"
                           if error.errno == errno.EADDRINUSE else "")) from None
        if not told:
            click.echo(f"{host}:{port} is still in use (a previous server stopping?); waiting up to "
                       f"{wait:g} s for it to be free", err=True)
            told = True
        time.sleep(0.25)


class CompanionLogger(glogging.Logger):  # type: ignore[misc]  # gunicorn ships no type hints
    """gunicorn's own logger, except that it says where the server listens: with ``reuse_port`` every
    worker opens its own socket, so the master's "Listening at" line would name no address."""

    def info(self, msg: str, *args: Any, **kwargs: Any) -> None:
        if msg == "Listening at: %s (%s)" and args and not args[0]:
            msg, args = "Listening at: %s (each worker on its own socket, SO_REUSEPORT) (%s)", (
                ",".join(f"http://{address}" for address in self.cfg.bind), *args[1:])
        super().info(msg, *args, **kwargs)


class CompanionServer(BaseApplication):  # type: ignore[misc]  # gunicorn ships no type hints
    """gunicorn run in-process; each worker builds its own app (no preload, so no shared SQLite handle)."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        from companion.web import create_app

        return create_app()


@click.group(help="The Spellbook Table phone companion.", context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spellbook-table", prog_name="companion")
def main() -> None:
    pass


def _given_database(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A database option given as empty or blank text (``--db "$DB"`` with ``DB`` unset) is refused: it meant
    the instance's own database to every command before, ``purge`` included. So is a name that is surely a
    slip, never a database: ``-`` (elsewhere standard input) or one starting with ``-`` (``--db --port 8000``
    takes ``--port`` as the file); a file really so named is ``./-``."""
    if value is None:
        return value
    name = param.opts[0] if param.opts else param.name
    default = ", or leave it out for the instance's own database" if name == "--db" else ""
    if not value.strip():
        raise click.ClickException(f"{name} is empty: give a SQLite file or a postgresql:// URL{default}")
    if value.strip().startswith("-"):
        given = value.strip()
        raise click.ClickException(f"{name} {given!r} reads as standard input or an option, not a database (a file so "
                                   f"named is ./{given}): give a SQLite file or a postgresql:// URL{default}")
    if re.match(r"\s*(host|hostaddr|port|dbname|user|password|sslmode|service)\s*=", value, re.IGNORECASE):
        # libpq's keyword form ("host=db dbname=spellbook password=..."): taken as a file's name it made a stray
        # SQLite database, named with the password and printed (never repeat it: it may hold the password)
        raise click.ClickException(f"{name} takes a postgresql:// URL, not libpq's keyword form (host=... dbname=...): "
                                   "write it as postgresql://USER@HOST:PORT/DBNAME (the password in PGPASSWORD or "
                                   "~/.pgpass)")
    return value


def _check_db_path(db: str, must_exist: bool, make_folder: bool = False) -> bool:
    """A ``--db`` given by hand: its folder must exist (a mistyped path never makes a stray empty database)
    unless the command is ``init-db``, whose job is to make it, and a command that reads games needs the file
    itself. True when there is no database there yet (the caller says it made a new one)."""
    path = os.path.abspath(db)
    folder = os.path.dirname(path)
    if not make_folder and not os.path.lexists(folder):  # (a file where the folder goes: the store says so)
        made = "" if must_exist else " (a new database file is created, its folder is not)"  # (never by a reader)
        raise click.ClickException(f"there is no folder {folder} for the database {path}: check the --db path"
                                   f"{made}")
    if not os.path.exists(path):
        if must_exist:
            raise click.ClickException(f"there is no database at {path}: check the --db path "
                                       f"(`companion init-db --db {db}` creates a new one)")
        return True
    return False


def _prepare_database(db: str | None, must_exist: bool = False, make_folder: bool = False) -> tuple[str, int]:
    """Point the app at ``db`` (through COMPANION_DATABASE), create or migrate it; its path and games.
    ``must_exist``: a command that only reads games refuses a ``--db`` where there is no database;
    ``make_folder``: ``init-db`` makes a missing folder (any other command refuses it as a mistyped path)."""
    from cardgen.catalog import DataError
    from companion.store.errors import NoSuchDatabase
    from companion.store.postgres import is_postgres

    on_postgres = bool(db) and is_postgres(db)
    new = _check_db_path(db, must_exist, make_folder) if db and not on_postgres else False

    try:
        from companion.web import create_app
    except DataError as error:  # the rules modules load the game data when imported
        raise click.ClickException(f"cannot load the game data:\n{error}") from None

    if db:  # a PostgreSQL DSN as given, a SQLite file by its absolute path (the workers may start elsewhere)
        os.environ["COMPANION_DATABASE"] = db if on_postgres else os.path.abspath(db)
    from cardgen.site import INSTANCE_ENV, instance_dir

    folder = instance_dir()
    if folder.exists() and not folder.is_dir():  # (it said "cannot open the database: [Errno 17] File exists")
        where = f" (${INSTANCE_ENV})" if os.environ.get(INSTANCE_ENV) else ""
        raise click.ClickException(f"the instance folder {folder}{where} is a file, not a folder: name a folder "
                                   "for the database, its secret key and settings.toml")
    try:
        app = create_app()
    except NoSuchDatabase as error:  # a PostgreSQL database never created: what to do, not "cannot open"
        raise click.ClickException(str(error)) from None
    except Exception as error:  # any failure here is the user's path or file: one clean line
        raise click.ClickException(f"cannot open the database: {error}") from None
    if new:
        click.echo(f"Created a new, empty database at {app.config['DATABASE']} (no file was there)", err=True)
    store = app.extensions["store"]
    games = store.game_count()
    store.close()
    for problem in app.extensions["unavailable_games"].values():
        click.echo(f"Warning: {problem.detail}", err=True)
    return str(app.config["DATABASE"]), games


@main.command("init-db")
@click.option("--db", type=click.Path(dir_okay=False), default=None, callback=_given_database,
              help="SQLite file or postgresql:// DSN to create or migrate [default: instance/companion.sqlite3].")
def init_db(db: str | None) -> None:
    """Create the database (or bring its schema up to date) and say where it is."""
    from companion.store.backend import is_server_url
    from companion.store.postgres import redacted

    if db and not is_server_url(db) and os.path.isfile(db) and os.path.getsize(db) == 0:
        _new_database_in_empty_file(Path(db))
    path, _ = _prepare_database(db, make_folder=True)
    click.echo(f"Database ready: {redacted(path)}")


def _new_database_in_empty_file(path: Path) -> None:
    """``init-db`` on a file of 0 bytes (which ``serve`` refuses: a truncated database looks like that) makes a
    new database in it, unless a write-ahead log beside it may still hold games."""
    from companion.store.sqlite import SqliteBackend

    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise click.ClickException(f"{path} is empty (0 bytes) but {wal} holds {wal.stat().st_size:,} bytes, which "
                                   "may still hold games: keep both files and restore from a backup, or move both "
                                   "away to start with an empty database")
    SqliteBackend(path, allow_empty=True).close()
    click.echo(f"{path} was empty (0 bytes, no games in it): made a new, empty database in it", err=True)


def _store(db: str | None) -> Any:
    from companion.store import Store

    path, _ = _prepare_database(db, must_exist=True)
    return Store(path)


@main.command("base-url")
@click.argument("url", required=False)
@click.option("--forget", is_flag=True, default=False, help="Forget the saved address.")
def base_url_command(url: str | None, forget: bool) -> None:
    """Show, save (URL) or forget the address printed cards and links carry.

    Saved in the instance's settings.toml, it is what `cardgen build` prints in every QR code and what
    `companion serve` shows, whenever no --base-url is given: a stable name (https://club.example, or
    http://NAME.local:8000 with serve --mdns NAME), not the laptop's address of the day.
    """
    from cardgen.site import SiteError, save_base_url, saved_base_url, settings_path

    if url is not None and forget:
        raise click.UsageError("give a URL to save or --forget, not both")
    try:
        if url is not None or forget:
            path = save_base_url(None if forget else url)
            saved = saved_base_url()
            click.echo(f"Saved in {path}: " + (f"cards and links use {saved}" if saved else "no base URL"))
            if saved:
                from cardgen.render.options import base_url_warning

                warning = base_url_warning(saved)
                if warning:
                    click.echo(f"Warning: {warning}", err=True)
            return
        saved = saved_base_url()
    except SiteError as error:
        raise click.ClickException(str(error)) from None
    if saved is None:
        click.echo(f"No base URL saved ({settings_path()}): cardgen build prints http://localhost:8000 and "
                   "companion serve shows this machine's address on the network. Save one with "
                   "`companion base-url https://NAME`.")
    else:
        click.echo(saved)


@main.command("games")
@click.option("--db", type=click.Path(dir_okay=False), default=None, callback=_given_database, help="SQLite file or postgresql:// DSN [default: instance/companion.sqlite3].")
@click.option("--due", is_flag=True, help="Only the games the purge schedule would remove now.")
def list_games(db: str | None, due: bool) -> None:
    """List the games: id, game, players, moves, last move, over or not."""
    from companion import archive

    store = _store(db)
    try:
        listed = archive.due(store) if due else archive.games(store)
        for game in listed:
            state = "over" if game["over"] else "playing"
            click.echo(f"{game['id']}  {game['game']:<15} {state:<8} {game['version']:>5} entries  last "
                       f"{game['last'][:16]}  {', '.join(game['players'])}")
        if not listed:  # said, not a blank; on standard error, so the listing a script reads stays empty
            click.echo("No game is due for purging." if due else "No games.", err=True)
    finally:
        store.close()


def _game_id_given(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A game id from the command line: one that is not text (bytes a terminal cannot decode, which Python keeps
    as lone surrogates and no database can be asked about) is no game's id, said as any unknown id is."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        shown = value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        raise click.ClickException(f"there is no game '{shown}'") from None
    return value


@main.command("export")
@click.argument("game_id", callback=_game_id_given)
@click.option("--db", type=click.Path(dir_okay=False), default=None, callback=_given_database, help="SQLite file or postgresql:// DSN [default: instance/companion.sqlite3].")
def export_game(game_id: str, db: str | None) -> None:
    """Write one game (setup, every log entry as reported, scores) to standard output as JSON."""
    from companion import archive
    from companion.store import NotFound

    store = _store(db)
    try:
        click.echo(json.dumps(archive.export(store, game_id), ensure_ascii=False, indent=1))
    except NotFound as error:
        raise click.ClickException(error.message) from None
    finally:
        store.close()


@main.group("db")
def database_commands() -> None:
    """Databases: copy a table's or club's games into a public instance's."""


@database_commands.command("copy")
@click.option("--from", "source", required=True, metavar="FILE", callback=_given_database,
              help="The database to copy from (a SQLite file, or a postgresql:// URL).")
@click.option("--to", "target", required=True, metavar="URL", callback=_given_database,
              help="The database to copy into (a postgresql:// URL, or a SQLite file); made or migrated first.")
def copy_database(source: str, target: str) -> None:
    """Copy every game (seats, tokens, hand-over codes, the whole log) into another database, then verify
    each by replaying it on both sides. Nothing in the target is overwritten."""
    from companion.store import Store
    from companion.store.copy import CopyRefused, copy_games
    from companion.store.errors import NoSuchDatabase
    from companion.store.postgres import is_postgres, redacted

    if not is_postgres(source) and not os.path.exists(source):
        raise click.ClickException(f"there is no database at {os.path.abspath(source)}: check --from")
    try:
        origin, destination = Store(source), Store(target)
    except NoSuchDatabase as error:
        raise click.ClickException(str(error)) from None
    except Exception as error:  # a path or server that cannot be opened: one clean line
        raise click.ClickException(f"cannot open the database: {error}") from None
    try:
        copied = copy_games(origin, destination)
    except CopyRefused as error:
        raise click.ClickException(str(error)) from None
    finally:
        origin.close()
        destination.close()
    rows = ", ".join(f"{n} {table}" for table, n in copied["rows"].items())
    click.echo(f"Copied {copied['games']} game(s) ({rows}) into {redacted(target)}; every game replays there "
               "as it does in the source")


@main.command("host")
@click.argument("game_id", callback=_game_id_given)
@click.option("--db", type=click.Path(dir_okay=False), default=None, callback=_given_database, help="SQLite file or postgresql:// DSN [default: instance/companion.sqlite3].")
@click.option("--base-url", default=None, help="The instance's address for the link [default: the saved one].")
def host_command(game_id: str, db: str | None, base_url: str | None) -> None:
    """Make another phone the host of a game whose host's phone is lost: prints a link (and its QR code) with
    a new host key; the old host phone is the host no longer. The host can then release the lost seats."""
    from cardgen.site import saved_base_url
    from companion.store import NotFound

    store = _store(db)
    try:
        key = store.new_host(game_id)
    except NotFound as error:
        raise click.ClickException(error.message) from None
    finally:
        store.close()
    base = (base_url or saved_base_url() or "").rstrip("/")
    path = f"/g/{game_id}/host"
    click.echo(f"A new host key for game {game_id}; the phone that was its host is one no longer.")
    if base:
        link = f"{base}{path}#{key}"
        click.echo(f"Open on the new host's phone: {link}")
        click.echo(terminal_qr(link))
    else:
        click.echo(f"Open {path}#{key} at this instance's address on the new host's phone "
                   "(no address is saved: see companion base-url)")
    click.echo(f"or open {path} there and enter the key {key}")


#: the longest ``purge --finished-days`` / ``--idle-days``: a hundred years (a day count past Python's
#: timedelta, 999,999,999, was an OverflowError's traceback)
MAX_PURGE_DAYS = 36500


@main.command("purge")
@click.option("--db", type=click.Path(dir_okay=False), default=None, callback=_given_database, help="SQLite file or postgresql:// DSN [default: instance/companion.sqlite3].")
@click.option("--finished-days", type=click.IntRange(0, MAX_PURGE_DAYS), default=30, show_default=True,
              help="Remove games that are over this many days after their last move (0 to 36500).")
@click.option("--idle-days", type=click.IntRange(0, MAX_PURGE_DAYS), default=90, show_default=True,
              help="Remove any other game this many days after its last move (0 to 36500).")
@click.option("--dry-run", is_flag=True, help="Only list what would be removed.")
def purge_games(db: str | None, finished_days: int, idle_days: int, dry_run: bool) -> None:
    """Remove finished and idle games past the schedule (export first what you want to keep)."""
    from companion import archive

    store = _store(db)
    try:
        due = archive.due(store, finished_days=finished_days, idle_days=idle_days)
        for game in due:
            click.echo(f"{'would remove' if dry_run else 'removing'} {game['id']} ({game['game']}, "
                       f"{'over' if game['over'] else 'idle'} since {game['last'][:10]})")
        removed = 0 if dry_run else archive.purge(store, [g["id"] for g in due])
        click.echo(f"{removed} game(s) removed" if not dry_run else f"{len(due)} game(s) would be removed")
    finally:
        store.close()


def _not_a_network(text: str) -> str | None:
    """The first item of a comma-separated list of proxies' addresses or networks that is neither, else None
    (the app's own reading: :func:`companion.web.proxies.trusted_networks`, not imported here: it loads every
    game)."""
    for item in (part.strip() for part in text.split(",")):
        try:
            if item:
                ipaddress.ip_network(item, strict=False)
        except ValueError:
            return item
    return None


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Interface to listen on; 0.0.0.0 lets phones on the same network connect.")
@click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT, show_default=True,
              help="TCP port to listen on.")
@click.option("--db", type=click.Path(dir_okay=False), default=None, callback=_given_database,
              help="SQLite file holding the games, or a PostgreSQL database (postgresql://user@host/name) every "
                   "node of a public instance shares [default: instance/companion.sqlite3].")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Worker processes [default: 1 per CPU core, 2 to 8].")
@click.option("--threads", type=click.IntRange(1, 128), default=DEFAULT_THREADS, show_default=True,
              help="Threads per worker (gthread workers only).")
@click.option("--worker-class", type=click.Choice(sorted(WORKER_CLASSES)), default="gevent", show_default=True,
              help="gevent serves every connection (live-update streams, slow clients) as a cheap greenlet; "
                   "gthread and sync give each request a thread or process (slow clients can hold them all).")
@click.option("--worker-connections", type=click.IntRange(10, 100000), default=DEFAULT_WORKER_CONNECTIONS,
              show_default=True, help="Connections each gevent worker serves at once (open phone pages).")
@click.option("--qr/--no-qr", default=True, show_default=True,
              help="Print a terminal QR code of the address for phones to scan.")
@click.option("--access-log/--no-access-log", default=False, show_default=True,
              help="Log every request to standard error.")
@click.option("--mdns", "mdns_name", default=None, metavar="NAME",
              help="Announce this machine on the local network as NAME.local (multicast DNS), so cards printed "
                   "with --base-url http://NAME.local:PORT outlive the router's next address for it.")
@click.option("--base-url", default=None, envvar="COMPANION_BASE_URL",
              help="The address the phones reach this server at (e.g. https://club.example), used for every "
                   "link and QR code it shows [default: the address printed below].")
@click.option("--trusted-proxy", "trusted_proxies", multiple=True,
              help="Address or network of a reverse proxy in front; requests from it count as coming from the "
                   "address it forwards (X-Forwarded-For). May be given more than once.")
@click.option("--data", "data_folder", type=click.Path(file_okay=False, exists=True), default=None,
              help="Game data folder to serve (default: the project's data/, or $SPELLBOOK_DATA); a game whose "
                   "data is broken is left out and the home page says why.")
def serve(host: str, port: int, db: str | None, workers: int | None, threads: int, worker_class: str,
          worker_connections: int, qr: bool, access_log: bool, mdns_name: str | None, base_url: str | None,
          trusted_proxies: tuple[str, ...], data_folder: str | None) -> None:
    """Serve the companion with gunicorn and print the address (and QR code) for the phones."""
    if mdns_name is not None:
        from companion import mdns

        try:
            mdns_name = mdns.valid_name(mdns_name)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--mdns") from None
    # a bad proxy is said as the option's (or the variable's) fault, before a database is opened: the app's own
    # check (companion.web.proxies) came out as "cannot open the database: TRUSTED_PROXIES: …"
    if trusted_proxies:
        bad = _not_a_network(",".join(trusted_proxies))
        if bad is not None:
            raise click.BadParameter(f"'{bad}' is not an IP address or network", param_hint="--trusted-proxy")
    elif (bad := _not_a_network(os.environ.get("COMPANION_TRUSTED_PROXIES", ""))) is not None:
        raise click.ClickException(f"COMPANION_TRUSTED_PROXIES: '{bad}' is not an IP address or network")
    if trusted_proxies:  # read by create_app in every worker
        os.environ["COMPANION_TRUSTED_PROXIES"] = ",".join(trusted_proxies)
        wide = [p for p in trusted_proxies for part in p.split(",") if part.strip()
                and ipaddress.ip_network(part.strip(), strict=False).prefixlen == 0]
        if wide:  # every address a proxy: any phone names its own address, and the per-address limits count nothing
            click.echo(f"Warning: --trusted-proxy {wide[0]} trusts every address as a proxy: any phone can then "
                       "choose the address the per-address limits count. Name the front's own address "
                       "(--trusted-proxy 10.0.0.4).", err=True)
    from cardgen.site import SiteError, resolve_base_url

    try:  # --base-url, $SPELLBOOK_BASE_URL, the saved one (companion base-url): the address cards carry
        resolved, source = resolve_base_url(base_url, "")
    except SiteError as error:
        raise click.ClickException(str(error)) from None
    given_base = resolved or None
    if given_base and not trusted_proxies:
        _warn_if_another_port(given_base, port, source)
    mdns_url = None if mdns_name is None else f"http://{mdns_name}.local:{port}/"
    chosen_base = given_base or mdns_url or phone_urls(host, port)[0]
    from cardgen.render.qr import validate_instance_url

    try:
        os.environ["COMPANION_BASE_URL"] = validate_instance_url(chosen_base)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    if data_folder is not None:  # read by the card-data layer in this process and in every worker
        os.environ["SPELLBOOK_DATA"] = os.path.abspath(data_folder)
    from companion.store.backend import is_server_url

    if db and not is_server_url(db):
        _check_db_path(db, must_exist=False)  # a mistyped --db first: it is said at once
    _check_port_free(host, port)  # a busy port said before the app loads every game (seconds) and a database is made
    path, games = _prepare_database(db)
    if not is_server_url(path):  # a worker started later opens this file or none (SqliteBackend served_as)
        from companion.store.sqlite import tell_workers

        tell_workers(path)
    from companion import archive

    purged = archive.schedule_for(path).run_if_due()  # then each worker every few hours: companion.serving
    if purged:
        click.echo(f"Removed {len(purged)} old game(s) past the schedule (over {archive.FINISHED_DAYS} days, "
                   f"idle {archive.IDLE_DAYS} days; docs/serving.md)")
        games -= len(purged)
    workers = workers or default_workers()
    lines, reachable = address_lines(host, port, proxied=bool(trusted_proxies))
    # the configured address, then the .local name, first: they are the ones to print on cards (the .local
    # name with this server's port only where phones reach this server: not on loopback behind a proxy)
    firsts: list[str] = []
    for url in (given_base, None if is_loopback(host) else mdns_url):
        if url and url.rstrip("/") + "/" not in firsts:
            firsts.append(url.rstrip("/") + "/")
    if firsts:
        reachable = firsts[0]
        lines[:0] = [f"Open on the phones: {url}" for url in firsts]
    held = f"{games:,} game(s)" if games else "no games yet: a new, empty database"
    from companion.store.postgres import redacted

    click.echo(f"Spellbook Table companion: {workers} {worker_class} worker(s), database {redacted(path)} ({held})")
    for line in lines:
        click.echo(line)
    if qr and reachable:
        click.echo(terminal_qr(reachable))
    sys.stdout.flush()
    from companion.serving import close_logging, raise_open_file_limit

    raise_open_file_limit()  # every open phone page is a socket; the workers inherit the limit
    options: dict[str, Any] = {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": workers,
        "worker_class": WORKER_CLASSES[worker_class],
        "threads": threads if worker_class == "gthread" else 1,
        "worker_connections": worker_connections,
        "backlog": 4096,
        "keepalive": 5,
        "timeout": 30,
        "graceful_timeout": 5,
        "accesslog": "-" if access_log else None,
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "spellbook-companion",
        "control_socket_disable": True,  # gunicorn 24+ would share one control socket between servers
        "reuse_port": True,  # each worker listens itself and the kernel spreads connections: see above
        "logger_class": CompanionLogger,
        "worker_exit": close_logging,
    }
    announcer = mdns.start(mdns_name, port) if mdns_name is not None else None
    gc.freeze()  # what is loaded by now (the games' data, the modules) is kept to the end: see CompanionWorker
    try:
        CompanionServer(options).run()
    finally:
        if announcer is not None:  # on Linux it also stops by itself when this process dies
            announcer.terminate()
            try:
                announcer.wait(timeout=10)
            except subprocess.TimeoutExpired:
                announcer.kill()


if __name__ == "__main__":
    main()
