"""Undo by any seat and corrections of earlier reports: logged, never destructive, and replayed without
holding the write lock.

A correction replaces (or removes) one live move and replays every later move on the corrected history;
a later move that no longer fits refuses the whole correction, naming that move, and nothing changes.
"""

from __future__ import annotations

import json
import random
import re
import threading
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.rules import IllegalMove, rules_for
from companion.store import CorrectionRefused, Stale, Store
from companion.store.timeline import HIDDEN_MISFIT
from tests.store_checks import (  # noqa: F401  (fixtures: a Fillory game in a new store, on each backend)
    fillory_deck_cards,
    fillory_score_that_ends_sooner,
    game,
    jsmn_card_that_ends_sooner,
    replay_from_scratch,
    store,
    writing,
)

fillory = rules_for("fillory")


free_cards = fillory_deck_cards


def draw(store: Store, game_id: str, seat: int, card: str) -> dict[str, Any]:
    version = store.version(game_id)
    return store.apply_move(game_id, seat, version, f"d{version}", {"type": "draw", "card": card})


def hand(store: Store, game_id: str, seat: int) -> list[str]:
    return list(fillory.view(store.current(game_id)[1], seat)["players"][seat]["hand"])


def stored_rows(store: Store, game_id: str) -> tuple[str, list[dict[str, Any]]]:
    db = store.backend._db()
    initial = db.execute("SELECT initial_state FROM games WHERE id = ?", [game_id]).fetchone()[0]
    cursor = db.execute("SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq", [game_id])
    keys = [d[0] for d in cursor.description]
    return initial, [dict(zip(keys, row, strict=True)) for row in cursor.fetchall()]


def test_a_correction_replaces_a_move_and_replays_the_later_ones(store: Store, game: dict[str, Any]) -> None:
    a, b, c, d = free_cards(store.current(game["id"])[1])[:4]
    draw(store, game["id"], 0, a)
    draw(store, game["id"], 1, b)
    draw(store, game["id"], 0, c)
    answer = store.correct(game["id"], 0, 3, "c1", 1, {"type": "draw", "card": d})
    assert answer == {"version": 4, "seq": 4, "corrected": 1}
    assert sorted(hand(store, game["id"], 0)) == sorted([d, c]) and hand(store, game["id"], 1) == [b]
    entries = store.log(game["id"], 0)
    assert [(e["kind"], e["undone"], e["corrected"]) for e in entries] == [
        ("move", False, True), ("move", False, False), ("move", False, False), ("correct", False, False)]
    assert entries[0]["move"] == {"type": "draw", "card": a}   # never destructive: the first report stays
    assert entries[3]["move"] == {"type": "correct", "seq": 1, "move": {"type": "draw", "card": d}}
    assert store.log(game["id"], 1)[3]["move"]["move"]["card"] is None  # redacted for the other seat
    assert store.log(game["id"], None)[3]["text"] == "Ann corrected their move 1; it now reads: Ann drew a card"
    # the store's answer, its replay from the log, and an independent replay of the stored rows agree
    expected = fillory.state_to_json(store.current(game["id"])[1])
    assert fillory.state_to_json(store.replay(game["id"])) == expected
    assert fillory.state_to_json(replay_from_scratch(fillory, *stored_rows(store, game["id"]))) == expected


