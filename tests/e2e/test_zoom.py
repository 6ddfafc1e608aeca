"""No sideways scroll at 200 % zoom (issue 25): a phone's 390x844 at 200 % is a 195x422 CSS-pixel page. The
home, rules, table, seat and result pages of every title, mid-game and at the end, fit its width."""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest
import requests
from playwright.sync_api import BrowserContext

from companion.rules import GAMES, rules_for
from companion.served import RunningServer
from companion.store import Store

from .conftest import login_seat

ZOOMED = {"width": 195, "height": 422}
MID_GAME = 30  # moves: Fillory's step pills, JS&MN's turn banner and element labels are all on screen by then
#: against the layout viewport's width (``clientWidth``: the phone's, 390 or 195 px), not ``innerWidth``: a mobile
#: browser zooms out to show a page wider than the phone, and ``innerWidth`` grows with it
WIDER_THAN_THE_PAGE = """() => { const width = document.documentElement.clientWidth;
  return document.documentElement.scrollWidth <= width ? [] :
  [`page ${document.documentElement.scrollWidth} px`, ...[...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > width + 1)
    .slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className}#${el.id} in ${el.parentElement.className}: ${el.textContent.trim().slice(0, 40)}`)]; }"""


def play(served: RunningServer, created: dict[str, Any], players: int, moves: int, rng: random.Random) -> None:
    """Random legal moves, written by a store of the test's own on the server's database (the store the server
    reads; the pages, not the moves' HTTP path, are what this test looks at: a game to its end is hundreds)."""
    rules = rules_for(created["game"])
    store = Store(served.db_path)
    try:
        for _ in range(moves):
            version, state = store.current(created["id"])
            if rules.outcome(state).over or getattr(rules, "stalled", lambda _: False)(state):
                break
            seat, move = rng.choice([(s, m) for s in range(players) if (m := rules.random_legal_move(state, s, rng))])
            answer = store.apply_move(created["id"], seat, version, f"z-{version}", move)
            assert answer["version"] == version + 1, answer
    finally:
        written = store.current(created["id"])[0]
        store.close()
    served_version = requests.get(f"{served.base}/api/games/{created['id']}/version", timeout=60).json()["version"]
    assert served_version == written, (served_version, written)  # the server reads what the store wrote


@pytest.mark.parametrize("game", list(GAMES))
def test_no_page_scrolls_sideways_at_200_percent_zoom(game: str, new_phone: Callable[[], BrowserContext],
                                                      served: RunningServer) -> None:
    rules = rules_for(game)
    names = ["Ann", "Ben", "Cat"][:max(rules.MIN_PLAYERS, min(3, rules.MAX_PLAYERS))]
    created = requests.post(f"{served.base}/api/games", timeout=60,
                            json={"game": game, "players": names, "options": {}}).json() | {"game": game}
    phone = new_phone()
    login_seat(phone, served.base, created["id"], 0, created["seats"][0]["token"])
    page = phone.new_page()
    page.set_viewport_size(ZOOMED)
    rng = random.Random(11)
    wide: dict[str, list[str]] = {}
    for stage, moves in (("mid-game", MID_GAME), ("end", 3000)):
        play(served, created, len(names), moves, rng)
        paths = [f"/g/{created['id']}", f"/g/{created['id']}/seat/0"]
        if stage == "end":
            paths += [f"/g/{created['id']}/result", "/", "/rules?q=spell", f"/rules/{game}"]
        for path in paths:
            page.goto(path)
            found = page.evaluate(WIDER_THAN_THE_PAGE)
            if found:
                wide[f"{stage} {path}"] = found
    assert wide == {}, wide


#: the longest name a seat may have (1–40 characters), with no space to wrap at
LONG_NAME = "Wolfeschlegelsteinhausenbergerdorffvoral"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_forty_letter_name_without_a_space_fits_the_phone(game: str, new_phone: Callable[[], BrowserContext],
                                                            served: RunningServer) -> None:
    """At 390 px, the table, seat, corrections, log, join and result pages keep a 40-letter name inside the
    screen (the players list, the corrections' filter chips, the join page's taken seats wrap it)."""
    assert len(LONG_NAME) == 40
    rules = rules_for(game)
    names = [LONG_NAME, "Ann", "Ben"][:max(rules.MIN_PLAYERS, min(3, rules.MAX_PLAYERS))]
    created = requests.post(f"{served.base}/api/games", timeout=60,
                            json={"game": game, "players": names, "options": {}}).json() | {"game": game}
    phone = new_phone()
    login_seat(phone, served.base, created["id"], 1, created["seats"][1]["token"])
    page = phone.new_page()
    rng = random.Random(5)
    wide: dict[str, list[str]] = {}
    for stage, moves in (("mid-game", MID_GAME), ("end", 3000)):
        play(served, created, len(names), moves, rng)
        paths = [f"/g/{created['id']}", f"/g/{created['id']}/seat/1", f"/g/{created['id']}/seat/1/fix",
                 f"/g/{created['id']}/log"]
        # the join page while the game is open (a finished game's join code opens nothing), the result at the end
        paths.append(f"/j/{created['join_code']}" if stage == "mid-game" else f"/g/{created['id']}/result")
        for path in paths:
            page.goto(path)
            if path in (f"/g/{created['id']}", f"/j/{created['join_code']}"):  # the name is there to wrap
                assert LONG_NAME in page.locator("main").inner_text(), path
            found = page.evaluate(WIDER_THAN_THE_PAGE)
            if found:
                wide[f"{stage} {path}"] = found
    assert wide == {}, wide
