"""After the game, on a phone at 390×844: the table leads to the result page (totals with their breakdown,
a score chart told apart without colour, the move log), the exports download, the share link carries no
secret, and Rematch starts the same players again with this phone in its seat."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable

import requests
from playwright.sync_api import BrowserContext, Page, expect

from companion.rules import rules_for

from .conftest import Api, login_seat, screenshot
from .phone import LIVE_WITHIN_MS


def finished_fillory_game(api: Api, players: list[str], seed: int) -> tuple[dict[str, Any], int]:
    """A Fillory game played to its end through the API: Fillory's setup holds no chance, so the same
    moves replayed here give the server's state, and the rules pick each move. Returns (game, moves)."""
    rules = rules_for("fillory")
    game = api.new_game(players)
    state = rules.setup(players, {"first_seat": 0}, random.Random(0))
    rng = random.Random(seed)
    tokens = [seat["token"] for seat in game["seats"]]
    version = 0
    while not rules.outcome(state).over and not rules.stalled(state):
        offered = [(s, m) for s in range(len(players)) if (m := rules.random_legal_move(state, s, rng)) is not None]
        seat, move = rng.choice(offered)
        answer = api.http.post(f"{api.base}/api/games/{game['id']}/moves",
                               headers={"Authorization": f"Bearer {tokens[seat]}"},
                               json={"version": version, "action_id": f"end-{version}", "move": move}, timeout=5)
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        state = rules.apply(state, seat, move)
    return game, version


def test_a_finished_game_has_a_result_page_with_chart_exports_and_rematch(
        new_phone: Callable[[], BrowserContext], api: Api, server: str, tmp_path: Path) -> None:
    game, moves = finished_fillory_game(api, ["Ann", "Ben", "Cat"], seed=14)
    phone = new_phone()
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    page.goto(f"/g/{game['id']}/seat/0")
    page.locator("#see-result").click()
    expect(page).to_have_url(f"{server}/g/{game['id']}/result")
    expect(page.locator("#verdict")).to_contain_text("VP")

    # totals, best first, each with its breakdown open; the winner marked in words
    totals = page.locator(".result-totals > li")
    expect(totals).to_have_count(3)
    assert "winner" in totals.first.inner_text()
    first_breakdown = totals.first.locator(".breakdown li")
    assert first_breakdown.count() >= 2 and "Total:" in first_breakdown.last.inner_text()

    # the chart: one line per player, each with its own dash and marker, named at its end
    chart = page.locator("svg.score-chart")
    expect(chart).to_be_visible()
    series = chart.locator("g.series")
    expect(series).to_have_count(3)
    dashes = {series.nth(i).locator("path.line").get_attribute("stroke-dasharray") for i in range(3)}
    shapes = {series.nth(i).get_attribute("data-shape") for i in range(3)}
    assert len(dashes) == 3 and len(shapes) == 3
    labels = [t.split()[0] for t in chart.locator("text.end-label").all_text_contents()]
    assert sorted(labels) == ["Ann", "Ben", "Cat"]
    box = chart.bounding_box()
    assert box and box["width"] <= 390 and box["height"] > 150
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390  # nothing wider than the phone

    # the whole move log
    expect(page.locator(".log li")).to_have_count(moves)

    # share link: this page, nothing secret in it
    share = page.locator("#share-url").input_value()
    assert share == f"{server}/g/{game['id']}/result"
    assert all(seat["token"] not in page.content() for seat in game["seats"])
    assert game["join_code"] not in page.content()
    screenshot(page, "result")

    # exports: JSON and BG Stats' format
    with page.expect_download() as download:
        page.locator("#export-json").click()
    path = tmp_path / "result.json"
    download.value.save_as(path)
    data = json.loads(path.read_text())
    shown_totals = {p["name"]: p["total"] for p in data["players"]}
    assert data["format"] == "spellbook-table-result" and len(data["moves"]) == moves
    assert data["score_over_time"][-1]["totals"] == [shown_totals[n] for n in ("Ann", "Ben", "Cat")]
    with page.expect_download() as download:
        page.locator("#export-bgstats").click()
    path = tmp_path / "bgstats.json"
    download.value.save_as(path)
    bgstats = json.loads(path.read_text())
    assert {p["name"]: p["score"] for p in bgstats["players"]} == shown_totals
    assert [p["winner"] for p in bgstats["players"]] == [p["winner"] for p in data["players"]]
    assert bgstats["game"]["name"] == "Magicians of Fillory" and bgstats["sourceName"] == "Spellbook Table"
    assert page.locator("#open-bgstats").get_attribute("href").startswith("https://app.bgstatsapp.com/createPlay.html?data=")

    # rematch: a new game, same players, this phone back in Ann's seat; Ben's phone, still on the old game,
    # is offered the new one live and takes his seat in it from there
    def seated(seat: int, path: str) -> Page:
        phone = new_phone()
        login_seat(phone, server, game["id"], seat, game["seats"][seat]["token"])
        opened = phone.new_page()
        opened.goto(path)
        return opened

    ben = seated(1, f"/g/{game['id']}/seat/1")
    expect(ben.locator("#see-result")).to_be_visible()
    expect(ben.locator("#rematch-offer")).to_have_count(0)
    # Cat's phone has the old game's result page open: it hears of the rematch too, without a reload
    cat = seated(2, f"/g/{game['id']}/result")
    expect(cat.locator("#rematch")).to_be_visible()
    expect(cat.locator("#rematch-offer")).to_have_count(0)
    page.bring_to_front()
    page.locator("#rematch").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ann")
    new_id = page.url.split("/g/")[1].split("/")[0]
    assert new_id != game["id"]
    # a new connection: the session's kept-alive one may have been closed by the server's 5-s keep-alive
    # while the phones above were opened (a reset on reuse, seen once on a busy machine)
    again = requests.get(f"{server}/api/games/{new_id}", timeout=5).json()
    assert again["players"] == ["Ann", "Ben", "Cat"] and again["game"] == "fillory"
    assert again["version"] == 0
    ben.bring_to_front()
    offer = ben.locator("#rematch-offer")
    expect(offer).to_be_visible(timeout=LIVE_WITHIN_MS)  # without a reload: the live part says so
    offer.get_by_role("link", name="Take your seat in the rematch").click()
    ben.get_by_role("button", name="I am Ben").click()
    expect(ben).to_have_url(f"{server}/g/{new_id}/seat/1")
    # Cat's result page, opened before the rematch, now offers it in place of its Rematch button
    cat.bring_to_front()
    expect(cat.locator("#rematch-offer")).to_be_visible(timeout=LIVE_WITHIN_MS)
    expect(cat.locator("#rematch")).to_have_count(0)
    expect(cat.locator("#share-feedback")).to_have_text("A rematch has started.")
    cat.locator("#rematch-offer").get_by_role("link", name="Take your seat in the rematch").click()
    cat.get_by_role("button", name="I am Cat").click()
    expect(cat).to_have_url(f"{server}/g/{new_id}/seat/2")
