"""The ``companion`` commands that take ``--db`` on a PostgreSQL DSN: init-db, games, export, purge."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.served import RunningPostgres
from companion.store import Store


def test_init_db_makes_the_schema_and_names_the_database_without_its_password(postgres_dsn: str) -> None:
    with_password = postgres_dsn.replace("postgres@", "postgres:not-shown@")  # trust: any password does
    result = CliRunner().invoke(main, ["init-db", "--db", with_password])
    assert result.exit_code == 0, result.output
    assert "Database ready: postgresql://postgres:***@" in result.output and "not-shown" not in result.output
    store = Store(postgres_dsn)
    try:
        assert [m["number"] for m in store.migrations()] == [1, 2, 3] and store.game_count() == 0
    finally:
        store.close()


def test_games_export_and_purge_read_and_remove_games_there(postgres_dsn: str) -> None:
    store = Store(postgres_dsn)
    game = store.create_game("fillory", ["Ann", "Ben"], {})
    store.apply_move(game["id"], 0, 0, "a1", {"type": "draw", "card": "golem"})
    store.close()
    runner = CliRunner()
    listed = runner.invoke(main, ["games", "--db", postgres_dsn])
    assert listed.exit_code == 0 and game["id"] in listed.output and "Ann, Ben" in listed.output
    exported = runner.invoke(main, ["export", game["id"], "--db", postgres_dsn])
    assert exported.exit_code == 0, exported.output
    record = json.loads(exported.output[exported.output.index("{"):])
    assert record["id"] == game["id"] and [e["seq"] for e in record["log"]] == [1]
    purged = runner.invoke(main, ["purge", "--db", postgres_dsn, "--idle-days", "0", "--finished-days", "0"])
    assert purged.exit_code == 0 and "1 game(s) removed" in purged.output
    assert runner.invoke(main, ["games", "--db", postgres_dsn]).output.strip().splitlines()[-1:] != [game["id"]]
    store = Store(postgres_dsn)
    try:
        assert store.game_count() == 0
        assert store.backend.rows("SELECT count(*) AS n FROM moves") == [{"n": 0}]
    finally:
        store.close()


def test_a_database_that_cannot_be_reached_is_one_clean_line() -> None:
    result = CliRunner().invoke(main, ["games", "--db", "postgresql://ann:secret@127.0.0.1:1/none"])
    assert result.exit_code == 1
    assert "cannot open the database: PostgreSQL at postgresql://ann:***@127.0.0.1:1/none is not answering" in result.output
    assert "secret" not in result.output and "Traceback" not in result.output


def test_a_database_never_created_says_how_to_make_it_in_one_line(postgres_cluster: RunningPostgres) -> None:
    """PostgreSQL answers that the database is not there: no "try again in a moment" (waiting will not help)
    and none of the connection pool's log lines about its attempts, run as a real process would print them."""
    server = postgres_cluster.dsn.rsplit("/", 1)[0]
    host, port = "127.0.0.1", str(postgres_cluster.port)
    for command in (["games", "--db", f"{server}/nosuchdb"], ["init-db", "--db", f"{server}/nosuchdb"],
                    ["db", "copy", "--from", f"{server}/nosuchdb2", "--to", f"{server}/nosuchdb"]):
        done = subprocess.run([sys.executable, "-m", "companion.cli", *command], capture_output=True, text=True,
                              timeout=120, check=False)
        name = "nosuchdb2" if command[0] == "db" else "nosuchdb"
        assert done.returncode == 1 and done.stdout == "", (command, done)
        assert done.stderr.splitlines() == [
            f"Error: there is no database '{name}' at {server}: create it (createdb --host {host} --port {port} "
            f"--username postgres {name}), then run `companion init-db --db {server}/{name}`"], command
    hidden = CliRunner().invoke(main, ["games", "--db", server.replace("postgres@", "postgres:secret@") + "/nosuchdb"])
    assert hidden.exit_code == 1 and "secret" not in hidden.output and "postgres:***@" in hidden.output


def test_a_database_never_created_is_known_whatever_language_the_server_speaks(
        postgres_cluster: RunningPostgres, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server with ``lc_messages`` in French answers "la base de données « nosuchdb » n'existe pas": the English
    words matched nothing and the table heard "not answering, try again" for a database that will never come. The
    server's catalog (asked through its database ``postgres``) now decides; a failure it cannot explain (the
    database is there) stays the general answer."""
    import psycopg

    from companion.store import postgres as backend
    from companion.store.errors import NoSuchDatabase, StoreUnavailable

    server = postgres_cluster.dsn.rsplit("/", 1)[0]
    real = psycopg.connect

    def french(dsn: str, **kwargs: Any) -> Any:
        if "dbname" not in kwargs and dsn.endswith(("/nosuchdb", "/postgres")):
            name = dsn.rsplit("/", 1)[1]
            raise psycopg.OperationalError(f"connection failed: FATAL:  la base de données « {name} » n'existe pas")
        return real(dsn, **kwargs)

    monkeypatch.setattr(backend.psycopg, "connect", french)
    with pytest.raises(NoSuchDatabase) as missing:
        Store(f"{server}/nosuchdb")
    assert str(missing.value).startswith(f"there is no database 'nosuchdb' at {server}: create it (createdb ")
    with pytest.raises(StoreUnavailable) as other:  # "postgres" is there: not a missing database
        Store(f"{server}/postgres")
    assert not isinstance(other.value, NoSuchDatabase)


def test_a_dsn_in_capitals_or_in_libpqs_keyword_form_never_shows_its_password(postgres_dsn: str,
                                                                              tmp_path: Path) -> None:
    """``POSTGRESQL://…`` and ``host=… password=… dbname=…`` were taken for SQLite files' names: a stray database
    named with the password was made (the keyword form) and the password printed in clear."""
    shouting = postgres_dsn.replace("postgresql://postgres@", "POSTGRESQL://postgres:not-shown@")
    result = CliRunner().invoke(main, ["games", "--db", shouting])
    assert result.exit_code == 0, result.output
    assert "not-shown" not in result.output
    keywords = "host=127.0.0.1 dbname=postgres user=postgres password=not-shown"
    before = set(Path.cwd().iterdir())
    result = CliRunner().invoke(main, ["games", "--db", keywords])
    assert result.exit_code == 1 and "not-shown" not in result.output
    assert "takes a postgresql:// URL, not libpq's keyword form" in result.output
    assert set(Path.cwd().iterdir()) == before  # no stray file


def test_a_login_the_server_refuses_says_to_check_the_login_not_to_wait(postgres_cluster: RunningPostgres) -> None:
    """A wrong password, an unknown role or no pg_hba.conf line read "is not answering …; try again in a
    moment", though the server answered and waiting will not help (the serving audit)."""
    server = f"postgresql://nosuchrole:secret@127.0.0.1:{postgres_cluster.port}/postgres"
    result = CliRunner().invoke(main, ["games", "--db", server])
    assert result.exit_code == 1 and "secret" not in result.output
    assert (f"PostgreSQL at postgresql://nosuchrole:***@127.0.0.1:{postgres_cluster.port}/postgres refused this "
            "server's login (") in result.output
    assert "check the user and password in the DSN and the server's pg_hba.conf" in result.output
    assert "try again" not in result.output
