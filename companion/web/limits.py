"""Limits on what a request may be, each refused with a clear 4xx in the one error shape.

- The body: at most ``MAX_CONTENT_LENGTH`` bytes (64 KB; 413), read in full within
  :data:`BODY_SECONDS` of the headers (408) by :class:`WholeBody`, before the app sees it, so no
  request handler ever waits on a slow client. Under gevent (``companion serve``) the deadline is a
  ``gevent.Timeout`` around the whole read, so it holds for a body trickled a byte at a time too
  (a read of the socket waits for a whole chunk, and would never come back to look at the clock);
  elsewhere it is checked between reads. After a body it did not read in full the connection is
  closed (``environ[CLOSE_CONNECTION]``, :mod:`companion.serving`).
  A photo upload (``POST /api/photo/<game>``) has its own limit, :data:`companion.photo.MAX_PHOTO_BYTES`
  (20 MB), and :data:`UPLOAD_SECONDS` to arrive.
- JSON bodies (:func:`parse_json`): only with ``Content-Type: application/json`` (415: a web page
  elsewhere can send ``text/plain`` to any address without asking, but not JSON), standard JSON only
  (no ``NaN``, ``Infinity``, numbers beyond a double, or lone surrogates), nested at most
  :data:`MAX_DEPTH` deep, text at most :data:`MAX_TEXT` characters, lists and objects at most
  :data:`MAX_ITEMS` entries, numbers within ±:data:`MAX_NUMBER` (400).
"""

from __future__ import annotations

import io
import re
import sys
import time
from typing import Any, Callable, Iterable

import orjson

BODY_SECONDS = 10.0
#: a photo of several megabytes from a phone on a table's Wi-Fi may take longer than a JSON body
UPLOAD_SECONDS = 30.0
MAX_DEPTH = 16
MAX_TEXT = 200
MAX_ITEMS = 500
#: the largest number a body may hold, either sign: the largest whole number a phone's JavaScript counts
#: exactly (the JSON parser reads a whole number beyond 64 bits as an inexact float; no field needs more)
MAX_NUMBER = 2**53 - 1
BODY_ERROR = "companion.body_error"
#: set in the environ when the connection must be closed after the answer (a body left unread)
CLOSE_CONNECTION = "companion.close_connection"
_CHUNK = 16384


class BadJson(ValueError):
    """The body is not JSON the API takes; the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class WholeBody:
    """WSGI middleware: read a request's whole body before the app runs, within a deadline.

    A body declared longer than ``max_bytes`` is not read at all (413; gunicorn skips its bytes
    before the connection's next request, within the keep-alive time); one that does not arrive within
    ``seconds`` is answered 408. The app finds the problem in ``environ[BODY_ERROR]`` and answers it
    in its own error shape (:func:`companion.web.create_app`)."""

    def __init__(self, app: Callable[..., Iterable[bytes]], max_bytes: int, seconds: float = BODY_SECONDS,
                 uploads: tuple[tuple[re.Pattern[str], int, float], ...] = ()) -> None:
        """``uploads``: (path pattern, bytes, seconds) for the few paths that take more than a JSON body."""
        self.app, self.max_bytes, self.seconds, self.uploads = app, max_bytes, seconds, uploads

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        length = environ.get("CONTENT_LENGTH") or ""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if length or chunked:
            max_bytes, seconds = self.max_bytes, self.seconds
            if self.uploads and environ.get("REQUEST_METHOD") == "POST":
                path = environ.get("PATH_INFO", "")
                for pattern, upload_bytes, upload_seconds in self.uploads:
                    if pattern.fullmatch(path):
                        max_bytes, seconds = upload_bytes, upload_seconds
                        break
            declared = int(length) if length.isdecimal() else None
            if declared is not None and declared > max_bytes:
                environ[BODY_ERROR] = (413, f"the request body is {declared:,} bytes; at most "
                                            f"{max_bytes:,} are taken")
                environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(), "0"
                environ[CLOSE_CONNECTION] = True
            else:
                self._read(environ, declared, max_bytes, seconds)
        return self.app(environ, start_response)

    def _read(self, environ: dict[str, Any], declared: int | None, max_bytes: int, seconds: float) -> None:
        stream = environ["wsgi.input"]
        deadline = time.monotonic() + seconds
        chunks, size = [], 0
        timer = _deadline(seconds)
        try:
            while declared is None or size < declared:
                chunk = stream.read(_CHUNK if declared is None else min(_CHUNK, declared - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > max_bytes:
                    environ[BODY_ERROR] = (413, f"the request body is over {max_bytes:,} bytes; "
                                                f"at most {max_bytes:,} are taken")
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError
            if declared is not None and size < declared and BODY_ERROR not in environ:
                environ[BODY_ERROR] = (400, f"the request body ended after {size:,} of the {declared:,} bytes "
                                            "its Content-Length announced")
        except TimeoutError:
            environ[BODY_ERROR] = (408, f"the request body did not arrive within {seconds:g} seconds")
        except OSError:  # the client went away mid-body (gunicorn's NoMoreData is one)
            environ[BODY_ERROR] = (400, f"the request body was cut short after {size:,} bytes")
        finally:
            if timer is not None:
                timer.close()
        if BODY_ERROR in environ:
            chunks = []
            environ[CLOSE_CONNECTION] = True
        body = b"".join(chunks)
        environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)


def _deadline(seconds: float) -> Any:
    """A started ``gevent.Timeout`` raising :class:`TimeoutError` in this greenlet after ``seconds``, when
    the sockets are gevent's (the gevent worker patches them); None otherwise."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("socket"):
        return None
    import gevent

    return gevent.Timeout.start_new(seconds, TimeoutError)


def parse_json(mimetype: str, raw: bytes) -> Any:
    """The JSON value of a request body, or :class:`BadJson` saying what is wrong with it."""
    if mimetype != "application/json":
        shown = f"'{mimetype}'" if mimetype else "none"
        raise BadJson(415, f"the request body must be JSON sent with 'Content-Type: application/json' "
                           f"(this one's content type: {shown})")
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        reason = str(error).split(":", 1)[0]
        if reason.startswith("depth limit"):
            reason = f"it is nested more than {MAX_DEPTH} deep"
        hint = "; NaN and Infinity are not numbers JSON has" if _not_a_json_number(error) else ""
        raise BadJson(400, f"the request body must be standard JSON ({reason}){hint}") from None
    _check(value, 1)
    return value


def _not_a_json_number(error: orjson.JSONDecodeError) -> bool:
    """Whether the body went wrong at a NaN or Infinity (some encoders write them) or at a number too large
    for a double, where the hint that JSON has no such numbers helps; not at every syntax error."""
    at = str(error.doc)[error.pos:error.pos + len("infinity")].lower()
    return at.startswith(("nan", "infinity")) or "infinity" in str(error)


def _check(value: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise BadJson(400, f"the request body is nested more than {MAX_DEPTH} deep")
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise BadJson(400, f"a text in the request body is {len(value):,} characters; at most {MAX_TEXT} "
                               "are taken")
    elif isinstance(value, dict):
        if len(value) > MAX_ITEMS:
            raise BadJson(400, f"an object in the request body has {len(value):,} fields; at most {MAX_ITEMS}")
        for key, item in value.items():
            _check(key, depth)
            _check(item, depth + 1)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise BadJson(400, f"a number in the request body is beyond ±{MAX_NUMBER:,} (2^53 − 1), the largest "
                               "whole number a phone counts exactly")
    elif isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise BadJson(400, f"a list in the request body has {len(value):,} items; at most {MAX_ITEMS}")
        for item in value:
            _check(item, depth + 1)
