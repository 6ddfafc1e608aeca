"""Refused moves, undo, and phones that slept, lost the network or acted on an old screen."""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest
from playwright.sync_api import BrowserContext, Route, expect

from companion.rules import IllegalMove
from companion.rules.fillory import game as fillory

from .conftest import Api, login_seat, screenshot
from .phone import (
    LIVE_WITHIN_MS,
    caught_up,
    held_live_js,
    lose_the_first_answer,
    open_seat,
    report_draw,
    set_hidden,
)


def asks_the_version(game_id: str) -> Callable[[Any], bool]:
    """A request for the game's version: only a waking page asks it (checkNow); the open stream and the
    browser's own reconnecting of it ask the events URL. So the wake-up is proven by a condition, not a clock."""
    return lambda request: request.url.split("?")[0].endswith(f"/api/games/{game_id}/version")


@pytest.fixture
def game(api: Api) -> dict[str, Any]:
    return api.new_game(["Ann", "Ben", "Cat"])


def test_refused_move_shows_the_reason_and_rule_and_changes_nothing(
        new_phone: Callable[[], BrowserContext], api: Api, server: str, game: dict[str, Any]) -> None:
    ann = open_seat(new_phone, server, game, 0)
    api.move(game["id"], game["seats"][1]["token"], {"type": "draw", "card": "Golem"})
    caught_up(ann, api, game["id"])
    version = api.version(game["id"])

    state = fillory.setup(["Ann", "Ben", "Cat"], {}, random.Random(0))
    state = fillory.apply(state, 1, {"type": "draw", "card": "Golem"})
    with pytest.raises(IllegalMove) as refusal:
        fillory.apply(state, 0, {"type": "draw", "card": "Golem"})

    ann.locator("#f-draw").get_by_label("Find by name").fill("Golem")
    ann.locator("#f-draw label.pick", has_text="Golem").click()
    ann.get_by_role("button", name="Report this draw").click()
    alert = ann.locator("#move-message")
    expect(alert).to_contain_text(refusal.value.message)
    expect(alert.locator(".notice")).to_have_attribute("data-rule", "fillory.card.location")
    rule_link = alert.get_by_role("link", name="fillory.card.location")
    expect(rule_link).to_have_attribute("href", "/rules/fillory#fillory.card.location")
    screenshot(ann, "seat-refused")
    assert api.version(game["id"]) == version  # nothing was recorded
    expect(ann.locator("#hand-title")).to_contain_text("(0 of max 5)")
    expect(ann.locator("#f-draw input[value=golem]")).to_be_checked()  # the choice is kept for a fix

    rule_link.click()
    expect(ann).to_have_url(f"{server}/rules/fillory#fillory.card.location")
    expect(ann.locator("li.rule-entry:target h2")).to_have_text("One place per card")


def test_undo_takes_back_my_last_move(new_phone: Callable[[], BrowserContext], api: Api, server: str,
                                      game: dict[str, Any]) -> None:
    ann = open_seat(new_phone, server, game, 0)
    report_draw(ann, "Romance")
    expect(ann.locator("#hand-title")).to_contain_text("(1 of max 5)")
    ann.get_by_role("button", name="Take back the last move").click()
    expect(ann.locator("#move-message")).to_contain_text("Undone.")
    expect(ann.locator("#hand-title")).to_contain_text("(0 of max 5)")
    expect(ann.locator(".log li.undone")).to_contain_text("Ann drew a card")
    assert api.version(game["id"]) == 2


def test_sleeping_phone_catches_up_when_woken(new_phone: Callable[[], BrowserContext], api: Api, server: str,
                                              game: dict[str, Any]) -> None:
    ben = open_seat(new_phone, server, game, 1)
    caught_up(ben, api, game["id"])
    set_hidden(ben, True)
    api.move(game["id"], game["seats"][0]["token"], {"type": "draw", "card": "Ember"})
    ben.wait_for_timeout(1500)
    expect(ben.locator("#live")).to_have_attribute("data-version", "0")  # asleep: no polling at all
    with ben.expect_request(asks_the_version(game["id"])):
        set_hidden(ben, False)  # the wake-up itself fetches the news
    expect(ben.locator("#live")).to_have_attribute("data-version", "1")
    expect(ben.locator(".log")).to_contain_text("Ann drew a card")


