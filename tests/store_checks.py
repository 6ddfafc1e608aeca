"""Checks shared by the store and reliability tests: the stored log replayed without the store's help, and
the ``store`` and ``game`` fixtures (a two-seat Fillory game in a new store)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

from cardgen.catalog import content
from companion.rules import rules_for, spec_for
from companion.store import Store


def stored_state(rules: ModuleType, stored: str) -> Any:
    """A state as the store keeps it (the rules' JSON with its format version), read without the store."""
    return rules.state_from_json(spec_for(rules.GAME_ID).upgraded_state(json.loads(stored)))


def replay_from_scratch(rules: ModuleType, initial_state: str, rows: list[dict[str, Any]]) -> Any:
    """The rules applied to the logged moves from the stored set-up, independently of the store: undo
    entries take a move out, correct entries replace one (or take it and the moves in 'drop' and 'cleared' out,
    and replace those in 'also'); a move put in by a correction goes before the move its 'undoes' names; a
    revert entry counts the change it names (and the moves that change put in) as never made, and takes out
    its own 'drop' and 'cleared'. A move or change that names a move no longer there changes nothing."""
    skip: set[int] = set()
    for row in rows:
        if row["kind"] == "revert":
            target = json.loads(row["move"])["entry"]
            skip.add(target)
            made = next(r for r in rows if r["seq"] == target)
            skip.update(json.loads(made["move"]).get("insert", []) if made["kind"] == "correct" else [])
    order: list[int] = []
    moves: dict[int, tuple[int, Any]] = {}

    def remove(seq: int) -> None:
        if seq in order:
            order.remove(seq)

    for row in rows:
        if row["seq"] in skip:
            continue
        body = json.loads(row["move"])
        if row["kind"] == "move":
            moves[row["seq"]] = (row["seat"], body)
            at = order.index(row["undoes"]) if row["undoes"] in order else len(order)
            order.insert(at, row["seq"])
        elif row["kind"] == "undo":
            remove(row["undoes"])
        elif row["kind"] in ("correct", "revert"):
            if row["kind"] == "correct":
                if body["move"] is None:
                    remove(body["seq"])
                elif body["seq"] in order:
                    moves[body["seq"]] = (moves[body["seq"]][0], body["move"])
                for other in body.get("also", []):
                    if other["seq"] in order:
                        moves[other["seq"]] = (moves[other["seq"]][0], other["move"])
            for dropped in [*body.get("drop", []), *body.get("cleared", [])]:  # cleared: confirmations of the end
                remove(dropped)
    state = stored_state(rules, initial_state)
    private = rules.SPEC.private_moves
    for seq in order:
        seat, move = moves[seq]
        try:
            state = rules.apply(state, seat, move)
        except Exception:
            if move.get("type") not in private:
                raise
    return state


def fillory_deck_cards(state: Any) -> list[str]:
    """Fillory cards nobody can see: all cards minus neutral, discard, zones and every hand."""
    fillory = rules_for("fillory")
    table = fillory.view(state, None)
    seen = set(table["neutral"]) | set(table["discard"])
    for player in table["players"]:
        seen |= set(player["zone"])
        seen |= set(fillory.view(state, player["seat"])["players"][player["seat"]]["hand"])
    return [card.id for card in content("fillory").cards if card.id not in seen]


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A new store on each backend: a SQLite file, and a new database of the session's PostgreSQL cluster."""
    if request.param == "postgres":
        store = Store(request.getfixturevalue("postgres_dsn"))
    else:
        store = Store(tmp_path / "games.sqlite3")
    yield store
    store.close()


def on_postgres(store: Store) -> bool:
    return store.backend.kind == "postgresql"


def reopened(store: Store) -> Store:
    """Another store on the same database, as another server process (or node) opens it."""
    return Store(store.backend.dsn if on_postgres(store) else store.path)  # type: ignore[attr-defined, arg-type]


def writing(store: Store) -> bool:
    """Whether the store is inside a write transaction now (SQLite: its process's write lock is held)."""
    backend: Any = store.backend
    return bool(backend.writing()) if on_postgres(store) else bool(backend._write_lock.locked())


def raw_rows(store: Store, sql: str) -> list[tuple[Any, ...]]:
    """Rows read straight from the database, past the store (sqlite3 or psycopg)."""
    if on_postgres(store):
        import psycopg

        with psycopg.connect(store.backend.dsn) as conn:  # type: ignore[attr-defined]
            return list(conn.execute(sql).fetchall())
    import sqlite3

    conn = sqlite3.connect(store.path)
    try:
        return list(conn.execute(sql).fetchall())
    finally:
        conn.close()


@pytest.fixture
def game(store: Store) -> dict[str, Any]:
    return store.create_game("fillory", ["Ann", "Ben"], {})


def fillory_score_that_ends_sooner(store: Store, players: list[str]) -> tuple[
        dict[str, Any], int, int, str, list[tuple[int, int, dict[str, Any]]]]:
    """A Fillory game played at random through ``store`` to its end, in which one seat's trait score (move
    ``seq``) could have been another trait that took them to 100 VP there: the game, that seq, the seat, the
    other trait and the live moves after it, as (seq, seat, move) (other seats' hidden draws among them)."""
    from companion.rules.fillory.scoring import seat_trait_points

    fillory = rules_for("fillory")
    for n in range(40):
        created = store.create_game("fillory", players, {})
        state, rng, moves = store.current(created["id"])[1], random.Random(n), []
        target = None
        while not fillory.outcome(state).over and len(moves) < 600:
            seat, move = next((s, m) for s in range(len(players)) if (m := fillory.random_legal_move(state, s, rng)))
            if target is None and move["type"] == "score":
                better = [o for o in seat_trait_points(state, seat)
                          if o["trait"] != move["trait"] and state.vp(seat) + o["points"] >= 100]
                after = fillory.apply(state, seat, move)
                if better and after.vp(seat) < 100:
                    target = (len(moves) + 1, seat, better[0]["trait"])
            state = fillory.apply(state, seat, move)
            moves.append((seat, move))
        if target is None or not any(s != target[1] and m["type"] == "draw" for s, m in moves[target[0]:]):
            continue
        for seat, move in moves:
            version = store.version(created["id"])
            store.apply_move(created["id"], seat, version, f"m{version}", move)
        later = [(n, s, m) for n, (s, m) in enumerate(moves, start=1) if n > target[0]]
        return created, target[0], target[1], target[2], later
    raise AssertionError("no game in 40 where a score could have ended it sooner")


def fillory_put_back_that_ends_sooner(store: Store, players: list[str]) -> tuple[dict[str, Any], int, int, list[int]]:
    """A Fillory game in which putting back a correction ends the game sooner: a seat's trait score was
    corrected from one that took it to 100 VP (the moves after it removed) back to the one it played, and play went
    on as before. Returns the game, that seat, the correction's log entry and the seqs of the moves since."""
    game, seq, seat, trait, moves = fillory_score_that_ends_sooner(store, players)
    gid = game["id"]
    played = next(m.move for m in store.live_moves(gid) if m.seq == seq)
    store.correct(gid, seat, store.version(gid), "end", seq, {"type": "score", "trait": trait},
                  drop=[n for n, _, _ in moves])
    entry = store.correct(gid, seat, store.version(gid), "on", seq, played)["seq"]
    for _, author, move in moves:
        version = store.version(gid)
        store.apply_move(gid, author, version, f"again{version}", move)
    return game, seat, entry, [m.seq for m in store.live_moves(gid) if m.seq > entry]


def jsmn_card_that_ends_sooner(store: Store, players: list[str], asker: int = 0) -> tuple[
        dict[str, Any], int, dict[str, Any], int, list[int]]:
    """A JS&MN game played at random through ``store`` in which a card of Marseilles (a public move, move
    ``seq``) corrected to another unrevealed card would have let a magician other than ``asker`` defeat the
    fairy at a later confrontation: their hidden magicianship alone decides it. Returns the game, that seq, the
    corrected move (a card that ends the game sooner), the defeater and the seqs of the live moves after the new
    end."""
    from companion.rules import IllegalMove
    from companion.rules.jsmn.state import MARSEILLES

    jsmn = rules_for("jsmn")

    def misfit(start: Any, moves: list[tuple[int, dict[str, Any]]]) -> tuple[Any, int | None]:
        state = start
        for n, (seat, move) in enumerate(moves, start=1):
            try:
                state = jsmn.apply(state, seat, move)
            except IllegalMove:
                return state, n
        return state, None

    for n in range(80):
        created = store.create_game("jsmn", players, {})
        start = store.current(created["id"])[1]
        state, rng, moves, chances = start, random.Random(n), [], []
        while not jsmn.outcome(state).over and len(moves) < 2000:
            seat, move = next((s, m) for s in range(len(players)) if (m := jsmn.random_legal_move(state, s, rng)))
            if move["type"] == "end_turn" and seat != asker and state.year in (1811, 1813, 1815):
                chances.append((len(moves), seat, state.marseilles))
            state = jsmn.apply(state, seat, move)
            moves.append((seat, move))
        for at, seat, revealed in chances:
            card_at = max(i for i, (_, m) in enumerate(moves[:at]) if m["type"] == "new_year")
            ending = None
            for card in sorted(c for c in MARSEILLES if c not in revealed):
                changed = [*moves[:card_at], (moves[card_at][0], dict(moves[card_at][1], marseilles=card)),
                           *moves[card_at + 1:]]
                ended, failed = misfit(start, changed)
                if failed == at + 2 and jsmn.outcome(ended).over and ended.defeated_by == seat:
                    ending = ending or changed[card_at][1]
            if ending is not None:
                for who, made in moves:
                    version = store.version(created["id"])
                    store.apply_move(created["id"], who, version, f"m{version}", made)
                return created, card_at + 1, ending, seat, list(range(at + 2, len(moves) + 1))
    raise AssertionError("no game in 80 where a card of Marseilles could have ended it sooner")
