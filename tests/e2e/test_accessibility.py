"""axe-core (bundled with axe-playwright-python, injected from the local package) on every kind of page."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from .conftest import Api, screenshot
from .phone import field, open_seat, pick

BLOCKING = {"serious", "critical"}
AXE = Axe()


def blocking_violations(page: Page) -> list[str]:
    results = AXE.run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] for n in v["nodes"][:3])
            for v in results.response["violations"] if v["impact"] in BLOCKING]


@pytest.fixture(scope="module")
def played_game(server: str) -> dict[str, Any]:
    """A 2-player game in Ann's trick step with cards in zones, the discard pile and the log."""
    api = Api(server)
    game, ann, _ = api.two_player_opening()
    api.move(game["id"], ann, {"type": "play", "card": "Physical Kids"})
    api.move(game["id"], ann, {"type": "summon", "card": "Quentin", "to": "zone"})
    api.close()
    return game


@pytest.mark.parametrize("path", ["/", "/rules", "/rules?q=summon", "/c/fillory/quentin", "/c/fillory/mercenaries",
                                  "/c/fillory/no-such-card", "/join", "/c/mandragora/spellbook-blue-2"])
def test_static_pages_have_no_serious_violations(new_phone: Callable[[], BrowserContext], path: str) -> None:
    page = new_phone().new_page()
    page.goto(path)
    screenshot(page, "page" + "".join(ch if ch.isalnum() else "-" for ch in path))
    assert blocking_violations(page) == []


def test_game_pages_have_no_serious_violations(new_phone: Callable[[], BrowserContext], server: str,
                                               played_game: dict[str, Any]) -> None:
    game_id = played_game["id"]
    table = new_phone().new_page()
    table.goto(f"/g/{game_id}")
    assert blocking_violations(table) == []

    join = new_phone().new_page()
    join.goto(f"/j/{played_game['join_code']}")
    assert blocking_violations(join) == []

    ann = open_seat(new_phone, server, played_game, 0)  # trick step: trick, score and end-turn forms
    ann.locator("#f-trick-details > summary").click()
    pick(ann, "f-trick", "Magic Missile")
    field(ann, "f-trick", "For which trait").locator("label.pick", has_text="Spell").click()
    expect(field(ann, "f-trick", "Which card did you draw?")).to_be_visible()
    screenshot(ann, "seat-trick-open")
    assert blocking_violations(ann) == []

    ben = open_seat(new_phone, server, played_game, 1)  # waiting for Ann
    assert blocking_violations(ben) == []


def test_draw_form_has_no_serious_violations(new_phone: Callable[[], BrowserContext], server: str, api: Api) -> None:
    game = api.new_game(["Ann", "Ben"])
    ann = open_seat(new_phone, server, game, 0)
    ann.locator("#f-draw").get_by_label("Find by name").fill("spell")
    assert blocking_violations(ann) == []
