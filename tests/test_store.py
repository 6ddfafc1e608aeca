"""The store: games, seats, tokens, the append-only log, versions, retries, undo and SQLite settings."""

from __future__ import annotations

import re
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from cardgen.catalog import content
from companion.rules import IllegalMove, SetupError, rules_for
from companion.store import JOIN_ALPHABET, NotFound, SeatTaken, Stale, Store, hash_token
from tests.store_checks import fillory_deck_cards, game, raw_rows, reopened, store  # noqa: F401  (fixtures: a Fillory game in a new store, on each backend)

fillory = rules_for("fillory")


deck_cards = fillory_deck_cards


def draw(store: Store, game_id: str, seat: int, action_id: str) -> dict[str, Any]:
    version, state = store.current(game_id)
    return store.apply_move(game_id, seat, version, action_id, {"type": "draw", "card": deck_cards(state)[0]})


def hand(store: Store, game_id: str, seat: int) -> list[str]:
    _, state = store.current(game_id)
    return list(fillory.view(state, seat)["players"][seat]["hand"])


# -- creating and joining ----------------------------------------------------------------------

def test_create_game_answers_id_code_version_and_a_token_per_seat(store: Store, game: dict[str, Any]) -> None:
    assert game["game"] == "fillory" and game["version"] == 0
    assert re.fullmatch(f"[{JOIN_ALPHABET}]{{6}}", game["join_code"])
    assert not set("01OI") & set(JOIN_ALPHABET)
    assert [(s["seat"], s["name"]) for s in game["seats"]] == [(0, "Ann"), (1, "Ben")]
    assert len({s["token"] for s in game["seats"]}) == 2
    for s in game["seats"]:
        assert store.seat_for_token(game["id"], s["token"]) == s["seat"]


def test_tokens_are_stored_hashed_never_in_clear(store: Store, game: dict[str, Any]) -> None:
    raw = raw_rows(store, "SELECT token_hash FROM seat_tokens")
    tokens = {s["token"] for s in game["seats"]}
    assert {row[0] for row in raw} == {hash_token(t) for t in tokens}
    assert not tokens & {row[0] for row in raw}


def test_info_lists_players_claims_and_version(store: Store, game: dict[str, Any]) -> None:
    info = store.info(game["id"])
    assert info["id"] == game["id"] and info["game"] == "fillory" and info["join_code"] == game["join_code"]
    assert info["players"] == ["Ann", "Ben"] and info["claimed"] == [True, True] and info["version"] == 0
    # the home page asks for the first seat's token only: the other seats are free to join
    partly = store.create_game("fillory", ["Cat", "Dan", "Eve"], {}, held=[0])
    assert ["token" in s for s in partly["seats"]] == [True, False, False]
    assert store.info(partly["id"])["claimed"] == [True, False, False]
    assert info["created"].endswith("+00:00")


@pytest.mark.parametrize("players, options, message", [
    (["Ann"], {}, "This game takes 2 to 6 players, not 1"),
    (["Ann", "ann"], {}, "Player names must be different"),
    (["Ann", " "], {}, "Every player needs a name"),
])
def test_bad_players_raise_setup_error(store: Store, players: list[str], options: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=re.escape(message)):
        store.create_game("fillory", players, options)
    assert store.backend._db().execute("SELECT count(*) FROM games").fetchone()[0] == 0


def test_unknown_game_is_a_setup_error(store: Store) -> None:
    with pytest.raises(SetupError, match="Unknown game 'chess'"):
        store.create_game("chess", ["Ann", "Ben"], {})


def test_join_code_lookup_ignores_case_and_spaces(store: Store, game: dict[str, Any]) -> None:
    assert store.game_id_for_code(game["join_code"].lower()) == game["id"]
    assert store.game_id_for_code(f"  {game['join_code']} ") == game["id"]
    assert store.game_id_for_code("ZZZZZZ" if game["join_code"] != "ZZZZZZ" else "YYYYYY") is None


def test_tokens_do_not_cross_games(store: Store, game: dict[str, Any]) -> None:
    other = store.create_game("fillory", ["Cat", "Dan"], {})
    assert store.seat_for_token(other["id"], game["seats"][0]["token"]) is None
    assert store.seat_for_token(game["id"], "not-a-token") is None