def test_a_correction_after_which_a_later_move_no_longer_fits_is_refused_and_changes_nothing(
        store: Store, game: dict[str, Any]) -> None:
    a, b, c = free_cards(store.current(game["id"])[1])[:3]
    draw(store, game["id"], 0, a)
    draw(store, game["id"], 1, b)
    draw(store, game["id"], 0, c)
    before = fillory.state_to_json(store.current(game["id"])[1])
    with pytest.raises(CorrectionRefused) as refused:   # Ann says she drew b, which Ben drew as move 2
        store.correct(game["id"], 0, 3, "c1", 1, {"type": "draw", "card": b})
    # Ben's draw holds a card only Ben sees: which move fails (and whose) would tell Ann who holds b
    assert refused.value.seq is None and refused.value.message.lower() == HIDDEN_MISFIT.lower() + "."
    assert "Ben" not in refused.value.message and "2" not in refused.value.message
    assert store.version(game["id"]) == 3 and fillory.state_to_json(store.current(game["id"])[1]) == before
    # the refusal's own author is told why
    with pytest.raises(CorrectionRefused) as own:
        store.correct(game["id"], 0, 3, "c2", 1, {"type": "draw", "card": c})
    assert own.value.seq == 3 and own.value.message.lower().startswith("your move 3 would no longer fit: ")
    # dropping the move that no longer fits in the same correction is accepted
    store.correct(game["id"], 0, 3, "c3", 1, {"type": "draw", "card": b}, drop=[2])
    assert sorted(hand(store, game["id"], 0)) == sorted([b, c]) and hand(store, game["id"], 1) == []
    assert store.log(game["id"], None)[-1]["text"].endswith("; removed with it: move 2")
    assert [e["undone"] for e in store.log(game["id"], None)][:3] == [False, True, False]


def test_a_refused_correction_is_the_same_whoever_holds_the_card(store: Store) -> None:
    """The attacker's test: two games with the same public moves, Cid and Ann holding each other's draws. Ben
    corrects his own draw into the card one of them holds: the refusal (and the corrections page's preview of
    it) is word for word the same in both, naming neither the seat nor the move."""
    games = [store.create_game("fillory", ["Ann", "Ben", "Cid"], {}) for _ in range(2)]
    x, y, z = free_cards(store.current(games[0]["id"])[1])[:3]
    answers = []
    for n, created in enumerate(games):
        draw(store, created["id"], 1, y)                         # Ben's move 1
        draw(store, created["id"], 0, x if n == 0 else z)        # Ann's move 2: x in one game, z in the other
        draw(store, created["id"], 2, z if n == 0 else x)        # Cid's move 3
        preview = store.preview(created["id"], 1, 1, {"type": "draw", "card": x})
        assert preview[0] is not None and preview[0].seat == (0 if n == 0 else 2)  # the store knows which
        with pytest.raises(CorrectionRefused) as refused:
            store.correct(created["id"], 1, 3, f"x{n}", 1, {"type": "draw", "card": x})
        answers.append((refused.value.message, refused.value.seq, refused.value.rule))
        assert store.version(created["id"]) == 3
    assert answers[0] == answers[1] and answers[0][1] is None


def test_a_removed_move_and_a_correction_of_a_move_with_hidden_parts(store: Store, game: dict[str, Any]) -> None:
    a, b, c = free_cards(store.current(game["id"])[1])[:3]
    draw(store, game["id"], 0, a)
    draw(store, game["id"], 1, b)
    # Ben cannot rewrite what Ann drew (he may not see it)...
    with pytest.raises(IllegalMove, match="Move 1 holds what only Ann may see: only they can correct it"):
        store.correct(game["id"], 1, 2, "c1", 1, {"type": "draw", "card": c})
    # ...but any seat may remove a report
    store.correct(game["id"], 1, 2, "c2", 1, None)
    assert hand(store, game["id"], 0) == [] and hand(store, game["id"], 1) == [b]
    assert store.log(game["id"], None)[-1]["text"] == "Ben removed Ann's move 1 (Ann drew a card)"
    with pytest.raises(IllegalMove, match="(?i)move 1 is not a move of the game as it stands"):
        store.correct(game["id"], 1, 3, "c3", 1, None)
    with pytest.raises(IllegalMove, match="(?i)'drop' names move 1"):
        store.correct(game["id"], 1, 3, "c4", 2, None, drop=[1])
    with pytest.raises(Stale):
        store.correct(game["id"], 1, 2, "c5", 2, None)
    assert store.correct(game["id"], 1, 3, "c2", 1, None) == {"version": 3, "seq": 3, "corrected": 1}  # a retry


