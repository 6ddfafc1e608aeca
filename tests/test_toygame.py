"""The test game (tests/toygame: one module and its data) is a whole game added as a newcomer adds one: found
by discovery with no edit to any shared file, played through the API and the pages, printed, and — registered
as an extra game — passing every shared test that iterates the discovered games, none of which names it.

The proof is complete: :data:`RUN_FOR_THE_TOY` lists every shared test file that iterates the games with the
tests of it the toy runs, :data:`NOT_FOR_THE_TOY` the few that cannot apply and why, and
``test_every_shared_file_that_iterates_the_games_runs_the_toy_or_says_why_not`` fails when a shared file that
iterates them (imports ``GAMES``, ``SPECS``, ``print_kits``, ``traits_for``…) is in neither. They all run in one
pytest in a subprocess (the ``shared_run`` fixture), the toy's cases only."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator
from xml.etree import ElementTree

import pytest
import toygame
from flask import Flask
from flask.testing import FlaskClient

from cardgen.catalog import catalogs
from companion import rules
from companion.web import create_app

HERE = Path(__file__).parent
GAME = toygame.GAME_ID
MODULE = toygame.__name__


@pytest.fixture
def toy_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "toy.sqlite3"), "SECRET_KEY": "toy",
                      "EXTRA_GAMES": [MODULE]})
    yield app
    app.extensions["store"].close()
    rules.SPECS.pop(GAME, None)  # the other tests see the games in the tree only
    catalogs().pop(GAME, None)


def _join(client: FlaskClient, code: str, seat: int) -> str:
    answer = client.post("/api/join", json={"code": code, "seat": seat})
    assert answer.status_code == 200, answer.get_json()
    return str(answer.get_json()["token"])


def _move(client: FlaskClient, game: str, token: str, version: int, move: dict[str, Any], action: str) -> Any:
    return client.post(f"/api/games/{game}/moves", json={"version": version, "action_id": action, "move": move},
                       headers={"Authorization": f"Bearer {token}"})


def test_the_toy_game_is_discovered_without_being_listed_anywhere(toy_app: Flask) -> None:
    assert GAME in rules.SPECS and rules.rules_for(GAME).TITLE == "Wychwood"  # its title: its game.toml's
    assert (rules.SPECS[GAME].min_players, rules.SPECS[GAME].max_players) == (2, 2)
    shared = [*(HERE.parent / "companion").rglob("*.py"), *(HERE.parent / "cardgen").rglob("*.py")]
    assert not [path for path in shared if MODULE in path.read_text(encoding="utf-8") or GAME in path.read_text(
        encoding="utf-8")]


def test_the_toy_game_is_created_moved_refused_and_viewed_through_the_api(toy_app: Flask) -> None:
    client = toy_app.test_client()
    created = client.post("/api/games", json={"game": GAME, "players": ["Ann", "Ben"]})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()["id"]
    ann, ben = (seat["token"] for seat in created.get_json()["seats"])  # the creator holds every seat

    moved = _move(client, game, ann, 0, {"type": "claim", "card": "ash"}, "a1")
    assert moved.status_code == 200 and moved.get_json()["state"]["players"][0]["held"] == ["ash"]

    out_of_turn = _move(client, game, ann, 1, {"type": "claim", "card": "birch"}, "a2")
    assert out_of_turn.status_code == 422
    assert out_of_turn.get_json() == {"ok": False, "error": "It is Ben's turn, not Ann's.",
                                      "rule": f"{GAME}.turn.order", "status": 422}
    taken = _move(client, game, ben, 1, {"type": "claim", "card": "ash"}, "b0")
    assert taken.status_code == 422 and taken.get_json()["rule"] == f"{GAME}.claim.free"
    stray_field = _move(client, game, ben, 1, {"type": "claim", "card": "birch", "colour": "red"}, "b1")
    assert stray_field.status_code == 422
    assert stray_field.get_json()["error"] == "The 'claim' move has no field 'colour'; it takes 'card'."

    secret = _move(client, game, ben, 1, {"type": "plan", "card": "ivy"}, "b2")
    assert secret.status_code == 200 and secret.get_json()["state"]["plan"] == "ivy"
    table = client.get(f"/api/games/{game}").get_json()
    seen_by_ann = client.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {ann}"}).get_json()
    assert table["state"]["plan"] is None and seen_by_ann["state"]["plan"] is None
    log = client.get(f"/api/games/{game}/log", headers={"Authorization": f"Bearer {ann}"}).get_json()["entries"]
    assert "Ivy" not in str(log) and "ivy" not in str(log)

    version = seen_by_ann["version"]  # Ben: birch, elder (the middle), hazel: the middle column
    for step, (token, card, action) in enumerate([(ben, "birch", "b3"), (ann, "cedar", "a3"), (ben, "elder", "b4"),
                                                  (ann, "fir", "a4"), (ben, "hazel", "b5")]):
        answer = _move(client, game, token, version + step, {"type": "claim", "card": card}, action)
        assert answer.status_code == 200, answer.get_json()
    final = client.get(f"/api/games/{game}").get_json()
    assert final["over"] and final["winner"] == 1 and final["state"]["line"] == ["birch", "elder", "hazel"]
    assert re.search(r'<section class="banner winner"[^>]*>\s*<p>.*<strong>Ben</strong> wins', client.get(
        f"/g/{game}").get_data(as_text=True))  # the generic table page says who won, on top
    over = _move(client, game, ann, version + 5, {"type": "claim", "card": "ivy"}, "a5")
    assert over.status_code == 422 and over.get_json()["error"] == ("The game is over: Ben holds a line, so no "
                                                                    "more moves are taken.")


def _form_ids(page: str) -> set[str]:
    return set(re.findall(r'<form[^>]* id="([^"]+)"', page))


def test_the_toy_game_is_played_on_the_generic_pages_from_its_choices(toy_app: Flask) -> None:
    """No pages module: the home page offers it, its seat page renders its choices (the shared SeatForms, the
    private plan apart), and every printed card's QR code opens a card page from its catalog's facts."""
    client = toy_app.test_client()
    home = client.get("/").get_data(as_text=True)
    assert "Start Wychwood" in home
    created = client.post("/api/games", json={"game": GAME, "players": ["Ann", "Ben"]}).get_json()
    table = client.get(f"/g/{created['id']}").get_data(as_text=True)  # the generic table: whose turn, on top
    assert re.search(r'<section class="banner turn"[^>]*>\s*<p><strong>Ann</strong>’s turn', table), table[:3000]
    client.set_cookie(f"seat_{created['id']}_0", created["seats"][0]["token"])
    seat = client.get(f"/g/{created['id']}/seat/0")
    assert seat.status_code == 200
    page = seat.get_data(as_text=True)
    assert {"claim", "plan"} <= _form_ids(page) and "Your move: report it below." in page
    assert page.index('id="claim"') < page.index("Your private note") < page.index('id="plan"')
    client.set_cookie(f"seat_{created['id']}_1", created["seats"][1]["token"])
    waiting = client.get(f"/g/{created['id']}/seat/1").get_data(as_text=True)
    assert _form_ids(waiting) >= {"plan"} and "claim" not in _form_ids(waiting)  # not Ben's turn: only a plan
    assert re.search(r'class="banner turn"[^>]*>\s*<p><strong>Ann</strong>’s turn', waiting)  # whose turn it is
    for card in toygame.CATALOG.load(toygame.DATA).cards:
        answer = client.get(f"/c/{GAME}/{card.id}")
        assert answer.status_code == 200, card.id
        assert card.name in answer.get_data(as_text=True) and f"row {card.row}, column {card.column}" in \
            answer.get_data(as_text=True)
    assert client.get(f"/c/{GAME}/oak").status_code == 404


def test_adding_a_game_describes_the_test_game_as_it_is() -> None:
    """The test game is one module and its data (no notes.toml) and its page, declaring a catalog, a kit, a spec
    and its test traits, as docs/adding-a-game.md says (moved here from tests/test_docs.py: it names the game)."""
    adding = (HERE.parent / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    folder = Path(toygame.__file__).parent
    assert sorted(p.name for p in folder.glob("*.py")) == ["__init__.py"]
    assert sorted(p.name for p in (folder / "data").iterdir()) == ["cards.toml", "game.toml", "rules.toml"]
    assert (folder / f"{GAME}.md").is_file()  # its page (docs/games/<id>.md for a game in the tree)
    source = (folder / "__init__.py").read_text(encoding="utf-8")
    assert all(f"\n{name} = " in source for name in ("CATALOG", "KIT", "SPEC", "TEST_TRAITS"))
    title = re.search(r'^title = "([^"]+)"', (folder / "data" / "game.toml").read_text(encoding="utf-8"), re.M)
    assert title and title.group(1) in adding and GAME in adding


# -- the shared tests, run for the toy game --------------------------------------------------------------------

#: Every shared test file that iterates the discovered games (a test parametrized by game, or one that loops over
#: them), and which of its tests the toy runs: the cases its id selects (``()``: a test parametrized by game),
#: and the tests named here, which loop over every game inside (the toy among them); None: the whole file.
RUN_FOR_THE_TOY: dict[str, tuple[str, ...] | None] = {
    # rules: seeded random playouts, JSON round trips, views that hide secrets; the protocol; recorded playouts;
    # choices that match the rules; wrong option values; every field of every move type given a wrong kind
    # through the API; random moves, undos and corrections read back by every reader; the corrections review;
    # a refused field named in table words
    "test_rules_shared.py": (), "test_rules_front.py": (), "test_rules_golden.py": (), "test_rules_choices.py": (),
    "test_options_fuzz.py": (), "test_move_fields_generated.py": (), "test_timeline_props.py": (),
    "test_corrections_review.py": (),
    "test_table_words.py": ("test_a_refused_field_is_named_by_its_form_label_over_http",
                            "test_the_corrections_page_says_a_refused_change_in_table_words"),
    # print: its catalog and kit discovered and agreeing with its data, its words in the no-naming checks, its
    # facts read once; `cardgen check` counts it and names it among the expected folders (the other tests of these
    # two files use a copy of the tree's data or a made-up package, the same with the toy registered or not); its
    # faces at every card size; an empty notes.toml; the labels its kit reads; every deck exported a face a page
    "test_game_discovery.py": ("test_every_catalog_game_has_a_print_kit_and_every_kit_a_catalog_game",
                               "test_shared_cardgen_modules_name_no_game", "test_a_games_own_commands_come_from_its_catalog",
                               "test_shared_code_names_no_game", "test_the_naming_words_come_from_every_discovered_game",
                               "test_no_python_file_repeats_a_games_title_or_player_counts",
                               "test_a_games_facts_are_its_data_and_a_broken_file_gives_its_id"),
    "test_cli_check.py": ("test_check_real_data_passes_and_prints_counts_and_notes",
                          "test_check_unusable_folder_is_a_clean_error"),
    "test_pdf_face_sizes.py": (),
    "test_first_hour.py": ("test_a_game_whose_rulebook_has_no_slips_may_have_an_empty_notes_file",),
    "test_labels.py": ("test_english_ships_with_every_section_the_faces_read",),
    # pages: home, table, seat pages (forms from the choices), card pages, the rules, corrections and view-only
    # pages; "Your move" exactly when the game waits for the seat; the card page's moves; the result's BG Stats
    # export; its page's move and option tables; the web reads it through its front only; search and the API
    "test_pages.py": (), "test_pages_corrections.py": (), "test_pages_view_only.py": (), "test_phone_leads.py": (),
    "test_card_moves.py": ("test_every_game_with_choices_offers_its_card_options_on_the_card_page",),
    "test_bgstats.py": (), "test_docs.py": ("test_the_readme_links_every_game_page",),
    "test_results.py": ("test_every_seat_page_of_a_finished_game_names_who_won",),
    "test_web_shape.py": ("test_the_web_reads_each_game_only_through_its_declared_front",),
    "test_search.py": ("test_index_covers_every_rule_and_card_and_builds_fast", "test_the_asking_pages_game_comes_first",
                       "test_the_question_set_finds_the_answer_in_the_first_three_at_least_90_percent"),
    "test_api.py": ("test_search_endpoint_prefers_the_asking_game_and_corrects_typos_in_scope",),
    # the OpenAPI document names every field of its answers, and the view's schema what its view holds
    "test_openapi_answers.py": ("test_the_view_schema_names_what_every_games_view_holds_or_says_which_games",),
    # reliability: its secret (a seat's plan) kept from every other phone on every route, a twin game and a
    # spectator's whole sequence compared; phones racing a whole game; kill -9 mid-game (its game alone: CRASH_GAMES;
    # the others' crashes are the whole run's); the in-process fuzz of moves, undo and corrections; the API contract
    # fuzzed through a real server (its cases aimed at the toy only: FUZZ_GAMES, with FUZZ_SHARE of the examples)
    "test_reliability_secrets.py": ("test_every_registered_game_says_what_it_keeps_secret",
                                    "test_a_seat_page_is_refused_to_any_other_seat"),
    "test_reliability_concurrency.py": (), "test_reliability_crash.py": (), "test_reliability_fuzz_moves.py": (),
    # a seat token released through another process refused before anything else, on both backends
    "test_move_seat_check.py": (),
    # an action id reused with another body refused, a retry recognised, on both backends; a seat handed on through
    # another node while its old token writes: nothing written
    "test_action_id_reuse.py": (),
    "test_seat_races.py": ("test_a_seat_handed_on_while_its_old_token_writes_leaves_nothing_written",),
    "test_reliability_fuzz.py": None,
    # a release landing between a token's check and the log's or the page's read, on both backends
    "test_log_read_race.py": (),
    # its data broken one field at a time, in a copy of its own folder: each break named by file, record and field
    "test_data_mutations.py": (),
}
#: the fuzz through a real server, aimed at the toy: a fifth of the examples, every one of its aimed cases at the
#: toy (in a whole run each of five games gets about a fifth of them)
FUZZ_SHARE = "0.2"

#: Shared files that iterate the discovered games but cannot run the toy, each with why. (A per-game file, whose
#: name holds a game's id, is for that game alone: :func:`_per_game`.)
NOT_FOR_THE_TOY: dict[str, str] = {
    "test_photo.py": "score by photo: the toy declares no photo module (games_with_photo() has none of it)",
    "test_photo_audit.py": "the photo audit of games with a photo module; the toy has none",
    "test_photo_outline.py": "photo outlines of games with a photo module; the toy has none",
    "test_photo_code_place.py": "a photo's codes on every deck with deck_faces; the toy's kit declares none",
    "test_print_versions.py": "edits of named records in the data of the games in the tree (EDITS), no iteration",
    "test_changed_since.py": "reprints of the tree's games from a copy of data/: the inputs digest that leaves an "
                             "unchanged game unread covers only the tree's code (a game outside it, as the toy, is "
                             "always read again), and the toy keeps its data outside that copy",
    "test_data_dir.py": "a data folder that leaves out or breaks a game of the tree's data/; its photo tests iterate "
                        "the games with a photo module (the toy has none)",
    "test_join_retry.py": "seats are joined and taken over alike in every game: it plays one, the first discovered",
    "test_store_formats.py": "games stored before states had formats (tests/golden/companion-format0): none of it",
    # these two pass with the toy registered, run whole by hand; each loop builds every game's documents, not one's
    "test_export.py": "exports every deck of every game (20 s); the toy's deck: test_the_toy_game_builds_its_print_kit",
    "test_labels_documents.py": "builds every document of every game in a pseudo-language (20 s)",
    # the browser files pass for the toy run by hand (COMPANION_EXTRA_GAMES=toygame PYTHONPATH=tests pytest -k "wych
    # and wood" tests/e2e/<file>: all four, 63 s on a loaded machine); a Chromium start and a minute here would
    # double this file, so they are left to the browser job, which has Chromium
    "e2e/test_next_step.py": "a browser file: phones play a whole game of every title (a minute and a half)",
    "e2e/test_table_view.py": "a browser file: the table on a shared screen, in columns and live",
    "e2e/test_tap_targets.py": "a browser file: every control at least 44 px tall",
    "e2e/test_zoom.py": "a browser file: no page scrolls sideways at 200 % zoom",
}

#: what marks a file that iterates the discovered games: one of these names imported from where it is declared
DISCOVERED = {"GAMES", "SPECS", "print_kits", "catalogs", "games_with_photo", "traits_for", "playable_games"}
DISCOVERERS = {"companion.rules", "cardgen.catalog", "cardgen.render", "cardgen.render.registry",
               "companion.web.photo", "companion.web.home", "game_traits"}


def _iterates_games(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, ast.ImportFrom) and node.module in DISCOVERERS
               and any(alias.name in DISCOVERED for alias in node.names) for node in ast.walk(tree))


def _per_game(name: str) -> bool:
    """A file for one game of the tree (its id, ``_`` for ``-``, in its name)."""
    return any(game.replace("-", "_") in name for game in rules.SPECS if game != GAME)


def test_every_shared_file_that_iterates_the_games_runs_the_toy_or_says_why_not() -> None:
    """A new shared test file that iterates the discovered games must be run for the toy (RUN_FOR_THE_TOY) or say
    why it cannot (NOT_FOR_THE_TOY); a test named there must exist in its file."""
    shared = {str(path.relative_to(HERE)) for path in [*HERE.glob("test_*.py"), *HERE.glob("e2e/test_*.py")]
              if path.name != Path(__file__).name and not _per_game(path.name) and _iterates_games(path)}
    listed = set(RUN_FOR_THE_TOY) | set(NOT_FOR_THE_TOY)
    assert not set(RUN_FOR_THE_TOY) & set(NOT_FOR_THE_TOY)
    assert shared == listed, (f"iterates the games, neither run for the toy nor said why not: {sorted(shared - listed)}; "
                              f"listed but iterates none (or is gone): {sorted(listed - shared)}")
    for name, tests in RUN_FOR_THE_TOY.items():
        text = (HERE / name).read_text(encoding="utf-8")
        assert all(f"def {test}(" in text for test in tests or ()), name


@pytest.fixture(scope="module")
def shared_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """The shared files run once, in one pytest in a subprocess (each start costs seconds), with the toy game
    registered (``COMPANION_EXTRA_GAMES``, ``tests/`` on the path of every process they start) and only its
    cases selected: file -> test id -> "passed", "failed", "error" or "skipped" (from a JUnit report)."""
    files = [HERE / name for name in RUN_FOR_THE_TOY]
    assert not [path for path in files if MODULE in path.read_text(encoding="utf-8")
                or GAME in path.read_text(encoding="utf-8")], "a shared test names the test game"
    select = " or ".join([f"({GAME.replace('-', ' and ')})",
                          *(name if tests is None else " or ".join(tests)
                            for name, tests in RUN_FOR_THE_TOY.items() if tests != ())])
    report = tmp_path_factory.mktemp("toy-shared") / "report.xml"
    env = {**os.environ, "COMPANION_EXTRA_GAMES": MODULE, "FUZZ_GAMES": GAME, "FUZZ_SHARE": FUZZ_SHARE,
           "CRASH_GAMES": GAME,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))}
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "-k", select, f"--junitxml={report}", *map(str, files)],
                         env=env, cwd=HERE.parent, capture_output=True, text=True, timeout=1800)
    assert ran.returncode in (0, 1), ran.stdout[-4000:] + ran.stderr[-2000:]  # 1: a test failed, said below
    results: dict[str, dict[str, str]] = {name: {} for name in RUN_FOR_THE_TOY}
    for case in ElementTree.parse(report).iter("testcase"):
        name = next(part for part in str(case.get("classname")).split(".") if part.startswith("test_")) + ".py"
        outcome = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        results.setdefault(name, {})[str(case.get("name"))] = outcome
    results["(output)"] = {"tail": ran.stdout[-4000:]}
    return results


def _check(results: dict[str, dict[str, str]], names: list[str]) -> None:
    for name in names:
        cases = results[name]
        assert cases, f"{name}: no test ran for the toy game"
        bad = {case: outcome for case, outcome in cases.items() if outcome != "passed"}
        assert not bad, f"{name}: {bad}\n{results['(output)']['tail']}"
        missing = [test for test in RUN_FOR_THE_TOY[name] or () if not any(re.fullmatch(rf"{test}(\[.*\])?", case)
                                                                        for case in cases)]
        assert not missing, f"{name}: these tests did not run for the toy game: {missing}"


def _area(first: str, last: str) -> list[str]:
    names = list(RUN_FOR_THE_TOY)
    return names[names.index(first):names.index(last) + 1]


def test_the_toy_game_passes_the_shared_rules_tests(shared_run: dict[str, dict[str, str]]) -> None:
    _check(shared_run, _area("test_rules_shared.py", "test_table_words.py"))
    assert len(shared_run["test_rules_shared.py"]) >= 6  # every shared rules test for this game, not a few


def test_the_toy_game_passes_the_shared_print_tests(shared_run: dict[str, dict[str, str]]) -> None:
    _check(shared_run, _area("test_game_discovery.py", "test_labels.py"))
    assert f"test_a_declaration_agrees_with_the_games_data_and_package[{GAME}]" in shared_run["test_game_discovery.py"]


def test_the_toy_game_passes_the_shared_pages_tests(shared_run: dict[str, dict[str, str]]) -> None:
    _check(shared_run, _area("test_pages.py", "test_api.py"))


def test_the_toy_game_passes_the_shared_reliability_tests(shared_run: dict[str, dict[str, str]]) -> None:
    _check(shared_run, _area("test_reliability_secrets.py", "test_reliability_fuzz.py"))
    assert len(shared_run["test_reliability_fuzz.py"]) >= 30  # every documented operation fuzzed


def test_the_toy_game_builds_its_print_kit(tmp_path: Path) -> None:
    """``cardgen build --game`` with the toy registered writes its deck."""
    out = tmp_path / "kit"
    env = {**os.environ, "COMPANION_EXTRA_GAMES": MODULE, "PYTHONPATH": str(HERE)}
    built = subprocess.run([sys.executable, "-m", "cardgen.cli", "build", "--game", GAME, "--out", str(out)],
                           env=env, cwd=HERE.parent, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    pdf = out / GAME / "deck.pdf"
    assert pdf.is_file() and pdf.read_bytes().startswith(b"%PDF")
