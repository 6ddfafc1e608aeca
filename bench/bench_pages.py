"""Weigh the phone pages and check that none of them makes a phone fetch anything from elsewhere.

    .venv/bin/python bench/bench_pages.py [--figures FILE]

Renders each page the way a phone first opens it (home, table, seat, card, rules search) through
the real app in this process, with a temporary database; every game in the rules registry gets a
table and a seat page in the middle of a 3-player game (random legal moves already played), and with
the most players it allows the first seat page (before any move: a deal lists the whole deck) and
the table and result pages once a random game has ended (every breakdown shown); every game in the catalog a
card page, and every game with choices a card page on a seated phone with its moves part and the scripts
that part loads (js/card-moves.js). Weight = the HTML plus every local asset it loads (CSS, scripts, icon),
uncompressed, as on a first visit. Every URL a page or its assets would load must be this server's
(relative or same host); ``Content-Security-Policy`` must say ``default-src 'self'`` as well.
"""

from __future__ import annotations

import argparse
import logging
import random
import re
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from figures import Report  # noqa: E402

from cardgen.catalog import GAMES as CATALOG_GAMES  # noqa: E402
from cardgen.catalog import content  # noqa: E402
from companion.rules import GAMES  # noqa: E402
from companion.web import create_app  # noqa: E402
from companion.web.helpers import token_cookie  # noqa: E402

PAGE_TARGET_KB = 60.0
HOST = "http://localhost"
MOVES_BEFORE_LOOKING = 60
MOVES_TO_THE_END = 2000  # a random game ends well before (or stops where no move is offered)
#: (tag, attribute) pairs that make a browser fetch something when the page loads.
LOADING = {("script", "src"), ("link", "href"), ("img", "src"), ("img", "srcset"), ("source", "src"),
           ("source", "srcset"), ("iframe", "src"), ("video", "src"), ("video", "poster"), ("audio", "src"),
           ("object", "data"), ("embed", "src"), ("input", "src")}
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)|@import\s+['"]([^'"]+)""")
ABSOLUTE = re.compile(r"""https?://[^\s'")<>]+""")
NAMESPACES = ("http://www.w3.org/",)
#: a card page's moves box (templates/pages/_card_moves_box.html): its part and what js/card-moves.js loads
CARD_MOVES = re.compile(r'id="card-moves"[^>]*data-src="([^"]+)"[^>]*data-scripts="([^"]*)"[^>]*data-styles="([^"]*)"',
                        re.S)  # XML namespace names are identifiers, never fetched


