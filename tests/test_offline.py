"""The web app's manifest, icons and service worker as the server sends them (the browser side:
tests/e2e/test_offline.py)."""

from __future__ import annotations

import gzip
import io
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from companion.web import STATIC
from companion.web.helpers import token_cookie


def worker(client: FlaskClient) -> str:
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("text/javascript")
    assert answer.headers["Cache-Control"] == "no-cache"
    return answer.get_data(as_text=True)


def keep_patterns(source: str) -> list[re.Pattern[str]]:
    listed = re.search(r"const KEEP = \[(.*?)\];", source, re.S).group(1)
    # JavaScript regular expression literals: escaped slashes and character classes may hold a "/"
    return [re.compile(p) for p in re.findall(r"/(\^(?:\\/|\[[^\]]*\]|[^/\n])*)/", listed)]


def test_pages_link_the_manifest_and_register_the_worker_but_seat_pages(app: Flask, client: FlaskClient) -> None:
    game = app.extensions["store"].create_game("fillory", ["Ann", "Ben"], {})
    for path in ("/", "/rules", "/rules/fillory", "/c/fillory/quentin", f"/j/{game['join_code']}", f"/g/{game['id']}"):
        page = client.get(path).get_data(as_text=True)
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, path
        assert '<script src="/static/js/sw-register.js" defer></script>' in page, path
    client.set_cookie(token_cookie(game["id"], 0), game["seats"][0]["token"])
    seat = client.get(f"/g/{game['id']}/seat/0").get_data(as_text=True)  # the heaviest page goes without
    assert "manifest" not in seat and "sw-register" not in seat


def test_the_manifest_names_the_app_and_its_icons_exist_at_their_sizes(client: FlaskClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.headers["Content-Type"] == "application/manifest+json"
    body = json.loads(answer.get_data())
    assert (body["name"], body["display"], body["start_url"], body["scope"]) == ("Spellbook Table", "standalone", "/", "/")
    pngs = [icon for icon in body["icons"] if icon["type"] == "image/png"]
    assert {icon["purpose"] for icon in pngs} == {"any", "maskable"}
    for icon in pngs:
        image = Image.open(io.BytesIO(client.get(icon["src"]).get_data()))
        assert f"{image.width}x{image.height}" == icon["sizes"] and image.format == "PNG"
        if icon["purpose"] == "maskable":  # the mask's safe zone: corners are background, the star in the middle
            assert image.getpixel((2, 2))[:3] == (0x2E, 0x1A, 0x52)
        assert image.getpixel((image.width // 2, image.height // 2))[:3] == (0xF3, 0xC9, 0x69)
    assert client.get("/icons/nothing.png").status_code == 404


def test_the_worker_keeps_public_pages_only(client: FlaskClient) -> None:
    patterns = keep_patterns(worker(client))
    assert len(patterns) == 6

    def kept(path: str) -> bool:
        return any(p.search(path) for p in patterns)

    for path in ("/c/fillory/quentin", "/rules", "/rules/jsmn", "/static/css/app.css", "/icons/icon-192.png",
                 "/offline/rules", "/offline/index.json", "/manifest.webmanifest"):
        assert kept(path), path
    for path in ("/g/abc123", "/g/abc123/seat/0", "/g/abc123/seat/0/live", "/api/games/abc", "/j/ABCDEF", "/new",
                 "/join", "/", "/g/abc123/result"):
        assert not kept(path), path


def test_everything_the_worker_installs_answers(client: FlaskClient) -> None:
    source = worker(client)
    precache = json.loads(re.search(r"^const PRECACHE = (.*);$", source, re.M).group(1))
    assert re.search(r'^const VERSION = "[0-9a-f]{16}";$', source, re.M)
    for path in precache:
        with client.get(path) as answer:
            assert answer.status_code == 200, path
    assert source.endswith((STATIC / "js" / "sw.js").read_text(encoding="utf-8"))


def test_the_offline_index_is_the_search_index_with_its_aliases(client: FlaskClient) -> None:
    plain = client.get("/offline/index.json")
    packed = client.get("/offline/index.json", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip" and len(packed.get_data()) < len(plain.get_data()) / 3
    index = json.loads(plain.get_data())
    assert index["games"]["fillory"] == "Magicians of Fillory"
    mayakovsky = next(e for e in index["entries"] if e["ref"] == "professor-mayakovsky")
    assert "Mayakowski" in mayakovsky["keywords"] and mayakovsky["url"] == "/c/fillory/professor-mayakovsky"
    assert {e["game"] for e in index["entries"]} == set(index["games"])


@pytest.mark.parametrize("accepted, gzipped", [
    ("gzip", True), ("gzip, deflate, br", True), ("br;q=1, GZIP;q=0.5", True), ("*", True),
    ("gzip;q=0", False), ("x-notgzip", False), ("gzip;q=0.5, identity", False), ("identity", False),
    ("*;q=0", False), ("", False)])
def test_the_offline_index_is_gzipped_only_where_accept_encoding_accepts_it(
        client: FlaskClient, accepted: str, gzipped: bool) -> None:
    answer = client.get("/offline/index.json", headers={"Accept-Encoding": accepted})
    assert answer.status_code == 200 and answer.headers["Vary"] == "Accept-Encoding"
    assert ("Content-Encoding" in answer.headers) == gzipped
    body = gzip.decompress(answer.get_data()) if gzipped else answer.get_data()
    assert json.loads(body)["games"]["fillory"] == "Magicians of Fillory"


def test_the_offline_search_page_has_the_form_and_its_script(client: FlaskClient) -> None:
    page = client.get("/offline/rules").get_data(as_text=True)
    assert 'id="offline-results"' in page and '<input type="search" id="q" name="q"' in page
    assert '<script src="/static/js/offline-search.js" defer></script>' in page
