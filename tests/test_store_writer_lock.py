"""Writers in different processes queue on the store's writer lock file (an flock), not in SQLite's busy handler."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest

from companion.store import WRITER_LOCK_SUFFIX, Store

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="flock and fork are POSIX")

HOLD_SECONDS = 0.4


def _hold_the_writer_lock(db: str, holding: object, releasing: object) -> None:
    store = Store(db)
    with store.backend.write():
        holding.set()  # type: ignore[attr-defined]
        time.sleep(HOLD_SECONDS)
        releasing.set()  # type: ignore[attr-defined]  # still held: nobody else can have written yet
    store.close()


def test_a_write_waits_for_another_process_holding_the_lock(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    store = Store(db)
    game = store.create_game("fillory", ["Ann", "Ben"], {}, held=[0])  # seat 1 free, so claiming it is a write
    assert (tmp_path / ("companion.sqlite3" + WRITER_LOCK_SUFFIX)).exists()
    context = multiprocessing.get_context("fork")
    holding, releasing = context.Event(), context.Event()
    other = context.Process(target=_hold_the_writer_lock, args=(str(db), holding, releasing))
    other.start()
    try:
        assert holding.wait(120)  # a ceiling: the fork normally holds the lock within milliseconds
        store.claim_seat(game["id"], 1)  # a write: it must wait for the other process
        # it finished only once the other process was letting go (timing-free: holds under any load)
        assert releasing.is_set()
    finally:
        other.join(120)
        store.close()
    assert other.exitcode == 0


def test_each_process_opens_its_own_lock_descriptor(tmp_path: Path) -> None:
    store = Store(tmp_path / "companion.sqlite3")
    store.create_game("fillory", ["Ann", "Ben"], {})
    assert store.backend._writer_fd is not None and store.backend._writer_fd[0] == os.getpid()
    inherited = store.backend._writer_fd[1]
    store.backend._writer_fd = (store.backend._writer_fd[0] + 1, inherited)  # as a forked child would find it
    fd = store.backend._writer_lock_fd()
    assert store.backend._writer_fd == (os.getpid(), fd) and fd != inherited
    os.close(inherited)
    store.close()
    assert store.backend._writer_fd is None
