"""Browser-test fixtures: the real gunicorn server (``companion serve``) and Debian's Chromium.

The server runs as a subprocess on a free port with a temporary database, exactly as a host would
start it; Playwright drives /usr/bin/chromium (no browser download) at a phone's 390×844 viewport.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import requests
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from companion.served import RunningServer, running_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("E2E_SCREENSHOTS", REPO / "output" / "screenshots"))
#: the ceiling of every browser wait and assertion (actions, screenshots, ``expect``): each waits for its
#: condition, normally met in milliseconds; the ceiling only matters on a busy machine (load 10+ on 2 cores)
WAIT_MS = 60_000
#: the ceiling of a test's own HTTP call to the server
HTTP_SECONDS = 60
expect.set_options(timeout=WAIT_MS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A real ``companion serve`` (gunicorn, 2 gthread workers) on a fresh database, one per test worker:
    every test makes games of its own, so the browser test files share it (a server of a file's own
    costs a start and a stop)."""
    with running_server(tmp_path_factory.mktemp("server"), ("--workers", "2"), secret_key="e2e-secret-key") as running:
        yield running


@pytest.fixture(scope="session")
def server(served: RunningServer) -> str:
    """The base URL of :func:`served`."""
    return served.base


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run scripts/setup.sh --test (it installs Debian's chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_phone(browser: Browser, server: str) -> Iterator[Callable[..., BrowserContext]]:
    """A factory of fresh browser contexts: each one is a separate phone with its own cookies. Keyword arguments
    go to the context (``service_workers="block"`` for a test that holds scripts back with ``page.route``: a
    service worker would serve them from its cache, past the route)."""
    contexts: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        context = browser.new_context(viewport=PHONE, base_url=server, device_scale_factor=1,  # type: ignore[arg-type]
                                      is_mobile=True, has_touch=True, **options)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def screenshot(page: Page, name: str) -> Path:
    """Save a full-page screenshot under output/screenshots/ (for looking at, not compared)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


class PatientSession(requests.Session):
    """A requests session whose every call may take up to :data:`HTTP_SECONDS` (a call's own shorter
    ``timeout`` is raised to it): a busy machine answers late, not wrongly."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        kwargs["timeout"] = max(kwargs.get("timeout") or 0, HTTP_SECONDS)
        return super().request(*args, **kwargs)


class Api:
    """Direct JSON API calls, to set up games and to play the other phones' moves quickly."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = PatientSession()
        self.counter = 0

    def new_game(self, players: list[str], first_seat: int = 0) -> dict[str, Any]:
        answer = self.http.post(f"{self.base}/api/games", json={"game": "fillory", "players": players,
                                                                "options": {"first_seat": first_seat}}, timeout=HTTP_SECONDS)
        assert answer.status_code == 201, answer.text
        return dict(answer.json())

    def version(self, game_id: str) -> int:
        return int(self.http.get(f"{self.base}/api/games/{game_id}/version", timeout=HTTP_SECONDS).json()["version"])

    def move(self, game_id: str, token: str, move: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        self.counter += 1
        answer = self.http.post(f"{self.base}/api/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"},
                                json={"version": self.version(game_id), "action_id": f"e2e-{self.counter}-{time.time()}",
                                      "move": move}, timeout=HTTP_SECONDS)
        assert answer.status_code == expect, answer.text
        return dict(answer.json())

    def two_player_opening(self) -> tuple[dict[str, Any], str, str]:
        """A new Ann-v-Ben game dealt (Ann: Physical Kids, Time Loop, Magic Missile; Ben: Golem, Cocaine,
        Mentors) with Ann having drawn Romance: her action step. Returns (game, Ann's token, Ben's token)."""
        game = self.new_game(["Ann", "Ben"])
        ann, ben = (seat["token"] for seat in game["seats"])
        for card in ("Physical Kids", "Time Loop", "Magic Missile"):
            self.move(game["id"], ann, {"type": "draw", "card": card})
        for card in ("Golem", "Cocaine", "Mentors"):
            self.move(game["id"], ben, {"type": "draw", "card": card})
        self.move(game["id"], ann, {"type": "draw", "card": "Romance"})
        return game, ann, ben

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def api(server: str) -> Iterator[Api]:
    client = Api(server)
    yield client
    client.close()


def login_seat(context: BrowserContext, server: str, game_id: str, seat: int, token: str) -> None:
    """Give a phone the seat cookie the pages set when a seat is created or claimed."""
    context.add_cookies([{"name": f"seat_{game_id}_{seat}", "value": token, "url": server}])


def pytest_configure(config: pytest.Config) -> None:
    """Old screenshots go once per run, before any test (with pytest-xdist: in the controller, before the
    workers start, so no worker deletes another's)."""
    if not os.environ.get("PYTEST_XDIST_WORKER") and SCREENSHOTS.exists():
        shutil.rmtree(SCREENSHOTS, ignore_errors=True)
