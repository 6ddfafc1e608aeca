"""axe-core (bundled with axe-playwright-python, injected from the local package) on every kind of page, in the
light and the dark colour scheme (``prefers-color-scheme``), colour contrast included."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from .conftest import SCREENSHOTS, Api, screenshot
from .phone import field, open_seat, pick

BLOCKING = {"serious", "critical"}
AXE = Axe()
SCHEMES = ["light", "dark"]


def in_scheme(page: Page, scheme: str) -> Page:
    """The page as a phone set to ``scheme`` shows it (the media feature the style sheets answer)."""
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
    return page


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
@pytest.mark.parametrize("scheme", SCHEMES)
def test_static_pages_have_no_serious_violations(new_phone: Callable[[], BrowserContext], path: str, scheme: str) -> None:
    page = in_scheme(new_phone().new_page(), scheme)
    page.goto(path)
    screenshot(page, f"{scheme}-page" + "".join(ch if ch.isalnum() else "-" for ch in path))
    assert blocking_violations(page) == []


@pytest.mark.parametrize("scheme", SCHEMES)
def test_game_pages_have_no_serious_violations(new_phone: Callable[[], BrowserContext], server: str,
                                               played_game: dict[str, Any], scheme: str) -> None:
    game_id = played_game["id"]
    table = in_scheme(new_phone().new_page(), scheme)
    table.goto(f"/g/{game_id}")
    assert blocking_violations(table) == []

    join = in_scheme(new_phone().new_page(), scheme)
    join.goto(f"/j/{played_game['join_code']}")
    assert blocking_violations(join) == []

    ann = in_scheme(open_seat(new_phone, server, played_game, 0), scheme)  # trick step: trick, score, end-turn forms
    ann.locator("#f-trick-details > summary").click()
    pick(ann, "f-trick", "Magic Missile")
    field(ann, "f-trick", "For which trait").locator("label.pick", has_text="Spell").click()
    expect(field(ann, "f-trick", "Which card did you draw?")).to_be_visible()
    screenshot(ann, f"{scheme}-seat-trick-open")
    # the picture in docs/at-the-table.md (docs/images/dark-mode.png, copied from output/screenshots): one screen
    ann.locator("#moves-title").scroll_into_view_if_needed()
    ann.screenshot(path=str(SCREENSHOTS / f"{scheme}-seat.png"))
    assert blocking_violations(ann) == []

    ben = in_scheme(open_seat(new_phone, server, played_game, 1), scheme)  # waiting for Ann
    assert blocking_violations(ben) == []


@pytest.mark.parametrize("scheme", SCHEMES)
def test_draw_form_has_no_serious_violations(new_phone: Callable[[], BrowserContext], server: str, api: Api,
                                             scheme: str) -> None:
    game = api.new_game(["Ann", "Ben"])
    ann = in_scheme(open_seat(new_phone, server, game, 0), scheme)
    ann.locator("#f-draw").get_by_label("Find by name").fill("spell")
    assert blocking_violations(ann) == []


def test_dark_scheme_keeps_the_qr_code_dark_on_light(new_phone: Callable[[], BrowserContext],
                                                    played_game: dict[str, Any]) -> None:
    """The page goes dark, the join QR code does not: a camera reads dark modules on a light quiet zone."""
    colours = {}
    for scheme in SCHEMES:
        table = in_scheme(new_phone().new_page(), scheme)
        table.goto(f"/g/{played_game['id']}")
        assert table.locator('meta[name="color-scheme"]').get_attribute("content") == "light dark"
        colours[scheme] = table.evaluate("""() => {
            const style = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
            return {page: style('html', 'backgroundColor'), ink: style('html', 'color'),
                    box: style('.qr-box', 'backgroundColor'), modules: style('.qr path', 'fill')};
        }""")
    assert colours["light"]["page"] != colours["dark"]["page"] and colours["light"]["ink"] != colours["dark"]["ink"]
    for scheme in SCHEMES:
        assert colours[scheme]["box"] == "rgb(255, 255, 255)" and colours[scheme]["modules"] == "rgb(0, 0, 0)", colours
    screenshot(table, "dark-table")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_result_page_and_its_chart_have_no_serious_violations(new_phone: Callable[[], BrowserContext],
                                                                  server: str, api: Api, scheme: str) -> None:
    """A finished game's result page (totals, the score chart, the exports) in both schemes; the chart's lines
    take the scheme's own colours."""
    answer = api.http.post(f"{server}/api/games", json={"game": "barony-sorcery", "players": ["Ann", "Ben"],
                                                        "options": {}}, timeout=10)
    assert answer.status_code == 201, answer.text
    game = answer.json()
    ann, ben = (seat["token"] for seat in game["seats"])
    api.move(game["id"], ann, {"type": "end_game"})
    api.move(game["id"], ann, {"type": "base_points", "points": 40})
    api.move(game["id"], ben, {"type": "base_points", "points": 35})
    api.move(game["id"], ann, {"type": "confirm_totals"})
    api.move(game["id"], ben, {"type": "confirm_totals"})
    page = in_scheme(new_phone().new_page(), scheme)
    page.goto(f"/g/{game['id']}/result")
    expect(page.locator("svg.score-chart")).to_be_visible()
    line = page.locator("svg.score-chart .series-0").first.evaluate("el => getComputedStyle(el).color")
    assert line == ("rgb(200, 179, 245)" if scheme == "dark" else "rgb(59, 31, 110)"), line
    screenshot(page, f"{scheme}-result")
    assert blocking_violations(page) == []


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_table_page_with_a_board_picture_has_no_serious_violations(new_phone: Callable[[], BrowserContext],
                                                                     server: str, api: Api, scheme: str) -> None:
    """Mandragora's table page draws the shop circle (an SVG with its own colours): in both schemes the picture
    keeps its light card, so its dark names stay readable on it."""
    answer = api.http.post(f"{server}/api/games", json={"game": "mandragora", "players": ["Ann", "Ben"],
                                                        "options": {}}, timeout=10)
    assert answer.status_code == 201, answer.text
    page = in_scheme(new_phone().new_page(), scheme)
    page.goto(f"/g/{answer.json()['id']}")
    board = page.locator("svg.board")
    expect(board).to_be_visible()
    assert board.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(255, 255, 255)"
    screenshot(page, f"{scheme}-table-board")
    assert blocking_violations(page) == []
