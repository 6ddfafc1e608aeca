"""Old games go by themselves: ``companion serve`` purges at start and every few hours (the clock is
injected here; nothing waits)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion import archive
from companion.archive import FINISHED_DAYS, IDLE_DAYS, PURGE_EVERY_HOURS
from companion.served import free_port
from companion.store import Store


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(timezone.utc)

    def __call__(self) -> datetime:
        return self.now


def ids(store: Store) -> set[str]:
    return {g["id"] for g in archive.games(store)}


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A new database on each backend: a SQLite file's path, or a PostgreSQL DSN."""
    return request.getfixturevalue("postgres_dsn") if request.param == "postgres" else tmp_path / "s.sqlite3"


def test_an_idle_game_goes_after_its_days_and_the_purge_runs_once_a_period(database: Any) -> None:
    path = database
    store = Store(path)
    idle = store.create_game("fillory", ["Ann", "Ben"], {})
    store.handover_code(idle["id"], 0)  # a hand-over code goes with its seat
    clock = Clock()
    schedule = archive.schedule_for(path, clock=clock)
    clock.now += timedelta(days=IDLE_DAYS, hours=-1)
    assert schedule.run_if_due() == []  # ran (at start): nothing was old enough
    assert ids(store) == {idle["id"]}
    clock.now += timedelta(hours=PURGE_EVERY_HOURS / 2)
    assert schedule.run_if_due() is None  # past its days now, but within the period since the last run
    assert ids(store) == {idle["id"]}
    clock.now += timedelta(hours=PURGE_EVERY_HOURS / 2)
    assert [g["id"] for g in schedule.run_if_due() or []] == [idle["id"]]
    assert ids(store) == set()
    store.close()


def test_a_game_played_recently_is_kept(database: Any) -> None:
    path = database
    store = Store(path)
    played = store.create_game("fillory", ["Ann", "Ben"], {})
    store.apply_move(played["id"], 0, 0, "a1", {"type": "draw", "card": "golem"})
    clock = Clock()
    clock.now += timedelta(days=min(FINISHED_DAYS, IDLE_DAYS) - 1)
    assert archive.schedule_for(path, clock=clock).run_if_due() == []
    assert ids(store) == {played["id"]}
    store.close()


def test_every_worker_asks_but_one_purges_per_period(database: Any) -> None:
    path = database
    Store(path).close()
    clock = Clock()
    workers = [archive.schedule_for(path, clock=clock) for _ in range(3)]
    answers = [w.run_if_due() for w in workers]
    assert answers == [[], None, None]
    assert workers[2].last_run() == clock.now  # the time of the last purge is kept beside the database


def test_serve_purges_at_start(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from companion import cli

    path = tmp_path / "c.sqlite3"
    store = Store(path)
    store.create_game("fillory", ["Ann", "Ben"], {})
    store.close()
    stamp = path.with_name(path.name + ".purge")
    stamp.write_text((datetime.now(timezone.utc) - timedelta(days=1)).isoformat())  # the last purge: a day ago
    later = datetime.now(timezone.utc) + timedelta(days=IDLE_DAYS + 1)
    monkeypatch.setattr(archive, "utc_now", lambda: later)
    started = []
    monkeypatch.setattr(cli.CompanionServer, "run", lambda self: started.append(self.options["bind"]))
    result = CliRunner().invoke(cli.main, ["serve", "--db", str(path), "--no-qr", "--port", str(free_port()), "--host", "127.0.0.1"])
    assert result.exit_code == 0, result.output
    assert "Removed 1 old game(s) past the schedule" in result.output and started
    store = Store(path)
    assert ids(store) == set()
    store.close()


def test_purge_days_past_a_hundred_years_are_refused_in_one_line(tmp_path: Path) -> None:
    """``--idle-days 1000000000`` was an OverflowError's traceback (a timedelta of more days than it holds)."""
    from companion import cli

    path = tmp_path / "d.sqlite3"
    store = Store(path)
    store.create_game("fillory", ["Ann", "Ben"], {})
    store.close()
    for option in ("--idle-days", "--finished-days"):
        for days in ("1000000000", "36501", "-1"):
            result = CliRunner().invoke(cli.main, ["purge", "--db", str(path), "--dry-run", option, days])
            assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
            assert f"Invalid value for '{option}': {days} is not in the range 0<=x<=36500" in result.output
            assert "Traceback" not in result.output
        kept = CliRunner().invoke(cli.main, ["purge", "--db", str(path), "--dry-run", option, "36500"])
        assert kept.exit_code == 0 and "0 game(s) would be removed" in kept.output, kept.output


def test_the_documented_schedule_is_the_one_served() -> None:
    from companion.serving import PURGE_CHECK_SECONDS

    doc = " ".join((Path(__file__).parents[1] / "docs" / "serving.md").read_text(encoding="utf-8").split())
    assert f"A game that is over is kept {FINISHED_DAYS} days after its last move, any other game {IDLE_DAYS} days" in doc
    assert f"every {PURGE_EVERY_HOURS} hours while it runs" in doc
    assert f"every {PURGE_CHECK_SECONDS / 60:.0f} minutes" in doc


def test_a_worker_purges_now_and_then_while_it_serves(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The gevent worker's loop, run for two rounds with no wait between them (the clock is a day on)."""
    from companion import serving
    from companion.serving import CompanionWorker
    from companion.web import create_app

    path = tmp_path / "g.sqlite3"
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "k", "TESTING": True})
    store = app.extensions["store"]
    store.create_game("fillory", ["Ann", "Ben"], {})
    monkeypatch.setattr(serving, "PURGE_CHECK_SECONDS", 0)
    later = datetime.now(timezone.utc) + timedelta(days=IDLE_DAYS + 1)
    monkeypatch.setattr(archive, "utc_now", lambda: later)
    said: list[str] = []

    class Worker:
        rounds = 2
        wsgi = flask_app = app  # (the worker wraps wsgi once loaded; the app stays its flask_app)
        log = type("Log", (), {"info": staticmethod(lambda msg, *args: said.append(msg % args)),
                               "exception": staticmethod(lambda msg: said.append(msg))})()

        @property
        def alive(self) -> bool:
            self.rounds -= 1
            return self.rounds >= 0

    CompanionWorker._purge_now_and_then(Worker())  # type: ignore[arg-type]
    assert said == ["purged 1 old game(s) past the schedule (docs/serving.md)"]  # once: the second round was not due
    assert ids(store) == set()
    store.close()


def test_a_game_whose_seat_was_handed_over_is_purged_with_everything_of_it(database: Any) -> None:
    """A hand-over code refers to its seat: the purge removes the codes too (it refused the whole purge before)."""
    store = Store(database)
    gone, kept = (store.create_game("fillory", ["Ann", "Ben"], {}) for _ in range(2))
    store.handover_code(gone["id"], 0)
    taken = store.take_handover(store.handover_code(gone["id"], 1)["code"])
    store.handover_code(kept["id"], 1)
    assert archive.purge(store, [gone["id"]]) == 1
    left = {table: [row["game_id"] for row in store.backend.rows(f"SELECT game_id FROM {table}")]
            for table in ("seat_handovers", "seat_tokens", "seats", "moves")}
    assert left == {"seat_handovers": [kept["id"]], "seat_tokens": [kept["id"]] * 2, "seats": [kept["id"]] * 2,
                    "moves": []}
    assert store.seat_for_token(gone["id"], taken["token"]) is None
    assert [g["id"] for g in archive.games(store)] == [kept["id"]]
    store.close()
