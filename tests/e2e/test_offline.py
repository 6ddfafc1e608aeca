"""The installable web app at 390×844: a manifest with locally drawn icons, and a service worker under
which the rules search and the card pages already visited work with the network gone."""

from __future__ import annotations

from typing import Callable

from playwright.sync_api import BrowserContext, Page, expect

from cardgen.catalog import content
from cardgen.catalog.versions import card_version

from .conftest import Api, login_seat, screenshot

KEPT = "url => caches.keys().then(keys => Promise.all(keys.map(k => caches.open(k).then(c => c.match(url)))))" \
       ".then(found => found.some(Boolean))"
#: every URL the worker keeps, with its query if it has one
KEPT_URLS = ("() => caches.keys().then(keys => Promise.all(keys.map(k => caches.open(k).then(c => c.keys()))))"
             ".then(lists => lists.flat().map(r => { const u = new URL(r.url); return u.pathname + u.search; }))")
#: some kept URL is this card's page, with or without a query
CARD_KEPT = (f"card => ({KEPT_URLS})().then(urls => urls.some(url => url === card || url.startsWith(card + '?')))")


def qr(game: str, card: str) -> str:
    """The address a card's printed QR code opens: its page and the card's version in the print kit."""
    return f"/c/{game}/{card}?v={card_version(content(game).find_card(card))}"


def worker_ready(page: Page) -> None:
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_rules_search_and_visited_card_pages_work_offline(new_phone: Callable[[], BrowserContext], api: Api,
                                                          server: str) -> None:
    phone = new_phone()
    page = phone.new_page()
    page.goto(qr("fillory", "quentin"))  # a card's QR code opened: the first visit installs the worker
    manifest = page.locator('link[rel="manifest"]').get_attribute("href")
    assert manifest == "/manifest.webmanifest"
    worker_ready(page)
    page.wait_for_function(CARD_KEPT, arg="/c/fillory/quentin")  # kept although fetched before the worker ran
    page.goto(qr("fillory", "alice"))  # another card scanned, the worker running
    old_print = "/c/fillory/penny?v=" + "0" * len(card_version(content("fillory").find_card("penny")))
    page.goto(old_print)  # a card of an older print: its page says so ...
    expect(page.locator(".stale-print")).to_contain_text("This card has changed since your print")
    page.goto(qr("fillory", "penny"))  # ... and the card reprinted from a newer kit: this page replaces that one
    expect(page.get_by_role("heading", level=1)).to_have_text("Penny")
    cards = sorted(url for url in page.evaluate(KEPT_URLS) if url.startswith("/c/"))
    # each card kept once, under its page's address: the links offline (search results, other cards) have no ?v=
    assert cards == ["/c/fillory/alice", "/c/fillory/penny", "/c/fillory/quentin"], cards
    page.goto("/rules/fillory")
    page.wait_for_function(KEPT, arg="/rules/fillory")

    # a game and a seat page are never kept (the seat page holds a hand and a token)
    game = api.new_game(["Ann", "Ben"])
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page.goto(f"/g/{game['id']}/seat/0")
    page.goto(f"/g/{game['id']}")
    kept = page.evaluate(KEPT_URLS)
    assert "/c/fillory/quentin" in kept and not any(url.startswith(("/g/", "/api/", "/j/")) for url in kept), kept

    phone.set_offline(True)
    page.goto("/rules/fillory")  # the rule list, from the phone's copy
    expect(page.get_by_role("heading", level=1)).to_contain_text("Magicians of Fillory")
    page.locator("#q").fill("banishh")
    page.locator("#q").press("Enter")
    results = page.locator("#offline-results")
    expect(results.get_by_role("heading", level=2)).to_contain_text("for “banishh” in Magicians of Fillory (offline)")
    expect(results.locator(".spelling")).to_have_text("Also searched for banish (for “banishh”).")
    first = results.locator(".result").first
    expect(first.locator("strong")).to_have_text("Banish")
    expect(first.locator(".game-tag")).to_have_text("Magicians of Fillory")
    screenshot(page, "offline-search")

    page.locator("#game").select_option("")  # all games: every result labelled with its game
    page.locator("#q").fill("Mayakowski")
    page.locator("#q").press("Enter")
    expect(results.locator(".result").first.locator("strong")).to_have_text("Professor Mayakovsky")

    page.locator("#q").fill("Ｌｅｖｉｔａｔｉｏｎ")  # full-width letters (a CJK keyboard) read as the plain ones
    page.locator("#q").press("Enter")
    expect(results.locator(".result").first.locator("strong")).to_have_text("Levitation")

    page.locator("#q").fill("quentin")
    page.locator("#q").press("Enter")
    results.get_by_role("link", name="Quentin", exact=True).click()
    expect(page).to_have_url(f"{server}/c/fillory/quentin")
    expect(page.get_by_role("heading", level=1)).to_have_text("Quentin")  # the card opened by its QR code, offline
    page.get_by_role("link", name="Alice", exact=True).first.click()  # a card page's own link to a scanned card
    expect(page).to_have_url(f"{server}/c/fillory/alice")
    expect(page.get_by_role("heading", level=1)).to_have_text("Alice")
    answer = page.goto(qr("fillory", "quentin"))  # the QR code again
    assert answer is not None and answer.status == 200
    expect(page.get_by_role("heading", level=1)).to_have_text("Quentin")
    for address in ("/c/fillory/penny", old_print):  # the newer print's copy, by the link or by the old code
        answer = page.goto(address)
        assert answer is not None and answer.status == 200
        expect(page.get_by_role("heading", level=1)).to_have_text("Penny")
        expect(page.locator(".stale-print")).to_have_count(0)

    answer = page.goto("/c/fillory/julia")  # never opened: said plainly, with the way to the offline search
    assert answer is not None and answer.status == 503
    expect(page.get_by_role("heading", level=1)).to_have_text("No network")
    expect(page.get_by_role("link", name="Search the rules and cards offline")).to_be_visible()
    phone.set_offline(False)


