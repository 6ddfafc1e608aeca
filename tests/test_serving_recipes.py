"""docs/serving.md's three recipes, run as written: "a table" (a laptop on the LAN with a ``.local`` name),
"a club" (one machine, Caddy, https) and "a public instance" (N nodes, PostgreSQL, Caddy). The commands are
read from the doc; the test changes only what runs on one machine cannot share (the ports, Caddy's data
folder, the announced name, which another run could hold on the same network; the machines' addresses,
which become loopback ones; the public certificate, for which Caddy's own authority stands in), and checks
what the recipe promises: a card printed with the recipe's address opens, through the name, from the
server the recipe starts.
"""

from __future__ import annotations

import json
import re
import shlex
import socket
import subprocess
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
from click.testing import CliRunner
from zeroconf import AddressResolver, IPVersion, Zeroconf

from cardgen.cli import main as cardgen_main
from companion import mdns
from companion.cli import main as companion_main
from companion.served import (
    CADDYFILE,
    REPO,
    RunningPostgres,
    free_port,
    postgres_bin,
    running_caddy,
    running_server,
)
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
        # the banner sends the phones to the club's https name alone: not to the .local name at the server's own
        # port, which listens on loopback, and not to --host 0.0.0.0, which would let them round the proxy
        banner = server.log()
        assert f"Open on the phones: https://{name}.local/" in banner, banner
        assert f"http://{name}.local:" not in banner and "--host 0.0.0.0" not in banner, banner
        addresses = resolve(name)
        status, headers, body = caddy.get(card.group(1), address=addresses[0])  # certificate checked
        assert status == 200 and headers["content-type"].startswith("text/html") and b"<h1" in body
        # the server listens on loopback only: the phones reach it through Caddy alone
        port = int(server.base.rsplit(":", 1)[1])
        with pytest.raises(OSError):
            socket.create_connection((addresses[0], port), timeout=5).close()


