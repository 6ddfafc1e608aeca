"""docs/serving.md's two recipes, run as written: "a table" (a laptop on the LAN with a ``.local`` name)
and "a club" (one machine, Caddy, https). The commands are read from the doc; the test changes only
what two runs on one machine cannot share (the ports, Caddy's data folder, the announced name, which
another run could hold on the same network), and checks what the recipe promises: a card printed
with the recipe's address opens, through the name, from the server the recipe starts.
"""

from __future__ import annotations

import re
import shlex
import socket
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner
from zeroconf import AddressResolver, IPVersion, Zeroconf

from cardgen.cli import main as cardgen_main
from companion import mdns
from companion.cli import main as companion_main
from companion.served import CADDYFILE, REPO, free_port, running_caddy, running_server
from tests.pdf_checks import qr_texts

pytestmark = pytest.mark.served

SERVING = (REPO / "docs" / "serving.md").read_text(encoding="utf-8")
DOC_NAME = "spellbook"
CEILING = 60.0


def recipe(title: str) -> list[list[str]]:
    """The commands of the ```sh block under the heading that starts with ``### Recipe: {title}``."""
    found = re.search(rf"^### Recipe: {re.escape(title)}.*?^```sh\n(.*?)^```", SERVING, re.S | re.M)
    assert found, f"docs/serving.md has no '### Recipe: {title}' with a sh block"
    return [shlex.split(line) for line in found.group(1).splitlines() if line.strip()]


def resolve(name: str) -> list[str]:
    """``name.local`` by multicast DNS, in a thread of its own: zeroconf's blocking calls refuse a thread that
    runs an event loop, as the browser tests' Playwright does in the worker process that ran them first."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(_resolve, name).result()


def _resolve(name: str) -> list[str]:
    deadline = time.monotonic() + CEILING
    while time.monotonic() < deadline:
        zeroconf = Zeroconf(ip_version=IPVersion.V4Only)
        try:
            resolver = AddressResolver(f"{name}.local.")
            if resolver.request(zeroconf, 3000) and resolver.parsed_addresses():
                return resolver.parsed_addresses()
        finally:
            zeroconf.close()
    raise AssertionError(f"{name}.local did not resolve within {CEILING} s")


def save_base_url(command: list[str], name: str) -> None:
    """Run the recipe's ``companion base-url URL`` (into the tests' own instance folder, tests/conftest.py)."""
    assert command[:2] == [".venv/bin/companion", "base-url"] and len(command) == 3, command
    result = CliRunner().invoke(companion_main, ["base-url", command[2].replace(f"{DOC_NAME}.local", f"{name}.local")])
    assert result.exit_code == 0, result.output
    assert f"{name}.local" in result.output, result.output


def printed_card_url(command: list[str], out: Path, name: str) -> str:
    """Run the recipe's ``cardgen build`` (into ``out``) and read the first card's QR code off the deck."""
    assert command[0] == ".venv/bin/cardgen" and command[1] == "build", command
    args = [arg.replace(f"{DOC_NAME}.local", f"{name}.local") for arg in command[2:]]
    result = CliRunner().invoke(cardgen_main, ["build", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    decks = sorted(out.glob("*/deck.pdf"))
    assert decks, f"no deck built by {command}"
    urls = qr_texts(decks[0], 0)
    assert urls, "no QR code read off the deck's first page"
    return str(urls[0])


def serve_args(command: list[str], name: str) -> list[str]:
    assert command[0] == ".venv/bin/companion" and command[1] == "serve", command
    return [name if arg == DOC_NAME else arg.replace(f"{DOC_NAME}.local", f"{name}.local") for arg in command[2:]]


@pytest.fixture(autouse=True)
def own_instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The recipe saves a base URL: in this test's own instance folder, not the one later tests share."""
    monkeypatch.setenv("SPELLBOOK_INSTANCE", str(tmp_path / "instance"))


def test_a_table_a_card_printed_with_the_local_name_opens_from_the_laptop(tmp_path: Path) -> None:
    save, build, serve = recipe("a table")
    name = f"{DOC_NAME}-{uuid.uuid4().hex[:6]}"
    save_base_url(save, name)
    url = printed_card_url(build, tmp_path / "kit", name)  # no --base-url: the saved one
    card = re.fullmatch(rf"http://{name}\.local:8000(/c/[a-z-]+/[a-z0-9-]+(?:\?v=[0-9a-f]+)?)", url)
    assert card, url
    (tmp_path / "server").mkdir()
    port = free_port()  # the recipe's port is the default, 8000; two runs on one machine need two
    with running_server(tmp_path / "server", [*serve_args(serve, name), "--host", "0.0.0.0", "--port", str(port)],
                        port=port) as server:
        log = server.log()  # the saved address first (the one on the cards), then the .local name on this port
        assert log.index(f"Open on the phones: http://{name}.local:8000/") < log.index(
            f"Open on the phones: http://{name}.local:{port}/"), log
        addresses = resolve(name)  # what a phone does with the printed name
        assert set(addresses) == set(mdns.local_addresses()), addresses
        page = requests.get(f"http://{addresses[0]}:{port}{card.group(1)}", timeout=60)
        assert page.status_code == 200 and "<h1" in page.text, page.status_code


def test_a_club_a_card_printed_with_the_https_name_opens_through_caddy(tmp_path: Path) -> None:
    save, build, serve, caddy_command = recipe("a club")
    name = f"{DOC_NAME}-{uuid.uuid4().hex[:6]}"
    save_base_url(save, name)
    url = printed_card_url(build, tmp_path / "kit", name)
    card = re.fullmatch(rf"https://{name}\.local(/c/[a-z-]+/[a-z0-9-]+(?:\?v=[0-9a-f]+)?)", url)
    assert card, url

    env = dict(arg.split("=", 1) for arg in caddy_command if re.fullmatch(r"[A-Z_]+=.*", arg))
    assert env == {"CLUB_NAME": f"{DOC_NAME}.local"}, caddy_command
    rest = caddy_command[len(env):]
    assert rest[:2] == ["caddy", "run"] and rest[rest.index("--config") + 1] == "deploy/Caddyfile", rest
    assert REPO / "deploy" / "Caddyfile" == CADDYFILE  # the file the fixture runs

    (tmp_path / "server").mkdir()
    with running_server(tmp_path / "server", serve_args(serve, name)) as server, \
            running_caddy(tmp_path / "caddy", server.base, f"{name}.local") as caddy:
        addresses = resolve(name)
        status, headers, body = caddy.get(card.group(1), address=addresses[0])  # certificate checked
        assert status == 200 and headers["content-type"].startswith("text/html") and b"<h1" in body
        # the server listens on loopback only: the phones reach it through Caddy alone
        port = int(server.base.rsplit(":", 1)[1])
        with pytest.raises(OSError):
            socket.create_connection((addresses[0], port), timeout=5).close()
