"""Content versions of cards: a short digest of everything a card's record says.

A printed card's QR code carries its version (``?v=...``); the card page compares it with the card as
the data says today and tells the player when their print is out of date. Same data, same version, in
every process and on every machine (a SHA-256 of the record as sorted JSON).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

VERSION_LENGTH = 8


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def card_version(card: Any) -> str:
    """The card's content version: 8 hex digits that change whenever any field of its record does."""
    text = json.dumps(_plain(card), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:VERSION_LENGTH]
