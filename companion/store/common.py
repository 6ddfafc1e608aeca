"""Small helpers every part of the store shares: hashes, timestamps, JSON, the log's cap."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from typing import Any

from companion.rules import IllegalMove

State = Any  # each rules module has its own frozen State dataclass

#: the most log entries one game keeps (moves, notes, undos, corrections, reverts, renames): several times
#: the longest real game
MAX_LOG_ENTRIES = 5000
#: entries past :data:`MAX_LOG_ENTRIES` kept only for a seat's recovery (a release, a hand-over) and
#: the note of a rematch, so a lost phone's seat can still be freed in a full game, a bounded number of times
RECOVERY_ENTRIES = 100


def hash_token(token: str) -> str:
    """Tokens are long random strings, so one SHA-256 is enough to store them safely."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _check_room(entries: int, recovery: bool = False) -> None:
    """Refuse a new log entry in a game that holds ``entries`` when it is full: every write counts
    (moves, private notes, undos, corrections, reverts, renames); a seat's release or hand-over and a
    rematch's note may use :data:`RECOVERY_ENTRIES` more."""
    if entries >= MAX_LOG_ENTRIES + (RECOVERY_ENTRIES if recovery else 0):
        raise IllegalMove(f"this game has reached {MAX_LOG_ENTRIES:,} moves, the most one game keeps; "
                          "start a new game to go on", None)
