"""What a seat page says before and after a tap, at 390x844 (issue 25): no red "Pick at least" before the player
has picked anything, and the host's "Game created" notice is not repeated by a reload."""

from __future__ import annotations

import re
from typing import Callable

from playwright.sync_api import BrowserContext, expect

from .conftest import Api, login_seat


def test_too_few_picks_are_said_only_once_the_player_has_picked(new_phone: Callable[[], BrowserContext],
                                                                  api: Api, server: str) -> None:
    answer = api.http.post(f"{server}/api/games", json={"game": "jsmn", "players": ["Ann", "Ben"], "options": {}},
                           timeout=10)
    assert answer.status_code == 201, answer.text
    game = answer.json()
    phone = new_phone()
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    page.goto(f"/g/{game['id']}/seat/0")
    form = page.locator("#j-start")
    expect(form).to_be_visible()
    expect(form.locator(".c-count:not([hidden])")).to_have_count(0)  # nothing tapped: no red sentence yet
    form.locator("label.pick").first.click()
    expect(form.locator(".c-count")).to_have_text("Pick at least 3 here.")
    assert form.locator('input[type="checkbox"]').first.evaluate("el => el.form.checkValidity()") is False


def test_game_created_is_said_once(new_phone: Callable[[], BrowserContext]) -> None:
    page = new_phone().new_page()
    page.goto("/")
    page.locator("#new-section > summary").click()
    form = page.locator("#new-game")
    form.get_by_label("Player 1").fill("Ann")
    form.get_by_label("Player 2").fill("Ben")
    form.get_by_role("button", name="Start Magicians of Fillory").click()
    expect(page.locator(".notice.success")).to_contain_text("Game created.")
    expect(page).to_have_url(re.compile(r"/g/[0-9a-f]+/seat/0$"))  # the address lost ?created=1
    page.reload()
    expect(page.locator("h1")).to_contain_text("Ann")
    expect(page.locator(".notice.success")).to_have_count(0)
