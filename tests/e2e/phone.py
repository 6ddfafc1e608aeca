"""What a player does on a phone page, as reusable steps for the browser tests."""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence, TypeVar

from playwright.sync_api import BrowserContext, Locator, Page, Route, expect

from .conftest import WAIT_MS, Api, login_seat

LIVE_WITHIN_MS = WAIT_MS  # another phone's move shows up without a reload (a ceiling: a busy machine is slow)
LIVE_JS = re.compile(r"/static/js/live(\.[0-9a-f]+)?(\.min)?\.js")


T = TypeVar("T")


def lose_the_first_answer(sent: list[T], noted: Callable[[Route], T]) -> Callable[[Route], None]:
    """A route handler for a table's bad Wi-Fi: each POST noted in ``sent`` (``noted`` reads what it sent); the
    first reaches the server, which makes the change, and its answer never reaches the phone; the others pass."""
    def handle(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(noted(route))
        if len(sent) == 1:
            route.fetch(max_redirects=0)  # the server makes the change...
            route.abort("connectionreset")  # ...but the phone never hears back
        else:
            route.continue_()
    return handle


def held_live_js(page: Page) -> list[Route]:
    """Hold back ``js/live.js`` as a slow connection would: returns the held requests, to ``continue_()``.
    The phone must run no service worker: one that took over the page would fetch past the held route."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(LIVE_JS, hold)
    return held


def caught_up(page: Page, api: Api, game_id: str) -> None:
    """Wait until the page shows the server's latest version (as a player glancing at it would)."""
    expect(page.locator("#live")).to_have_attribute("data-version", str(api.version(game_id)),
                                                    timeout=LIVE_WITHIN_MS)


def hosted_game(page: Page) -> tuple[str, str]:
    """After the host starts a game on the home page: wait for their seat page; returns (join code, game id)."""
    expect(page).to_have_url(re.compile(r"/g/[0-9a-f]+/seat/0"))
    code = page.locator(".notice.success .code").inner_text()
    return code, page.url.split("/g/")[1].split("/")[0]


def open_seat(new_phone: Callable[[], BrowserContext], server: str, game: dict[str, Any], seat: int) -> Page:
    """A new phone holding ``seat``'s cookie (of a game made through the API), on its seat page."""
    phone = new_phone()
    login_seat(phone, server, game["id"], seat, game["seats"][seat]["token"])
    page = phone.new_page()
    page.goto(f"/g/{game['id']}/seat/{seat}")
    return page


def join_by_code(new_phone: Callable[[], BrowserContext], code: str, game_id: str, seat: int, name: str) -> Page:
    """A new phone joins by the host's code and takes ``name``'s seat; returns its seat page."""
    page = new_phone().new_page()
    page.goto("/")
    page.get_by_label("Join code from the host's phone").fill(code)
    page.get_by_role("button", name="Join", exact=True).click()
    page.get_by_role("button", name=f"I am {name}").click()
    expect(page).to_have_url(re.compile(rf"/g/{game_id}/seat/{seat}$"))
    return page


def seat_tokens(phones: Sequence[Page], game_id: str) -> list[str]:
    """Each phone's seat token (the cookie its seat page set), in seat order: for moves through the API."""
    return [next(c["value"] for c in page.context.cookies() if c["name"] == f"seat_{game_id}_{seat}")
            for seat, page in enumerate(phones)]


def use(page: Page, api: Api, game_id: str) -> Page:
    """Bring a phone to the front once it shows the latest state (as a player glancing at it)."""
    page.bring_to_front()
    caught_up(page, api, game_id)
    return page


def recorded(page: Page) -> None:
    """The seat page says the move it just sent was recorded."""
    expect(page.locator("#move-message")).to_contain_text("Recorded.")


def report_draw(page: Page, card: str) -> None:
    page.bring_to_front()
    form = page.locator("#f-draw")
    form.get_by_label("Find by name").fill(card)
    form.locator("label.pick", has_text=re.compile(rf"^\s*{re.escape(card)}(\s|$)", re.S)).first.click()
    form.get_by_role("button", name="Report this draw").click()
    recorded(page)


def pick(page: Page, form_id: str, card: str) -> None:
    page.locator(f"#{form_id} label.pick", has_text=card).first.click()


def field(page: Page, form_id: str, legend: str) -> Locator:
    """The fieldset of a choice form asked by its legend (the form's words for the field)."""
    return page.locator(f"#{form_id} fieldset", has=page.locator("legend", has_text=legend))


def mark_page(page: Page) -> None:
    """Tag the window so a test can tell a live update from a page reload."""
    page.evaluate("window.__noReload = 'still here'")


def assert_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__noReload") == "still here"


def set_hidden(page: Page, hidden: bool) -> None:
    """Pretend the phone's screen went off (or came back): what the browser tells a hidden tab."""
    page.evaluate("""hidden => {
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
        Object.defineProperty(document, 'visibilityState', {configurable: true,
                              get: () => hidden ? 'hidden' : 'visible'});
        document.dispatchEvent(new Event('visibilitychange'));
    }""", hidden)
