"""Taps made before a page's deferred scripts have run, at 390x844: on slow Wi-Fi a page is on screen and
tappable before its scripts arrive. Each test holds the page's scripts back (as the connection would) until
after the player's tap, then lets them through: the tap is held and made once the scripts are in, or the
control says it cannot be used yet (disabled), or the script picks up what was done on arrival. Every phone
here is a fresh one whose first page is the one tested: no service worker fetches past the held route."""

from __future__ import annotations

import re
import time
from typing import Any, Callable

from playwright.sync_api import BrowserContext, Page, Route, expect

from companion.web.helpers import host_cookie

from .conftest import HTTP_SECONDS, WAIT_MS, Api, login_seat
from .phone import LIVE_JS, held_live_js
from .test_after_game import finished_fillory_game


def hold(page: Page, *scripts: str) -> list[Route]:
    """Hold back each ``js/<script>.js`` (as served, hashed or minified alike): returns the held requests."""
    held: list[Route] = []
    names = "|".join(re.escape(script) for script in scripts)
    page.route(re.compile(rf"/static/js/({names})(\.[0-9a-f]+)?(\.min)?\.js"), lambda route: held.append(route))
    return held


def let_through(page: Page, held: list[Route], count: int = 1) -> None:
    """Let the held scripts through once the page has asked for them (``count`` of them)."""
    wait_for_held(page, held, count)
    for route in held:
        route.continue_()


def wait_for_held(page: Page, held: list[Route], count: int = 1) -> None:
    """Until the page has asked for ``count`` held scripts: the route's handler runs as Playwright hears of the
    request, so let it hear; a page that never asks (a service worker serving it) fails here, not hangs."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while len(held) < count:
        assert time.monotonic() < deadline, f"the page asked for {len(held)} of the {count} scripts held back"
        page.wait_for_timeout(20)


def test_a_move_removed_before_the_corrections_script_ran_is_removed(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """The corrections page's Remove is a script's form (no action): tapped before js/corrections.js arrived it
    reloaded the page and nothing was removed, without a word. The tap is held and sent once it has run."""
    game, _, _ = api.two_player_opening()
    version = api.version(game["id"])
    phone = new_phone(service_workers="block")
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    held = hold(page, "corrections")
    page.goto(f"/g/{game['id']}/seat/0/fix", wait_until="commit")
    page.evaluate("window.__noReload = 'still here'")
    page.get_by_role("button", name=f"Remove move {version}").click()  # before corrections.js has arrived
    page.wait_for_timeout(300)
    assert page.evaluate("window.__noReload") == "still here" and api.version(game["id"]) == version  # held
    let_through(page, held)
    expect(page.locator("#done")).to_contain_text(f"move {version}")
    assert api.version(game["id"]) == version + 1



def _fix_page_held(new_phone: Callable[[], BrowserContext], api: Api,
                   server: str) -> tuple[dict[str, Any], int, Page, list[Route]]:
    """Ann's new phone in a dealt game (its version), its page, and the correction pages' scripts held back."""
    game, _, _ = api.two_player_opening()
    phone = new_phone(service_workers="block")
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    return game, api.version(game["id"]), page, hold(page, "choices", "confirm", "corrections")


def test_a_move_removed_on_its_own_page_before_its_scripts_ran_is_asked_then_removed(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """A move's own page: "Remove move 7" tapped before its scripts arrived reloaded the page. The tap is held
    until they have run, then asks first (js/confirm.js) as any tap does, and the answer removes it."""
    game, version, page, held = _fix_page_held(new_phone, api, server)
    page.goto(f"/g/{game['id']}/seat/0/fix/{version}", wait_until="commit")
    page.get_by_role("button", name=f"Remove move {version}").click()  # before its scripts have arrived
    let_through(page, held, 3)
    page.locator(".confirm-box").get_by_role("button", name="Yes, remove it").click()
    expect(page.locator("#done")).to_contain_text(f"move {version}")
    assert api.version(game["id"]) == version + 1


def test_enter_in_find_by_name_before_the_scripts_ran_sends_no_correction(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """A move's own page lists the cards with "Find by name" above them. Enter there never sends the form
    (js/choices.js); before the scripts arrived it was the browser's implicit submission, which the held
    taps must not send as a correction once they have run."""
    game, version, page, held = _fix_page_held(new_phone, api, server)
    page.goto(f"/g/{game['id']}/seat/0/fix/2", wait_until="commit")
    form = page.locator("form[data-move=draw]")
    form.locator("label.pick").nth(3).click()  # a card picked: the form could be sent
    form.get_by_label("Find by name").fill("Time")
    form.get_by_label("Find by name").press("Enter")  # before its scripts have arrived
    let_through(page, held, 3)
    page.wait_for_load_state()  # the held taps were made at DOMContentLoaded: a send says "Sending…" at once
    expect(page.locator(".fix-answer, #done")).to_have_count(0)
    assert "done=" not in page.url and api.version(game["id"]) == version


def _ann_told_of_bens_take_back(new_phone: Callable[[], BrowserContext], api: Api,
                                server: str) -> tuple[dict[str, Any], int, Page]:
    """Ben took back Ann's draw (the game, its version before that, and a page of a new phone of Ann's, not yet
    opened): her seat page tells her, with "Put it back" and "Leave it"."""
    game, _, ben = api.two_player_opening()
    version = api.version(game["id"])
    undone = api.http.post(f"{server}/api/games/{game['id']}/undo", headers={"Authorization": f"Bearer {ben}"},
                           json={"version": version, "action_id": f"undo-{version}"})
    assert undone.status_code == 200, undone.text
    phone = new_phone(service_workers="block")
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    return game, version, phone.new_page()


def test_leave_it_tapped_before_the_seat_scripts_ran_hides_the_notice(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """Ben took back Ann's draw: her page tells her, with "Put it back" and "Leave it". "Leave it" is a
    script's button: tapped before the scripts arrived it did nothing, and the notice stayed."""
    game, version, page = _ann_told_of_bens_take_back(new_phone, api, server)
    held = held_live_js(page)
    page.goto(f"/g/{game['id']}/seat/0", wait_until="commit")
    told = page.locator(".told")
    expect(told).to_contain_text("Ben took back your move 7")
    told.get_by_role("button", name="Leave it").click()  # before live.js has arrived
    let_through(page, held)
    expect(told).to_be_hidden()
    assert page.evaluate(f"localStorage.getItem('told-left-{game['id']}-0')") is not None
    page.unroute(LIVE_JS)
    page.reload()  # left for good on this phone
    expect(page.locator("#live")).to_have_attribute("data-version", str(version + 1))
    expect(page.locator(".told")).to_be_hidden()


