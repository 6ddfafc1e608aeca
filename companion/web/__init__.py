"""The companion web app: ``create_app()`` wires the store, CSRF, error pages and the blueprints.

Configuration, lowest to highest priority: defaults below, ``instance/config.py``, environment
variables prefixed ``COMPANION_`` (e.g. ``COMPANION_DATABASE``), then ``test_config`` when given
(tests pass a temporary database; the instance config file is then not read). ``EXTRA_GAMES``: module
names of games outside this tree, each declaring a ``SPEC`` (see :mod:`companion.rules.spec`).
``DATA_DIR``: the game data folder checked at start (default: ``cardgen.catalog.data_dir()``, i.e.
``$SPELLBOOK_DATA`` or the project's ``data/``); a game whose data is broken is not served and the home
page and API say why, naming file, record and field. The content itself is read from
``cardgen.catalog.data_dir()``, so ``companion serve --data DIR`` sets ``SPELLBOOK_DATA`` for the workers.
"""

from __future__ import annotations

import mimetypes
import os
import re
import secrets
import time
from pathlib import Path
from typing import Any, Mapping

from flask import Blueprint, Flask, Request, Response, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect
from werkzeug.routing import IntegerConverter

from companion.photo import MAX_PHOTO_BYTES
from companion.store import Store

from . import templating
from .assets import MINIFIERS, minified
from .errors import error_response, register_error_handlers
from .headers import SecurityHeaders
from .json_provider import FastJSONProvider
from .limits import BODY_ERROR, BODY_SECONDS, UPLOAD_SECONDS, WholeBody
from .links import init_base_url
from .live_updates import VersionWatch
from .proxies import TrustedProxies, trusted_networks
from .rate_limits import init_rate_limits

REPO_ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = REPO_ROOT / "templates"
STATIC = Path(__file__).resolve().parents[1] / "static"
SECRET_KEY_FILE = "secret_key"
#: the photo uploads (the photo itself is the body): their own size limit, the app's 64 KB is for JSON
PHOTO_UPLOAD = re.compile(r"/api/photo/[a-z0-9-]+")


