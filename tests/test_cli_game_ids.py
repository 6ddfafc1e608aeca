"""A game id on the command line that is not text (bytes the terminal's encoding cannot read, which Python keeps as
lone surrogates) is answered like any unknown id, one clean line, on both stores: it was a UnicodeEncodeError
traceback out of the database driver (``companion export`` and ``companion host``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    target = str(tmp_path / "c.sqlite3") if request.param == "sqlite" else str(request.getfixturevalue("postgres_dsn"))
    Store(target).close()  # made, with its schema
    return target


@pytest.mark.parametrize("command", ["export", "host"])
@pytest.mark.parametrize("game_id", ["\udcff", "ab\udced\udca0\udc80"])
def test_an_id_that_is_not_text_is_no_game(database: str, command: str, game_id: str) -> None:
    unknown = CliRunner().invoke(main, [command, "0123456789ab", "--db", database])
    odd = CliRunner().invoke(main, [command, game_id, "--db", database])
    assert unknown.exit_code == odd.exit_code == 1, odd.output
    assert odd.exception is None or isinstance(odd.exception, SystemExit), repr(odd.exception)
    assert "there is no game '" in odd.output and "Traceback" not in odd.output
    assert odd.output.splitlines()[-1].startswith(unknown.output.splitlines()[-1].split("'")[0])
