"""``kill -9`` of ``companion serve`` itself (the master only, as a user or the OOM killer does), then
a restart at once on the same port and database.

gunicorn's workers would outlive their master for a second or two and keep the port; ours are killed
by the kernel the moment the master dies (``PR_SET_PDEATHSIG``, :func:`companion.serving.die_with_parent`),
so the restart binds the port again at once, and every move that was acknowledged before the crash is
in the log. (``tests/test_reliability_crash.py`` kills the workers too, in every game.)
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
import requests
from test_reliability_crash import (
    ROUND_SECONDS,
    Phones,
    check_the_log_kept_every_acknowledged_move,
    is_gone,
    remember_answers,
)

from companion.served import process_children, running_server

pytestmark = pytest.mark.served

SIGKILL_BIT = 1 << (signal.SIGKILL - 1)


def dead_or_dying(pid: int) -> bool:
    """Gone, a zombie, or with a SIGKILL pending (it runs no more code of its own)."""
    if is_gone(pid):
        return True
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    pending = [int(line.split()[1], 16) for line in status.splitlines() if line.startswith(("SigPnd:", "ShdPnd:"))]
    return any(mask & SIGKILL_BIT for mask in pending)


def test_a_restart_right_after_kill_9_of_the_server_binds_at_once_and_keeps_every_move(tmp_path: Path) -> None:
    acknowledged: dict[str, int] = {}
    with running_server(tmp_path, ("--workers", "2"), secret_key="restart-key", workers=2) as server:
        port = int(server.base.rsplit(":", 1)[1])
        created = requests.post(server.base + "/api/games", timeout=60,
                                json={"game": "fillory", "players": ["Ann", "Ben", "Cat"], "options": {}}).json()
        phones = Phones("fillory", created["id"], [s["token"] for s in created["seats"]], server.db_path, 3)
        stop = threading.Event()
        phones.play(server.base, 0, stop)
        deadline = time.monotonic() + ROUND_SECONDS
        while phones.acknowledged() < 30:
            assert time.monotonic() < deadline, f"only {phones.acknowledged()} moves in {ROUND_SECONDS} s"
            time.sleep(0.005)
        workers = process_children(server.process.pid)
        assert len(workers) == 2
        os.kill(server.process.pid, signal.SIGKILL)  # the master only, while the phones post
        assert server.process.wait(timeout=120) == -signal.SIGKILL  # a ceiling: a killed process goes at once
        # the kernel signalled the workers as the master died: none is left serving on the port
        assert all(dead_or_dying(pid) for pid in workers), [Path(f"/proc/{p}/status").read_text()[:400]
                                                            for p in workers if not is_gone(p)]
        time.sleep(0.05)
        stop.set()
        phones.join()
    assert phones.failures == []
    remember_answers(phones, acknowledged)
    assert len(acknowledged) >= 30

    with running_server(tmp_path, ("--workers", "2"), secret_key="restart-key", workers=2, port=port) as again:
        log = again.log()
        assert "still in use" not in log and "Address already in use" not in log, log
        assert again.base.endswith(f":{port}")
        phones.retry_unanswered(again.base)
        remember_answers(phones, acknowledged)
        check_the_log_kept_every_acknowledged_move(phones, again.db_path, acknowledged)
        assert requests.get(f"{again.base}/api/games/{phones.game_id}", timeout=60).status_code == 200
    assert all(is_gone(pid) for pid in workers)
