"""Hostile or broken input: markup in names, forged forms, guessed codes, broken data, unusable databases.

- Player names and card names carrying HTML and quotes render escaped on every page (a real server
  runs on a copy of the data in which two cards are renamed to markup).
- HTML forms need their CSRF token: without it, or with a forged one, the answer is a 400 page.
- Join codes and seat tokens cannot be found by trying a few thousand values, and the code space
  is large enough that such tries stay hopeless (the arithmetic is asserted).
- Broken data files are reported naming file, record and field (``cardgen check --data``) and stop
  ``companion`` with a message, not a traceback.
- A database in a folder that cannot be made, a read-only file or a file that is not SQLite stops
  ``create_app``, ``companion init-db`` and ``companion serve`` with one sentence naming the file.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import string
import subprocess
import sys
import threading
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import requests
from click.testing import CliRunner
from markupsafe import escape

from cardgen.catalog import content
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.cli import main as cardgen_main
from companion.cli import main as companion_main
from companion.served import REPO, RunningServer, running_server
from companion.store import JOIN_ALPHABET, JOIN_CODE_LENGTH, Store, StoreUnavailable
from companion.store.sqlite import READ_ONLY
from companion.web import create_app
from companion.web.helpers import token_cookie

SCRIPT = "<script>alert(1)</script>"
ATTRIBUTE = "\"'><img src=x onerror=alert(1)>"
#: Two cards nobody names in an ability, renamed in the hostile copy of the data.
RENAMED = {"ibriza": SCRIPT, "roman-orgy": ATTRIBUTE}
GUESSES = 3000


def hostile_data(root: Path) -> Path:
    shutil.copytree(DEFAULT_DATA_DIR, root / "data")
    cards = root / "data" / "fillory" / "cards.toml"
    text = cards.read_text(encoding="utf-8")
    for card_id, name in RENAMED.items():
        old = f'id = "{card_id}"\nname = "{content("fillory").card(card_id).name}"'
        assert old in text
        text = text.replace(old, f"id = \"{card_id}\"\nname = '''{name}'''")
    cards.write_text(text, encoding="utf-8")
    return root / "data"


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    folder = tmp_path_factory.mktemp("hostile")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SPELLBOOK_DATA", str(hostile_data(folder)))
        with running_server(folder, ("--workers", "2", "--threads", "4"), secret_key="hostile-key") as server:
            yield server


def csrf_token(session: requests.Session, url: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', session.get(url, timeout=60).text)
    assert found, f"no CSRF field on {url}"
    return found.group(1)


# -- markup in names -----------------------------------------------------------------------------

def deck_cards(exclude: set[str]) -> list[str]:
    catalog = content("fillory")
    return [c.id for c in catalog.cards if c.id not in set(catalog.setup_neutral) | exclude | set(RENAMED)]


def play_a_hostile_opening(server: RunningServer) -> dict[str, Any]:
    """Seats named with markup; the first plays the markup card, the second holds the other one."""
    created = requests.post(server.base + "/api/games", timeout=60, json={
        "game": "fillory", "players": [SCRIPT, ATTRIBUTE, "Cat"], "options": {"first_seat": 0}}).json()
    version = 0

    def move(seat: int, body: dict[str, Any]) -> dict[str, Any]:
        nonlocal version
        answer = requests.post(f"{server.base}/api/games/{created['id']}/moves", timeout=60,
                               headers={"Authorization": f"Bearer {created['seats'][seat]['token']}"},
                               json={"version": version, "action_id": f"opening-{version}", "move": body})
        assert answer.status_code == 200, answer.text
        version += 1
        return dict(answer.json())

    others = iter(deck_cards(set()))
    hands = {0: ["ibriza", next(others), next(others)], 1: ["roman-orgy", next(others), next(others)],
             2: [next(others) for _ in range(3)]}
    for seat, cards in hands.items():
        for card in cards:
            move(seat, {"type": "draw", "card": card})
    move(0, {"type": "draw", "card": next(others)})
    if move(0, {"type": "play", "card": "ibriza"})["state"]["turn"]["step"] == "ability":
        move(0, {"type": "decline"})
    move(0, {"type": "end_turn", "discard": []})
    return dict(created)


def assert_escaped(name: str, response: requests.Response, shows_markup: bool = True) -> None:
    body = response.text
    for raw in (SCRIPT, ATTRIBUTE, "<script>alert", "<img src=x"):
        assert raw not in body, f"{name}: unescaped {raw!r}"
    assert "Traceback" not in body
    if shows_markup:
        assert str(escape(SCRIPT)) in body or str(escape(ATTRIBUTE)) in body, f"{name} shows neither name"


@pytest.mark.served
def test_markup_in_player_and_card_names_is_escaped_on_every_page(hostile_server: RunningServer) -> None:
    base = hostile_server.base
    game = play_a_hostile_opening(hostile_server)
    gid, code = game["id"], game["join_code"]
    seated = {seat: {token_cookie(gid, seat): game["seats"][seat]["token"]} for seat in range(3)}
    pages: dict[str, requests.Response] = {
        "join": requests.get(f"{base}/j/{code}", timeout=60),
        "table": requests.get(f"{base}/g/{gid}", timeout=60),
        "table live": requests.get(f"{base}/g/{gid}/live", timeout=60),
        "card": requests.get(f"{base}/c/fillory/ibriza", timeout=60),
        "other card": requests.get(f"{base}/c/fillory/roman-orgy", timeout=60),
        "card naming": requests.get(f"{base}/c/fillory/margo", timeout=60),  # Ibriza summons Margo
        "rules search": requests.get(f"{base}/rules", params={"q": "Place", "game": "fillory"}, timeout=60),
        "refused seat": requests.get(f"{base}/g/{gid}/seat/0", timeout=60),
    }
    for seat, cookies in seated.items():
        pages[f"seat {seat}"] = requests.get(f"{base}/g/{gid}/seat/{seat}", cookies=cookies, timeout=60)
        pages[f"seat {seat} live"] = requests.get(f"{base}/g/{gid}/seat/{seat}/live", cookies=cookies, timeout=60)
    assert pages["refused seat"].status_code == 403
    assert all(r.status_code == 200 for name, r in pages.items() if name != "refused seat"), \
        {name: r.status_code for name, r in pages.items()}
    for name, response in pages.items():
        assert response.headers["Content-Type"].startswith("text/html"), name
        assert_escaped(name, response)
    assert "script-src 'self'" in pages["table"].headers["Content-Security-Policy"]

    # the same names typed into forms and echoed back: a taken seat, a new-game form shown again
    phone = requests.Session()
    for free in (1, 2):  # free two seats; another phone takes seat 1 just before this one tries
        requests.post(f"{base}/api/games/{gid}/seats/{free}/release", timeout=60,
                      headers={"Authorization": f"Bearer {game['host_token']}"})
    requests.post(f"{base}/api/join", json={"code": code, "seat": 1}, timeout=60)
    taken = phone.post(f"{base}/j/{code}", data={"csrf_token": csrf_token(phone, f"{base}/j/{code}"), "seat": "1"},
                       timeout=60)
    assert taken.status_code == 409
    assert_escaped("taken seat", taken)
    again = phone.post(f"{base}/new", timeout=60, data={
        "csrf_token": csrf_token(phone, base + "/"), "player": [SCRIPT, ATTRIBUTE, "", "", "", ""], "first": "2"})
    assert again.status_code == 400
    assert_escaped("new game form again", again)
    made = phone.post(f"{base}/new", timeout=60, data={
        "csrf_token": csrf_token(phone, base + "/"), "player": [ATTRIBUTE, SCRIPT, "", "", "", ""], "first": "0"})
    assert made.status_code == 200 and "/seat/0" in made.url
    assert_escaped("new game's seat page", made)

    # markup in the URL itself comes back escaped on the error pages
    for path in (f"/c/fillory/{SCRIPT}", f"/j/{ATTRIBUTE}", f"/g/{SCRIPT}", f"/rules?game={SCRIPT}",
                 f"/rules?q={ATTRIBUTE}"):
        response = requests.get(base + path, timeout=60)
        assert response.status_code in (200, 400, 404), (path, response.status_code)
        assert_escaped(path, response, shows_markup=False)
    found = requests.get(f"{base}/api/search", params={"q": "Place", "game": "fillory"}, timeout=60).json()
    titles = {r["title"]: r for r in found["results"]}
    assert SCRIPT in titles and ATTRIBUTE in titles  # JSON carries the names as they are
    assert all(SCRIPT not in r["snippet_html"] and "<img" not in r["snippet_html"] for r in found["results"])
    assert "Traceback" not in hostile_server.log()


# -- forged forms ----------------------------------------------------------------------------------

@pytest.mark.served
def test_forms_without_a_valid_csrf_token_get_a_400_page(hostile_server: RunningServer) -> None:
    base = hostile_server.base
    created = requests.post(base + "/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}, timeout=60).json()
    code = created["join_code"]
    released = requests.post(f"{base}/api/games/{created['id']}/seats/0/release", timeout=60,
                             headers={"Authorization": f"Bearer {created['host_token']}"})
    assert released.status_code == 200  # the seat is free to join by code (the API's seats are held)
    new_game = {"player": ["Ann", "Ben", "", "", "", ""], "first": "0"}
    honest = requests.Session()
    token = csrf_token(honest, base + "/")
    forged: list[tuple[str, requests.Session, dict[str, Any]]] = [
        ("/new", requests.Session(), new_game),                                  # no token at all
        ("/new", honest, {**new_game, "csrf_token": "forged-" + token[7:]}),    # a token we did not issue
        ("/new", requests.Session(), {**new_game, "csrf_token": token}),        # another browser's token
        (f"/j/{code}", requests.Session(), {"seat": "0"}),
        (f"/j/{code}", requests.Session(), {"seat": "0", "csrf_token": token}),
    ]
    for path, session, form in forged:
        refused = session.post(base + path, data=form, timeout=60, allow_redirects=False)
        assert refused.status_code == 400, (path, refused.status_code)
        assert refused.headers["Content-Type"].startswith("text/html")
        assert "CSRF" in refused.text and "Traceback" not in refused.text and "<h1" in refused.text
    accepted = honest.post(base + "/new", data={**new_game, "csrf_token": token}, timeout=60, allow_redirects=False)
    assert accepted.status_code == 303  # the same form with its own token goes through
    claimed = honest.post(f"{base}/j/{code}", data={"seat": "0", "csrf_token": csrf_token(honest, f"{base}/j/{code}")},
                          timeout=60, allow_redirects=False)
    assert claimed.status_code == 303


# -- guessing --------------------------------------------------------------------------------------

def test_the_join_code_space_makes_guessing_hopeless() -> None:
    assert len(set(JOIN_ALPHABET)) == len(JOIN_ALPHABET) == 32 and not set("0O1I") & set(JOIN_ALPHABET)
    space = len(JOIN_ALPHABET) ** JOIN_CODE_LENGTH
    assert space == 2 ** 30 and space > 10 ** 9
    # even with a thousand games open at once, 3,000 guesses find one with a chance below 0.3 %
    assert GUESSES * 1000 / space < 0.003
    # a seat token is 24 random bytes: 2**192 values, guessed at a million a second for 10**44 years
    assert 2 ** 192 / 10 ** 6 / (3600 * 24 * 365) > 10 ** 44


def test_join_codes_and_tokens_are_drawn_at_random(tmp_path: Path) -> None:
    store = Store(tmp_path / "codes.sqlite3")
    try:
        games = [store.create_game("fillory", ["Ann", "Ben"], {}) for _ in range(200)]
    finally:
        store.close()
    codes = [g["join_code"] for g in games]
    assert len(set(codes)) == len(codes)
    assert all(len(c) == JOIN_CODE_LENGTH and set(c) <= set(JOIN_ALPHABET) for c in codes)
    assert set("".join(codes)) == set(JOIN_ALPHABET)  # 1,200 characters use every one of the 32
    tokens = [seat["token"] for g in games for seat in g["seats"]]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 32 and set(t) <= set(string.ascii_letters + string.digits + "-_") for t in tokens)


def in_parallel(work: Callable[[requests.Session, list[str]], list[int]], values: list[str],
                threads: int = 4) -> list[int]:
    """``work`` over ``values`` split between ``threads`` threads, each with its own connection."""
    results: list[int] = []
    lock = threading.Lock()

    def run(part: list[str]) -> None:
        with requests.Session() as session:
            statuses = work(session, part)
        with lock:
            results.extend(statuses)

    workers = [threading.Thread(target=run, args=(values[i::threads],)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return results


@pytest.mark.served
def test_thousands_of_guessed_codes_and_tokens_find_nothing(hostile_server: RunningServer) -> None:
    base = hostile_server.base
    game = requests.post(base + "/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}, timeout=60).json()
    rng = random.Random(2024)
    codes = ["".join(rng.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH)) for _ in range(GUESSES)]
    codes = [c for c in codes if c != game["join_code"]]
    tokens = ["".join(rng.choice(string.ascii_letters + string.digits + "-_") for _ in range(32))
              for _ in range(GUESSES)]

    def try_codes(session: requests.Session, part: list[str]) -> list[int]:
        return [session.post(f"{base}/api/join", json={"code": c, "seat": 0}, timeout=60).status_code for c in part]

    def try_tokens(session: requests.Session, part: list[str]) -> list[int]:
        return [session.get(f"{base}/api/games/{game['id']}", headers={"Authorization": f"Bearer {t}"},
                            timeout=60).status_code for t in part]

    def try_cookies(session: requests.Session, part: list[str]) -> list[int]:
        return [session.get(f"{base}/g/{game['id']}/seat/0/live", cookies={token_cookie(game["id"], 0): t},
                            timeout=60).status_code for t in part]

    assert in_parallel(try_codes, codes) == [404] * len(codes)
    assert in_parallel(try_tokens, tokens) == [401] * len(tokens)
    assert in_parallel(try_cookies, tokens[:500]) == [403] * 500
    # the real ones still work: the guesses were refused, not the server
    assert requests.post(f"{base}/api/games/{game['id']}/seats/1/release", timeout=60,
                         headers={"Authorization": f"Bearer {game['host_token']}"}).ok
    assert requests.post(f"{base}/api/join", json={"code": game["join_code"].lower(), "seat": 1}, timeout=60).ok
    assert requests.get(f"{base}/api/games/{game['id']}", timeout=60,
                        headers={"Authorization": f"Bearer {game['seats'][0]['token']}"}).ok


# -- broken data files -------------------------------------------------------------------------------

def broken(change: Callable[[Path], None]) -> Callable[[Path], Path]:
    def make(tmp_path: Path) -> Path:
        shutil.copytree(DEFAULT_DATA_DIR / "fillory", tmp_path / "fillory")
        shutil.copytree(DEFAULT_DATA_DIR / "print", tmp_path / "print")
        change(tmp_path / "fillory")
        return tmp_path
    return make


def edit(file: str, old: str, new: str) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        text = (folder / file).read_text(encoding="utf-8")
        assert old in text, old
        (folder / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return change


BROKEN_DATA = {
    "TOML syntax": (edit("cards.toml", 'name = "Julia"', 'name = "Julia'), [
        "{f}/cards.toml: not valid TOML: Illegal character '\\n' (at line 21, column 14)",]),
    "not UTF-8": (lambda folder: (folder / "traits.toml").write_bytes(b"name = \"\xff\"\n"), [
        "{f}/traits.toml: is not UTF-8 text (byte 8, on line 1, cannot be read): save it as UTF-8",]),
    "missing file": (lambda folder: (folder / "rules.toml").unlink(), [
        "{f}/rules.toml: file is missing"]),
    "field missing": (edit("cards.toml", 'traits = ["Character", "Student", "Female", "Light"]\n', ""), [
        "{f}/cards.toml: card #3 'Alice': field 'traits': is missing"]),
    "wrong type": (edit("cards.toml", "number = 2\n", 'number = "two"\n'), [
        "{f}/cards.toml: card #2 'Julia': field 'number': expected a whole number, got 'two'"]),
    "misspelt field": (edit("cards.toml", 'traits = ["Character", "Hedge"', 'trait = ["Character", "Hedge"'), [
        "{f}/cards.toml: card #2 'Julia': field 'trait': unknown field (known: number, id, name, traits, ability, "
        "provenance)", "{f}/cards.toml: card #2 'Julia': field 'traits': is missing"]),
    "duplicate name": (edit("cards.toml", 'name = "Alice"', 'name = "julia"'), [
        "{f}/cards.toml: card #3 'julia': field 'name': duplicate card name 'julia'"]),
    "unknown action": (edit("cards.toml", '{ action = "summon", card = "Quentin" }',
                            '{ action = "steal", card = "Quentin" }'), [
        "{f}/cards.toml: card #2 'Julia': field 'ability[1].action': must be 'summon' or 'banish', got 'steal'"]),
    "set-up card": (edit("game.toml", '"The Beast", ', '"The Priest", '), [
        "{f}/game.toml: game: field 'setup_neutral': 'The Priest' does not name a card"]),
    "out of range": (edit("game.toml", "hand_limit = 5", "hand_limit = 0"), [
        "{f}/game.toml: game: field 'hand_limit': 0 is outside 1..50"]),
    "trick effect": (edit("traits.toml", 'kind = "draw_split"', 'kind = "teleport"'), [
        "{f}/traits.toml: trait #1 'Character': field 'trick.kind': unknown effect 'teleport' (known: peek_deck, "
        "peek_hand, to_neutral, swap, search_deck, revive, extra_action, draw_and_place, gain_vp, steal_random, "
        "draw_split, from_discard, force_discard)"]),
    "rule text": (edit("rules.toml", 'id = "fillory.components.deck"', 'id = "fillory.goal.victory"'), [
        "{f}/rules.toml: rule #2 'fillory.goal.victory': field 'id': duplicate rule id"]),
    "note subject": (edit("notes.toml", 'subject = "mercenaries"', 'subject = "mercenary"'), [
        "{f}/notes.toml: note 'trait-typo-creatures': field 'subject': unknown card id 'mercenary'"]),
}


@pytest.mark.parametrize("case", sorted(BROKEN_DATA))
def test_cardgen_check_names_file_record_and_field(tmp_path: Path, case: str) -> None:
    change, lines = BROKEN_DATA[case]
    root = broken(change)(tmp_path)
    result = CliRunner().invoke(cardgen_main, ["check", "--data", str(root)])
    assert result.exit_code == 1
    expected = [f"fillory: {len(lines)} problem(s)", *(f"  {line.format(f=root / 'fillory')}" for line in lines)]
    assert result.stderr.splitlines()[1:-1] == expected  # after a blank line, before the FAILED summary
    assert "Traceback" not in result.output


def test_companion_with_one_broken_game_warns_naming_the_file_and_keeps_the_others(tmp_path: Path) -> None:
    """One game's broken data disables that game only (tests/test_data_dir.py: the pages and the API)."""
    root = broken(edit("cards.toml", 'name = "Julia"', 'name = "Julia'))(tmp_path / "data")
    shutil.copytree(DEFAULT_DATA_DIR, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("fillory", "print"))
    env = {**os.environ, "SPELLBOOK_DATA": str(root), "COMPANION_SECRET_KEY": "broken-data"}
    done = subprocess.run([sys.executable, "-m", "companion.cli", "init-db", "--db", str(tmp_path / "a.sqlite3")],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning: Magicians of Fillory is unavailable: its data in " in done.stderr, done.stderr
    assert f"{root}/fillory/cards.toml: not valid TOML" in done.stderr and "Traceback" not in done.stderr
    assert "Mandragora" not in done.stderr and "Database ready" in done.stdout


# -- unusable databases ------------------------------------------------------------------------------

@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make a file or folder read-only, even for root (whom permission bits do not stop)."""
    mode = path.stat().st_mode
    path.chmod(0o555 if path.is_dir() else 0o444)
    as_root = os.geteuid() == 0
    if as_root:
        subprocess.run(["chattr", "+i", str(path)], check=True)
    try:
        probe = path / "probe" if path.is_dir() else path
        with pytest.raises(OSError):
            probe.open("a").close()
        yield
    finally:
        if as_root:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(mode)


def fresh_database(path: Path) -> Path:
    Store(path).close()
    return path


def read_only_file(tmp: Path) -> tuple[Path, Path | None]:
    path = fresh_database(tmp / "ro.sqlite3")
    return path, path


def not_sqlite(tmp: Path) -> tuple[Path, Path | None]:
    (tmp / "junk.sqlite3").write_text("these are not the games")
    return tmp / "junk.sqlite3", None


def read_only_folder(tmp: Path) -> tuple[Path, Path | None]:
    (tmp / "locked").mkdir()
    return tmp / "locked" / "new.sqlite3", tmp / "locked"


def folder_is_a_file(tmp: Path) -> tuple[Path, Path | None]:
    (tmp / "a-file").write_text("x")
    return tmp / "a-file" / "new.sqlite3", None


@pytest.mark.parametrize("setup, reason", [
    (read_only_file, " " + READ_ONLY),
    (not_sqlite, ": the file is not a SQLite database"),
    (read_only_folder, ": the file cannot be opened or created (is its folder writable?)"),
    (folder_is_a_file, ": its folder cannot be created (file exists: {tmp}/a-file)"),
])
def test_an_unusable_database_is_one_clear_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    setup: Callable[[Path], tuple[Path, Path | None]],
                                                    reason: str) -> None:
    monkeypatch.setenv("COMPANION_SECRET_KEY", "database-test")
    monkeypatch.setenv("COMPANION_DATABASE", "restored-after-the-test")
    path, lock = setup(tmp_path)
    expected = f"{path}{reason.format(tmp=tmp_path)}"
    with read_only(lock) if lock is not None else nullcontext():
        with pytest.raises(StoreUnavailable) as raised:
            create_app({"DATABASE": str(path), "SECRET_KEY": "x"})
        assert str(raised.value) == expected
        for command in (["init-db", "--db", str(path)], ["serve", "--port", "1", "--db", str(path)]):
            result = CliRunner().invoke(companion_main, command)
            assert result.exit_code == 1, result.output
            assert result.output == f"Error: cannot open the database: {expected}\n"


def test_a_missing_folder_is_made(tmp_path: Path) -> None:
    path = tmp_path / "not" / "there" / "yet.sqlite3"
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "x"})
    try:
        assert path.exists() and app.extensions["store"].backend.journal_mode() == "wal"
    finally:
        app.extensions["store"].close()
