"""A newcomer's first hour (issue 22): what a fresh clone meets first answers clearly.

Serving a data folder with one broken game serves the others on every page; the command lines say what
they do (``-h``, ``--version``, a mistyped ``--db``, game ids in any case); the serve banner sends phones to
an address they can reach, with a QR code any terminal shows; the scripts check what they can before the
slow steps.
"""

from __future__ import annotations

import html
import importlib.metadata
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from cardgen.catalog.base import DEFAULT_DATA_DIR
from companion.web import create_app

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def served_broken_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Flask, str]]:
    """The app as ``companion serve --data DIR`` runs it (``$SPELLBOOK_DATA`` and ``DATA_DIR`` both DIR),
    with one game's data broken: which game is the first discovered one (no game named here)."""
    from companion.rules import SPECS

    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, root)
    broken = next(game for game, spec in SPECS.items() if spec.print_kit and (root / game).is_dir())
    (root / broken / "rules.toml").write_text("[[rule]]\nid = 'no closing quote\n", encoding="utf-8")
    monkeypatch.setenv("SPELLBOOK_DATA", str(root))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "companion.sqlite3"), "SECRET_KEY": "k",
                      "DATA_DIR": str(root)})
    yield app, broken
    app.extensions["store"].close()


def test_serving_a_folder_with_one_broken_game_serves_the_others_on_every_page(
        served_broken_data: tuple[Flask, str]) -> None:
    app, broken = served_broken_data
    assert list(app.extensions["unavailable_games"]) == [broken]
    client = app.test_client()
    home = client.get("/")
    assert home.status_code == 200, home.get_data(as_text=True)[:300]
    assert "is unavailable" in home.get_data(as_text=True)
    assert client.get("/rules").status_code == 200
    assert client.get("/rules", query_string={"q": "turn"}).status_code == 200
    others = [g for g in app.extensions["unavailable_games"].keys() ^ set(_served_games(app)) if g != broken]
    assert others
    for game in others:
        assert client.get(f"/rules/{game}").status_code == 200, game
        created = client.post("/api/games", json={"game": game, "players": _players(game)})
        assert created.status_code == 201, (game, created.get_json())
        assert client.get(f"/g/{created.get_json()['id']}").status_code == 200, game
    refused = client.post("/api/games", json={"game": broken, "players": _players(broken)})
    assert refused.status_code == 503


def test_a_broken_games_printed_card_says_why_it_is_not_served(served_broken_data: tuple[Flask, str]) -> None:
    """A printed QR code of the broken game opens a page saying its data is broken (503, the loader's message),
    not "There is no game called ..."; the other games' card pages are served."""
    from cardgen.catalog import load_game

    app, broken = served_broken_data
    client = app.test_client()
    for game in [broken, *(g for g in _served_games(app) if g != broken)]:
        card = load_game(game, DEFAULT_DATA_DIR).cards[0]
        page = client.get(f"/c/{game}/{card.id}")
        if game == broken:
            text = page.get_data(as_text=True)
            assert page.status_code == 503 and "is unavailable" in text and "rules.toml" in text, text[:400]
            assert "no game called" not in text
            assert str(app.config["DATA_DIR"]) not in text  # the file within the data folder, not the server's path
        else:
            assert page.status_code == 200, (game, page.get_data(as_text=True)[:300])


def test_a_broken_games_search_and_photo_calculator_say_why_as_its_rules_do(
        served_broken_data: tuple[Flask, str]) -> None:
    """The rule search narrowed to the broken game, the search API and its photo calculator answer as its rule
    list does (503, the same sentence): they answered 200 with "0 results in Only ." (no game name),
    ``{"results": []}`` and 404 "There is no game called …"."""
    app, broken = served_broken_data
    _searches_and_photo_answer_as_the_rule_list(app.test_client(), broken, 503)