class LoadedUrls(HTMLParser):
    """Every URL the page would load by itself (links a person may follow are listed apart)."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if not value:
                continue
            if (tag, name) in LOADING:
                self.loads += [part.split()[0] for part in value.split(",")] if name == "srcset" else [value]
            elif name == "style":
                self.loads += [a or b for a, b in CSS_URL.findall(value)]
            elif (tag, name) in (("a", "href"), ("form", "action")):
                self.links.append(value)


def is_local(url: str) -> bool:
    parts = urlsplit(urljoin(HOST + "/", url))
    return parts.scheme in ("http", "https", "data") and (parts.scheme == "data" or parts.netloc == "localhost")


def wire_bytes(client: Any, url: str) -> int:
    """Bytes sent for ``url`` to a browser that accepts gzip and deflate (as Chromium does over plain HTTP)."""
    answer = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
    size = len(answer.get_data())
    answer.close()
    return size


def play_some_moves(app: object, game_id: str, rules: object, seed: int, moves: int) -> None:
    store = app.extensions["store"]  # type: ignore[attr-defined]
    rng = random.Random(seed)
    for _ in range(moves):
        version, state = store.current(game_id)
        seats = range(len(rules.view(state, None)["players"]))  # type: ignore[attr-defined]
        offered = [(s, m) for s in seats if (m := rules.random_legal_move(state, s, rng)) is not None]  # type: ignore[attr-defined]
        if not offered or rules.outcome(state).over:  # type: ignore[attr-defined]
            return
        seat, move = rng.choice(offered)
        store.apply_move(game_id, seat, version, f"bench-{version}", move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--figures", type=Path, default=None, help="also write the figures to this JSON file")
    args = parser.parse_args()
    report = Report(args.figures)
    logging.disable(logging.ERROR)  # a page that fails is reported as a figure below, not as a traceback
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "pages.sqlite3"), "SECRET_KEY": "bench", "TESTING": True,
                          "SERVER_NAME": "localhost"})
        client = app.test_client()
        pages: list[tuple[str, str]] = [("home", "/"), ("rules", "/rules"), ("rules search", "/rules?q=summon")]
        unfinished: list[str] = []
        for game, rules in sorted(GAMES.items()):
            # mid-game with 3 players; then the most players: the first seat page (a deal lists the whole
            # deck) and the table once the game is over (every score's breakdown)
            most = rules.MAX_PLAYERS
            for count, moves, kinds, when in (
                    (max(rules.MIN_PLAYERS, min(3, most)), MOVES_BEFORE_LOOKING, ("table", "seat"), ""),
                    (most, 0, ("seat",), f", {most} players, at the start"),
                    (most, MOVES_TO_THE_END, ("table",), f", {most} players, at the end")):
                players = [f"Player number {i + 1}" for i in range(count)]
                created = client.post("/api/games", json={"game": game, "players": players, "options": {}}).get_json()
                play_some_moves(app, created["id"], rules, seed=len(pages), moves=moves)
                client.set_cookie(token_cookie(created["id"], 0), created["seats"][0]["token"], domain="localhost")
                pages += [(f"{game} {kind}{when}", f"/g/{created['id']}" + ("/seat/0" if kind == "seat" else ""))
                          for kind in kinds]
                if moves == MOVES_TO_THE_END:  # the result page, once the random game has ended
                    if client.get(f"/g/{created['id']}/result").status_code == 200:
                        pages.append((f"{game} result{when}", f"/g/{created['id']}/result"))
                    else:
                        unfinished.append(game)
            if hasattr(rules, "choices"):  # a card page on a seat's phone with its moves, at the first chance
                players = [f"Player number {i + 1}" for i in range(max(rules.MIN_PLAYERS, min(3, most)))]
                created = client.post("/api/games", json={"game": game, "players": players, "options": {}}).get_json()
                for step in range(MOVES_TO_THE_END):
                    state = app.extensions["store"].current(created["id"])[1]
                    named = [(seat, o.card) for seat in range(len(players)) for c in rules.choices(state, seat)
                             for f in c.fields for o in f.options if o.card]
                    if named or rules.outcome(state).over:
                        break
                    play_some_moves(app, created["id"], rules, seed=step, moves=1)
                if named:
                    seat, (card_game, card_id) = named[0]
                    client.set_cookie(token_cookie(created["id"], seat), created["seats"][seat]["token"],
                                      domain="localhost")
                    pages.append((f"{game} card with its moves", f"/c/{card_game}/{card_id}?g={created['id']}&s={seat}"))
        for game in CATALOG_GAMES:
            pages.append((f"{game} rules", f"/rules/{game}"))
            cards = getattr(content(game), "cards", ())
            if cards:
                pages.append((f"{game} card", f"/c/{game}/{cards[0].id}"))

        report.heading(f"Phone pages: first visit, HTML plus local assets, uncompressed ({len(pages)} pages)")
        asset_sizes: dict[str, int] = {}
        wire_sizes: dict[str, int] = {}
        external: list[str] = []
        broken: list[str] = []
        for name, url in pages:
            answer = client.get(url)
            if answer.status_code != 200:
                broken.append(f"{url} answered {answer.status_code}")
                continue
            html = answer.get_data(as_text=True)
            parser_ = LoadedUrls()
            parser_.feed(html)
            external += [f"{name}: {u}" for u in parser_.loads if not is_local(u)]
            csp = answer.headers.get("Content-Security-Policy", "")
            if "default-src 'self'" not in csp:
                external.append(f"{name}: no Content-Security-Policy limiting loads to this server")
            weight = len(answer.get_data())
            sent = wire_bytes(client, url)
            loads = list(parser_.loads)
            box = CARD_MOVES.search(html)
            if box and "?g=" in url:  # a seated phone: the moves part and the seat page's scripts it loads
                part_url = box.group(1) + url[url.index("?"):]
                weight += len(client.get(part_url).get_data())
                sent += wire_bytes(client, part_url)
                loads += box.group(2).split() + box.group(3).split()
            for asset in loads:
                if not is_local(asset) or asset.startswith("data:"):
                    continue
                path = urlsplit(urljoin(HOST + url, asset)).path
                if path not in asset_sizes:
                    wire_sizes[path] = wire_bytes(client, path)
                    fetched = client.get(path)
                    asset_sizes[path] = len(fetched.get_data())
                    text = fetched.get_data(as_text=True) if fetched.mimetype in ("text/css", "text/javascript", "application/javascript") else ""
                    external += [f"{path}: {u}" for pair in CSS_URL.findall(text) for u in pair if u and not is_local(u)]
                    external += [f"{path}: {u}" for u in ABSOLUTE.findall(text)
                                 if not is_local(u) and not u.startswith(NAMESPACES)]
                    fetched.close()
                weight += asset_sizes[path]
                sent += wire_sizes[path]
            report.target(f"pages.{name.replace(' ', '_')}_kb", f"{name} page ({url.split('?')[0][:28]})",
                          weight / 1024, "KB", "below", PAGE_TARGET_KB,
                          note=f"HTML {len(answer.get_data()) / 1024:.1f} KB + {len(loads)} local asset(s); "
                               f"{sent / 1024:.1f} KB on the wire compressed")
        report.target("pages.results_missing", "games whose random game stopped before its end (no result page)",
                      float(len(unfinished)), "", "at most", len(GAMES), note=", ".join(unfinished))
        report.target("pages.not_answering", "pages that did not answer 200", float(len(broken)), "", "at most", 0,
                      note="; ".join(broken))
        report.target("pages.external_requests", "requests a page would send elsewhere", float(len(external)), "",
                      "at most", 0, note="; ".join(external[:5]) or "every URL loaded is this server's; CSP default-src 'self'")
    report.save()


if __name__ == "__main__":
    main()