def test_a_correction_refused_by_the_rules_names_the_corrected_move(store: Store, game: dict[str, Any]) -> None:
    a = free_cards(store.current(game["id"])[1])[0]
    draw(store, game["id"], 0, a)
    with pytest.raises(CorrectionRefused) as refused:
        store.correct(game["id"], 0, 1, "c1", 1, {"type": "draw", "card": "no-such-card"})
    assert refused.value.seq == 1 and store.version(game["id"]) == 1


class CountingRules:
    """The game's rules module, counting its apply calls and whether any ran inside the write lock."""

    def __init__(self, store: Store, rules: Any) -> None:
        self.store, self.rules, self.calls, self.locked = store, rules, 0, 0
        self.during: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)

    def apply(self, state: Any, seat: int, move: Any) -> Any:
        self.calls += 1
        if writing(self.store):
            self.locked += 1
        if self.during is not None:
            during, self.during = self.during, None
            during()
        return self.rules.apply(state, seat, move)


@pytest.fixture
def counting(store: Store, monkeypatch: pytest.MonkeyPatch) -> CountingRules:
    counter = CountingRules(store, fillory)
    monkeypatch.setattr("companion.store.moves.rules_for", lambda game: counter)
    return counter


def test_undo_and_correction_replay_outside_the_write_lock_from_the_nearest_held_state(
        store: Store, game: dict[str, Any], counting: CountingRules) -> None:
    cards = free_cards(store.current(game["id"])[1])
    for i in range(6):                    # the starting hands: three draws each
        draw(store, game["id"], i % 2, cards[i])
    counting.calls = 0
    store.undo(game["id"], 1, 6, "u1")
    assert counting.calls == 0            # the state before move 6 is held: nothing to replay
    store.correct(game["id"], 0, 7, "c1", 3, {"type": "draw", "card": cards[20]})
    assert counting.calls == 3            # moves 3 (as corrected), 4 and 5: from the state after move 2
    assert counting.locked == 0
    store._states.clear()                 # another process: nothing held, the replay starts at set-up
    counting.calls = 0
    store.undo(game["id"], 0, 8, "u2")
    assert counting.calls == 4 and counting.locked == 0
    assert fillory.state_to_json(store.current(game["id"])[1]) == fillory.state_to_json(store.replay(game["id"]))


def test_a_move_that_lands_while_an_undo_replays_makes_the_undo_stale(
        store: Store, game: dict[str, Any], counting: CountingRules) -> None:
    cards = free_cards(store.current(game["id"])[1])
    for i in range(4):
        draw(store, game["id"], i % 2, cards[i])
    store._states.clear()
    landed = threading.Event()

    def another_phone_moves() -> None:  # the write lock is free while the undo replays
        store.apply_move(game["id"], 0, 4, "other", {"type": "draw", "card": cards[10]})
        landed.set()

    counting.during = another_phone_moves
    with pytest.raises(Stale) as stale:
        store.undo(game["id"], 1, 4, "u1")
    assert landed.is_set() and stale.value.version == 5
    assert [e["kind"] for e in store.log(game["id"], None)] == ["move"] * 5