def test_the_phone_settings_wait_for_their_scripts(new_phone: Callable[[], BrowserContext], api: Api,
                                                   server: str) -> None:
    """"This phone"'s boxes are kept by scripts (js/signals.js, js/turn-sound.js): ticked before they arrived,
    a box changed on screen but was saved nowhere, and the script then put it back. They wait, disabled."""
    game = api.new_game(["Ann", "Ben"])
    phone = new_phone(service_workers="block")
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    held = hold(page, "signals", "turn-sound")
    page.goto(f"/g/{game['id']}/seat/0", wait_until="commit")
    page.locator("#phone-settings > summary").click()
    keep_on = page.get_by_label("Keep the screen on while a game is open")
    sound = page.get_by_label("Play a short sound when it is my move")
    for box in (keep_on, page.get_by_label("Vibrate when it is my move"), sound):
        expect(box).to_be_disabled()  # before its script has arrived
    let_through(page, held, 2)
    keep_on.uncheck()
    sound.check()
    saved = page.evaluate("['spellbook.wake-lock', 'spellbook.turn-sound'].map((key) => localStorage.getItem(key))")
    assert saved == ["off", "on"]


def test_share_link_waits_for_its_script(new_phone: Callable[[], BrowserContext], api: Api) -> None:
    """The result page's Share link is a script's button: tapped before js/result.js arrived it did nothing."""
    game, _ = finished_fillory_game(api, ["Ann", "Ben"], seed=3)
    page = new_phone(service_workers="block").new_page()
    held = hold(page, "result")
    page.goto(f"/g/{game['id']}/result", wait_until="commit")
    share = page.get_by_role("button", name="Share link")
    expect(share).to_be_disabled()  # before result.js has arrived
    let_through(page, held)
    share.click()
    expect(page.locator("#share-feedback")).not_to_be_empty()


def test_names_typed_before_the_start_page_script_ran_are_in_who_goes_first(
        new_phone: Callable[[], BrowserContext]) -> None:
    """The "who goes first" list follows the names typed (js/home.js): names typed before it arrived stayed
    "Player 1", "Player 2" there."""
    page = new_phone(service_workers="block").new_page()
    held = hold(page, "home")
    page.goto("/", wait_until="commit")
    page.locator("#new-section > summary").click()
    form = page.locator("#new-game")
    form.get_by_label("Player 1", exact=True).fill("Ann")
    form.get_by_label("Player 2", exact=True).fill("Ben")
    let_through(page, held)
    page.wait_for_load_state()
    expect(form.locator("select[name=first] option")).to_contain_text(["Ann", "Ben", "Player 3"])