def test_the_manifest_and_its_icons(new_phone: Callable[[], BrowserContext]) -> None:
    page = new_phone().new_page()
    page.goto("/")
    manifest = page.request.get("/manifest.webmanifest")
    assert manifest.headers["content-type"] == "application/manifest+json"
    body = manifest.json()
    assert body["display"] == "standalone" and body["start_url"] == "/" and body["name"] == "Spellbook Table"
    sizes = {icon["sizes"]: icon for icon in body["icons"]}
    assert {"192x192", "512x512"} <= set(sizes) and any(i["purpose"] == "maskable" for i in body["icons"])
    for icon in body["icons"]:
        answer = page.request.get(icon["src"])
        assert answer.ok and answer.headers["content-type"].split(";")[0] == icon["type"]
        if icon["type"] == "image/png":
            width, height = int.from_bytes(answer.body()[16:20], "big"), int.from_bytes(answer.body()[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"]


def test_the_start_page_and_a_game_page_opened_offline_are_app_pages(new_phone: Callable[[], BrowserContext],
                                                                     api: Api, server: str) -> None:
    phone = new_phone()
    page = phone.new_page()
    page.goto("/")
    worker_ready(page)
    game = api.new_game(["Ann", "Ben"])
    phone.set_offline(True)
    page.goto("/")  # was Chrome's own offline error
    expect(page.get_by_role("heading", level=1)).to_have_text("No network")
    expect(page.get_by_role("link", name="Search the rules and cards offline")).to_be_visible()
    page.goto(f"/g/{game['id']}/seat/0")
    expect(page.get_by_role("heading", level=1)).to_have_text("The game needs the table's Wi-Fi")
    expect(page.get_by_role("link", name="Try again")).to_have_attribute("href", f"/g/{game['id']}/seat/0")
    phone.set_offline(False)
    page.get_by_role("link", name="Try again").click()  # back on the Wi-Fi: the real page, from the server
    expect(page.get_by_role("heading", level=1)).not_to_have_text("The game needs the table's Wi-Fi")
    kept = page.evaluate(KEPT_URLS)
    assert not any(url.startswith(("/g/", "/api/", "/j/")) or url == "/" for url in kept), kept