def test_the_api_correct_route(client: FlaskClient) -> None:
    created = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}).get_json()
    store: Store = client.application.extensions["store"]
    a, b, c = free_cards(store.current(created["id"])[1])[:3]
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    url = f"/api/games/{created['id']}"
    for version, (seat, card) in enumerate([(0, a), (1, b)]):
        token = created["seats"][seat]["token"]
        assert client.post(f"{url}/moves", headers={"Authorization": f"Bearer {token}"},
                           json={"version": version, "action_id": f"m{version}",
                                 "move": {"type": "draw", "card": card}}).status_code == 200
    refused = client.post(f"{url}/correct", headers=ann,
                          json={"version": 2, "action_id": "c1", "seq": 1, "move": {"type": "draw", "card": b}})
    # Ben's draw, which no longer fits, holds what Ann may not see: the answer names neither it nor Ben
    assert refused.status_code == 422 and "seq" not in refused.get_json()
    assert "another player" in refused.get_json()["error"] and "Ben" not in refused.get_json()["error"]
    assert client.post(f"{url}/correct", headers=ann, json={"version": 2, "action_id": "c1", "seq": 1}).status_code == 400
    done = client.post(f"{url}/correct", headers=ann,
                       json={"version": 2, "action_id": "c2", "seq": 1, "move": {"type": "draw", "card": c}})
    assert done.status_code == 200 and done.get_json()["version"] == 3 and done.get_json()["seq"] == 3
    assert done.get_json()["state"]["players"][0]["hand"] == [c]
    assert client.post(f"{url}/correct", json={"version": 3, "action_id": "c3", "seq": 1,
                                               "move": None}).status_code == 401
    entries = client.get(f"{url}/log").get_json()["entries"]
    assert entries[-1]["kind"] == "correct" and entries[0]["corrected"] is True
    assert json.dumps(entries).count(c) == 0   # the public log never names the corrected hidden card


def test_a_correction_whose_sooner_end_rests_on_hidden_magicianship_is_made_with_the_moves_after_it(
        store: Store) -> None:
    """JS&MN: Ann corrects a card of Marseilles (public) to one under which Ben's or Cat's hidden magicianship
    would have defeated the fairy at a later confrontation. A refusal (or a preview) that said so would tell Ann
    what they hide, without changing anything, as often as she liked: the same correction is answered alike
    whichever card she sends, and made; where it ends the game, every move after the end goes with it, the log
    says so, and putting the correction back brings them all back. (A refusal named the defeater's
    magicianship and ranked everyone's: "Ben defeated the fairy (15); Ben has the most magicianship: 15".)"""
    created, seq, ending, defeater, later = jsmn_card_that_ends_sooner(store, ["Ann", "Ben", "Cat"])
    game = created["id"]
    jsmn = rules_for("jsmn")
    moves_before = [m.seq for m in store.live_moves(game)]
    was = jsmn.outcome(store.current(game)[1])
    same = next(m.move for m in store.live_moves(game) if m.seq == seq)
    goes_on = store.correct(game, 0, store.version(game), "same", seq, same)   # the card as it was
    assert jsmn.outcome(store.current(game)[1]) == was and [m.seq for m in store.live_moves(game)] == moves_before
    ends = store.correct(game, 0, store.version(game), "end", seq, ending)
    assert set(ends) == set(goes_on) and ends["corrected"] == goes_on["corrected"] == seq   # answered alike
    state = store.current(game)[1]
    assert jsmn.outcome(state).over and state.defeated_by == defeater
    assert [m.seq for m in store.live_moves(game)] == [s for s in moves_before if s not in later]
    entry = json.loads(store.stored_game(game)[1][-1]["move"])
    assert entry["drop"] == later and entry["ending"]["now"] == jsmn.outcome(state).winning_seats
    back = store.revert(game, 0, ends["version"], "end-back", ends["seq"])
    assert [m.seq for m in store.live_moves(game)] == moves_before and back["version"] == ends["version"] + 1
    assert jsmn.outcome(store.current(game)[1]) == was