def _searches_and_photo_answer_as_the_rule_list(client: FlaskClient, game: str, status: int) -> None:
    from companion.rules import SPECS
    from companion.web.photo import games_with_photo

    def said(page: str) -> str:  # the error page's sentence
        text = client.get(page).get_data(as_text=True)
        return html.unescape(text.split('<p class="error-sentence">', 1)[1].split("</p>", 1)[0])

    sentence = client.application.extensions["unavailable_games"][game].public
    assert client.get(f"/rules/{game}").status_code == status and sentence.split(":")[0] in said(f"/rules/{game}")
    word = SPECS[game].title.split()[0]
    pages = [f"/rules?game={game}&q={word}"] + [f"/calc/{game}/photo" for _ in [0] if game in games_with_photo()]
    for page in pages:
        assert client.get(page).status_code == status and said(page) == said(f"/rules/{game}"), page
    api = client.get(f"/api/search?q={word}&game={game}")
    assert api.status_code == status and api.get_json()["error"] == sentence.rstrip(".") + "."  # (as POST /api/games)
    others = client.get(f"/api/search?q={word}")  # the games served are still searched
    assert others.status_code == 200 and all(r["game"] != game for r in others.get_json()["results"])


def test_a_data_folder_holding_some_games_serves_them_and_says_in_one_line_why_not_the_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--data DIR`` with one game's folder (a newcomer's own content): that game is served, and each other game
    is left out with one line naming the folder it lacks (it was reported as broken, with dozens of problems
    each, while ``cardgen check`` on the same folder passed); ``cardgen check`` agrees."""
    from click.testing import CliRunner

    from cardgen.catalog import game_facts, game_folder, load_game
    from cardgen.cli import main as cardgen
    from companion.rules import SPECS

    root = tmp_path / "mine"
    kept = next(game for game, spec in SPECS.items() if spec.print_kit and (DEFAULT_DATA_DIR / game).is_dir())
    shutil.copytree(DEFAULT_DATA_DIR / kept, root / kept)
    monkeypatch.setenv("SPELLBOOK_DATA", str(root))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "companion.sqlite3"), "SECRET_KEY": "k",
                      "DATA_DIR": str(root)})
    try:
        left_out = app.extensions["unavailable_games"]
        client = app.test_client()
        others = [game for game in SPECS if game != kept and not (root / game).is_dir()]
        assert others and kept not in left_out
        for game in others:
            if game_folder(game, root).is_dir():  # a game keeping its own data (outside the tree) is served
                assert game not in left_out, left_out[game]
            else:
                title = game_facts(game, DEFAULT_DATA_DIR).title  # its own name, not its id ("Jsmn" until 2026-12-02)
                assert left_out[game].detail == f"{title} is not served: {root} has no folder {game}/ for it."
                # a phone is told the game is not served here, by its name, without the server's paths: the
                # API as for a game it does not know (422), the game's pages not found (404, not "try later")
                refused = client.post("/api/games", json={"game": game, "players": _players(game)})
                assert refused.status_code == 422 and refused.get_json()["error"] == f"{title} is not served here."
                pages = [f"/rules/{game}"] + [f"/c/{game}/{load_game(game, DEFAULT_DATA_DIR).cards[0].id}"
                                              for _ in [0] if SPECS[game].print_kit]
                for page in pages:
                    answer = client.get(page)
                    text = answer.get_data(as_text=True)
                    assert answer.status_code == 404 and f"{title} is not served here." in text.replace("&amp;", "&"), page
                    assert str(root) not in text and str(tmp_path) not in text, page
                _searches_and_photo_answer_as_the_rule_list(client, game, 404)
        home = client.get("/")  # the games left out by choice are not shown as errors to every phone
        assert home.status_code == 200 and "not served" not in home.get_data(as_text=True)
        created = client.post("/api/games", json={"game": kept, "players": _players(kept)})
        assert created.status_code == 201, created.get_json()
    finally:
        app.extensions["store"].close()
    checked = CliRunner().invoke(cardgen, ["check", "--data", str(root)])
    assert checked.exit_code == 0 and "OK: 1 game(s)" in checked.output, checked.output[-500:]


def _served_games(app: Flask) -> list[str]:
    from companion.rules import SPECS

    return [game for game, spec in SPECS.items() if spec.print_kit]


def _players(game: str) -> list[str]:
    from companion.rules import SPECS

    return ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:max(2, SPECS[game].min_players)]


# -- the command lines ----------------------------------------------------------------------------------

def test_companion_has_short_help_and_a_version() -> None:
    from click.testing import CliRunner

    from companion.cli import main

    helped = CliRunner().invoke(main, ["-h"])
    assert helped.exit_code == 0 and "serve" in helped.output and "init-db" in helped.output
    version = CliRunner().invoke(main, ["--version"])
    assert version.exit_code == 0
    assert version.output.strip() == f"companion, version {importlib.metadata.version('spellbook-table')}"


def test_a_mistyped_db_folder_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from companion.cli import main

    typo = tmp_path / "instanse" / "companion.sqlite3"
    for command in (["serve", "--no-qr"], ["games"], ["purge", "--dry-run"], ["export", "abc"]):
        result = CliRunner().invoke(main, [*command, "--db", str(typo)])
        assert result.exit_code == 1, (command, result.output)
        assert f"there is no folder {typo.parent} for the database {typo}: check the --db path" in result.output
        # only serve makes a new file (never a folder): the commands that read games never make one
        assert ("(a new database file is created, its folder is not)" in result.output) == (command[0] == "serve")
        assert not typo.parent.exists()


def test_a_command_that_reads_games_refuses_a_db_that_is_not_there(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from companion.cli import main

    missing = tmp_path / "companion.sqlite3"
    for command in (["games"], ["purge", "--dry-run"], ["export", "abc"]):
        result = CliRunner().invoke(main, [*command, "--db", str(missing)])
        assert result.exit_code == 1, (command, result.output)
        assert f"there is no database at {missing}: check the --db path" in result.output
        assert not missing.exists()


def test_games_says_when_there_are_none_and_lists_only_games_on_standard_output(tmp_path: Path) -> None:
    """``companion games`` printed nothing at all on an empty database, or with ``--due`` when none is due."""
    from click.testing import CliRunner

    from companion.cli import main
    from companion.rules import SPECS
    from companion.store import Store

    db = str(tmp_path / "companion.sqlite3")
    runner = CliRunner()
    assert runner.invoke(main, ["init-db", "--db", db]).exit_code == 0
    for command, said in ((["games"], "No games."), (["games", "--due"], "No game is due for purging.")):
        result = runner.invoke(main, [*command, "--db", db])
        assert result.exit_code == 0 and result.stdout == "" and result.stderr.strip() == said, result.output
    game = next(iter(SPECS))
    store = Store(db)
    created = store.create_game(game, ["Ann", "Ben", "Cat", "Dan"][:max(2, SPECS[game].min_players)], {})
    store.close()
    listed = runner.invoke(main, ["games", "--db", db])
    assert listed.exit_code == 0 and listed.stdout.startswith(created["id"]) and listed.stderr == ""
    due = runner.invoke(main, ["games", "--due", "--db", db])  # a new game is not due
    assert due.stdout == "" and due.stderr.strip() == "No game is due for purging."


def test_an_empty_db_is_refused_and_never_means_the_instances_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--db "$DB"`` with ``DB`` unset is ``--db ""``: it was taken as the default database, the instance's,
    by every command, ``purge`` included."""
    from click.testing import CliRunner

    from companion import cli
    from companion.served import free_port
    from companion.store import Store

    instance = tmp_path / "instance"
    instance.mkdir()
    monkeypatch.setenv("SPELLBOOK_INSTANCE", str(instance))
    monkeypatch.chdir(tmp_path)
    default = instance / "companion.sqlite3"
    store = Store(default)
    game = store.create_game("fillory", ["Ann", "Ben"], {})
    store.close()
    monkeypatch.setattr(cli.CompanionServer, "run", lambda self: pytest.fail("serve started"))
    commands = (["init-db"], ["games"], ["purge", "--idle-days", "0"], ["export", game["id"]],
                ["serve", "--no-qr", "--host", "127.0.0.1", "--port", str(free_port())])
    before = sorted(os.listdir(tmp_path)), sorted(os.listdir(instance)), default.stat().st_mtime_ns
    for command in commands:
        for empty in ("", "   "):
            result = CliRunner().invoke(cli.main, [*command, "--db", empty])
            assert result.exit_code == 1, (command, result.output)
            assert result.output == ("Error: --db is empty: give a SQLite file or a postgresql:// URL, or leave it "
                                     "out for the instance's own database\n"), (command, result.output)
    for option in ("--from", "--to"):
        paths = {"--from": str(default), "--to": str(tmp_path / "copy.sqlite3"), option: ""}
        copied = CliRunner().invoke(cli.main, ["db", "copy", "--from", paths["--from"], "--to", paths["--to"]])
        assert copied.exit_code == 1 and copied.output == (
            f"Error: {option} is empty: give a SQLite file or a postgresql:// URL\n"), copied.output
    assert (sorted(os.listdir(tmp_path)), sorted(os.listdir(instance)), default.stat().st_mtime_ns) == before  # untouched
    store = Store(default)
    assert [g["id"] for g in store.game_rows()] == [game["id"]]                # the purge removed nothing
    store.close()


