"""What a player does on a phone page, as reusable steps for the browser tests."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import Api

LIVE_WITHIN_MS = 2000  # another phone's move shows up this fast, without a reload


def caught_up(page: Page, api: Api, game_id: str) -> None:
    """Wait until the page shows the server's latest version (as a player glancing at it would)."""
    expect(page.locator("#live")).to_have_attribute("data-version", str(api.version(game_id)),
                                                    timeout=LIVE_WITHIN_MS)


def report_draw(page: Page, card: str) -> None:
    page.bring_to_front()
    form = page.locator("#f-draw")
    form.get_by_label("Find a card by name or trait").fill(card)
    form.locator("label.pick", has_text=re.compile(rf"^\s*{re.escape(card)}\s", re.S)).first.click()
    form.get_by_role("button", name="Report this draw").click()
    expect(page.locator("#move-message")).to_contain_text("Recorded.")


def pick(page: Page, form_id: str, card: str) -> None:
    page.locator(f"#{form_id} label.pick", has_text=card).first.click()


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