def test_claim_seat_gives_a_new_token_once(store: Store) -> None:
    game = store.create_game("fillory", ["Ann", "Ben"], {}, held=[0])
    token = store.claim_seat(game["id"], 1)
    assert store.seat_for_token(game["id"], token) == 1
    assert store.info(game["id"])["claimed"] == [True, True]
    with pytest.raises(SeatTaken, match=re.escape("seat 0 (Ann) is already taken")):
        store.claim_seat(game["id"], 0)  # a seat held from the start is never taken by joining
    with pytest.raises(SeatTaken, match=re.escape("seat 1 (Ben) is already taken")):
        store.claim_seat(game["id"], 1)
    with pytest.raises(NotFound, match="this game has no seat 2; its seats are 0 to 1"):
        store.claim_seat(game["id"], 2)
    with pytest.raises(NotFound, match="there is no game 'nope'"):
        store.claim_seat("nope", 0)


def test_a_new_hand_over_code_replaces_the_seats_earlier_one_so_a_seat_keeps_one_row(
        store: Store, game: dict[str, Any]) -> None:
    """Each request was a row kept until the game's purge (3,000 rows in 4 s from one phone)."""
    gid = game["id"]
    codes = [store.handover_code(gid, 1)["code"] for _ in range(30)]
    other = store.handover_code(gid, 0)["code"]

    def rows() -> list[tuple[Any, ...]]:
        return sorted(raw_rows(store, f"SELECT seat, used FROM seat_handovers WHERE game_id = '{gid}'"))

    assert rows() == [(0, None), (1, None)]                    # one row a seat: the latest code
    assert [store.handover_offer(code) for code in codes[:-1]] == [None] * 29   # the older codes are useless
    assert store.handover_offer(codes[-1]) == {"id": gid, "seat": 1, "name": "Ben"}
    assert store.handover_offer(other) == {"id": gid, "seat": 0, "name": "Ann"}  # another seat's is kept
    with pytest.raises(NotFound, match="unknown, used or expired"):
        store.take_handover(codes[0])
    taken = store.take_handover(codes[-1])
    assert taken["seat"] == 1 and store.seat_for_token(gid, taken["token"]) == 1
    assert store.handover_code(gid, 1)["code"] not in codes and len(rows()) == 2  # the used one goes too
    with pytest.raises(NotFound, match="unknown, used or expired"):
        store.take_handover(codes[-1])                         # once only, as before


def test_unknown_game_raises_not_found_everywhere(store: Store) -> None:
    for call in (lambda: store.info("nope"), lambda: store.current("nope"), lambda: store.version("nope"),
                 lambda: store.log("nope", None), lambda: store.apply_move("nope", 0, 0, "a", {"type": "draw"}),
                 lambda: store.undo("nope", 0, 0, "a")):
        with pytest.raises(NotFound, match="there is no game 'nope'"):
            call()


# -- moves, versions and retries ---------------------------------------------------------------

def test_a_move_appends_to_the_log_and_bumps_the_version(store: Store, game: dict[str, Any]) -> None:
    answer = draw(store, game["id"], 0, "a1")
    assert answer == {"version": 1, "seq": 1}
    assert store.version(game["id"]) == 1
    assert len(hand(store, game["id"], 0)) == 1
    entries = store.log(game["id"], None)
    assert [(e["seq"], e["seat"], e["kind"], e["undone"]) for e in entries] == [(1, 0, "move", False)]


def test_a_retried_action_id_gets_the_first_answer_and_applies_once(store: Store, game: dict[str, Any]) -> None:
    _, state = store.current(game["id"])
    sent = {"type": "draw", "card": deck_cards(state)[0]}
    first = store.apply_move(game["id"], 0, 0, "same-id", sent)
    draw(store, game["id"], 1, "other-id")
    # the phone never saw the first answer and retries with the old version and the same move: same answer,
    # nothing new (the same id with another move is refused: tests/test_action_id_reuse.py)
    retry = store.apply_move(game["id"], 0, 0, "same-id", dict(sent))
    assert retry == first == {"version": 1, "seq": 1}
    assert store.version(game["id"]) == 2
    assert len(hand(store, game["id"], 0)) == 1


def test_an_action_id_cannot_be_reused_by_another_seat(store: Store, game: dict[str, Any]) -> None:
    draw(store, game["id"], 0, "shared")
    with pytest.raises(IllegalMove, match="Action id 'shared' was already used for a different request"):
        draw(store, game["id"], 1, "shared")


