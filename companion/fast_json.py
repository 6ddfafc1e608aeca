"""JSON written by orjson where it yields the same document as the standard library, else by json.

The API's answers and the store's game states are the server's own data (strings, whole numbers,
booleans, lists and string-keyed objects), for which orjson writes the same JSON as :mod:`json`
several times faster. Anything orjson refuses (a whole number beyond 64 bits, a lone surrogate, an
unknown type its ``default`` cannot turn into JSON) goes to :mod:`json` as before. What a client
sent (a move as reported) is stored with :mod:`json` itself, whatever it holds.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

_STORE_OPTIONS = orjson.OPT_NON_STR_KEYS
_RESPONSE_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
                     | orjson.OPT_PASSTHROUGH_DATACLASS)


def dumps_compact(value: Any) -> str:
    """``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``, through orjson when it can."""
    try:
        return orjson.dumps(value, option=_STORE_OPTIONS).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with ``jsonify`` answers written by orjson: keys sorted and compact as
    Flask writes them (pretty-printing in debug mode stays with Flask), dates, dataclasses and
    ``__html__`` objects through Flask's own ``default``. Non-ASCII text is sent as UTF-8 rather than
    ``\\u`` escapes (the same JSON). ``dumps``/``loads`` (templates' ``tojson``, request bodies) are
    Flask's."""

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=_RESPONSE_OPTIONS)
        except TypeError:
            return super().response(*args, **kwargs)
        return self._app.response_class(body + b"\n", mimetype=self.mimetype)
