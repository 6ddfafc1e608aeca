"""The installable web app: its manifest, its icons, its service worker and the offline look-up.

- ``/manifest.webmanifest`` names the app, its colours and icons (``<link rel="manifest">`` on every page).
- ``/icons/<name>.png`` are drawn here with Pillow from the favicon's star (no image file is shipped).
- ``/sw.js`` is ``static/js/sw.js`` with a version (a hash of everything it caches) and the list of files
  it keeps; served from the root so that it may look after every page.
- ``/offline/rules`` is the page the service worker answers a search with when the network is gone; its
  script searches ``/offline/index.json`` (the server's search index: the same entries, aliases included).

Only public pages are ever cached: rule lists, card pages, the look-up and the static files. Game, seat
and API answers always go to the network (a seat page holds its seat's hand and token). Service workers
need a secure context (https, or http://localhost): see docs/lookup.md for a LAN address.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
from functools import lru_cache

from flask import Response, make_response, render_template, request, url_for
from PIL import Image, ImageDraw

from cardgen.catalog import available_games, content
from companion.search import offline_entries
from companion.web import STATIC
from companion.web.helpers import page_blueprint

bp = page_blueprint("offline", __name__)

APP_NAME = "Spellbook Table"
SHORT_NAME = "Spellbook"
BACKGROUND = "#2e1a52"  # the favicon's plum and gold, the pages' theme colour
STAR = "#f3c969"
#: The favicon's star in its 32-unit box (companion/static/favicon.svg).
STAR_POINTS = ((16, 4), (18.9, 12.1), (27, 15), (18.9, 17.9), (16, 26), (13.1, 17.9), (5, 15), (13.1, 12.1))
ICONS = {"icon-192": (192, False), "icon-512": (512, False), "maskable-512": (512, True)}
#: Static files every page may need offline (the service worker keeps them from its install on).
PRECACHED_STATIC = ("css/app.css", "css/pages.css", "js/live.js", "js/home.js", "js/offline-search.js", "js/sw-register.js",
                    "favicon.svg")


@lru_cache(maxsize=len(ICONS))
def icon_png(name: str) -> bytes:
    """An app icon: the gold star on plum. A maskable icon fills its square and keeps the star inside
    the middle 60 % (the safe zone a launcher's mask never cuts); the others have rounded corners."""
    size, maskable = ICONS[name]
    scale = 4  # drawn large and scaled down: smooth edges without an anti-aliasing option
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=BACKGROUND)
        star_box, offset = big * 0.6, big * 0.2
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 7 // 32, fill=BACKGROUND)
        star_box, offset = big, 0.0
    draw.polygon([(offset + x * star_box / 32, offset + (y + 1) * star_box / 32) for x, y in STAR_POINTS], fill=STAR)
    out = io.BytesIO()
    image.resize((size, size), Image.Resampling.LANCZOS).save(out, format="PNG", optimize=True)
    return out.getvalue()


@bp.get("/icons/<name>.png")
def icon(name: str) -> Response:
    if name not in ICONS:
        return make_response(("No such icon.", 404, {"Content-Type": "text/plain; charset=utf-8"}))
    response = make_response(icon_png(name))
    response.headers["Content-Type"] = "image/png"
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    body = {
        "name": APP_NAME, "short_name": SHORT_NAME, "id": "/", "start_url": "/", "scope": "/",
        "display": "standalone", "background_color": BACKGROUND, "theme_color": BACKGROUND,
        "description": "Scores, rules checks and card look-up for four magic-themed card games played with real cards.",
        "icons": [{"src": url_for("offline.icon", name=name), "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": "maskable" if maskable else "any"} for name, (size, maskable) in ICONS.items()]
                 + [{"src": url_for("static", filename="favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = make_response(json.dumps(body, ensure_ascii=False, indent=1))
    response.headers["Content-Type"] = "application/manifest+json"
    return response


def _index_json() -> tuple[bytes, bytes]:
    return _index_json_of(available_games())


@lru_cache(maxsize=2)
def _index_json_of(games: tuple[str, ...]) -> tuple[bytes, bytes]:
    """The offline index as JSON, and gzipped (about 180 KB and 32 KB): fetched once by the service worker."""
    body = json.dumps({"games": {g: content(g).title for g in games}, "entries": offline_entries()},
                      ensure_ascii=False, separators=(",", ":")).encode()
    return body, gzip.compress(body, 9, mtime=0)


@bp.get("/offline/index.json")
def offline_index() -> Response:
    plain, packed = _index_json()
    # gzip only where the header accepts it, by its quality values: not for "gzip;q=0", nor "x-notgzip", nor when
    # it prefers the plain body ("gzip;q=0.5, identity")
    wants_gzip = request.accept_encodings.best_match(["gzip", "identity"]) == "gzip"
    response = make_response(packed if wants_gzip else plain)
    response.headers["Content-Type"] = "application/json"
    response.headers["Vary"] = "Accept-Encoding"
    if wants_gzip:
        response.headers["Content-Encoding"] = "gzip"
    return response


@bp.get("/offline/rules")
def offline_rules() -> Response:
    """The look-up page a search gets with no network: the form, and results found by its script."""
    return make_response(render_template("pages/offline_rules.html", games=available_games(), query="", game=None,
                                         titles={g: content(g).title for g in available_games()}))


def precached() -> list[str]:
    return (["/offline/rules", "/offline/index.json", "/manifest.webmanifest", "/rules"]
            + [url_for("static", filename=name) for name in PRECACHED_STATIC]
            + [url_for("offline.icon", name=name) for name in ICONS])


def _worker_source() -> str:
    return _worker_source_of(available_games())


@lru_cache(maxsize=2)
def _worker_source_of(games: tuple[str, ...]) -> str:
    """sw.js with its version: a hash of the worker, the static files, the index and the offline page,
    so any change to what it keeps installs a new worker (which drops the old caches)."""
    worker = (STATIC / "js" / "sw.js").read_text(encoding="utf-8")
    digest = hashlib.sha256(worker.encode())
    for path in sorted(STATIC.rglob("*")):  # every static file: one kept after its first use goes stale otherwise
        if path.is_file():
            digest.update(path.relative_to(STATIC).as_posix().encode() + b"\0" + path.read_bytes())
    digest.update(_index_json_of(games)[0])
    digest.update(render_template("pages/offline_rules.html", games=games, query="", game=None,
                                  titles={g: content(g).title for g in games}).encode())
    header = (f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
              f"const PRECACHE = {json.dumps(precached())};\n")
    return header + worker


@bp.get("/sw.js")
def service_worker() -> Response:
    response = make_response(_worker_source())
    response.headers["Content-Type"] = "text/javascript; charset=utf-8"
    response.headers["Cache-Control"] = "no-cache"  # the browser checks for a new worker on every visit
    return response
