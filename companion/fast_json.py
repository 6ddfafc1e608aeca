"""JSON written by orjson where it yields the same document as the standard library, else by json.

The store's game states and answers, like the API's (:mod:`companion.web.json_provider`), are the
server's own data (strings, whole numbers, booleans, lists and string-keyed objects), for which
orjson writes the same JSON as :mod:`json` several times faster. Anything orjson refuses (a whole
number beyond 64 bits, a lone surrogate, an unknown type) goes to :mod:`json` as before. What a
client sent (a move as reported) is stored with :mod:`json` itself, whatever it holds.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_STORE_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps_compact(value: Any) -> str:
    """``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``, through orjson when it can."""
    try:
        return orjson.dumps(value, option=_STORE_OPTIONS).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
