"""Look-ups that arrive together go together (companion.store.batches), and a state read on PostgreSQL gives
the same answer batched as alone: the game's row, its seats, the seat the token holds now."""

from __future__ import annotations

import threading
from typing import Any, Callable, Sequence

import pytest

from companion.store import NotFound, Store
from companion.store.batches import Batches

WAIT = 30.0


class Gate:
    """A ``many`` whose first call waits until the test opens it, noting every call and its keys (a call for one
    key as "one")."""

    def __init__(self, fail: Callable[[Sequence[str]], BaseException | None] = lambda keys: None) -> None:
        self.calls: list[tuple[str, list[str]]] = []
        self.entered = threading.Event()
        self.opened = threading.Event()
        self._fail = fail

    def many(self, keys: Sequence[str]) -> list[str]:
        self.calls.append(("one" if len(keys) == 1 else "many", list(keys)))
        self.entered.set()
        assert self.opened.wait(WAIT)
        error = self._fail(keys)
        if error is not None:
            raise error
        return [f"answer to {key}" for key in keys]


def _ask_all(batches: Batches[str, str], keys: list[str], gate: Gate) -> dict[str, Any]:
    """The first key asked alone and held at the gate; the others asked meanwhile; then the gate opened."""
    answers: dict[str, Any] = {}

    def ask(key: str) -> None:
        try:
            answers[key] = batches.get(key)
        except BaseException as error:  # noqa: BLE001  (what each caller was told)
            answers[key] = error

    first = threading.Thread(target=ask, args=(keys[0],))
    first.start()
    assert gate.entered.wait(WAIT)
    others = [threading.Thread(target=ask, args=(key,)) for key in keys[1:]]
    for thread in others:
        thread.start()
    # every other caller is queued before the gate opens: the queue is the batches' own list
    _wait_for(lambda: len(batches._queue) == len(keys) - 1)
    gate.opened.set()
    for thread in [first, *others]:
        thread.join(WAIT)
    return answers


def _wait_for(condition: Callable[[], bool]) -> None:
    event = threading.Event()
    for _ in range(3000):
        if condition():
            return
        event.wait(0.01)
    raise AssertionError("the condition never held")


def test_the_first_look_up_goes_alone_and_those_that_arrive_meanwhile_go_together() -> None:
    gate = Gate()
    batches: Batches[str, str] = Batches(gate.many)
    answers = _ask_all(batches, ["a", "b", "c", "d"], gate)
    assert answers == {key: f"answer to {key}" for key in "abcd"}
    assert gate.calls == [("one", ["a"]), ("many", ["b", "c", "d"])]
    assert batches._out is False and batches._queue == []
    assert batches.get("e") == "answer to e"  # nothing out any more: asked alone at once
    assert gate.calls[-1] == ("one", ["e"])


def test_no_statement_asks_for_more_than_the_most_at_once() -> None:
    gate = Gate()
    batches: Batches[str, str] = Batches(gate.many, most=2)
    answers = _ask_all(batches, ["a", "b", "c", "d", "e"], gate)
    assert answers == {key: f"answer to {key}" for key in "abcde"}
    assert gate.calls == [("one", ["a"]), ("many", ["b", "c"]), ("many", ["d", "e"])]


def test_an_error_of_a_statement_reaches_each_of_its_callers_and_the_next_ones_are_still_asked() -> None:
    gate = Gate(fail=lambda keys: RuntimeError("the database is away") if "b" in keys else None)
    batches: Batches[str, str] = Batches(gate.many, most=2)
    answers = _ask_all(batches, ["a", "b", "c", "d"], gate)
    assert answers["a"] == "answer to a" and answers["d"] == "answer to d"
    assert isinstance(answers["b"], RuntimeError) and answers["b"] is answers["c"]
    assert gate.calls == [("one", ["a"]), ("many", ["b", "c"]), ("one", ["d"])]
    assert batches._out is False


class Stopped(BaseException):
    """A caller stopped mid-way (as a greenlet is killed), not an error of the statement."""


def test_callers_whose_asker_was_stopped_mid_way_ask_again_themselves() -> None:
    gate = Gate(fail=lambda keys: Stopped() if keys == ["b", "c", "d"] else None)
    batches: Batches[str, str] = Batches(gate.many)
    answers = _ask_all(batches, ["a", "b", "c", "d"], gate)
    assert isinstance(answers["b"], Stopped)  # only the stopped caller hears of it
    assert answers["a"] == "answer to a" and answers["c"] == "answer to c" and answers["d"] == "answer to d"
    assert gate.calls == [("one", ["a"]), ("many", ["b", "c", "d"]), ("many", ["c", "d"])]
    assert batches._out is False


def _state_read_answers(store: Store, asked: list[tuple[str, str | None]]) -> list[Any]:
    answers: list[Any] = []
    for game_id, token in asked:
        try:
            answers.append(store.info_and_seat(game_id, token))
        except NotFound as error:
            answers.append(("not found", str(error)))
    return answers


def test_state_reads_on_postgresql_asked_together_answer_as_each_alone(postgres_dsn: str) -> None:
    store = Store(postgres_dsn)
    try:
        first = store.create_game("fillory", ["Ann", "Bo"], {}, held=[0])
        second = store.create_game("fillory", ["Cy", "Di", "Ed"], {}, held=[0, 2])
        released = second["seats"][2]["token"]
        store.release_seat(second["id"], 2)
        asked = [(first["id"], first["seats"][0]["token"]), (second["id"], second["seats"][0]["token"]),
                 (first["id"], second["seats"][0]["token"]), (second["id"], released), (second["id"], None),
                 ("no-such-game", first["seats"][0]["token"]), (first["id"], "not a token"), (first["id"], None)]
        alone = _state_read_answers(store, asked)
        assert [answer[1] for answer in alone[:5]] == [0, 0, None, None, None]
        assert alone[5][0] == "not found"

        backend: Any = store.backend
        batched: list[int] = []
        original = backend._game_seats_of
        entered, opened = threading.Event(), threading.Event()

        def noted(keys: Sequence[tuple[str, str | None]]) -> list[list[dict[str, Any]]]:
            batched.append(len(keys))
            if len(batched) == 1:  # the first read is held while the others arrive
                entered.set()
                assert opened.wait(WAIT)
            return original(keys)

        backend._game_seats_of = noted
        together: list[Any] = [None] * len(asked)

        def read(i: int) -> None:
            together[i] = _state_read_answers(store, [asked[i]])[0]

        threads = [threading.Thread(target=read, args=(i,)) for i in range(len(asked))]
        threads[0].start()
        assert entered.wait(WAIT)
        for thread in threads[1:]:
            thread.start()
        _wait_for(lambda: len(backend._game_seats._queue) == len(asked) - 1)
        opened.set()
        for thread in threads:
            thread.join(WAIT)
        assert batched == [1, len(asked) - 1]
        assert together == alone
    finally:
        store.close()


@pytest.mark.parametrize("token", [None, "a token"])
def test_a_state_read_on_sqlite_is_the_same_one_statement(tmp_path: Any, token: str | None) -> None:
    store = Store(tmp_path / "games.sqlite3")
    game = store.create_game("fillory", ["Ann", "Bo"], {}, held=[0])
    info, seat = store.info_and_seat(game["id"], game["seats"][0]["token"] if token else None)
    assert seat == (0 if token else None)
    assert info == store.info(game["id"]) and info["claimed"] == [True, False]
