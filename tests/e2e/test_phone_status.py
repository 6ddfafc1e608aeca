"""What a seat page says before and after a tap, at 390x844 (issue 25): no red "Pick at least" before the player
has picked anything, and the host's "Game created" notice is not repeated by a reload."""

from __future__ import annotations

import re
from typing import Callable

from playwright.sync_api import BrowserContext, expect

from .conftest import Api, login_seat
from .phone import hosted_game


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
    _, game_id = hosted_game(page)
    expect(page.locator(".notice.success")).to_contain_text("Game created.")
    expect(page).to_have_url(re.compile(rf"/g/{game_id}/seat/0$"))  # the address lost ?created=1
    page.reload()
    expect(page.locator("h1")).to_contain_text("Ann")
    expect(page.locator(".notice.success")).to_have_count(0)


COUNT_TONES = """(() => {
  window.__tones = 0;
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    createOscillator() { const tone = super.createOscillator(); const start = tone.start.bind(tone);
                         tone.start = (...a) => { window.__tones += 1; return start(...a); }; return tone; }
  };
})();"""


def test_the_turn_sound_is_off_until_switched_on_then_plays_when_it_becomes_my_move(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game = api.new_game(["Ann", "Ben"])
    ben = game["seats"][1]["token"]
    phone = new_phone()
    phone.add_init_script(COUNT_TONES)
    login_seat(phone, server, game["id"], 1, ben)
    page = phone.new_page()
    page.goto(f"/g/{game['id']}/seat/1")
    page.locator("#phone-settings > summary").click()
    box = page.get_by_label("Play a short sound when it is my move")
    expect(box).not_to_be_checked()  # opt-in: off on a new phone

    def deal_then_take_back() -> None:
        """Ben deals himself three cards (then he waits), and the last is taken back: his move again."""
        for card in ("Golem", "Cocaine", "Mentors"):
            api.move(game["id"], ben, {"type": "draw", "card": card})
        expect(page.locator("#headline")).to_contain_text("Waiting for Ann", timeout=10_000)
        version = api.version(game["id"])
        undone = api.http.post(f"{server}/api/games/{game['id']}/undo", headers={"Authorization": f"Bearer {ben}"},
                               json={"version": version, "action_id": f"undo-{version}"}, timeout=10)
        assert undone.status_code == 200, undone.text
        expect(page.locator("#live")).to_have_attribute("data-version", str(version + 1), timeout=10_000)
        expect(page.locator("[data-your-move]")).to_have_count(1)

    deal_then_take_back()
    assert page.evaluate("window.__tones") == 0  # off: silent
    box.check()
    assert page.evaluate("window.__tones") == 2  # switching it on plays it once, to hear it
    assert page.evaluate("localStorage.getItem('spellbook.turn-sound')") == "on"
    api.move(game["id"], ben, {"type": "draw", "card": "Mentors"})  # he waits again
    expect(page.locator("[data-your-move]")).to_have_count(0, timeout=10_000)
    version = api.version(game["id"])
    api.http.post(f"{server}/api/games/{game['id']}/undo", headers={"Authorization": f"Bearer {ben}"},
                  json={"version": version, "action_id": f"undo-{version}"}, timeout=10)
    expect(page.locator("[data-your-move]")).to_have_count(1, timeout=10_000)
    page.wait_for_function("window.__tones === 4")  # his move again: two more tones


def test_the_host_reaches_the_seat_panel_from_the_top_and_is_told_beside_the_button_after_a_release(
        new_phone: Callable[[], BrowserContext], server: str) -> None:
    """Issue 25: the host's seat panel sat folded thousands of px down the table page with no cue, and a
    release ended on the top of the page with no word. Now a link at the top opens the panel in view, and a
    release comes back to the panel, open, scrolled to that seat's row, with the confirmation in the row."""
    host = new_phone()
    page = host.new_page()
    page.goto("/")
    page.locator("#new-section > summary").click()
    form = page.locator("#new-game")
    form.get_by_label("Player 1", exact=True).fill("Ann")
    form.get_by_label("Player 2", exact=True).fill("Ben")
    form.get_by_role("button", name="Start").first.click()
    code, game_id = hosted_game(page)
    ben = new_phone().new_page()
    ben.goto(f"/j/{code}")
    ben.get_by_role("button", name="I am Ben").click()
    ben.wait_for_url(f"**/g/{game_id}/seat/1")

    table = host.new_page()
    table.goto(f"/g/{game_id}")
    cue = table.get_by_role("link", name="Seats: release or rename (host)")
    assert cue.bounding_box()["y"] < 844  # type: ignore[index]  # on the first screen
    cue.click()
    # the release asks first (js/confirm.js): a tap before the page's scripts have run would release at once
    table.wait_for_url(re.compile(r"\?seats=1#host-seats$"))  # loaded: its scripts have run
    release = table.get_by_role("button", name="Release Ben's seat")
    expect(release).to_be_in_viewport()  # the panel opened, in view
    release.click()
    table.get_by_role("button", name="Yes, release it").click()
    row = table.locator("#seat-1")
    told = row.locator(".notice.success[role=status]")
    expect(told).to_contain_text("Released: Ben's phone no longer holds the seat and is told")
    expect(told).to_contain_text(code)
    expect(told).to_be_in_viewport()  # where the finger was
    bar = table.locator("#status-bar").bounding_box()
    box = told.bounding_box()
    assert bar and box and box["y"] >= bar["y"] + bar["height"] - 1, (bar, box)  # not under the sticky bar
    expect(row.locator(".tag")).to_have_text("free to join")
    table.reload()  # the address still says it while it is true (the seat still free)
    expect(table.locator("#seat-1 .notice.success")).to_have_count(1)
