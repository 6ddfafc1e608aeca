"""Start a real ``companion serve`` (gunicorn) on a free loopback port, for tests and benchmarks.

One place for the start-wait-stop dance the served tests, the browser tests and the load benchmark
all need: a subprocess on 127.0.0.1 with its own database and log, waited for until it answers, and
stopped (terminate, then kill) on the way out. Beside them: a Caddy front (:func:`running_caddy`) and a
throwaway PostgreSQL cluster (:func:`running_postgres`).
"""

from __future__ import annotations

import http.client
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, Sequence

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class RunningServer:
    base: str                      # e.g. http://127.0.0.1:40123
    process: subprocess.Popen[bytes]
    log_path: Path
    db_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/api/games/none/version", timeout=10):
            return True
    except urllib.error.HTTPError:
        return True  # a 404 is an answer: the server is up
    except (urllib.error.URLError, OSError):
        return False


def process_children(parent: int) -> list[int]:
    """Every live process whose parent is ``parent`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdecimal():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == parent and fields[0] != "Z":
            found.append(int(entry.name))
    return found


@contextmanager
def running_server(folder: Path, serve_args: Sequence[str] = ("--workers", "2"), *,
                   secret_key: str = "served-key", start_seconds: float = 180,
                   workers: int | None = None, port: int | None = None,
                   root: Path = REPO, db: str | None = None,
                   environment: dict[str, str] | None = None) -> Iterator[RunningServer]:
    """Run ``companion serve`` with ``serve_args`` on a free port, its database and log in ``folder``.

    It is ready once it answers and, if ``workers`` is given, once gunicorn has started that many worker
    processes (the first worker answers while the others may still be booting). ``root`` is the
    source tree to run (the benchmark runs an earlier version of the project beside this one). ``db``: another
    database than the folder's SQLite file, e.g. a PostgreSQL DSN several servers share; ``environment``: more
    variables for the server (settings such as ``COMPANION_JOIN_LIMIT``)."""
    port = port or free_port()
    db_path, log_path = folder / "companion.sqlite3", folder / "server.log"
    command = [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--db", db or str(db_path), "--no-qr", *serve_args]
    env = {**os.environ, "COMPANION_SECRET_KEY": secret_key, "PYTHONUNBUFFERED": "1", **(environment or {})}
    if root != REPO:
        env["PYTHONPATH"] = str(root)
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    server = RunningServer(f"http://127.0.0.1:{port}", process, log_path, db_path)
    try:
        deadline = time.monotonic() + start_seconds
        while not _answers(server.base) or (workers is not None and len(process_children(process.pid)) < workers):
            if process.poll() is not None:
                raise RuntimeError(f"companion serve exited early:\n{server.log()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"companion serve was not ready (answering, {workers or 1} worker(s)) within "
                                   f"{start_seconds} s:\n{server.log()}")
            time.sleep(0.1)
        yield server
    finally:
        stop(process, 60, signal.SIGINT)


def stop(process: subprocess.Popen[bytes], seconds: float, how: signal.Signals = signal.SIGTERM) -> None:
    """Ask a server process to stop (``how``), and kill it if it has not within ``seconds``.

    A served test's server is stopped with ``SIGINT``, gunicorn's quick shutdown (as Ctrl-C stops it): with
    ``SIGTERM`` each worker would first wait out its graceful timeout (5 s) for the phones' open live-update
    streams, which only end at their next heartbeat: 5 s more at the end of every test file that opened one."""
    process.send_signal(how)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


CADDYFILE = REPO / "deploy" / "Caddyfile"


@dataclass(frozen=True)
class RunningCaddy:
    base: str                      # e.g. https://club.test:40125
    name: str                      # the name Caddy holds a certificate for (its `tls internal` CA signs it)
    https_port: int
    root_cert: Path                # Caddy's local certificate authority: what the phones must trust
    process: subprocess.Popen[bytes]
    log_path: Path
    http_port: int                 # where it sends plain http on to https

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def get(self, path: str, timeout: float = 10, address: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
        """GET ``path`` over https from Caddy at ``address``, checking its certificate for ``name`` against
        ``root_cert`` (as a phone that trusts the club's root would)."""
        return self.request("GET", path, timeout=timeout, address=address)

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                timeout: float = 10, address: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
        """Any request over https, as :meth:`get` (``body``: sent with its length)."""
        context = ssl.create_default_context(cafile=str(self.root_cert))
        extra = "".join(f"{key}: {value}\r\n" for key, value in (headers or {}).items())
        if body is not None:
            extra += f"Content-Length: {len(body)}\r\n"
        with socket.create_connection((address, self.https_port), timeout=timeout) as raw:
            with context.wrap_socket(raw, server_hostname=self.name) as tls:
                tls.sendall(f"{method} {path} HTTP/1.1\r\nHost: {self.name}:{self.https_port}\r\n{extra}"
                            "Connection: close\r\n\r\n".encode() + (body or b""))
                response = http.client.HTTPResponse(tls)  # type: ignore[arg-type]  # reads a socket's makefile
                response.begin()
                return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()


@contextmanager
def running_caddy(folder: Path, upstream: str, name: str = "club.test", *, config: Path = CADDYFILE,
                  start_seconds: float = 180, settings: Mapping[str, str] | None = None) -> Iterator[RunningCaddy]:
    """Run Debian's ``caddy`` with ``config`` (the project's Caddyfile) in front of ``upstream`` (a
    ``http://127.0.0.1:PORT`` server, or several separated by spaces: nodes it spreads requests over), on
    free ports, with its data, config and home in ``folder``, and ``settings``: more of the Caddyfile's
    ``{$NAME}`` variables (``CADDY_READ_BODY``, say).

    Ready once its certificate authority's root exists and it answers https for ``name`` with a
    certificate that root signs. Stopped (terminate, then kill) on the way out."""
    home, data, conf = folder / "home", folder / "data", folder / "config"
    for path in (home, data, conf):
        path.mkdir(parents=True, exist_ok=True)
    https_port, http_port, admin_port = free_port(), free_port(), free_port()
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(data), "XDG_CONFIG_HOME": str(conf),
           "CADDY_HTTPS_PORT": str(https_port), "CADDY_HTTP_PORT": str(http_port),
           "CADDY_ADMIN": f"127.0.0.1:{admin_port}", "CLUB_NAME": name,
           "COMPANION_ADDRESS": " ".join(part.removeprefix("http://") for part in upstream.split()),
           **(settings or {})}
    log_path = folder / "caddy.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
                                   cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    caddy = RunningCaddy(f"https://{name}:{https_port}", name, https_port,
                         data / "caddy" / "pki" / "authorities" / "local" / "root.crt", process, log_path, http_port)
    try:
        deadline = time.monotonic() + start_seconds
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"caddy exited early:\n{caddy.log()}")
            try:
                if caddy.root_cert.exists() and caddy.get("/api/games/none/version", timeout=10)[0] == 404:
                    break
            except (OSError, ssl.SSLError, http.client.HTTPException):
                pass  # not listening yet, or its certificate not issued yet
            if time.monotonic() > deadline:
                raise RuntimeError(f"caddy did not answer https for {name} within {start_seconds} s:\n{caddy.log()}")
            time.sleep(0.2)
        yield caddy
    finally:
        stop(process, 10)


