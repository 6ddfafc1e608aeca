"""Flask's JSON provider with ``jsonify`` answers written by orjson (see :mod:`companion.fast_json`)."""

from __future__ import annotations

from typing import Any, cast

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

_RESPONSE_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
                     | orjson.OPT_PASSTHROUGH_DATACLASS)


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with ``jsonify`` answers written by orjson: keys sorted and compact as
    Flask writes them (pretty-printing in debug mode stays with Flask), dates, dataclasses and
    ``__html__`` objects through Flask's own ``default``. Non-ASCII text is sent as UTF-8 rather than
    ``\\u`` escapes (the same JSON). ``dumps``/``loads`` (templates' ``tojson``, request bodies) are
    Flask's."""

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if (self.compact is None and self._app.debug) or self.compact is False:
            return cast(Response, super().response(*args, **kwargs))
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=_RESPONSE_OPTIONS)
        except TypeError:
            return cast(Response, super().response(*args, **kwargs))
        response_class = cast("type[Response]", self._app.response_class)  # the app's: Flask's own Response
        return response_class(body + b"\n", mimetype=self.mimetype)