def test_a_stale_version_is_refused_and_changes_nothing(store: Store, game: dict[str, Any]) -> None:
    draw(store, game["id"], 0, "a1")
    before = store.current(game["id"])
    with pytest.raises(Stale) as refused:
        store.apply_move(game["id"], 1, 0, "a2", {"type": "draw", "card": deck_cards(before[1])[0]})
    assert refused.value.version == 1
    assert str(refused.value) == "the game has moved on to version 1; reload and try again"
    assert store.current(game["id"]) == before
    assert len(store.log(game["id"], None)) == 1


def test_an_illegal_move_is_refused_with_its_rule_and_changes_nothing(store: Store, game: dict[str, Any]) -> None:
    neutral_card = content("fillory").setup_neutral[0]
    with pytest.raises(IllegalMove) as refused:
        store.apply_move(game["id"], 0, 0, "a1", {"type": "draw", "card": neutral_card})
    assert refused.value.rule == "fillory.card.location"
    assert store.version(game["id"]) == 0 and store.log(game["id"], None) == []


def test_the_log_cannot_be_edited_or_deleted(store: Store, game: dict[str, Any]) -> None:
    draw(store, game["id"], 0, "a1")
    for statement in ("UPDATE moves SET seat = 1", "DELETE FROM moves"):
        with pytest.raises(Exception, match="the move log is append-only") as refused:  # past the store
            raw_rows(store, statement)
        assert type(refused.value).__name__ in ("IntegrityError", "RestrictViolation")
    assert len(raw_rows(store, "SELECT seq FROM moves")) == 1


def test_draws_are_shown_only_to_the_drawer(store: Store, game: dict[str, Any]) -> None:
    draw(store, game["id"], 0, "a1")
    card = hand(store, game["id"], 0)[0]
    assert store.log(game["id"], 0)[0]["move"]["card"] == card
    assert store.log(game["id"], 1)[0]["move"]["card"] is None
    assert store.log(game["id"], None)[0]["move"]["card"] is None
    for viewer in (0, 1, None):
        assert content("fillory").card(card).name not in store.log(game["id"], viewer)[0]["text"]
    assert "Ann" in store.log(game["id"], None)[0]["text"]


def test_log_since_returns_only_later_entries(store: Store, game: dict[str, Any]) -> None:
    for i in range(3):
        draw(store, game["id"], i % 2, f"a{i}")
    assert [e["seq"] for e in store.log(game["id"], None, since=1)] == [2, 3]
    assert store.log(game["id"], None, since=3) == []


# -- undo ------------------------------------------------------------------------------------

def test_undo_appends_an_entry_and_restores_the_state(store: Store, game: dict[str, Any]) -> None:
    draw(store, game["id"], 0, "a1")
    before = fillory.view(store.current(game["id"])[1], 0)
    draw(store, game["id"], 1, "a2")
    answer = store.undo(game["id"], 1, 2, "u1")
    assert answer == {"version": 3, "seq": 3, "undid": 2}
    version, state = store.current(game["id"])
    assert version == 3 and fillory.view(state, 0) == before
    entries = store.log(game["id"], None)
    assert [(e["seq"], e["kind"], e["undone"]) for e in entries] == [(1, "move", False), (2, "move", True),
                                                                   (3, "undo", False)]
    assert entries[2]["move"] == {"type": "undo", "seq": 2}
    assert entries[2]["text"].startswith("Ben took back their move 2: ")
    assert fillory.state_to_json(store.replay(game["id"])) == fillory.state_to_json(state)


def test_undo_walks_back_one_live_move_at_a_time(store: Store, game: dict[str, Any]) -> None:
    draw(store, game["id"], 0, "a1")
    draw(store, game["id"], 0, "a2")
    store.undo(game["id"], 0, 2, "u1")
    store.undo(game["id"], 0, 3, "u2")
    assert hand(store, game["id"], 0) == []
    with pytest.raises(IllegalMove, match="There is no move left to take back."):
        store.undo(game["id"], 0, 4, "u3")
    assert store.version(game["id"]) == 4


def test_any_seat_may_undo_and_the_log_says_whose_move_it_took_back(store: Store, game: dict[str, Any]) -> None:
    draw(store, game["id"], 0, "a1")
    with pytest.raises(Stale):
        store.undo(game["id"], 1, 0, "u1")
    assert store.version(game["id"]) == 1
    assert store.undo(game["id"], 1, 1, "u1") == {"version": 2, "seq": 2, "undid": 1}
    assert hand(store, game["id"], 0) == []
    assert store.log(game["id"], None)[-1]["text"].startswith("Ben took back Ann's move 1: Ann drew")