def postgres_bin() -> Path:
    """The folder of PostgreSQL's server programs: Debian's newest ``/usr/lib/postgresql/<version>/bin``,
    else wherever ``initdb`` is on the PATH."""
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                      key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdecimal() else 0)
    if versions:
        return versions[-1].parent
    found = shutil.which("initdb")
    if found is None:
        raise RuntimeError("PostgreSQL's initdb is not installed (on Debian: apt install postgresql, which "
                           "scripts/setup.sh --test does)")
    return Path(found).resolve().parent


@dataclass(frozen=True)
class RunningPostgres:
    dsn: str                       # postgresql://postgres@127.0.0.1:PORT/postgres
    port: int
    folder: Path                   # the cluster's data folder, its unix socket and its log
    bin: Path
    as_user: tuple[str, ...]       # the command prefix that runs a program as the cluster's owner

    @property
    def log_path(self) -> Path:
        return self.folder / "postgres.log"

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            return f"(no log: {error})"

    def ctl(self, *args: str, seconds: float = 180) -> subprocess.CompletedProcess[str]:
        """Run ``pg_ctl`` on this cluster as its owner (e.g. ``ctl("restart", "-m", "fast")``)."""
        return _as_owner(self.as_user, [str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"),
                                        "-l", str(self.log_path), "-w", "-t", str(int(seconds)), *args],
                         seconds + 30)


def _as_owner(prefix: Sequence[str], command: list[str], seconds: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=seconds, check=False,
                          cwd="/", env={**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"})


@contextmanager
def running_postgres(*, start_seconds: float = 180, user: str = "nobody") -> Iterator[RunningPostgres]:
    """A throwaway PostgreSQL cluster of Debian's binaries: ``initdb`` in a new temporary folder, started on
    a free loopback port (its unix socket in that folder), ready once ``pg_ctl start -w`` saw it accept
    connections and ``pg_isready`` agrees; yields its DSN (user ``postgres``, trust authentication on
    loopback only); stopped and removed on the way out.

    PostgreSQL refuses to run as root, and CI runs as root: then the cluster belongs to ``user`` (the
    folder is chowned to it and every program runs through ``runuser``). The folder is a fresh one under
    the system's temporary folder, not the caller's (a root-only pytest folder would be closed to it)."""
    bin_folder = postgres_bin()
    folder = Path(tempfile.mkdtemp(prefix="companion-postgres-"))
    as_user: tuple[str, ...] = ()
    if os.geteuid() == 0:
        owner = pwd.getpwnam(user)
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ("runuser", "-u", user, "--")
    port = free_port()
    cluster = RunningPostgres(f"postgresql://postgres@127.0.0.1:{port}/postgres", port, folder, bin_folder,
                              as_user)
    started = False
    try:
        made = _as_owner(as_user, [str(bin_folder / "initdb"), "-D", str(folder / "data"), "-U", "postgres",
                                   "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
                         start_seconds)
        if made.returncode != 0:
            raise RuntimeError(f"initdb failed ({made.returncode}):\n{made.stdout}\n{made.stderr}")
        with (folder / "data" / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write(f"\n# a throwaway cluster for tests (companion/served.py)\nport = {port}\n"
                       "listen_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{folder}'\n"
                       "max_connections = 200\n"
                       "fsync = on\n")
        start = cluster.ctl("start", seconds=start_seconds)
        started = True
        if start.returncode != 0:
            raise RuntimeError(f"pg_ctl start failed ({start.returncode}):\n{start.stdout}\n{start.stderr}\n"
                               f"{cluster.log()}")
        deadline = time.monotonic() + start_seconds
        while subprocess.run([str(bin_folder / "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-t", "5"],
                             capture_output=True, check=False).returncode != 0:
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not accept connections within {start_seconds} s:\n"
                                   f"{cluster.log()}")
            time.sleep(0.2)
        yield cluster
    finally:
        if started:
            stopped = cluster.ctl("stop", "-m", "fast", seconds=60)
            if stopped.returncode != 0 and "PID file" not in stopped.stderr:
                cluster.ctl("stop", "-m", "immediate", seconds=60)
        shutil.rmtree(folder, ignore_errors=True)
