"""One error shape everywhere: ``{"ok": false, "error": sentence, "rule": id | null, "status": 4xx}``.

:func:`error_response` answers JSON under ``/api/`` (or when the client asks for JSON) and an HTML
page otherwise, rendered from ``templates/error.html`` with the same sentence (as ``message`` and
``error``, plus ``status`` and ``rule``); a plain built-in page stands in if that template is missing.
Never a traceback.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app, jsonify, render_template, request
from jinja2 import TemplateNotFound
from markupsafe import escape
from werkzeug.exceptions import HTTPException

from companion.rules.base import (
    sentence,  # the one message style (rules errors are built in it)
)
from companion.store import StoreUnavailable

log = logging.getLogger(__name__)

#: Our own sentence for each status the framework raises with its stock description.
STOCK_SENTENCES: dict[int, str] = {
    400: "the request could not be understood",
    401: "this needs a seat token",
    403: "you may not do that",
    404: "there is nothing at {path}",
    405: "{method} is not allowed at {path}; use {allowed}",
    413: "the request is too large",
    415: "the request body has an unsupported content type",
    500: "something went wrong on our side; the error has been logged",
}


def error_body(status: int, message: str, rule: str | None = None) -> dict[str, Any]:
    return {"ok": False, "error": sentence(message), "rule": rule, "status": status}


def wants_json() -> bool:
    """JSON for the API, for an address that names a JSON file (``result.json``) and for clients that prefer
    it; HTML for browsers on pages."""
    if request.path.startswith("/api/") or request.path == "/api" or request.path.endswith(".json"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


def error_json(status: int, message: str, rule: str | None = None,
               extra: dict[str, Any] | None = None) -> Response:
    response = jsonify({**error_body(status, message, rule), **(extra or {})})
    response.status_code = status
    return response


def error_page(status: int, message: str, rule: str | None = None, title: str | None = None) -> Response:
    message = sentence(message)
    try:
        page = render_template("error.html", status=status, message=message, error=message, rule=rule, title=title)
    except TemplateNotFound:
        page = (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Error {status}</title>"
                f"</head><body><main><h1>Error {status}</h1><p>{escape(message)}</p></main></body></html>")
    return Response(page, status=status, mimetype="text/html")


def error_response(status: int, message: str, rule: str | None = None,
                   extra: dict[str, Any] | None = None, title: str | None = None) -> Response:
    """The one error helper: JSON body or HTML page carrying the same sentence (``title``: the page's heading,
    else the status's own)."""
    if wants_json():
        return error_json(status, message, rule, extra)
    return error_page(status, message, rule, title)


def _sentence(error: HTTPException) -> str:
    status = error.code or 500
    stock = type(error).description
    if error.description and error.description != stock:
        return str(error.description)
    template = STOCK_SENTENCES.get(status, error.name.lower())
    valid = getattr(error, "valid_methods", None) or ()
    allowed = ", ".join(sorted(m for m in valid if m not in ("HEAD", "OPTIONS"))) or "another method"
    return template.format(path=request.path, method=request.method, allowed=allowed)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        response = error_response(error.code or 500, _sentence(error))
        valid_methods = getattr(error, "valid_methods", None)
        if error.code == 405 and valid_methods:
            response.headers["Allow"] = ", ".join(sorted(valid_methods))
        return response

    @app.errorhandler(StoreUnavailable)
    def store_unavailable(error: StoreUnavailable) -> Response:
        reading = request.method in ("GET", "HEAD")  # (a read saves nothing anyway: "nothing was saved" misled)
        log.error("refused a %s: %s", "read" if reading else "write", error)
        response = error_response(503, f"{'this could not be read' if reading else 'nothing was saved'}: "
                                       f"{error.public or error}")
        response.headers["Retry-After"] = "10"
        return response

    from cardgen.catalog import DataError

    @app.errorhandler(DataError)
    def broken_game_data(error: DataError) -> Response:
        from companion.rules import within_data

        log.error("game data is broken: %s", error)
        where = within_data(str(error), current_app.config.get("DATA_DIR") or "")
        return error_response(503, f"This game's data is broken, so it is not served. {where}")

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, STOCK_SENTENCES[500])