def test_a_release_tapped_before_the_table_scripts_ran_still_asks_first(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """The host's "Release Ben's seat" is a real form that asks first (js/confirm.js): tapped before that script
    arrived it released the seat at once, with no question. The tap is held until the scripts are in, then asks;
    Yes releases it."""
    game, _, ben = api.two_player_opening()

    def ben_holds() -> bool:
        answer = api.http.get(f"{server}/api/games/{game['id']}", headers={"Authorization": f"Bearer {ben}"},
                              timeout=HTTP_SECONDS)
        assert answer.status_code in (200, 401), answer.text
        return answer.status_code == 200

    phone = new_phone(service_workers="block")
    phone.add_cookies([{"name": host_cookie(game["id"]), "value": game["host_token"], "url": server}])
    page = phone.new_page()
    held = hold(page, "confirm")
    page.goto(f"/g/{game['id']}?seats=1#host-seats", wait_until="commit")
    page.get_by_role("button", name="Release Ben's seat").click()  # before confirm.js has arrived
    page.wait_for_timeout(300)
    assert ben_holds()  # held, not sent
    let_through(page, held)
    page.get_by_role("button", name="Yes, release it").click()
    expect(page.locator("#seat-1 .tag")).to_have_text("free to join")
    assert not ben_holds()


def _ben_holds(api: Api, server: str, game: dict[str, Any], ben: str) -> bool:
    answer = api.http.get(f"{server}/api/games/{game['id']}", headers={"Authorization": f"Bearer {ben}"},
                          timeout=HTTP_SECONDS)
    assert answer.status_code in (200, 401), answer.text
    return answer.status_code == 200


NOT_LOADED = "this page did not finish loading"


def test_a_release_whose_question_script_never_arrives_is_not_sent_and_says_to_reload(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """js/confirm.js never arrives (blocked, or the connection dropped it): the held tap on "Release Ben's seat" was
    made again at DOMContentLoaded with nothing to ask, and the real form released the seat at once. Now it is
    not sent, before or after the page has loaded, and the page says to reload it."""
    game, _, ben = api.two_player_opening()
    phone = new_phone(service_workers="block")
    phone.add_cookies([{"name": host_cookie(game["id"]), "value": game["host_token"], "url": server}])
    page = phone.new_page()
    held = hold(page, "confirm")
    page.goto(f"/g/{game['id']}?seats=1#host-seats", wait_until="commit")
    release = page.get_by_role("button", name="Release Ben's seat")
    release.click()                                     # before the script, which then fails
    wait_for_held(page, held)
    for route in held:
        route.abort()
    notice = page.locator("#host-seats .held-tap")
    expect(notice).to_contain_text(NOT_LOADED, ignore_case=True)
    expect(notice).to_contain_text("Reload the page")
    assert _ben_holds(api, server, game, ben) and page.locator(".confirm-box").count() == 0
    page.wait_for_load_state("load")
    release.click()                                     # and after it: still not sent without the question
    expect(notice).to_have_count(1)
    expect(notice).to_be_visible()
    assert _ben_holds(api, server, game, ben)
    assert page.evaluate("document.readyState") == "complete" and "seats=1" in page.url


def test_a_remove_whose_corrections_script_never_arrives_says_to_reload(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """js/corrections.js never arrives: "Remove move 8" reloaded the page as ".../fix?" and nothing said why."""
    game, _, _ = api.two_player_opening()
    version = api.version(game["id"])
    phone = new_phone(service_workers="block")
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    page.route(re.compile(r"/static/js/corrections(\.[0-9a-f]+)?(\.min)?\.js"), lambda route: route.abort())
    page.goto(f"/g/{game['id']}/seat/0/fix")
    page.wait_for_load_state("load")
    page.evaluate("window.__noReload = 'still here'")
    page.get_by_role("button", name=f"Remove move {version}").click()
    expect(page.locator(f"#move-{version} .held-tap")).to_contain_text(NOT_LOADED, ignore_case=True)
    assert page.evaluate("window.__noReload") == "still here" and not page.url.endswith("?")
    assert api.version(game["id"]) == version


def test_a_move_whose_live_script_never_arrives_says_to_reload(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """js/live.js never arrives: "Take back the last move" (a script's form: no action) reloaded the seat page as
    ".../seat/0?" and the tap was lost without a word. Now it is not sent, and the page says to reload it."""
    game, _, _ = api.two_player_opening()
    version = api.version(game["id"])
    phone = new_phone(service_workers="block")
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    page.route(LIVE_JS, lambda route: route.abort())
    page.goto(f"/g/{game['id']}/seat/0")
    page.wait_for_load_state("load")
    page.evaluate("window.__noReload = 'still here'")
    page.locator("#f-undo").get_by_role("button", name="Take back the last move").click()
    expect(page.locator("#f-undo .held-tap")).to_contain_text(NOT_LOADED, ignore_case=True)
    assert page.evaluate("window.__noReload") == "still here" and not page.url.endswith("?")
    assert api.version(game["id"]) == version


def test_a_put_back_whose_script_never_arrives_says_to_reload(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """js/put-back.js never arrives: "Put it back" on the notice of Ben's take-back reloaded the page and the
    move stayed taken back, without a word. Now it is not sent, and the notice says to reload."""
    game, version, page = _ann_told_of_bens_take_back(new_phone, api, server)
    page.route(re.compile(r"/static/js/put-back(\.[0-9a-f]+)?(\.min)?\.js"), lambda route: route.abort())
    page.goto(f"/g/{game['id']}/seat/0")
    page.wait_for_load_state("load")
    page.evaluate("window.__noReload = 'still here'")
    told = page.locator(".told")
    told.get_by_role("button", name="Put it back").click()
    expect(told.locator(".held-tap")).to_contain_text(NOT_LOADED, ignore_case=True)
    assert page.evaluate("window.__noReload") == "still here" and not page.url.endswith("?")
    assert api.version(game["id"]) == version + 1