def test_a_retried_undo_is_answered_once(store: Store, game: dict[str, Any]) -> None:
    draw(store, game["id"], 0, "a1")
    draw(store, game["id"], 0, "a2")
    first = store.undo(game["id"], 0, 2, "u1")
    assert store.undo(game["id"], 0, 2, "u1") == first
    assert len(hand(store, game["id"], 0)) == 1 and store.version(game["id"]) == 3


# -- persistence and SQLite settings --------------------------------------------------------------

def test_state_survives_reopening_the_file(store: Store, game: dict[str, Any]) -> None:
    draw(store, game["id"], 0, "a1")
    expected = fillory.state_to_json(store.current(game["id"])[1])
    again = reopened(store)
    try:
        version, state = again.current(game["id"])
        assert version == 1 and fillory.state_to_json(state) == expected
        assert [m["number"] for m in again.migrations()] == [1, 2, 3]
    finally:
        again.close()


def test_wal_normal_sync_busy_timeout_and_foreign_keys(tmp_path: Path) -> None:  # SQLite's own settings
    store = Store(tmp_path / "games.sqlite3")
    assert store.backend.journal_mode() == "wal"
    conn = store.backend._db()
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 10_000
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()


def test_concurrent_writers_on_separate_connections_one_wins_per_version(store: Store) -> None:
    """Eight stores (as eight processes would) race to move at version 0: one wins, seven are stale."""
    first = store
    created = first.create_game("fillory", ["Ann", "Ben"], {})
    deck = deck_cards(first.current(created["id"])[1])
    stores = [reopened(store) for _ in range(8)]
    outcomes: list[str] = []
    barrier = threading.Barrier(len(stores))

    def race(i: int) -> None:
        barrier.wait()
        try:
            stores[i].apply_move(created["id"], i % 2, 0, f"race-{i}", {"type": "draw", "card": deck[i]})
            outcomes.append("won")
        except Stale as stale:
            outcomes.append(f"stale {stale.version}")

    threads = [threading.Thread(target=race, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert sorted(outcomes) == ["stale 1"] * 7 + ["won"]
        assert first.version(created["id"]) == 1
    finally:
        for s in stores:
            s.close()


def test_a_move_waiting_for_its_game_while_its_first_try_commits_gets_the_first_answer(postgres_dsn: str) -> None:
    """PostgreSQL writes a move in one statement whose snapshot is taken before it waits for the game's row:
    a first try of the same action id committed meanwhile is not in that snapshot, and the retry must still
    get the first answer (not a 409), the move applied once. (PostgreSQL's alone: SQLite has one writer for
    the whole file, so a write never waits inside its statement.)"""

    store = Store(postgres_dsn)
    try:
        _retry_while_first_try_commits(store, store.create_game("fillory", ["Ann", "Ben"], {}))
    finally:
        store.close()


def _retry_while_first_try_commits(store: Store, game: dict[str, Any]) -> None:
    import psycopg

    from companion.store.common import _dumps, _now
    from companion.store.states import _applied

    game_id = game["id"]
    _, state = store.current(game_id)
    move = {"type": "draw", "card": deck_cards(state)[0]}
    applied = _applied(rules_for("fillory"), state, 0, move, "fillory")
    assert isinstance(applied, tuple)
    answers: list[Any] = []
    with psycopg.connect(store.backend.dsn) as holder:  # type: ignore[attr-defined]
        holder.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", [game_id])
        retry = threading.Thread(target=lambda: answers.append(store.apply_move(game_id, 0, 0, "same-id", move)))
        retry.start()
        with psycopg.connect(store.backend.dsn, autocommit=True) as watcher:  # the retry waits for the row
            for _ in range(2000):
                if watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                   " AND query LIKE '%%INSERT INTO moves%%'").fetchone()[0]:  # type: ignore[index]
                    break
                watcher.execute("SELECT pg_sleep(0.01)")
            else:
                pytest.fail("the move never waited for the game's row")
        # the first try, as the store writes it, commits while the retry waits
        holder.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                       " VALUES (%s, 1, 0, 'move', %s, NULL, 'same-id', %s, %s)",
                       [game_id, _dumps(applied[2]), '{"version":1,"seq":1}', _now()])
        holder.execute("UPDATE games SET version = 1, state = %s WHERE id = %s", [applied[1], game_id])
    retry.join(30)
    assert answers == [{"version": 1, "seq": 1}]
    assert store.version(game_id) == 1
    assert [(e["seq"], e["seat"], e["kind"]) for e in store.log(game_id, None)] == [(1, 0, "move")]
