"""axe-core (bundled with axe-playwright-python, injected from the local package) on every kind of page, in the
light and the dark colour scheme (``prefers-color-scheme``), colour contrast included.

Each page is loaded once and checked in both schemes: the schemes are the style sheets' media queries alone
(no script reads ``prefers-color-scheme``), so switching the emulated scheme on a loaded page restyles it
exactly as loading it in that scheme does, and axe-core is injected once a page."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from axe_playwright_python.base import AxeResults
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


def violations_by_scheme(page: Page, shot: str | None = None) -> dict[str, list[str]]:
    """The page's blocking violations in each scheme (each scheme's screenshot first when ``shot`` is named),
    for an assertion that lists both."""
    found = {}
    for scheme in SCHEMES:
        in_scheme(page, scheme)
        if shot:
            screenshot(page, shot.format(scheme=scheme))
        found[scheme] = blocking_violations(page)
    return found


NONE = {scheme: [] for scheme in SCHEMES}


def blocking_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (axe injected once a page)."""
    if not page.evaluate("typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.evaluate(AXE.axe_script)
    results = AxeResults(page.evaluate('axe.run({"resultTypes": ["violations"]})'))  # as Axe.run
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
    shot = "{scheme}-page" + "".join(ch if ch.isalnum() else "-" for ch in path)
    assert violations_by_scheme(page, shot) == NONE


def test_game_pages_have_no_serious_violations(new_phone: Callable[[], BrowserContext], server: str,
                                               played_game: dict[str, Any]) -> None:
    game_id = played_game["id"]
    table = new_phone().new_page()
    table.goto(f"/g/{game_id}")
    assert violations_by_scheme(table) == NONE

    join = new_phone().new_page()
    join.goto(f"/j/{played_game['join_code']}")
    assert violations_by_scheme(join) == NONE

    ann = open_seat(new_phone, server, played_game, 0)  # trick step: trick, score, end-turn forms
    ann.locator("#f-trick-details > summary").click()
    pick(ann, "f-trick", "Magic Missile")
    field(ann, "f-trick", "For which trait").locator("label.pick", has_text="Spell").click()
    expect(field(ann, "f-trick", "Which card did you draw?")).to_be_visible()
    found = {}
    for scheme in SCHEMES:
        in_scheme(ann, scheme)
        screenshot(ann, f"{scheme}-seat-trick-open")
        # the picture in docs/at-the-table.md (docs/images/dark-mode.png, copied from output/screenshots): one screen
        ann.locator("#moves-title").scroll_into_view_if_needed()
        ann.screenshot(path=str(SCREENSHOTS / f"{scheme}-seat.png"))
        found[scheme] = blocking_violations(ann)
    assert found == NONE

    ben = open_seat(new_phone, server, played_game, 1)  # waiting for Ann
    assert violations_by_scheme(ben) == NONE


def test_draw_form_has_no_serious_violations(new_phone: Callable[[], BrowserContext], server: str, api: Api) -> None:
    game = api.new_game(["Ann", "Ben"])
    ann = open_seat(new_phone, server, game, 0)
    ann.locator("#f-draw").get_by_label("Find by name").fill("spell")
    assert violations_by_scheme(ann) == NONE


def test_dark_scheme_keeps_the_qr_code_dark_on_light(new_phone: Callable[[], BrowserContext],
                                                    played_game: dict[str, Any]) -> None:
    """The page goes dark, the join QR code does not: a camera reads dark modules on a light quiet zone."""
    colours = {}
    table = new_phone().new_page()
    table.goto(f"/g/{played_game['id']}")
    assert table.locator('meta[name="color-scheme"]').get_attribute("content") == "light dark"
    for scheme in SCHEMES:
        colours[scheme] = in_scheme(table, scheme).evaluate("""() => {
            const style = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
            return {page: style('html', 'backgroundColor'), ink: style('html', 'color'),
                    box: style('.qr-box', 'backgroundColor'), modules: style('.qr path', 'fill')};
        }""")
    assert colours["light"]["page"] != colours["dark"]["page"] and colours["light"]["ink"] != colours["dark"]["ink"]
    for scheme in SCHEMES:
        assert colours[scheme]["box"] == "rgb(255, 255, 255)" and colours[scheme]["modules"] == "rgb(0, 0, 0)", colours
    screenshot(table, "dark-table")


def test_the_result_page_and_its_chart_have_no_serious_violations(new_phone: Callable[[], BrowserContext],
                                                                  server: str, api: Api) -> None:
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
    page = new_phone().new_page()
    page.goto(f"/g/{game['id']}/result")
    expect(page.locator("svg.score-chart")).to_be_visible()
    lines, found = {}, {}
    for scheme in SCHEMES:
        in_scheme(page, scheme)
        lines[scheme] = page.locator("svg.score-chart .series-0").first.evaluate("el => getComputedStyle(el).color")
        screenshot(page, f"{scheme}-result")
        found[scheme] = blocking_violations(page)
    assert lines == {"light": "rgb(59, 31, 110)", "dark": "rgb(200, 179, 245)"}
    assert found == NONE


def test_a_table_page_with_a_board_picture_has_no_serious_violations(new_phone: Callable[[], BrowserContext],
                                                                     server: str, api: Api) -> None:
    """Mandragora's table page draws the shop circle (an SVG with its own colours): in both schemes the picture
    keeps its light card, so its dark names stay readable on it."""
    answer = api.http.post(f"{server}/api/games", json={"game": "mandragora", "players": ["Ann", "Ben"],
                                                        "options": {}}, timeout=10)
    assert answer.status_code == 201, answer.text
    page = new_phone().new_page()
    page.goto(f"/g/{answer.json()['id']}")
    board = page.locator("svg.board")
    expect(board).to_be_visible()
    backgrounds, found = {}, {}
    for scheme in SCHEMES:
        in_scheme(page, scheme)
        backgrounds[scheme] = board.evaluate("el => getComputedStyle(el).backgroundColor")
        screenshot(page, f"{scheme}-table-board")
        found[scheme] = blocking_violations(page)
    assert backgrounds == {scheme: "rgb(255, 255, 255)" for scheme in SCHEMES}
    assert found == NONE
