"""Shared fixtures: an app on a temporary database and its test client (browser fixtures: tests/e2e)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

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