def test_a_public_instance_two_nodes_on_postgresql_behind_caddy(tmp_path: Path, postgres_cluster: RunningPostgres) -> None:
    """The public instance's seven commands: the database made and migrated, the kit printed with the public
    name, two nodes on the database, Caddy in front of both. On one machine: the database machine is the
    session's throwaway cluster (tests/conftest.py; the recipe's user and database are removed after), the nodes listen on loopback ports, Caddy's own authority stands in for the public
    certificate (``CADDY_TLS=internal``: a public one needs a public name)."""
    import psycopg

    createdb, init_db, save, build, serve_a, serve_b, caddy_command = recipe("a public instance")
    recipe_dsn = next(arg for arg in init_db if arg.startswith("postgresql://"))
    cluster = postgres_cluster
    try:
        with psycopg.connect(cluster.dsn, autocommit=True) as admin:  # the database machine's own user
            admin.execute("CREATE ROLE companion LOGIN")
        db_host = f"127.0.0.1:{cluster.port}"
        dsn = recipe_dsn.replace("@db.example/", f"@{db_host}/")
        assert dsn != recipe_dsn and dsn.endswith("/spellbook"), recipe_dsn

        # on the database machine, as its superuser (here the cluster's own user, over loopback)
        assert createdb[:4] == ["sudo", "-u", "postgres", "createdb"] and "--owner" in createdb, createdb
        made = subprocess.run([str(postgres_bin() / "createdb"), "-h", "127.0.0.1", "-p", str(cluster.port),
                               "-U", "postgres", *createdb[4:]],
                              capture_output=True, text=True, timeout=CEILING, check=False)
        assert made.returncode == 0, made.stderr

        assert init_db[:2] == [".venv/bin/companion", "init-db"], init_db
        result = CliRunner().invoke(companion_main, [arg.replace(recipe_dsn, dsn) for arg in init_db[1:]])
        assert result.exit_code == 0, result.output
        assert "PASSWORD" not in result.output  # the DSN's password is never printed
        with psycopg.connect(dsn) as conn:  # the tables are there, and the recipe's user owns them
            assert conn.execute("SELECT tableowner FROM pg_tables WHERE tablename = 'games'").fetchone() == ("companion",)

        assert save[:2] == [".venv/bin/companion", "base-url"] and save[2] == "https://spellbook.example", save
        result = CliRunner().invoke(companion_main, save[1:])
        assert result.exit_code == 0, result.output
        url = printed_card_url(build, tmp_path / "kit", "spellbook")  # the public name: nothing to replace
        card = re.fullmatch(r"https://spellbook\.example(/c/[a-z-]+/[a-z0-9-]+(?:\?v=[0-9a-f]+)?)", url)
        assert card, url

        env = dict(arg.split("=", 1) for arg in caddy_command if re.fullmatch(r"[A-Z_]+=.*", arg))
        assert env["CLUB_NAME"] == "spellbook.example" and "@" in env["CADDY_TLS"], caddy_command
        rest = caddy_command[len(env):]
        assert rest[:2] == ["caddy", "run"] and rest[rest.index("--config") + 1] == "deploy/Caddyfile", rest
        assert REPO / "deploy" / "Caddyfile" == CADDYFILE  # the file the fixture runs
        upstreams = env["COMPANION_ADDRESS"].split()
        nodes_args, keys = [], []
        for line, upstream in zip((serve_a, serve_b), upstreams, strict=True):
            node_env = dict(arg.split("=", 1) for arg in line if re.fullmatch(r"[A-Z_]+=.*", arg))
            keys.append(node_env["COMPANION_SECRET_KEY"])
            serve = line[len(node_env):]
            assert serve[:2] == [".venv/bin/companion", "serve"], serve
            host = serve[serve.index("--host") + 1]
            assert upstream == f"{host}:8000", (upstream, serve)  # Caddy reaches each node where it listens
            assert serve[serve.index("--base-url") + 1] == "https://spellbook.example", serve
            front = serve[serve.index("--trusted-proxy") + 1]
            assert front not in upstreams, serve  # the front machine, not a node
            nodes_args.append([{host: "127.0.0.1", front: "127.0.0.1"}.get(arg, arg.replace(recipe_dsn, dsn))
                               for arg in serve[2:]] + ["--access-log"])  # (the log shows which node answered)
        assert keys[0] == keys[1], "every node needs the same secret key"
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        with running_server(tmp_path / "a", nodes_args[0], secret_key=keys[0]) as a, \
                running_server(tmp_path / "b", nodes_args[1], secret_key=keys[1]) as b, \
                running_caddy(tmp_path / "caddy", f"{a.base} {b.base}", env["CLUB_NAME"],
                              settings={"CADDY_TLS": "internal"}) as caddy:
            for node in (a, b):  # each node on the recipe's database (its DSN named without the password)
                assert "postgresql://companion:***@127.0.0.1" in node.log(), node.log()
                assert not node.db_path.exists()
            status, headers, body = caddy.get(card.group(1), timeout=CEILING)  # certificate checked
            assert status == 200 and headers["content-type"].startswith("text/html") and b"<h1" in body

            def send(method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
                sent = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
                status, _, raw = caddy.request(method, path, json.dumps(body).encode() if body is not None else None,
                                               sent, timeout=CEILING)
                return status, json.loads(raw) if raw else None

            status, game = send("POST", "/api/games", {"game": "fillory", "players": ["Ann", "Ben"], "options": {}})
            assert status == 201, game
            assert game["join_code"] and all("spellbook.example" not in str(seat) for seat in game["seats"])
            view = requests.get(f"{a.base}/api/games/{game['id']}", timeout=CEILING,
                                headers={"Authorization": f"Bearer {game['seats'][0]['token']}"}).json()["state"]
            known = set(view["neutral"]) | set(view["discard"]) | set(view["players"][0]["hand"])
            from cardgen.catalog import content

            cards = [c.id for c in content("fillory").cards if c.id not in known]
            for version in range(4):
                status, answer = send("POST", f"/api/games/{game['id']}/moves",
                                      {"version": version, "action_id": uuid.uuid4().hex,
                                       "move": {"type": "draw", "card": cards[version]}},
                                      game["seats"][version % 2]["token"])
                assert status == 200 and answer["version"] == version + 1, answer
            for _ in range(12):
                assert send("GET", f"/api/games/{game['id']}/version")[1]["version"] == 4
            # each node answered some of the 18 requests (Caddy picks an upstream at random: one alone is 2 in 2**18)
            for node in (a, b):
                assert node.log().count(f"/api/games/{game['id']}") > 1, "one node answered every request"

            # a seat page served by one node moves through the other: its session and form token hold there
            phone = requests.Session()
            phone.cookies.set(f"seat_{game['id']}_0", game["seats"][0]["token"])
            page = phone.get(f"{a.base}/g/{game['id']}/seat/0", timeout=CEILING)
            csrf = re.search(r'data-csrf="([^"]+)"', page.text)
            assert page.status_code == 200 and csrf, page.status_code
            moved = phone.post(f"{b.base}/api/games/{game['id']}/moves", headers={"X-CSRFToken": csrf.group(1)},
                               json={"version": 4, "action_id": uuid.uuid4().hex, "seat": 0,
                                     "move": {"type": "draw", "card": cards[4]}}, timeout=CEILING)
            assert moved.status_code == 200 and moved.json()["version"] == 5, moved.text

            # a move made through one node reaches a phone streaming from the other
            seen: list[int] = []
            opened = threading.Event()
            stream = requests.get(f"{b.base}/api/games/{game['id']}/events", stream=True, timeout=CEILING,
                                  headers={"Accept": "text/event-stream"})

            def listen() -> None:
                try:
                    for line in stream.iter_lines(decode_unicode=True):
                        if isinstance(line, str) and line.startswith("data: "):
                            seen.append(int(json.loads(line[6:])["version"]))
                            opened.set()
                except (requests.RequestException, AttributeError, ValueError):
                    pass  # closed by the test (urllib3 may say so in several ways)

            threading.Thread(target=listen, daemon=True).start()
            try:
                assert opened.wait(CEILING) and seen[0] == 5
                moved = requests.post(f"{a.base}/api/games/{game['id']}/moves", timeout=CEILING,
                                      headers={"Authorization": f"Bearer {game['seats'][1]['token']}"},
                                      json={"version": 5, "action_id": uuid.uuid4().hex,
                                            "move": {"type": "draw", "card": cards[5]}})
                assert moved.status_code == 200, moved.text
                deadline = time.monotonic() + CEILING
                while 6 not in seen:
                    assert time.monotonic() < deadline, f"the move through one node never reached the other: {seen}"
                    time.sleep(0.05)
            finally:
                stream.close()
    finally:
        with psycopg.connect(cluster.dsn, autocommit=True) as admin:
            admin.execute("DROP DATABASE IF EXISTS spellbook WITH (FORCE)")
            admin.execute("DROP ROLE IF EXISTS companion")
