"""Putting back what another phone changed, undoing a correction, correcting later moves with it and putting
in a move the rules now need before a later one (issue 21): logged, never destructive, and the state is the
replay of the log however it is read (the store's answer, its replay from scratch, an independent replay)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import IllegalMove, rules_for
from companion.store import CorrectionRefused, Store
from tests.store_checks import (  # noqa: F401  (fixture: a new store)
    fillory_deck_cards,
    fillory_put_back_that_ends_sooner,
    replay_from_scratch,
    store,
    stored_state,
)

fillory = rules_for("fillory")


@pytest.fixture
def trio(store: Store) -> dict[str, Any]:
    return store.create_game("fillory", ["Ann", "Ben", "Cat"], {})


def draw(store: Store, game_id: str, seat: int, card: str) -> dict[str, Any]:
    version = store.version(game_id)
    return store.apply_move(game_id, seat, version, f"d{version}", {"type": "draw", "card": card})


def hand(store: Store, game_id: str, seat: int) -> list[str]:
    return sorted(fillory.view(store.current(game_id)[1], seat)["players"][seat]["hand"])


def independent_replay(store: Store, game_id: str) -> Any:
    """The live moves worked out from the stored rows without the store's code (the shared model of
    tests/store_checks.py: reverted entries, and the moves their correction put in, count as never made; a
    put-in move goes before the move it names)."""
    db = store.backend._db()
    initial = db.execute("SELECT initial_state FROM games WHERE id = ?", [game_id]).fetchone()[0]
    rows = [dict(zip(("seq", "seat", "kind", "move", "undoes"), r, strict=True)) for r in db.execute(
        "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq", [game_id])]
    return replay_from_scratch(fillory, initial, rows)


def agrees(store: Store, game_id: str) -> None:
    now = fillory.state_to_json(store.current(game_id)[1])
    assert fillory.state_to_json(store.replay(game_id)) == now
    assert fillory.state_to_json(independent_replay(store, game_id)) == now
    steps = store.timeline(game_id)                  # the score over time ends where the game stands
    assert fillory.state_to_json(steps[-1][2]) == now
    assert [seq for seq, _, _ in steps[1:]] == [m.seq for m in store.live_moves(game_id)]


def test_a_move_taken_back_by_another_phone_is_put_back_by_its_author(store: Store, trio: dict[str, Any]) -> None:
    gid = trio["id"]
    a, b, c = fillory_deck_cards(store.current(gid)[1])[:3]
    draw(store, gid, 0, a)
    draw(store, gid, 1, b)
    draw(store, gid, 0, c)
    taken = store.undo(gid, 1, 3, "u1")
    assert hand(store, gid, 0) == sorted([a])
    undo_entry = store.log(gid, 0)[-1]
    assert undo_entry["author"] == 0 and undo_entry["seat"] == 1     # the phone to tell: Ann's
    answer = store.revert(gid, 0, 4, "r1", taken["seq"])
    assert answer == {"version": 5, "seq": 5, "reverted": 3}
    assert hand(store, gid, 0) == sorted([a, c])
    log = store.log(gid, None)
    assert log[-1]["text"] == "Ann put back their move 3: Ann drew a card"
    assert log[3]["put_back"] is True and not log[2]["undone"]
    agrees(store, gid)
    with pytest.raises(IllegalMove, match="already put back"):
        store.revert(gid, 0, 5, "r2", taken["seq"])


def test_a_removed_move_is_put_back_and_a_later_move_that_no_longer_fits_refuses_it(
        store: Store, trio: dict[str, Any]) -> None:
    gid = trio["id"]
    a, b, c = fillory_deck_cards(store.current(gid)[1])[:3]
    draw(store, gid, 0, a)
    draw(store, gid, 1, b)
    removed = store.correct(gid, 1, 2, "c1", 1, None)       # Ben removes Ann's draw ...
    draw(store, gid, 2, a)                                   # ... and Cat then draws that card
    with pytest.raises(CorrectionRefused) as refused:
        store.revert(gid, 0, 4, "r1", removed["seq"])
    # Cat's draw holds a card only Cat sees: the refusal names neither her nor her move (it would say she holds a)
    assert refused.value.seq is None and "another player" in refused.value.message and store.version(gid) == 4
    with pytest.raises(IllegalMove, match="Only Ben or Ann"):
        store.revert(gid, 2, 4, "r1", removed["seq"])       # Cat neither made the change nor lost the move
    store.revert(gid, 0, 4, "r1", removed["seq"], drop=[4])
    assert hand(store, gid, 0) == [a] and hand(store, gid, 2) == []
    assert store.log(gid, None)[-1]["text"] == "Ann put back their move 1: Ann drew a card; removed with it: move 4"
    agrees(store, gid)
    del c


def test_a_correction_is_undone_and_reads_as_before(store: Store, trio: dict[str, Any]) -> None:
    gid = trio["id"]
    a, b, c, d = fillory_deck_cards(store.current(gid)[1])[:4]
    draw(store, gid, 0, a)
    draw(store, gid, 1, b)
    draw(store, gid, 2, c)
    fixed = store.correct(gid, 0, 3, "c1", 1, {"type": "draw", "card": d})
    assert hand(store, gid, 0) == [d]
    store.revert(gid, 0, 4, "r1", fixed["seq"])
    assert hand(store, gid, 0) == [a]
    log = store.log(gid, None)
    assert log[-1]["text"] == "Ann undid the correction of their move 1; it reads again: Ann drew a card"
    assert not log[0]["corrected"]
    agrees(store, gid)


def test_a_correction_fixes_a_later_move_with_it(store: Store, trio: dict[str, Any]) -> None:
    gid = trio["id"]
    a, b, c = fillory_deck_cards(store.current(gid)[1])[:3]
    draw(store, gid, 0, a)
    draw(store, gid, 1, b)
    draw(store, gid, 0, c)
    with pytest.raises(CorrectionRefused) as refused:        # Ann's two draws were the other way round
        store.correct(gid, 0, 3, "c1", 1, {"type": "draw", "card": c})
    assert refused.value.seq == 3
    answer = store.correct(gid, 0, 3, "c1", 1, {"type": "draw", "card": c},
                           also=[{"seq": 3, "move": {"type": "draw", "card": a}}])
    assert answer["corrected"] == 1 and hand(store, gid, 0) == sorted([a, c])
    log = store.log(gid, 0)
    assert log[0]["corrected"] and log[2]["corrected"] and log[-1]["text"].endswith("corrected with it: move 3")
    agrees(store, gid)
    with pytest.raises(IllegalMove, match="only Ben writes Ben's moves"):  # Ben's draw: only he sets it
        store.correct(gid, 0, 4, "c2", 1, {"type": "draw", "card": b},
                      also=[{"seq": 2, "move": {"type": "draw", "card": c}}])
    store.revert(gid, 0, 4, "r1", answer["seq"])               # undone: both read as first reported
    assert [e["corrected"] for e in store.log(gid, 0)[:3]] == [False, False, False]
    agrees(store, gid)


def test_a_move_put_in_by_a_correction_comes_before_the_later_move_and_goes_with_its_undo(
        store: Store, trio: dict[str, Any]) -> None:
    gid = trio["id"]
    a, b, c, d = fillory_deck_cards(store.current(gid)[1])[:4]
    draw(store, gid, 0, a)
    draw(store, gid, 1, b)
    draw(store, gid, 2, c)
    answer = store.correct(gid, 0, 3, "c1", 1, {"type": "draw", "card": a},
                           insert=[{"before": 2, "seat": 0, "move": {"type": "draw", "card": d}}])
    assert answer == {"version": 5, "seq": 4, "corrected": 1, "inserted": [5]}
    assert hand(store, gid, 0) == sorted([a, d])
    log = store.log(gid, None)
    assert log[4]["before"] == 2 and log[3]["text"].endswith("put in with it: move 5")
    agrees(store, gid)
    store.undo(gid, 2, 5, "u1")                 # an undo after it still takes back the last move (Cat's)
    assert hand(store, gid, 2) == [] and hand(store, gid, 0) == sorted([a, d])
    agrees(store, gid)
    store.correct(gid, 1, 6, "c2", 5, None)     # the put-in move is a move like any other: it can be removed
    assert hand(store, gid, 0) == [a]
    agrees(store, gid)
    store.revert(gid, 0, 7, "r1", 7)            # and put back
    store.revert(gid, 0, 8, "r2", 4)            # undoing the correction takes the move it put in with it
    assert hand(store, gid, 0) == [a] and hand(store, gid, 1) == [b]
    agrees(store, gid)
    with pytest.raises(IllegalMove, match="put in only before"):
        store.correct(gid, 0, 9, "c3", 2, None, insert=[{"before": 1, "seat": 0, "move": {"type": "draw", "card": d}}])


def test_a_move_put_in_before_a_move_the_same_correction_removes_goes_where_that_move_was(
        store: Store, trio: dict[str, Any]) -> None:
    """A correction that removes the move a move is put in before (the drop-all button of a change that ends the
    game sooner keeps the move the rules needed before the first move after the end): it was refused ("a move can
    be put in only before a live move after move 1"). The move goes in where the removed one was: before the
    next move kept, else at the end; the log reads it back the same."""
    gid = trio["id"]
    a, b, c, d, e = fillory_deck_cards(store.current(gid)[1])[:5]
    draw(store, gid, 0, a)
    draw(store, gid, 1, b)
    draw(store, gid, 2, c)
    put = {"before": 2, "seat": 0, "move": {"type": "draw", "card": d}}
    answer = store.correct(gid, 0, 3, "c1", 1, {"type": "draw", "card": a}, drop=[2], insert=[put])
    assert [(m.seat, m.move.get("card")) for m in store.live_moves(gid)] == [(0, a), (0, d), (2, c)]
    assert [m.seq for m in store.live_moves(gid)] == [1, answer["inserted"][0], 3]   # before move 3, kept
    assert hand(store, gid, 0) == sorted([a, d]) and hand(store, gid, 1) == []
    agrees(store, gid)
    version = store.version(gid)
    last = {"before": 3, "seat": 0, "move": {"type": "draw", "card": e}}
    answer = store.correct(gid, 0, version, "c2", 1, {"type": "draw", "card": a}, drop=[3], insert=[last])
    assert [m.seq for m in store.live_moves(gid)][-1] == answer["inserted"][0]          # at the end
    assert hand(store, gid, 0) == sorted([a, d, e]) and hand(store, gid, 2) == []
    agrees(store, gid)
    with pytest.raises(IllegalMove, match="put in only before"):   # a move neither live nor removed by it
        store.correct(gid, 0, store.version(gid), "c3", 1, {"type": "draw", "card": a},
                      insert=[{"before": 3, "seat": 0, "move": {"type": "draw", "card": b}}])


def test_preview_and_the_state_before_a_move(store: Store, trio: dict[str, Any]) -> None:
    gid = trio["id"]
    a, b, c = fillory_deck_cards(store.current(gid)[1])[:3]
    draw(store, gid, 0, a)
    draw(store, gid, 1, b)
    misfit, before = store.preview(gid, 0, 1, {"type": "draw", "card": b})
    assert misfit is not None and misfit.seq == 2 and fillory.view(before, 0)["players"][0]["hand"] == [b]
    assert store.preview(gid, 0, 1, {"type": "draw", "card": c})[0] is None
    move, state = store.state_before(gid, 2)
    assert move.move == {"type": "draw", "card": b} and fillory.view(state, 0)["players"][0]["hand"] == [a]
    assert store.version(gid) == 2      # nothing written


OPERATIONS = st.lists(st.tuples(st.sampled_from(["draw", "undo", "correct", "remove", "revert", "insert"]),
                                st.integers(0, 2), st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=14)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_any_mix_of_moves_take_backs_corrections_put_backs_and_put_ins_reads_the_same_every_way(
        tmp_path_factory: pytest.TempPathFactory, operations: list[tuple[str, int, int, int]]) -> None:
    """Whatever is done, the state the store keeps, its replay of the log and an independent replay of the rows
    agree; a refused change writes nothing."""
    store = Store(tmp_path_factory.mktemp("mix") / "games.sqlite3")
    try:
        gid = store.create_game("fillory", ["Ann", "Ben", "Cat"], {})["id"]
        for n, (kind, seat, a, b) in enumerate(operations):
            version = store.version(gid)
            live = store.live_moves(gid)
            cards = fillory_deck_cards(store.current(gid)[1])
            changes = [e["seq"] for e in store.log(gid, None) if e["kind"] in ("undo", "correct")]
            try:
                if kind == "draw":
                    store.apply_move(gid, seat, version, f"o{n}", {"type": "draw", "card": cards[a % len(cards)]})
                elif kind == "undo":
                    store.undo(gid, seat, version, f"o{n}")
                elif kind in ("correct", "remove", "insert") and live:
                    target = live[a % len(live)]
                    move = None if kind == "remove" else {"type": "draw", "card": cards[b % len(cards)]}
                    later = [m.seq for m in live if m.seq > target.seq and live.index(m) > live.index(target)]
                    put_in = [{"before": later[b % len(later)], "seat": target.seat,
                               "move": {"type": "draw", "card": cards[(b + 1) % len(cards)]}}] \
                        if kind == "insert" and later else []
                    store.correct(gid, target.seat if move else seat, version, f"o{n}", target.seq, move,
                                  insert=put_in)
                elif kind == "revert" and changes:
                    entry = changes[a % len(changes)]
                    store.revert(gid, seat, version, f"o{n}", entry)
            except (IllegalMove, CorrectionRefused):
                assert store.version(gid) == version   # refused: nothing written
            agrees(store, gid)
    finally:
        store.close()


@pytest.mark.parametrize("game", ["barony-sorcery", "fillory"])
def test_a_put_back_read_from_the_moves_before_its_change_is_the_whole_logs_reading(
        store: Store, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A put-back is read from the live moves just before the change it cancels, folding only the entries since
    (the whole log again per put-back made a log of take-backs put back cost seconds a page); random histories of
    moves, take-backs and put-backs read the same as with the whole log folded again each time."""
    import json
    import random

    from companion.store import timeline as T

    rules = rules_for(game)
    names = ["Ann", "Ben", "Cat"]
    gid = store.create_game(game, names, {})["id"]
    rng = random.Random(7)

    def whole(*args: Any) -> Any:
        timeline, _, _, _, body = args
        timeline._before.pop(int(body["entry"]), None)  # (no kept moves: the whole log is folded)
        return revert(*args)

    revert = T._Revisions.revert
    reverts = 0
    for step in range(120):
        version, state = store.current(gid)
        try:
            if rng.random() < 0.55:
                offered = [(s, m) for s in range(3) if (m := rules.random_legal_move(state, s, rng)) is not None]
                if not offered:
                    continue
                seat, move = rng.choice(offered)
                store.apply_move(gid, seat, version, f"m{step}", move)
            elif rng.random() < 0.5:
                store.undo(gid, rng.randrange(3), version, f"u{step}")
            else:
                changes = [e for e in store.log(gid, None) if e["kind"] in ("undo", "correct") and not e.get("put_back")]
                if not changes:
                    continue
                change = changes[-1] if rng.random() < 0.6 else rng.choice(changes[-5:])
                try:
                    store.revert(gid, change["author"], version, f"r{step}", change["seq"])
                except CorrectionRefused as refused:  # put back with the move that no longer fits removed
                    store.revert(gid, change["author"], version, f"r{step}+", change["seq"], drop=[refused.seq])
                reverts += 1
        except (IllegalMove, CorrectionRefused):
            continue
        rows = store.backend.rows("SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq", [gid])
        fast = T._Timeline(rules, rows, names)
        with monkeypatch.context() as patch:
            patch.setattr(T._Revisions, "revert", staticmethod(whole))
            slow = T._Timeline(rules, rows, names)
        assert [(m.seq, m.seat, json.dumps(m.move)) for m in fast.live] == \
            [(m.seq, m.seat, json.dumps(m.move)) for m in slow.live], step
        assert (fast.gone, fast.replaced, fast._touches) == (slow.gone, slow.replaced, slow._touches), step
    assert reverts >= 10


def test_a_put_back_that_ends_the_game_sooner_lists_every_move_after_the_end_and_takes_them_in_one_go(
        store: Store) -> None:
    """Putting back a change that ends the game sooner was refused at the first move after the end only, so a
    client removed one move per round (11 later moves: 12 rounds). The refusal lists them all (public: the game
    is over there, whoever made them), and one put-back with that list as ``drop`` ends the game."""
    game, seat, entry, since = fillory_put_back_that_ends_sooner(store, ["Ann", "Ben"])
    gid = game["id"]
    version = store.version(gid)
    assert len(since) > 1
    with pytest.raises(CorrectionRefused) as refused:
        store.revert(gid, seat, version, "back", entry)
    assert refused.value.seq == since[0] and refused.value.after_end == tuple(since)
    assert refused.value.others == any(m.seat != seat for m in store.live_moves(gid) if m.seq in since)
    assert store.version(gid) == version
    store.revert(gid, seat, version, "back-all", entry, drop=list(refused.value.after_end))
    assert rules_for("fillory").outcome(store.current(gid)[1]).over
    assert not {m.seq for m in store.live_moves(gid)} & set(since)


def test_no_seat_drops_another_seats_private_note_with_its_own_change(store: Store) -> None:
    """Removing Ann's private hand note is refused to Ben, but his own move re-sent with ``drop: [her note]`` (or
    a put-back of his change with that drop) took it away from her own phone (found by the corrections audit)."""
    mandragora = rules_for("mandragora")
    gid = store.create_game("mandragora", ["Ann", "Ben"], {})["id"]
    rng = random.Random(1)
    while True:  # Ben's first move that is not a note
        version, state = store.current(gid)
        seat, move = next((s, m) for s in (1, 0) if (m := mandragora.random_legal_move(state, s, rng)))
        if move["type"] == "note_hand":
            continue
        store.apply_move(gid, seat, version, f"m{version}", move)
        if seat == 1:
            break
    bens = store.version(gid)
    store.apply_move(gid, 0, bens, "note", {"type": "note_hand", "cards": ["green"]})
    note = store.version(gid)
    said = f"'drop' names move {note}, Ann's private note: only they change it"
    with pytest.raises(IllegalMove, match=re.escape(said)):
        store.correct(gid, 1, note, "c1", bens, move, drop=[note])
    removed = store.correct(gid, 1, note, "c2", bens, None)  # his own move: his to remove
    with pytest.raises(IllegalMove, match=re.escape(said)):
        store.revert(gid, 1, removed["version"], "r1", removed["seq"], drop=[note])
    assert [e["move"] for e in store.log(gid, 0) if e["seq"] == note] == [{"type": "note_hand", "cards": ["green"]}]
    assert not next(e for e in store.log(gid, 0) if e["seq"] == note)["undone"]
    assert store.version(gid) == removed["version"]