def test_a_change_past_a_confrontation_is_answered_alike_whether_the_game_ended_there(store: Store) -> None:
    """JS&MN: Ann's card of Marseilles corrected to one under which Ben's hidden magicianship defeats the fairy at
    his next confrontation, or sent again as it was; each time with a move of her own put in after that
    confrontation that cannot stand there. Where the fairy fell, the change was made (the moves after the end go)
    and the preview said it fits; where he did not, it was refused naming her move put in ("your move … would no
    longer fit") and the preview named it too. So Ann learnt, card after card and without changing anything,
    whether Ben's magicianship reached the fairy she lowered. Now both are answered alike: each preview says it
    fits, each change is made, a later move that no longer fits after the confrontation removed with it. Moves put
    in out of the order they stand in are refused before anything is replayed, in the same words for both."""
    created, seq, ending, defeater, later = jsmn_card_that_ends_sooner(store, ["Ann", "Ben", "Cat"])
    game = created["id"]
    jsmn = rules_for("jsmn")
    same = next(m.move for m in store.live_moves(game) if m.seq == seq)
    moves_before = [m.seq for m in store.live_moves(game)]
    last = moves_before[-1]
    assert last in later   # (after the confrontation)
    cannot = {"type": "new_year", "marseilles": same["marseilles"]}   # a card revealed before: never fits there
    put_in = [{"before": last, "seat": 0, "move": cannot}]
    previews = [store.preview(game, 0, seq, move, insert=put_in) for move in (same, ending)]
    assert [misfit for misfit, _ in previews] == [None, None]
    for n, move in enumerate((same, ending)):
        made = store.correct(game, 0, store.version(game), f"past{n}", seq, move, insert=put_in)
        entry = json.loads(store.stored_game(game)[1][-1]["move"])
        assert "insert" not in entry and last in entry["drop"]
        over = jsmn.outcome(store.current(game)[1]).over
        assert over == (move is ending)
        if move is same:   # the game goes on: only the moves from the one that no longer fits go
            assert [m.seq for m in store.live_moves(game)] == [s for s in moves_before if s != last]
        store.revert(game, 0, made["version"], f"back{n}", made["seq"])
        assert [m.seq for m in store.live_moves(game)] == moves_before
    early = [m.seq for m in store.live_moves(game) if seq < m.seq < later[0]][0]
    disordered = [*put_in, {"before": early, "seat": 0, "move": cannot}]
    said = set()
    for n, move in enumerate((same, ending)):
        with pytest.raises(IllegalMove) as refused:
            store.correct(game, 0, store.version(game), f"order{n}", seq, move, insert=disordered)
        said.add(str(refused.value))
    assert len(said) == 1 and "in the order they come in the game" in said.pop()


def test_a_correction_that_ends_the_game_sooner_names_the_moves_after_the_new_end(store: Store) -> None:
    """Ann's trait score corrected to one that takes her to 100 VP: every later move now comes after the end.
    That is public, whoever made them (another's hidden draw among them), so the refusal names the first one
    and says why; the same correction removing all of them is taken, and the game ends at the corrected move.
    (It said a hidden move of another player no longer fitted, naming none, and the table was stuck.)"""
    created, seq, seat, trait, moves = fillory_score_that_ends_sooner(store, ["Ann", "Ben"])
    later = [n for n, _, _ in moves]
    corrected = {"type": "score", "trait": trait}
    version = store.version(created["id"])
    with pytest.raises(CorrectionRefused) as refused:
        store.correct(created["id"], seat, version, "e1", seq, corrected)
    assert refused.value.seq == later[0]
    assert refused.value.message.startswith("The game would now end before") and "100 VP" in refused.value.message
    assert store.version(created["id"]) == version
    # the moves before another seat's hidden draw dropped: that draw is named too (its author and seq)
    hidden = next(n for n, author, move in moves if author != seat and move["type"] == "draw")
    with pytest.raises(CorrectionRefused) as theirs:
        store.correct(created["id"], seat, version, "e2", seq, corrected, drop=[n for n in later if n < hidden])
    assert theirs.value.seq == hidden and f"end before {['Ann', 'Ben'][1 - seat]}'s move {hidden}" in \
        theirs.value.message
    store.correct(created["id"], seat, version, "e3", seq, corrected, drop=later)
    ended = fillory.outcome(store.current(created["id"])[1])
    assert ended.over and ended.winning_seats == [seat]
    assert not {m.seq for m in store.live_moves(created["id"])} & set(later)


