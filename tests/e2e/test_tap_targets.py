"""Every control a finger uses is at least 44 px tall at 390x844 (issue 25: rename and share-link fields were
21 px, "How X scored" toggles 32 px): buttons, fields, selects and fold toggles on the home, table, seat
and result pages of a game of every title. Links inside sentences are exempt (WCAG 2.5.8's inline case)."""

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

FLOOR = 44
SMALL_CONTROLS = """() => [...document.querySelectorAll(
    'button, a.button, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea, summary')]
  .filter((el) => el.getClientRects().length && !el.closest('[hidden], details:not([open]) > :not(summary)')
                  && !el.closest('.visually-hidden') && getComputedStyle(el).visibility !== 'hidden')
  .map((el) => [el.outerHTML.slice(0, 90), Math.round(el.getBoundingClientRect().height)])
  .filter(([, height]) => height < 44)"""


@pytest.mark.parametrize("game", list(GAMES))
def test_every_control_is_at_least_44_px_tall(game: str, new_phone: Callable[[], BrowserContext],
                                              served: RunningServer) -> None:
    rules = rules_for(game)
    players = ["Ann", "Ben", "Cat"][:max(rules.MIN_PLAYERS, min(3, rules.MAX_PLAYERS))]
    created: dict[str, Any] = requests.post(f"{served.base}/api/games", timeout=60,
                                            json={"game": game, "players": players, "options": {}}).json()
    store, rng = Store(served.db_path), random.Random(3)
    for _ in range(400):  # play to the end, so the result page exists
        version, state = store.current(created["id"])
        if rules.outcome(state).over or getattr(rules, "stalled", lambda _: False)(state):
            break
        seat, move = rng.choice([(s, m) for s in range(len(players)) if (m := rules.random_legal_move(state, s, rng))])
        requests.post(f"{served.base}/api/games/{created['id']}/moves", timeout=60,
                      headers={"Authorization": f"Bearer {created['seats'][seat]['token']}"},
                      json={"version": version, "action_id": f"t-{version}", "move": move})
    phone = new_phone()
    login_seat(phone, served.base, created["id"], 0, created["seats"][0]["token"])
    page = phone.new_page()
    small: dict[str, list[Any]] = {}
    for path in ("/", f"/g/{created['id']}", f"/g/{created['id']}/seat/0", f"/g/{created['id']}/result"):
        page.goto(path)
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        found = page.evaluate(SMALL_CONTROLS)
        if found:
            small[path] = found
    assert small == {}, small