def test_phone_that_lost_the_network_reconnects_and_catches_up(
        new_phone: Callable[[], BrowserContext], api: Api, server: str, game: dict[str, Any]) -> None:
    ben = open_seat(new_phone, server, game, 1)
    caught_up(ben, api, game["id"])
    status = ben.locator("#live-status")
    ben.context.set_offline(True)
    expect(status).to_have_attribute("data-state", "reconnecting", timeout=LIVE_WITHIN_MS)
    expect(status).to_have_text("Reconnecting…")
    api.move(game["id"], game["seats"][2]["token"], {"type": "draw", "card": "Djinn"})
    ben.wait_for_timeout(300)
    with ben.expect_request(asks_the_version(game["id"])):
        ben.context.set_offline(False)  # the browser fires 'online': the page asks at once
    expect(ben.locator("#live")).to_have_attribute("data-version", "1")
    expect(status).to_have_attribute("data-state", "live")
    expect(ben.locator(".log")).to_contain_text("Cat drew a card")


def test_a_refused_stream_is_not_asked_for_again_at_once_and_the_page_asks_the_version_meanwhile(
        new_phone: Callable[[], BrowserContext], api: Api, server: str, game: dict[str, Any]) -> None:
    """A server process that holds as many live-update streams as it may answers 503 (Retry-After: 30): the
    page learns the news by asking the version every second, and asks for a stream again only later (not
    every few seconds, which would keep a full server busy refusing)."""
    phone = new_phone()
    streams_asked: list[str] = []

    def refuse(route: Route) -> None:
        streams_asked.append(route.request.url)
        route.fulfill(status=503, headers={"Retry-After": "30"}, content_type="application/json",
                      body='{"ok": false, "error": "Full.", "rule": null, "status": 503}')

    phone.route(f"**/api/games/{game['id']}/events", refuse)
    login_seat(phone, server, game["id"], 1, game["seats"][1]["token"])
    ben = phone.new_page()
    ben.goto(f"/g/{game['id']}/seat/1")
    with ben.expect_request(asks_the_version(game["id"])):  # refused: the page asks the version instead
        pass
    api.move(game["id"], game["seats"][0]["token"], {"type": "draw", "card": "Ember"})
    expect(ben.locator("#live")).to_have_attribute("data-version", "1", timeout=LIVE_WITHIN_MS)
    expect(ben.locator(".log")).to_contain_text("Ann drew a card")
    expect(ben.locator("#live-status")).to_have_attribute("data-state", "live")
    for _ in range(3):  # three more seconds of asking the version...
        with ben.expect_request(asks_the_version(game["id"])):
            pass
    assert len(streams_asked) == 1, streams_asked  # ...and the stream not asked for again meanwhile


def test_stale_phone_is_told_updated_and_keeps_the_choice(
        new_phone: Callable[[], BrowserContext], api: Api, server: str, game: dict[str, Any]) -> None:
    ann = open_seat(new_phone, server, game, 0)
    caught_up(ann, api, game["id"])
    set_hidden(ann, True)  # stops polling, so the screen falls behind
    api.move(game["id"], game["seats"][1]["token"], {"type": "draw", "card": "Golem"})
    filter_box = ann.locator("#f-draw").get_by_label("Find by name")
    filter_box.fill("Romance")
    ann.locator("#f-draw label.pick", has_text="Romance").click()
    ann.get_by_role("button", name="Report this draw").click()
    expect(ann.locator("#move-message")).to_contain_text("Another phone moved first")
    expect(ann.locator("#live")).to_have_attribute("data-version", "1")  # re-read before acting again
    assert api.version(game["id"]) == 1  # the stale move was not recorded
    expect(ann.locator("#f-draw input[value=romance]")).to_be_checked()
    expect(filter_box).to_have_value("Romance")
    screenshot(ann, "seat-stale")
    ann.get_by_role("button", name="Report this draw").click()
    expect(ann.locator("#move-message")).to_contain_text("Recorded.")
    expect(ann.locator("#hand-title")).to_contain_text("(1 of max 5)")
    assert api.version(game["id"]) == 2


