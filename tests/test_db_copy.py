"""``companion db copy``: a table's SQLite games moved into PostgreSQL, verified by replaying every game on both sides."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.rules import rules_for
from companion.store import Store
from tests.store_checks import fillory_deck_cards


def _played(path: Path) -> tuple[Store, list[dict]]:  # type: ignore[type-arg]
    store = Store(path)
    games = [store.create_game("fillory", ["Ann", "Ben"], {}) for _ in range(3)]
    for game in games[:2]:
        for version in range(5):
            card = fillory_deck_cards(store.current(game["id"])[1])[0]
            store.apply_move(game["id"], version % 2, version, f"m{version}", {"type": "draw", "card": card})
    store.undo(games[0]["id"], 0, 5, "u1")
    store.handover_code(games[1]["id"], 1)
    store.rename_seat(games[2]["id"], 0, "Anna")
    return store, games


def test_every_game_moves_to_postgresql_and_plays_on_there(tmp_path: Path, postgres_dsn: str) -> None:
    source, games = _played(tmp_path / "table.sqlite3")
    result = CliRunner().invoke(main, ["db", "copy", "--from", str(tmp_path / "table.sqlite3"), "--to", postgres_dsn])
    assert result.exit_code == 0, result.output
    assert "Copied 3 game(s) (3 games, 6 seats, 6 seat_tokens, 1 seat_handovers, 12 moves)" in result.output
    target = Store(postgres_dsn)
    try:
        fillory = rules_for("fillory")
        for game in games:
            assert target.current(game["id"])[0] == source.current(game["id"])[0]
            assert fillory.state_to_json(target.current(game["id"])[1]) == fillory.state_to_json(source.current(game["id"])[1])
            assert target.log(game["id"], None) == source.log(game["id"], None)
            for seat in game["seats"]:  # the phones keep their seats
                assert target.seat_for_token(game["id"], seat["token"]) == source.seat_for_token(game["id"], seat["token"])
        card = fillory_deck_cards(target.current(games[1]["id"])[1])[0]
        assert target.apply_move(games[1]["id"], 1, 5, "after", {"type": "draw", "card": card})["version"] == 6
    finally:
        target.close()
        source.close()


def test_a_second_copy_overwrites_nothing(tmp_path: Path, postgres_dsn: str) -> None:
    source, _ = _played(tmp_path / "table.sqlite3")
    source.close()
    runner = CliRunner()
    assert runner.invoke(main, ["db", "copy", "--from", str(tmp_path / "table.sqlite3"), "--to", postgres_dsn]).exit_code == 0
    again = runner.invoke(main, ["db", "copy", "--from", str(tmp_path / "table.sqlite3"), "--to", postgres_dsn])
    assert again.exit_code == 1 and "the target already has 3 of these games" in again.output
    target = Store(postgres_dsn)
    try:
        assert target.game_count() == 3
    finally:
        target.close()


def test_a_source_that_is_not_there_is_refused(tmp_path: Path, postgres_dsn: str) -> None:
    result = CliRunner().invoke(main, ["db", "copy", "--from", str(tmp_path / "none.sqlite3"), "--to", postgres_dsn])
    assert result.exit_code == 1 and "there is no database at" in result.output
    assert not (tmp_path / "none.sqlite3").exists()


def test_a_nul_character_postgresql_cannot_store_is_named_before_anything_is_copied(tmp_path: Path,
                                                                                   postgres_dsn: str) -> None:
    # a SQLite store from before the companion refused NUL characters may hold one (an action id sent by any
    # phone): the copy raised a traceback from PostgreSQL halfway; it now names the game, field and entry
    source, games = _played(tmp_path / "table.sqlite3")
    card = fillory_deck_cards(source.current(games[2]["id"])[1])[0]
    version = source.version(games[2]["id"])
    source.apply_move(games[2]["id"], version % 2, version, "odd\x00id", {"type": "draw", "card": card})
    source.close()
    result = CliRunner().invoke(main, ["db", "copy", "--from", str(tmp_path / "table.sqlite3"), "--to", postgres_dsn])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"game {games[2]['id']} holds a NUL character (U+0000) in moves.action_id, entry {version + 1}" in result.output
    target = Store(postgres_dsn)
    try:
        assert target.game_count() == 0
    finally:
        target.close()


def test_a_source_a_server_still_plays_on_says_to_stop_it_first(tmp_path: Path, postgres_dsn: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A club's server still running: a move made while the games were copied failed the check as "the copy
    does not replay as the source: …: version 6, not 5", which read like damaged data."""
    from companion.store import copy

    source, games = _played(tmp_path / "table.sqlite3")
    checked = copy._refuse_nul

    def a_move_meanwhile(rows: Any) -> None:  # after the games were read, before they are checked
        checked(rows)
        card = fillory_deck_cards(source.current(games[1]["id"])[1])[0]
        source.apply_move(games[1]["id"], 1, 5, "meanwhile", {"type": "draw", "card": card})

    monkeypatch.setattr(copy, "_refuse_nul", a_move_meanwhile)
    target = Store(postgres_dsn)
    try:
        with pytest.raises(copy.CopyRefused) as refused:
            copy.copy_games(source, target)
        assert str(refused.value) == (f"the source changed while it was copied (1 game(s) moved on: {games[1]['id']}): "
                                      "stop the server that uses it, then copy again; nothing was copied")
        assert target.game_count() == 0
    finally:
        target.close()
        source.close()


