"""Shared fixtures: an app on a temporary database and its test client (browser fixtures: tests/e2e)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app


def pytest_configure(config: pytest.Config) -> None:
    """The tests' own instance folder (cardgen.site): a base URL saved on this machine for real prints must not
    change what the tests build or serve, and no test writes into the project's instance/."""
    import tempfile

    os.environ["SPELLBOOK_INSTANCE"] = tempfile.mkdtemp(prefix="spellbook-test-instance-")
    os.environ.pop("SPELLBOOK_BASE_URL", None)


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