def test_lost_answer_is_retried_with_the_same_action_id_and_counts_once(
        new_phone: Callable[[], BrowserContext], api: Api, server: str, game: dict[str, Any]) -> None:
    ann = open_seat(new_phone, server, game, 0)
    sent: list[dict[str, Any]] = []


    ann.route("**/api/games/*/moves", lose_the_first_answer(sent, lambda route: route.request.post_data_json))
    report_draw(ann, "Romance")
    assert len(sent) == 2
    assert sent[0]["action_id"] == sent[1]["action_id"] and sent[0]["version"] == sent[1]["version"] == 0
    assert api.version(game["id"]) == 1  # recorded once, answered twice
    expect(ann.locator("#hand-title")).to_contain_text("(1 of max 5)")


def test_a_tap_on_a_seat_page_before_its_scripts_have_run_is_held_and_sent(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """On slow Wi-Fi a seat page's forms show before js/live.js has arrived: a tap on a move then is held
    (not a native submission that reloaded the page and lost the move) and sent once the scripts have run,
    logged like any other move."""
    made = api.http.post(f"{server}/api/games", json={"game": "mandragora", "players": ["Ann", "Ben"]}, timeout=5)
    game = made.json()
    phone = new_phone(service_workers="block")  # a service worker would serve live.js past the held route
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    release = held_live_js(page)
    page.goto(f"/g/{game['id']}/seat/0", wait_until="commit")
    seek = page.locator("#m-seek")
    seek.locator("label.pick", has_text="1 shop").click()  # before live.js has arrived
    seek.get_by_role("button", name="Seek").click()
    page.wait_for_timeout(300)
    assert page.url.endswith(f"/g/{game['id']}/seat/0") and len(release) == 1  # held: no reload, nothing sent
    assert api.version(game["id"]) == 0
    release[0].continue_()
    expect(page.locator("#live")).to_have_attribute("data-version", "1")
    entries = api.http.get(f"{server}/api/games/{game['id']}/log", timeout=5).json()["entries"]
    assert [(e["seat"], e["move"]["type"], e["move"]["steps"]) for e in entries] == [(0, "seek", 1)]
    assert page.url.endswith(f"/g/{game['id']}/seat/0")


def test_a_slow_swap_asked_for_before_a_move_never_lands_over_the_moves_answer(
        new_phone: Callable[[], BrowserContext], api: Api, server: str, game: dict[str, Any]) -> None:
    """On slow Wi-Fi a swap asked for before a move (a seat claimed elsewhere, the page woken) can arrive
    after the move's own re-read: the older screen and its older version must never come back over it."""
    ann = open_seat(new_phone, server, game, 0)
    caught_up(ann, api, game["id"])
    part = f"/g/{game['id']}/seat/0/live"
    before = ann.evaluate("(url) => fetch(url).then((r) => r.text())", part)  # the screen at version 0
    ann.evaluate("""window.__shown = [];
      document.addEventListener('live:swapped', () => window.__shown.push(document.querySelector('#live').dataset.version));""")
    held: list[Route] = []

    def hold_the_first_part(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)  # the phone hears this answer only later

    ann.route(f"**{part}", hold_the_first_part)
    with ann.expect_request(f"**{part}"):
        ann.evaluate("document.dispatchEvent(new CustomEvent('live:refresh'))")  # what a seat claim asks
    report_draw(ann, "Romance")  # sent, recorded, and the page re-read at version 1
    assert len(held) == 1
    expect(ann.locator("#live")).to_have_attribute("data-version", "1")
    with ann.expect_event("requestfinished", lambda request: request.url.endswith(part)):
        held[0].fulfill(status=200, headers={"Content-Type": "text/html", "X-Game-Version": "0"}, body=before)
    ann.evaluate("new Promise((done) => setTimeout(done, 0))")  # the page's handling of that answer has run
    shown = ann.evaluate("window.__shown")
    assert "1" in shown and "0" not in shown, shown  # the version-1 screen stayed
    expect(ann.locator("#hand-title")).to_contain_text("(1 of max 5)")