def _with_an_unreadable_move(path: Path) -> str:
    """A game whose last move is stored as an older version might have (a card given as a number): today's
    rules cannot read it, and every reader passes over it."""
    import sqlite3

    source, games = _played(path)
    source.close()
    game_id = games[1]["id"]
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER moves_no_update")
    db.execute("UPDATE moves SET move = ? WHERE game_id = ? AND seq = 5", ['{"type": "draw", "card": 7}', game_id])
    db.commit()
    db.close()
    return game_id


def test_a_game_holding_a_move_todays_rules_cannot_read_is_copied_as_its_readers_read_it(tmp_path: Path) -> None:
    """A history audit: the copy replayed strictly, died with a traceback on such a move and left every copied
    game in the target (a second try was then refused: "the target already has ..."). It is compared as the
    pages read it, its resolved timeline, and copied."""
    game_id = _with_an_unreadable_move(tmp_path / "table.sqlite3")
    result = CliRunner().invoke(main, ["db", "copy", "--from", str(tmp_path / "table.sqlite3"),
                                       "--to", str(tmp_path / "club.sqlite3")])
    assert result.exit_code == 0 and "Copied 3 game(s)" in result.output, result.output
    source, target = Store(tmp_path / "table.sqlite3"), Store(tmp_path / "club.sqlite3")
    try:
        fillory = rules_for("fillory")
        assert [(seq, fillory.state_to_json(s)) for seq, _, s in target.timeline(game_id)] == \
            [(seq, fillory.state_to_json(s)) for seq, _, s in source.timeline(game_id)]
    finally:
        source.close()
        target.close()


def test_a_game_that_cannot_be_read_back_stops_the_copy_in_one_sentence_and_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source, games = _played(tmp_path / "table.sqlite3")
    source.close()
    real = Store.timeline

    def failing(self: Store, game_id: str) -> Any:
        if game_id == games[2]["id"] and "club" in str(self.backend.target):
            raise ValueError("a row no reader can open")
        return real(self, game_id)

    monkeypatch.setattr(Store, "timeline", failing)
    result = CliRunner().invoke(main, ["db", "copy", "--from", str(tmp_path / "table.sqlite3"),
                                       "--to", str(tmp_path / "club.sqlite3")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{games[2]['id']}: it could not be read back (ValueError: a row no reader can open)" in result.output
    target = Store(tmp_path / "club.sqlite3")
    try:
        assert target.game_count() == 0  # all or nothing
    finally:
        target.close()
