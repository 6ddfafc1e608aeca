"""Shared fixtures: an app on a temporary database and its test client, a throwaway PostgreSQL cluster
(browser fixtures: tests/e2e)."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from xdist.scheduler import LoadFileScheduling

from companion.served import RunningPostgres, running_postgres
from companion.web import create_app


def pytest_configure(config: pytest.Config) -> None:
    """The tests' own instance folder (cardgen.site): a base URL saved on this machine for real prints must not
    change what the tests build or serve, and no test writes into the project's instance/."""
    import tempfile

    os.environ["SPELLBOOK_INSTANCE"] = tempfile.mkdtemp(prefix="spellbook-test-instance-")
    os.environ.pop("SPELLBOOK_BASE_URL", None)
    record_file_seconds(config)
    compile_url_builders_once()
    import_game_modules_with_the_trees_data()


def import_game_modules_with_the_trees_data() -> None:
    """Every module a game declares (its pages, calculator and photo reader; its rules are imported by discovery)
    imported now, with the tree's data. Some read the game's content once, when first imported
    (``GAME = content(...)``, as a server reads it at its start): imported first inside a test that points
    ``SPELLBOOK_DATA`` at an edited copy, one kept that copy's words for every later test of its process (a spell
    category renamed by tests/test_print_versions.py showed on a game's table page in a later file that xdist
    happened to give the same worker)."""
    import importlib

    from companion.rules import SPECS

    for spec in SPECS.values():
        for module in (spec.pages_module, spec.calculator_module, spec.photo_module):
            if module is not None:
                importlib.import_module(module)


def compile_url_builders_once() -> None:
    """Each URL rule's builder compiled once a test process, not once an app (the tests create an app for nearly
    every test).

    werkzeug compiles two Python functions for every rule an app registers (its URL builders, generated as an AST
    and compiled): 40 of create_app's 50 ms CPU, 64 rules an app. The generated code depends only on the rule's
    parsed parts, whether unknown arguments are appended, the names of its defaults and the URL text of a default
    for a part of the path (the converters are read from the rule the function is bound to).
    tests/test_web_shape.py checks every rule's builders against werkzeug's own."""
    from werkzeug.routing.rules import Rule

    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None:  # a werkzeug that builds URLs another way: every app compiles its own, as before
        return
    compiled: dict[tuple[Any, ...], Any] = {}

    def compiled_once(self: Rule, append_unknown: bool = True) -> Any:
        defaults = self.defaults or {}
        key = (self.rule, tuple(self._trace), append_unknown, tuple(defaults),
               tuple((part, self._converters[part].to_url(defaults[part])) for dynamic, part in self._trace
                     if dynamic and part in defaults))
        if key not in compiled:
            compiled[key] = compile_builder(self, append_unknown)
        return compiled[key]

    compiled_once.compile_builder = compile_builder  # type: ignore[attr-defined]  # werkzeug's, for the check
    Rule._compile_builder = compiled_once


def pytest_unconfigure(config: pytest.Config) -> None:
    import shutil

    shutil.rmtree(os.environ.get("SPELLBOOK_INSTANCE", ""), ignore_errors=True)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "companion.sqlite3"),
                      "SECRET_KEY": "test-secret-key"})
    yield app
    app.extensions["store"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture(autouse=True)
def environment_as_found() -> Iterator[None]:
    """Every test leaves the process environment as it found it: a command run in process (``companion serve``
    through click's runner, say) sets variables for its workers, and a server started by a later test in
    the same process would inherit them (a base URL, trusted proxies, a data folder)."""
    before = dict(os.environ)
    yield
    if os.environ != before:
        os.environ.clear()
        os.environ.update(before)


# ---- the order of the files across pytest-xdist's workers (scripts/test.sh: -n 2 --dist loadfile) ----

#: seconds each test file took in a whole run (setup, call and teardown of its tests), written by
#: ``--record-file-seconds``; a file not in it is reckoned at :data:`SECONDS_PER_UNKNOWN_TEST` a test
FILE_SECONDS = Path(__file__).with_name("file_seconds.json")
SECONDS_PER_UNKNOWN_TEST = 0.25  # the mean of a whole run's tests outside its slowest 60


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-file-seconds", action="store_true",
                     help=f"after the run, write each test file's seconds into {FILE_SECONDS.name} (the order "
                          "in which -n N --dist loadfile hands the files to its workers: the longest first)")


class LongestFilesFirst(LoadFileScheduling):
    """``--dist loadfile`` with the files handed out longest first (longest-processing-time scheduling).

    xdist's own order is by number of tests, so a file of few but long tests (a whole game on four
    phones, a server killed mid-game) came last and left the other worker idle for minutes at the end
    of a run. Longest first, the last files to start are the short ones and both workers end together."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        self.ordered = False

    def _assign_work_unit(self, node: Any) -> None:
        if not self.ordered:  # the queue is complete at the first assignment
            self.ordered = True
            known = json.loads(FILE_SECONDS.read_text()) if FILE_SECONDS.exists() else {}

            def seconds(scope: str) -> float:
                return float(known.get(scope, SECONDS_PER_UNKNOWN_TEST * len(self.workqueue[scope])))

            for scope in sorted(self.workqueue, key=seconds, reverse=True):
                self.workqueue.move_to_end(scope)
        super()._assign_work_unit(node)


@pytest.hookimpl(optionalhook=True)  # a run with -p no:xdist (tests/test_toygame.py's) has no such hook
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> LoadFileScheduling | None:
    return LongestFilesFirst(config, log) if config.getvalue("dist") == "loadfile" else None


class FileSeconds:
    """Adds up each file's seconds as the reports come in (from every worker), and writes them at the end."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        path = report.nodeid.split("::", 1)[0]
        self.seconds[path] = self.seconds.get(path, 0.0) + report.duration

    def pytest_sessionfinish(self) -> None:
        if os.environ.get("PYTEST_XDIST_WORKER") or not self.seconds:
            return  # the controller (or a run without xdist) writes
        known = json.loads(FILE_SECONDS.read_text()) if FILE_SECONDS.exists() else {}
        known.update({path: round(seconds, 1) for path, seconds in self.seconds.items()})
        FILE_SECONDS.write_text(json.dumps(dict(sorted(known.items())), indent=1) + "\n")


def record_file_seconds(config: pytest.Config) -> None:  # from pytest_configure, above
    if config.getoption("--record-file-seconds"):
        config.pluginmanager.register(FileSeconds(), "file-seconds")


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[RunningPostgres]:
    """One throwaway PostgreSQL cluster per test session (per xdist worker): companion.served.running_postgres."""
    with running_postgres() as cluster:
        yield cluster


@pytest.fixture
def postgres_dsn(postgres_cluster: RunningPostgres) -> Iterator[str]:
    """A DSN to a new, empty database of the session's cluster, dropped after the test."""
    import psycopg

    name = "test_" + secrets.token_hex(6)
    with psycopg.connect(postgres_cluster.dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield postgres_cluster.dsn.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(postgres_cluster.dsn, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