class NoSessionOnApi(SecureCookieSessionInterface):
    """Phones authenticate to ``/api/`` with a bearer token, so those requests open no cookie session
    (opening one builds a signing serializer each time: about a tenth of a bare API request's CPU).
    A seat page's own scripts send the seat's HttpOnly cookie and the page's CSRF token instead, and
    the CSRF token is checked against the session: a request with a cookie and no bearer token opens it."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if request.path.startswith("/api/") and ("Authorization" in request.headers
                                                 or "X-CSRFToken" not in request.headers):
            return self.make_null_session(app)
        return super().open_session(app, request)


def read_static_files_whole(response: Response) -> Response:
    """Our CSS and scripts are a few KB: read them whole so they are minified (:mod:`.assets`) and then
    compressed like pages (a streamed file would be compressed only as a stream, and Flask-Compress's
    stream wrapper leaves the file to the GC)."""
    if request.endpoint == "static" and response.status_code == 200 and response.direct_passthrough:
        response.direct_passthrough = False
        response.make_sequence()
        if response.mimetype in MINIFIERS:
            response.set_data(minified(response.mimetype, response.get_data()))
            response.headers.pop("Accept-Ranges", None)  # ranges would count the source's bytes
    return response


def no_ranges_of_minified_files() -> None:
    """A ``Range`` request for a style sheet or script is answered whole (a server may ignore ``Range``):
    the byte offsets of the file on disk are not those of the minified copy that is sent."""
    if request.endpoint == "static" and mimetypes.guess_type(request.path)[0] in MINIFIERS:
        request.environ.pop("HTTP_RANGE", None)


def refuse_bad_body() -> Response | None:
    """A body :class:`.limits.WholeBody` could not take (too large, too slow, cut short) is answered
    here, in the one error shape, before any view runs."""
    problem = request.environ.get(BODY_ERROR)
    if problem is None:
        return None
    return error_response(*problem)


def refuse_nul() -> Response | None:
    """No address of the companion holds a NUL character (U+0000): a path with one is answered 404 before any
    view runs (PostgreSQL cannot store one in text, and a game id holding one was a 500 there). Fields that
    are stored say so themselves (an action id refuses control characters; a join code is letters and
    digits; names lose control characters)."""
    if "\x00" in request.path:
        return error_response(404, "there is no such page: an address cannot hold a NUL character (U+0000)")
    return None


class AsciiInt(IntegerConverter):
    """``<int:...>`` in an address: ASCII digits only, no leading zero. Werkzeug's own reads any Unicode digit
    (``\\d``), so ``/g/<id>/seat/١`` (an Arabic-Indic one) and ``/seat/01`` opened seat 1's page: one page, many
    addresses."""

    regex = r"0|[1-9][0-9]*"


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    from cardgen.site import instance_dir

    # the instance folder the print kit reads the saved base URL from too (cardgen.site): database,
    # secret key and settings.toml live together
    app = Flask(__name__, instance_path=str(instance_dir()), instance_relative_config=True,
                template_folder=str(TEMPLATES), static_folder=str(STATIC))
    app.url_map.converters["int"] = AsciiInt  # (before any blueprint's rules are made)
    app.json = FastJSONProvider(app)  # jsonify answers through orjson (same JSON, less CPU)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "companion.sqlite3"),
        MAX_CONTENT_LENGTH=64 * 1024,
        PHOTO_MAX_BYTES=MAX_PHOTO_BYTES,  # a photo upload's own limit (POST /api/photo/<game>)
        BODY_SECONDS=BODY_SECONDS,  # a request's body must arrive within this time of its headers
        # pages, styles and scripts travel compressed (tables have bad Wi-Fi); the JSON API does not:
        # its answers are small and its latency is what the load benchmark measures
        COMPRESS_MIMETYPES=["text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml"],
        COMPRESS_MIN_SIZE=1024,
        SESSION_COOKIE_SAMESITE="Lax",
        # a page's CSRF token holds as long as its session: a seat page stays open for a whole game,
        # and its scripts send every move with the token the page was served with
        WTF_CSRF_TIME_LIMIT=None,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("COMPANION")
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(app.instance_path)

    if app.config.get("EXTRA_GAMES"):  # module names of games outside this tree (each declares a SPEC)
        from companion.rules import add_games

        extra = app.config["EXTRA_GAMES"]
        add_games([extra] if isinstance(extra, str) else list(extra))

    from cardgen.catalog import data_dir
    from companion.rules import unavailable_games

    app.config["DATA_DIR"] = str(app.config.get("DATA_DIR") or data_dir())
    #: game id -> why it is not served (its data is broken); every other game is
    app.extensions["unavailable_games"] = unavailable_games(app.config["DATA_DIR"])

    app.session_interface = NoSessionOnApi()
    Compress(app)
    app.after_request(read_static_files_whole)  # after_request hooks run last-registered first: before Compress
    app.before_request(no_ranges_of_minified_files)
    app.before_request(refuse_bad_body)
    app.before_request(refuse_nul)
    init_base_url(app)
    uploads = ((PHOTO_UPLOAD, int(app.config["PHOTO_MAX_BYTES"]), UPLOAD_SECONDS),)  # score by photo
    app.wsgi_app = TrustedProxies(  # type: ignore[method-assign]
        SecurityHeaders(WholeBody(app.wsgi_app, int(app.config["MAX_CONTENT_LENGTH"]), float(app.config["BODY_SECONDS"]),
                                  uploads)),
        trusted_networks(app.config.get("TRUSTED_PROXIES", "")))
    app.extensions["store"] = Store(app.config["DATABASE"])  # a SQLite file, or a postgresql:// URL
    app.extensions["live"] = VersionWatch(app.extensions["store"])
    csrf = CSRFProtect(app)
    register_error_handlers(app)

    templating.init_app(app)
    for bp in page_blueprints():
        app.register_blueprint(bp)
    for bp in api_blueprints():
        csrf.exempt(bp)  # phones send a seat token (a seat page's scripts: its cookie and the page's CSRF token)
        app.register_blueprint(bp)
    init_rate_limits(app)
    return app


def page_blueprints() -> tuple[Blueprint, ...]:
    """The HTML areas, each its own module's blueprint (:func:`.helpers.page_blueprint`); URLs in brackets."""
    from . import (
        card_moves,
        cards,
        fix_pages,
        home,
        lookup,
        offline,
        results,
        seats,
        table,
    )
    from .photo import views as photo

    return (home.bp,  # /, /new, /join, /j/<code>
            table.bp,  # /g/<id>
            seats.bp,  # /g/<id>/seat/<n>, releasing, renaming and handing on seats, /h/<code>
            fix_pages.bp,  # /g/<id>/seat/<n>/fix: corrections
            results.bp,  # /g/<id>/result, exports, rematch
            cards.bp,  # /c/<game>/<card>: where printed QR codes lead
            card_moves.bp,  # /c/<game>/<card>/moves: the moves this phone's seat may make with the card
            lookup.bp,  # /rules, /rules/<game>
            photo.bp,  # /calc/<game>/photo, /g/<id>/seat/<n>/photo
            offline.bp)  # the installable app: manifest, icons, service worker, offline look-up


def api_blueprints() -> tuple[Blueprint, ...]:
    """The JSON areas under /api, each its own module's blueprint (:func:`.api_helpers.api_blueprint`)."""
    from . import api, api_docs, calc
    from .photo import views as photo

    return (api.bp,  # games, moves, seats, joining, the log, search
            *calc.blueprints(),  # /api/calc/<game>: each game's calculator (its spec's calculator_module)
            photo.api_bp,  # /api/photo/<game>, /api/games/<id>/audit
            api_docs.bp)  # /api/openapi.json


def instance_secret_key(instance_path: str) -> str:
    """A secret key kept in the instance folder, created once and shared by every worker process."""
    os.makedirs(instance_path, exist_ok=True)
    path = os.path.join(instance_path, SECRET_KEY_FILE)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # another worker may have created it an instant ago and be writing it
            with open(path, encoding="ascii") as existing:
                key = existing.read().strip()
            if key:
                return key
            time.sleep(0.02)
        raise RuntimeError(f"{path} is empty; delete it and start again") from None
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as fresh:
        fresh.write(key + "\n")
    return key