def _opening(store: Store, game_id: str) -> list[tuple[int, dict[str, Any]]]:
    """Ann's three draws, Ben's three and Ann's fourth, then her turn's public moves, seeded: (seat, move) each."""
    rng, made = random.Random(2), []
    while len(made) < 12:
        state = store.current(game_id)[1]
        seat, move = next((s, m) for s in range(2) if (m := fillory.random_legal_move(state, s, rng)))
        store.apply_move(game_id, seat, store.version(game_id), f"o{len(made)}", move)
        made.append((seat, move))
    return made


def test_no_seat_writes_another_seats_move_in_a_game_with_hidden_information(store: Store,
                                                                           game: dict[str, Any]) -> None:
    """Ben could correct Ann's public move (or name it in a correction's ``also``, or put one in for her) into a
    move whose fit rests on her hidden hand: a draw of a card he names, or a play of one. It was made (her hand
    changed at his word) or refused, so the answer (and the corrections page's preview) told him whether she
    held that card. Now only Ann writes Ann's moves in a game with hidden information, whatever card he names;
    any seat may still remove one (as the pages always offered)."""
    gid = game["id"]
    made = _opening(store, gid)
    public = next(n for n, (seat, move) in enumerate(made, start=1)
                  if seat == 0 and fillory.redact_move(move, 0, None) == move)
    bens = next(n for n, (seat, _) in enumerate(made, start=1) if seat == 1)
    held, free = hand(store, gid, 0)[0], free_cards(store.current(gid)[1])[0]
    version, before = store.version(gid), store.log(gid, 0)
    said = f"Move {public} is Ann's: in a game with hidden information only Ann writes Ann's moves (any seat may remove one)."
    answers = []
    for card in (held, free):
        for written in ({"type": "draw", "card": card}, {"type": "play", "card": card}):
            with pytest.raises(IllegalMove) as refused:
                store.correct(gid, 1, version, f"w{card}{written['type']}", public, written)
            answers.append(str(refused.value))
            with pytest.raises(IllegalMove) as refused:
                store.correct(gid, 1, version, f"a{card}{written['type']}", bens, made[bens - 1][1],
                              also=[{"seq": public, "move": written}])
            answers.append(str(refused.value))
        with pytest.raises(IllegalMove, match="The move put in is Ann's: in a game with hidden information"):
            store.correct(gid, 1, version, f"i{card}", bens, made[bens - 1][1],
                          insert=[{"before": public, "seat": 0, "move": {"type": "play", "card": card}}])
        with pytest.raises(IllegalMove, match=re.escape(said)):  # the preview (the corrections page's) as well
            store.preview(gid, 1, public, {"type": "play", "card": card})
    assert answers == [said] * 8
    assert store.version(gid) == version and store.log(gid, 0) == before
    store.correct(gid, 1, version, "r", public, None, drop=[n for n in range(public + 1, len(made) + 1)])
    assert store.version(gid) == version + 1  # removal stands open to every seat


def test_a_corrections_also_shows_each_later_move_only_as_its_author_may_see_it(store: Store,
                                                                                game: dict[str, Any]) -> None:
    """Ann corrected her first draw and, with it, her second: the log (and result.json, which reads it) showed the
    second draw's card to every phone, though that draw's own line hides it."""
    gid = game["id"]
    x, y, z, w = free_cards(store.current(gid)[1])[:4]
    draw(store, gid, 0, x)
    draw(store, gid, 0, y)
    store.correct(gid, 0, 2, "c1", 1, {"type": "draw", "card": z}, also=[{"seq": 2, "move": {"type": "draw", "card": w}}])
    for viewer in (None, 1):
        entry = store.log(gid, viewer)[-1]
        assert entry["kind"] == "correct" and entry["move"]["also"] == [{"seq": 2, "move": {"type": "draw", "card": None}}]
        assert w not in json.dumps(store.log(gid, viewer)) and z not in json.dumps(store.log(gid, viewer))
    assert store.log(gid, 0)[-1]["move"]["also"] == [{"seq": 2, "move": {"type": "draw", "card": w}}]
