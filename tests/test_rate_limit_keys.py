"""The per-address limits count any address a trusted proxy forwards, on both stores: one holding a NUL character
(which PostgreSQL cannot store in text) or too long for PostgreSQL's index of the counters was a 500, or a 503
saying PostgreSQL was not answering, on a PostgreSQL node, where the SQLite counters took it as it is."""

from __future__ import annotations

import random
import string
from pathlib import Path
from typing import Iterator

import pytest
from flask.testing import FlaskClient

from companion.web import create_app


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FlaskClient]:
    database = str(tmp_path / "k.sqlite3") if request.param == "sqlite" else request.getfixturevalue("postgres_dsn")
    app = create_app({"DATABASE": database, "SECRET_KEY": "k", "TESTING": True, "TRUSTED_PROXIES": "127.0.0.1",
                      "UNLIMITED_ADDRESSES": "", "JOIN_LIMIT": "2 per minute"})
    yield app.test_client()
    app.extensions["store"].close()


def _incompressible(length: int) -> str:
    picker = random.Random(7)
    return "".join(picker.choice(string.ascii_letters + string.digits) for _ in range(length))


@pytest.mark.parametrize("address", ["a\x00b", "\x00", _incompressible(6000), "#" + "1" * 64])
def test_an_odd_forwarded_address_is_counted_like_any_other(client: FlaskClient, address: str) -> None:
    tries = [client.post("/api/join", json={"code": "ZZZZZZ", "seat": 0}, headers={"X-Forwarded-For": address})
             for _ in range(3)]
    assert [t.status_code for t in tries] == [404, 404, 429], [t.get_json() for t in tries]
    assert "too many join codes tried from your address" in tries[2].get_json()["error"].lower()
    # counted apart from another address: that one's first try is not refused
    other = client.post("/api/join", json={"code": "ZZZZZZ", "seat": 0}, headers={"X-Forwarded-For": "10.1.2.3"})
    assert other.status_code == 404
