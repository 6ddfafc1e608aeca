"""The table page on a shared screen at 1280x800 (issue 25): the live parts side by side in columns, no
sideways scroll, whose turn across the top, live like the phones, and the join QR code on the screen."""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest
import requests
from playwright.sync_api import BrowserContext, Page, expect

from companion.rules import GAMES, rules_for
from companion.served import RunningServer
from companion.store import Store

from .conftest import screenshot
from .phone import LIVE_WITHIN_MS

SCREEN = {"width": 1280, "height": 800}


def columns(page: Page) -> list[float]:
    """The distinct left edges of the live part's top-level blocks (one per column in use)."""
    return sorted({round(x) for x in page.evaluate(
        "() => [...document.querySelectorAll('#live > *')].filter((el) => el.getClientRects().length)"
        ".map((el) => el.getBoundingClientRect().left)")})


@pytest.mark.parametrize("game", list(GAMES))
def test_the_table_view_on_a_shared_screen_is_in_columns_and_live(
        game: str, new_phone: Callable[[], BrowserContext], served: RunningServer) -> None:
    rules = rules_for(game)
    players = ["Ann", "Ben", "Cat"][:max(rules.MIN_PLAYERS, min(3, rules.MAX_PLAYERS))]
    created: dict[str, Any] = requests.post(f"{served.base}/api/games", timeout=60,
                                            json={"game": game, "players": players, "options": {}}).json()
    page = new_phone().new_page()
    page.set_viewport_size(SCREEN)
    page.goto(f"/g/{created['id']}")
    assert len(columns(page)) >= 2, columns(page)  # side by side, not one phone column
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    expect(page.locator(".banner").first).to_be_in_viewport()
    expect(page.locator(".invite svg.qr")).to_be_visible()
    font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('main')).fontSize)")
    assert font >= 19  # larger than a phone's 17 px
    screenshot(page, f"table-view-{game}")  # docs/images/table-view.png is Fillory's, copied from output/screenshots
    # live like the phones: a move reported on a phone shows on the screen without a reload
    version, state = Store(served.db_path).current(created["id"])
    rng = random.Random(7)
    seat, move = next((seat, move) for seat in range(len(players))
                      if (move := rules.random_legal_move(state, seat, rng)) is not None)
    answer = requests.post(f"{served.base}/api/games/{created['id']}/moves", timeout=60,
                           headers={"Authorization": f"Bearer {created['seats'][seat]['token']}"},
                           json={"version": version, "action_id": f"screen-{game}", "move": move})
    assert answer.status_code == 200, answer.text
    expect(page.locator("#live")).to_have_attribute("data-version", str(version + 1), timeout=LIVE_WITHIN_MS * 5)
