"""The throwaway PostgreSQL cluster the tests run (companion.served.running_postgres): Debian's own server,
started for real, owned by an unprivileged user when the tests run as root, and gone afterwards."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import psycopg
import pytest

from companion.served import RunningPostgres, running_postgres


def test_a_table_made_on_one_connection_is_seen_by_another(postgres_dsn: str) -> None:
    with psycopg.connect(postgres_dsn) as first:
        first.execute("CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL)")
        first.execute("INSERT INTO notes VALUES (1, 'kept')")
    with psycopg.connect(postgres_dsn) as second:
        assert second.execute("SELECT body FROM notes").fetchall() == [("kept",)]


def test_an_uncommitted_row_is_invisible_to_another_connection(postgres_dsn: str) -> None:
    with psycopg.connect(postgres_dsn, autocommit=True) as setup:
        setup.execute("CREATE TABLE notes (id integer PRIMARY KEY)")
    with psycopg.connect(postgres_dsn) as writer, psycopg.connect(postgres_dsn, autocommit=True) as reader:
        writer.execute("INSERT INTO notes VALUES (1)")
        assert reader.execute("SELECT count(*) FROM notes").fetchone() == (0,)
        writer.commit()
        assert reader.execute("SELECT count(*) FROM notes").fetchone() == (1,)


def test_each_test_gets_a_database_of_its_own(postgres_dsn: str, postgres_cluster: RunningPostgres) -> None:
    assert postgres_dsn != postgres_cluster.dsn
    with psycopg.connect(postgres_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() == (0,)


def test_the_server_runs_unprivileged_on_loopback(postgres_cluster: RunningPostgres) -> None:
    with psycopg.connect(postgres_cluster.dsn) as conn:
        assert conn.execute("SHOW listen_addresses").fetchone() == ("127.0.0.1",)
        assert conn.execute("SHOW unix_socket_directories").fetchone() == (str(postgres_cluster.folder),)
        pid = int((postgres_cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
        assert conn.execute("SELECT pg_postmaster_start_time() IS NOT NULL").fetchone() == (True,)
    owner = os.stat(f"/proc/{pid}").st_uid
    assert owner != 0, "PostgreSQL refuses root; the cluster must belong to an unprivileged user"
    assert owner == os.stat(postgres_cluster.folder / "data").st_uid


def test_the_cluster_is_stopped_and_removed_afterwards() -> None:
    with running_postgres() as cluster:
        folder, port = cluster.folder, cluster.port
        with psycopg.connect(cluster.dsn) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        postmaster = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    assert not folder.exists()
    assert not _alive(postmaster)
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=5):
        pass


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting for its parent to reap it does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


GREEN_WAITS = """
from gevent import monkey
monkey.patch_all()
import sys, time
import gevent, psycopg
from companion.store.postgres import cooperate_with_gevent, wait_cooperating
cooperate_with_gevent()
assert psycopg.waiting.wait is wait_cooperating
conns = [psycopg.connect(sys.argv[1], autocommit=True) for _ in range(2)]
ticks = []
def tick():
    while True:
        ticks.append(time.monotonic())
        gevent.sleep(0.02)
ticker = gevent.spawn(tick)
gevent.sleep(0)
started = time.monotonic()
slow = [gevent.spawn(lambda c=c: c.execute("SELECT pg_sleep(1.0), 42").fetchone()[1]) for c in conns]
gevent.joinall(slow)
took = time.monotonic() - started
during = [t for t in ticks if started <= t <= started + took]
ticker.kill()
print(took, len(during), [g.value for g in slow])
"""


def test_a_slow_statement_in_a_gevent_worker_lets_the_others_run(postgres_dsn: str) -> None:
    """companion serve's gevent workers wait for PostgreSQL through wait_cooperating: two statements of a second
    each, on two connections, take about one second together, not two, and the worker's other greenlets
    run meanwhile (a wait that blocked the worker would starve them: no tick in that second)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", GREEN_WAITS, postgres_dsn], capture_output=True, text=True,
                          timeout=120, check=False, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    took, ticks, values = done.stdout.split(" ", 2)
    assert values.strip() == "[42, 42]"
    assert 1.0 <= float(took) < 1.8, f"the two statements took {float(took):.2f} s: they waited one after the other"
    assert int(ticks) >= 5, f"only {ticks} ticks of the other greenlet while PostgreSQL answered"