def test_a_db_named_dash_is_refused_by_every_command_and_makes_no_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--db -`` made a database file named '-' (init-db said "Database ready: …/-"); it and any name starting
    with '-' (``--db --port 8000`` takes '--port') are refused like a blank one, by every command taking --db."""
    import click
    from click.testing import CliRunner

    from companion import cli

    monkeypatch.setenv("SPELLBOOK_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli.CompanionServer, "run", lambda self: pytest.fail("serve started"))
    taking_db = [name for name, command in cli.main.commands.items()
                 if any(isinstance(p, click.Option) and "--db" in p.opts for p in command.params)]
    assert {"init-db", "serve", "games", "export", "purge"} <= set(taking_db)
    commands = {"export": ["export", "abc"], "purge": ["purge", "--dry-run"], "serve": ["serve", "--no-qr"]}
    for name in taking_db:
        for slip in ("-", " -", "--port", "-x.sqlite3"):
            result = CliRunner().invoke(cli.main, [*commands.get(name, [name]), "--db", slip])
            assert result.exit_code == 1, (name, slip, result.output)
            assert result.output == (f"Error: --db {slip.strip()!r} reads as standard input or an option, not a "
                                     f"database (a file so named is ./{slip.strip()}): give a SQLite file or a "
                                     "postgresql:// URL, or leave it out for the instance's own database\n"), result.output
    copied = CliRunner().invoke(cli.main, ["db", "copy", "--from", "-", "--to", str(tmp_path / "copy.sqlite3")])
    assert copied.exit_code == 1 and copied.output.startswith("Error: --from '-' reads as standard input"), copied.output
    assert sorted(os.listdir(tmp_path)) == []                                      # nothing made, not even the instance
    made = CliRunner().invoke(cli.main, ["init-db", "--db", "./-"])                # a file really so named
    assert made.exit_code == 0 and (tmp_path / "-").is_file(), made.output


def test_every_cardgen_out_refuses_a_blank_or_dash_folder_and_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``cardgen proof --out " "`` wrote into a folder named ' ' (printing '   /barony-sorcery/…', which reads
    like the disk's root) and ``calibrate --out <TAB>`` into one named a tab: every command's --out now refuses
    a blank folder name, or one starting with '-', in one line, exit 1, before any work."""
    import click
    from click.testing import CliRunner

    from cardgen.cli import main

    monkeypatch.setenv("SPELLBOOK_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.chdir(tmp_path)
    taking_out = [name for name, command in main.commands.items()
                  if any(isinstance(p, click.Option) and "--out" in p.opts for p in command.params)]
    assert {"build", "proof", "export", "calibrate"} <= set(taking_out)
    for name in taking_out:
        for blank in ("", " ", "\t", " \n"):
            result = CliRunner().invoke(main, [name, "--out", blank])
            assert result.exit_code == 1, (name, repr(blank), result.output)
            assert result.output == ("Error: --out is empty: give the folder to write into, or leave it out for the "
                                     "default\n"), (name, result.output)
        for slip in ("-", "--game"):
            result = CliRunner().invoke(main, [name, "--out", slip])
            assert result.exit_code == 1 and result.output == (
                f"Error: --out {slip!r} reads as standard output or an option, not a folder (a folder so named is "
                f"./{slip}): give the folder to write into\n"), (name, result.output)
    assert sorted(os.listdir(tmp_path)) == []
    params = main.commands["calibrate"].make_context("calibrate", []).params
    assert params["out_dir"] == Path("output")                                     # the default still a Path


def test_init_db_says_when_it_makes_a_new_database(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from companion.cli import main

    path = tmp_path / "companion.sqlite3"
    first = CliRunner().invoke(main, ["init-db", "--db", str(path)])
    assert first.exit_code == 0 and f"Created a new, empty database at {path}" in first.output
    again = CliRunner().invoke(main, ["init-db", "--db", str(path)])
    assert again.exit_code == 0 and "Created" not in again.output and f"Database ready: {path}" in again.output
    listed = CliRunner().invoke(main, ["games", "--db", str(path)])
    assert listed.exit_code == 0, listed.output


def test_cardgen_takes_a_game_id_in_any_case_as_it_takes_paper_names() -> None:
    from click.testing import CliRunner

    from cardgen.cli import build
    from cardgen.render.registry import print_kits

    game = next(iter(print_kits()))
    params = build.make_context("build", ["--game", game.upper(), "--paper", "letter"]).params
    assert params["game"] == game and params["paper"] == "Letter"
    refused = CliRunner().invoke(build, ["--game", "no-such-game"])
    assert refused.exit_code == 2 and "no-such-game" in refused.output


def test_every_command_taking_a_game_or_a_paper_takes_it_in_any_case() -> None:
    """Not only ``build``: every ``cardgen`` command with a ``--game`` or ``--paper`` choice (``proof`` refused
    ``--game Fillory``-style ids while taking ``--paper letter``), each parsed with an upper-case game id."""
    import click

    from cardgen.cli import main
    from cardgen.render.registry import print_kits

    game = next(iter(print_kits()))
    seen = {}
    for name, command in main.commands.items():
        for param in command.params:
            if isinstance(param, click.Option) and param.name in ("game", "paper") and isinstance(param.type, click.Choice):
                seen[f"{name} {param.opts[0]}"] = param.type.case_sensitive
                if param.name == "game":
                    parsed = command.make_context(name, ["--game", game.upper()]).params
                    assert parsed["game"] == game, name
    assert {"build --game", "proof --game", "export --game", "build --paper"} <= set(seen)
    assert [where for where, sensitive in seen.items() if sensitive] == []


def test_serve_blames_a_bad_trusted_proxy_on_the_option_not_on_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It said "cannot open the database: TRUSTED_PROXIES: 'nonsense' is not …"; now the option is named, before
    a database is made or the games are loaded."""
    from click.testing import CliRunner

    from companion import cli
    from companion.served import free_port

    def no_app(*args: object, **kwargs: object) -> None:
        raise AssertionError("the app was built for a bad --trusted-proxy")

    monkeypatch.setattr(cli, "_prepare_database", no_app)
    db = tmp_path / "companion.sqlite3"
    serve = ["serve", "--no-qr", "--host", "127.0.0.1", "--port", str(free_port()), "--db", str(db)]
    for given, bad in ((["nonsense"], "nonsense"), (["10.0.0.1", "10.0.0.0/8,fe80::/10, bad "], "bad")):
        options = [part for proxy in given for part in ("--trusted-proxy", proxy)]
        result = CliRunner().invoke(cli.main, [*serve, *options])
        assert result.exit_code == 2, result.output
        assert f"Error: Invalid value for --trusted-proxy: '{bad}' is not an IP address or network" in \
            result.output and "database" not in result.output
    # every address a proxy: said (any phone could then choose the address the per-address limits count)
    wide = CliRunner().invoke(cli.main, [*serve, "--trusted-proxy", "10.0.0.4", "--trusted-proxy", "0.0.0.0/0"])
    assert "Warning: --trusted-proxy 0.0.0.0/0 trusts every address as a proxy" in wide.output, wide.output
    narrow = CliRunner().invoke(cli.main, [*serve, "--trusted-proxy", "10.0.0.4"])
    assert "Warning" not in narrow.output, narrow.output
    monkeypatch.setenv("COMPANION_TRUSTED_PROXIES", "127.0.0.1, nonsense")
    result = CliRunner().invoke(cli.main, serve)
    assert result.exit_code == 1 and result.output == (
        "Error: COMPANION_TRUSTED_PROXIES: 'nonsense' is not an IP address or network\n"), result.output
    assert not db.exists()


def test_serve_on_a_busy_port_says_so_before_loading_the_games_or_making_a_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``companion serve`` on a port something listens on: refused (exit 1, the port named) before the app loads
    every game's data (20 s at load 14 on 2 cores) and before a database file is made; a mistyped --db is
    still said first."""
    from click.testing import CliRunner

    from companion import cli

    def no_app(*args: object, **kwargs: object) -> None:
        raise AssertionError("the app was built for a port that is busy")

    check = cli._check_port_free
    monkeypatch.setattr(cli, "_prepare_database", no_app)
    monkeypatch.setattr(cli, "_check_port_free", lambda host, port: check(host, port, wait=0))  # no retrying
    db = tmp_path / "companion.sqlite3"
    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli.main, ["serve", "--no-qr", "--port", str(port), "--db", str(db)])
        typo = CliRunner().invoke(cli.main, ["serve", "--no-qr", "--port", str(port),
                                             "--db", str(tmp_path / "nope" / "companion.sqlite3")])
    assert result.exit_code == 1 and f"cannot listen on 0.0.0.0:{port}" in result.output, result.output
    assert "another server is still listening there" in result.output and not db.exists()
    assert typo.exit_code == 1 and "check the --db path" in typo.output, typo.output


# -- where the phones go ----------------------------------------------------------------------------------

def test_serve_sends_the_phones_to_the_lan_address_and_never_to_127(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import cli

    monkeypatch.setattr(cli, "lan_address", lambda: "192.0.2.7")
    lines, reachable = cli.address_lines("0.0.0.0", 8000)
    assert lines == ["Open on the phones: http://192.0.2.7:8000/", "On this computer: http://127.0.0.1:8000/"]
    assert reachable == "http://192.0.2.7:8000/"

    monkeypatch.setattr(cli, "lan_address", lambda: None)
    lines, reachable = cli.address_lines("0.0.0.0", 8000)
    assert reachable is None and not any(line.startswith("Open on the phones") for line in lines)
    assert "phones cannot reach this computer" in lines[0]

    lines, reachable = cli.address_lines("127.0.0.1", 8000)
    assert reachable is None and "phones cannot reach it" in lines[0] and "--host 0.0.0.0" in lines[0]
    # behind a reverse proxy (--trusted-proxy) loopback is right: no advice to listen on every address
    lines, reachable = cli.address_lines("127.0.0.1", 8000, proxied=True)
    assert reachable is None and "only the proxy in front reaches it" in lines[0] and "0.0.0.0" not in lines[0]


# -- the scripts ------------------------------------------------------------------------------------------

def test_start_sh_on_a_busy_port_says_so_at_once_before_any_install_or_build() -> None:
    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        ran = subprocess.run(["bash", str(REPO / "scripts" / "start.sh")], env={**os.environ, "PORT": str(port)},
                             capture_output=True, text=True, timeout=600)
    assert ran.returncode == 1
    assert f"start: port {port} is in use" in ran.stderr and f"PORT={port + 1} scripts/start.sh" in ran.stderr
    assert "==>" not in ran.stdout + ran.stderr  # no setup step ran (setup.sh says each step with ==>)


def _sandbox(tmp_path: Path) -> Path:
    """A copy of the setup script and pyproject.toml with a stand-in virtualenv whose python logs its calls."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$*" >> {tmp_path / "calls.log"}\n', encoding="utf-8")
    python.chmod(0o755)
    uv = tmp_path / ".venv" / "bin" / "uv"  # the installer setup.sh has pip put into the virtualenv
    uv.write_text(f'#!/bin/sh\necho "uv $*" >> {tmp_path / "calls.log"}\n', encoding="utf-8")
    uv.chmod(0o755)
    return tmp_path


def _pip_runs(root: Path, *args: str) -> list[str]:
    calls = root / "calls.log"
    calls.unlink(missing_ok=True)
    subprocess.run(["bash", str(root / "scripts" / "setup.sh"), *args], check=True, capture_output=True, timeout=600)
    return calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="setup.sh --test would install chromium")
def test_switching_between_start_and_test_runs_pip_once(tmp_path: Path) -> None:
    root = _sandbox(tmp_path)
    first = _pip_runs(root, "--test")
    assert any(call.startswith("uv pip install") and call.endswith("-e .[test]") for call in first), first
    assert not any(call.startswith("-m pip") and "-e " in call for call in first)  # uv did it: pip only brought uv
    assert _pip_runs(root) == []            # start.sh after test.sh: the test install serves the runtime
    assert _pip_runs(root, "--test") == []  # and test.sh again
    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text() + "\n# changed\n")
    assert any(call.endswith("-e .") for call in _pip_runs(root))  # a changed pyproject installs again
    assert any("-e .[test]" in call for call in _pip_runs(root, "--test"))
    assert len(list((root / ".venv").glob(".installed-*"))) == 2  # this pyproject's runtime and test stamps


def _fake_python3(tmp_path: Path, script: str) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").write_text("#!/bin/sh\n" + script, encoding="utf-8")
    (bin_dir / "python3").chmod(0o755)
    for tool in ("sha1sum", "cut", "dirname", "rm", "bash", "sh", "touch", "id"):
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    return {**os.environ, "PATH": str(bin_dir)}


def test_setup_says_which_python_it_needs(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "setup.sh", root / "scripts" / "setup.sh")
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    old = _fake_python3(tmp_path, 'case "$*" in -V) echo "Python 3.9.2";; -c*) exit 1;; esac\n')
    ran = subprocess.run(["bash", str(root / "scripts" / "setup.sh")], env=old, capture_output=True, text=True,
                         timeout=600)
    assert ran.returncode == 1
    assert "needs Python 3.11 or newer; python3 here is Python 3.9.2" in ran.stderr


def test_setup_names_debians_venv_package_when_venv_is_missing(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "setup.sh", root / "scripts" / "setup.sh")
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    no_venv = _fake_python3(tmp_path, 'case "$*" in -m\\ venv*) echo "ensurepip is not available" >&2; exit 1;; esac\n')
    ran = subprocess.run(["bash", str(root / "scripts" / "setup.sh")], env=no_venv, capture_output=True, text=True,
                         timeout=600)
    assert ran.returncode == 1
    assert "sudo apt install python3-venv" in ran.stderr and not (root / ".venv").exists()


def test_a_game_whose_rulebook_has_no_slips_may_have_an_empty_notes_file(tmp_path: Path) -> None:
    """notes.toml lists the rulebook's anomalies; a game with none writes an empty file (every game checked)."""
    from cardgen.catalog import DataError, game_folder, load_game
    from cardgen.render.registry import print_kits

    for game in print_kits():
        root = tmp_path / game
        shutil.copytree(game_folder(game), root / game)  # a game outside the tree keeps its data in its own folder
        (root / game / "notes.toml").write_text("# no slips in this rulebook\n", encoding="utf-8")
        try:
            loaded = load_game(game, root)
        except DataError as error:  # a card may still name a note; an empty file itself is no problem
            assert "no [[note]] records" not in str(error), game
        else:
            assert loaded.notes == (), game


def test_setup_falls_back_to_pip_when_uv_cannot_install(tmp_path: Path) -> None:
    """Where uv can't be had or fails (no network to its index, say), setup says so and pip installs instead."""
    root = _sandbox(tmp_path)
    (root / ".venv" / "bin" / "uv").write_text("#!/bin/sh\nexit 2\n", encoding="utf-8")
    ran = subprocess.run(["bash", str(root / "scripts" / "setup.sh")], capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr
    assert "uv could not install the packages; installing them with pip" in ran.stdout
    calls = (root / "calls.log").read_text(encoding="utf-8").splitlines()
    assert calls[-1].startswith("-m pip install") and calls[-1].endswith("-e .")


def test_serve_warns_when_the_cards_address_names_another_port(capsys: pytest.CaptureFixture[str]) -> None:
    # a table saved http://spellbook.local:8000, then ran PORT=9000 scripts/start.sh: every card and join link
    # pointed at a port where nothing listened, without a word
    from companion import cli

    cli._warn_if_another_port("http://spellbook.local:8000", 9000, "saved in settings.toml")
    said = capsys.readouterr().err
    assert "carry http://spellbook.local:8000 (saved in settings.toml), but this server listens on port 9000" in said
    assert "companion base-url http://spellbook.local:9000" in said
    for base, port in (("http://spellbook.local:8000/", 8000), ("http://192.0.2.7", 80),
                       ("https://spellbook.example", 8000)):  # the same port; a proxy's https address
        cli._warn_if_another_port(base, port, "--base-url")
        assert capsys.readouterr().err == "", base


def test_python_dash_m_companion_runs_the_cli(tmp_path: Path) -> None:
    """``python -m companion`` answered "No module named companion.__main__" (the docs audit), as
    ``python -m cardgen`` did before it."""
    project = Path(__file__).resolve().parents[1]
    helped = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True, text=True,
                            timeout=60, cwd=project)
    assert helped.returncode == 0, helped.stderr
    assert helped.stdout.startswith("Usage: companion ") and "serve" in helped.stdout
    made = subprocess.run([sys.executable, "-m", "companion", "init-db", "--db", str(tmp_path / "c.sqlite3")],
                          capture_output=True, text=True, timeout=60, cwd=project)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "c.sqlite3").stat().st_size > 0
