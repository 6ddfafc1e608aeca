"""A club's https, the ordinary way: Debian's Caddy with the project's deploy/Caddyfile (``tls internal``)
in front of a real ``companion serve``, and Debian's Chromium at 390×844 that trusts Caddy's root the
way a phone would after installing it (Caddy's root certificate imported into the NSS database of a
temporary home; no certificate error is ignored).

The phone opens the club by its name, ``club.test`` (Chromium's resolver maps it to this machine, as
the club's router or ``--mdns`` would). Over https it gets what the same name over plain http cannot:
a service worker, a card page that opens offline, the screen wake lock; live updates pass through
Caddy at once, and the links the server shows are https ones.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from typing import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from companion.served import RunningCaddy, running_caddy

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, Api, login_seat, screenshot

NAME = "club.test"
CEILING_MS = 60_000  # the machine is shared: wait long for what must come, fail only if it never does


@pytest.fixture(scope="module")
def caddy(server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningCaddy]:
    with running_caddy(tmp_path_factory.mktemp("caddy"), server, NAME) as running:
        yield running


@pytest.fixture(scope="module")
def club_browser(caddy: RunningCaddy, browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Chromium with a home of its own whose NSS database trusts Caddy's root (as a phone of the club would,
    after installing the root certificate the club hands out), resolving the club's name to this machine."""
    home = tmp_path_factory.mktemp("chromium-home")
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "Caddy local root (club.test)",
                    "-i", str(caddy.root_cert)], check=True)
    # a second Chromium from the session's Playwright (a process runs one Playwright at a time: the browser
    # tests before this one keep theirs open)
    chromium = browser.browser_type.launch(
        executable_path=CHROMIUM, env={**os.environ, "HOME": str(home)},
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"])
    yield chromium
    chromium.close()


@pytest.fixture
def club_phone(club_browser: Browser) -> Iterator[Callable[[str], BrowserContext]]:
    """A factory of fresh phones opening the club at ``base`` (the https name, or the plain http one)."""
    contexts: list[BrowserContext] = []

    def make(base: str) -> BrowserContext:
        context = club_browser.new_context(viewport=PHONE, base_url=base, device_scale_factor=1, is_mobile=True,
                                           has_touch=True)
        context.set_default_timeout(CEILING_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def plain_http(server: str) -> str:
    """The same club name, straight to the app over plain http (as a LAN address is): not a secure context."""
    return f"http://{NAME}:{server.rsplit(':', 1)[1]}"


def test_caddy_certificate_is_signed_by_its_own_root_for_the_clubs_name(caddy: RunningCaddy) -> None:
    status, headers, body = caddy.get("/c/fillory/quentin")  # verified against the root, for club.test
    assert status == 200 and b"Quentin" in body
    assert headers["content-type"].startswith("text/html")
    assert caddy.root_cert.read_text().startswith("-----BEGIN CERTIFICATE-----")


def test_over_https_the_worker_registers_and_a_visited_card_page_opens_offline(
        caddy: RunningCaddy, club_phone: Callable[[str], BrowserContext]) -> None:
    phone = club_phone(caddy.base)
    page = phone.new_page()
    answer = page.goto("/c/fillory/quentin")  # a card's QR code, printed with the club's https name
    assert answer is not None and answer.status == 200 and answer.url == f"{caddy.base}/c/fillory/quentin"
    assert page.evaluate("window.isSecureContext") is True
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function("url => caches.keys().then(keys => Promise.all(keys.map(k => caches.open(k)"
                           ".then(c => c.match(url))))).then(found => found.some(Boolean))",
                           arg="/c/fillory/quentin")

    phone.set_offline(True)
    page.goto("/c/fillory/quentin")  # the network is gone: the phone's own copy
    expect(page.get_by_role("heading", level=1)).to_have_text("Quentin")
    screenshot(page, "https-card-offline")
    phone.set_offline(False)


def test_over_https_the_screen_wake_lock_is_granted(caddy: RunningCaddy, server: str,
                                                    club_phone: Callable[[str], BrowserContext]) -> None:
    api = Api(server)
    game = api.new_game(["Ann", "Ben"])
    api.close()
    phone = club_phone(caddy.base)
    login_seat(phone, caddy.base, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    page.goto(f"/g/{game['id']}/seat/0")
    expect(page.locator("html")).to_have_attribute("data-wake-lock", "on")
    assert page.evaluate("() => navigator.wakeLock.request('screen').then(lock => lock.type)") == "screen"


def test_plain_http_to_the_same_name_gets_no_worker_no_offline_and_no_wake_lock(
        server: str, club_phone: Callable[[str], BrowserContext]) -> None:
    api = Api(server)
    game = api.new_game(["Ann", "Ben"])
    api.close()
    base = plain_http(server)
    phone = club_phone(base)
    page = phone.new_page()
    page.goto("/c/fillory/quentin")
    expect(page.get_by_role("heading", level=1)).to_have_text("Quentin")  # the page itself works as always
    assert page.evaluate("[window.isSecureContext, 'serviceWorker' in navigator, 'wakeLock' in navigator]") \
        == [False, False, False]
    phone.set_offline(True)
    with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
        page.goto("/c/fillory/quentin")  # nothing was kept
    phone.set_offline(False)

    login_seat(phone, base, game["id"], 0, game["seats"][0]["token"])
    seat = phone.new_page()
    seat.goto(f"/g/{game['id']}/seat/0")
    expect(seat.locator("html")).to_have_attribute("data-wake-lock", "unavailable")


def test_live_updates_reach_the_phone_through_caddy_and_links_keep_the_configured_address(
        caddy: RunningCaddy, server: str, club_phone: Callable[[str], BrowserContext]) -> None:
    api = Api(server)
    game, ann, _ = api.two_player_opening()
    page: Page = club_phone(caddy.base).new_page()
    page.goto(f"/g/{game['id']}")
    # links come from the instance's configured address (a club serves with --base-url https://<its name>,
    # docs/serving.md), never from the Host header a proxy or a phone sends: this server's is its own
    expect(page.locator("svg.qr").first).to_have_attribute("aria-label", re.compile(
        rf"^QR code for {re.escape(server)}/j/"))
    page.evaluate("""id => { window.__versions = [];
        const source = new EventSource(`/api/games/${id}/events`);
        source.addEventListener("version", e => window.__versions.push(JSON.parse(e.data).version)); }""",
                  game["id"])
    page.wait_for_function("() => window.__versions.length >= 1")
    before = api.version(game["id"])
    started = time.monotonic()
    api.move(game["id"], ann, {"type": "play", "card": "Physical Kids"}, expect=200)
    # one event, a few dozen bytes: a buffering proxy would hold it (until its buffer fills or the stream ends)
    page.wait_for_function("v => window.__versions.includes(v)", arg=before + 1, timeout=CEILING_MS)
    print(f"a move reached the phone through Caddy in {1000 * (time.monotonic() - started):.0f} ms")
    api.close()
