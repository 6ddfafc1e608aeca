"""Every write counts toward a game's log cap, and log reads agree whoever reads them (issue 23).

A game keeps at most ``MAX_LOG_ENTRIES`` entries, whatever wrote them: moves, private notes, undos,
corrections and renames (only a seat's release or hand-over and a rematch's note may go a bounded
``RECOVERY_ENTRIES`` further, so a lost phone's seat can still be freed). A log read gives the same
answer as a read of the whole log by a process that never read it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import companion.store.common as store_module
import companion.store.words as words
from companion.rules import IllegalMove
from companion.store import Store
from tests.store_checks import fillory_deck_cards, game, reopened, store  # noqa: F401  (fixtures, on each backend)

FULL = "This game has reached 4 moves, the most one game keeps; start a new game to go on."


@pytest.fixture
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "MAX_LOG_ENTRIES", 4)
    monkeypatch.setattr(store_module, "RECOVERY_ENTRIES", 2)


def fill(store: Store, game_id: str) -> None:
    cards = fillory_deck_cards(store.current(game_id)[1])
    for version in range(4):
        store.apply_move(game_id, version % 2, version, f"fill{version}", {"type": "draw", "card": cards[version]})


def test_renames_corrections_and_undos_count_toward_the_cap(store: Store, game: dict[str, Any], small_cap: None) -> None:
    gid = game["id"]
    fill(store, gid)
    before = store.log(gid, None)
    refusals = {
        "a rename": lambda: store.rename_seat(gid, 0, "Cleo"),
        "an undo": lambda: store.undo(gid, 0, 4, "u1"),
        "a correction": lambda: store.correct(gid, 0, 4, "c1", 1, None),
        "a move": lambda: store.apply_move(gid, 0, 4, "m5", {"type": "draw", "card": "golem"}),
    }
    for what, attempt in refusals.items():
        with pytest.raises(IllegalMove) as refused:
            attempt()
        assert str(refused.value) == FULL, what
    assert store.version(gid) == 4 and store.log(gid, None) == before   # nothing was written


def test_a_seat_can_still_be_released_in_a_full_game_a_bounded_number_of_times(
        store: Store, game: dict[str, Any], small_cap: None) -> None:
    gid = game["id"]
    fill(store, gid)
    for _ in range(2):                     # the recovery entries: a lost phone's seat is freed, then taken again
        store.release_seat(gid, 0)
        store.claim_seat(gid, 0)
    with pytest.raises(IllegalMove) as refused:
        store.release_seat(gid, 0)
    assert str(refused.value) == FULL and store.version(gid) == 4 + 2


def test_a_log_read_by_a_process_that_read_the_game_before_reads_as_a_fresh_one(store: Store, game: dict[str, Any], tmp_path: Path) -> None:
    gid = game["id"]
    cards = fillory_deck_cards(store.current(gid)[1])
    store.apply_move(gid, 0, 0, "a", {"type": "draw", "card": cards[0]})
    store.log(gid, None)
    store.apply_move(gid, 1, 1, "b", {"type": "draw", "card": cards[1]})
    store.log(gid, 0, since=1)
    store.correct(gid, 0, 2, "c", 1, {"type": "draw", "card": cards[2]})
    store.rename_seat(gid, 1, "Bea")
    store.undo(gid, 0, 4, "u")
    fresh = reopened(store)        # another process: it never read this game's log
    try:
        for viewer in (None, 0, 1):
            assert store.log(gid, viewer) == fresh.log(gid, viewer)
            assert store.log(gid, viewer, since=3) == fresh.log(gid, viewer)[3:]
            assert store.recent_log(gid, viewer, 2) == fresh.recent_log(gid, viewer, 2)
    finally:
        fresh.close()


class LogWork:
    """What a log read costs: the log rows it fetches and the timelines it resolves from scratch."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rows = self.resolved = 0
        real_fetch, real_timeline = words.fetch_rows, words._Timeline
        work = self

        def fetch_rows(db: Any, sql: str, params: Any = ()) -> list[dict[str, Any]]:
            found = real_fetch(db, sql, params)
            work.rows += len(found) if "FROM moves" in sql else 0
            return found

        class CountedTimeline(real_timeline):  # type: ignore[valid-type,misc]
            def __init__(self, *args: Any) -> None:
                work.resolved += 1
                super().__init__(*args)

        monkeypatch.setattr(words, "fetch_rows", fetch_rows)
        monkeypatch.setattr(words, "_Timeline", CountedTimeline)

    def since_last(self) -> tuple[int, int]:
        done, self.rows, self.resolved = (self.rows, self.resolved), 0, 0
        return done


def test_a_log_read_costs_the_entries_written_since_not_the_whole_log(
        store: Store, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: ``GET /log?since=n`` on a long game read and resolved the whole log each time."""
    gid = game["id"]
    cards = fillory_deck_cards(store.current(gid)[1])
    for version in range(20):                      # a longer log: seat entries, then the opening draws
        store.rename_seat(gid, 1, f"Ben {version}")
    for version in range(20, 25):
        store.apply_move(gid, version % 2, version, f"m{version}", {"type": "draw", "card": cards[version]})
    work = LogWork(monkeypatch)
    assert len(store.log(gid, None)) == 25
    assert work.since_last() == (25, 1)            # the first read of the game: the whole log, resolved once
    assert store.log(gid, 0, since=24) == store.log(gid, 0)[24:]
    assert work.since_last() == (0, 0)            # nothing new: nothing fetched, nothing resolved
    store.apply_move(gid, 1, 25, "m25", {"type": "draw", "card": cards[25]})
    assert [e["seq"] for e in store.log(gid, 1, since=25)] == [26]
    assert work.since_last() == (1, 0)            # one more move: that entry alone, the timeline extended
    store.rename_seat(gid, 1, "Bea")
    lines, _, undo_seat = store.recent_log(gid, None, 2)
    assert [line["seq"] for line in lines] == [26, 27] and undo_seat == 1
    assert work.since_last() == (1, 0)
    store.undo(gid, 0, 27, "u")                   # an undo changes an earlier move: resolved again, in full
    assert store.log(gid, None, since=27)[0]["text"].startswith("Ann took back Bea's move 26")
    assert work.since_last() == (1 + 28, 1)        # (the new entry, found to be an undo, then the log)
    fresh = Store(store.backend.target)            # what a process that never read the game answers
    try:
        for viewer in (None, 0, 1):
            assert store.log(gid, viewer) == fresh.log(gid, viewer)
            assert store.recent_log(gid, viewer, 3) == fresh.recent_log(gid, viewer, 3)
    finally:
        fresh.close()
