"""Shared fixtures: an app on a temporary database and its test client, a throwaway PostgreSQL cluster
(browser fixtures: tests/e2e)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.served import RunningPostgres, running_postgres
from companion.web import create_app


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
