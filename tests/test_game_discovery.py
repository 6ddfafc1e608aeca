"""Games are found, not listed: every catalog package and every print-kit package declares itself, and a
new game's packages are picked up with no edit to a shared module."""

from __future__ import annotations

import ast
import importlib
import re
import sys
from pathlib import Path

import pytest

from cardgen.catalog import GAMES, GameCatalog, GameFacts, catalogs, content
from cardgen.catalog.spec import discover, extra_modules_from_env, read_facts
from cardgen.render import PrintKit, print_kits

CATALOG_ROOT = Path(__file__).resolve().parents[1] / "cardgen" / "catalog"


def test_every_catalog_game_has_a_print_kit_and_every_kit_a_catalog_game() -> None:
    assert set(print_kits()) == set(GAMES)
    in_tree = discover(importlib.import_module("cardgen.catalog"), "CATALOG", GameCatalog)
    assert len(in_tree) == len({p.name for p in CATALOG_ROOT.iterdir() if (p / "__init__.py").is_file()})
    assert set(in_tree) <= set(GAMES)  # and the extra games ($COMPANION_EXTRA_GAMES), each with its own data


@pytest.mark.parametrize("game", GAMES)
def test_a_declaration_agrees_with_the_games_data_and_package(game: str) -> None:
    declared = catalogs()[game]
    loaded = content(game)
    assert declared.id == loaded.game
    assert (declared.title, declared.facts.min_players, declared.facts.max_players) == \
        (loaded.title, loaded.min_players, loaded.max_players)  # the facts and the content read one game.toml
    for collection in declared.counted:
        assert len(getattr(loaded, collection)) > 0, f"{game} counts '{collection}', which is empty"
    kit = print_kits()[game]
    if kit.theme is not None:
        members = kit.theme.members(loaded)
        assert members and all(isinstance(m, str) for m in members)


def _package(root: Path, name: str, body: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "__init__.py").write_text(body, encoding="utf-8")


def test_a_new_games_package_is_discovered_and_a_helper_package_is_skipped(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _package(tmp_path, "tinygames", "")
    _package(tmp_path / "tinygames", "tiny_game",
             "from pathlib import Path\nfrom cardgen.catalog import GameCatalog\n"
             "CATALOG = GameCatalog(id='tiny-game', load=lambda root: root, data=Path(__file__).parent / 'data')\n")
    (tmp_path / "tinygames" / "tiny_game" / "data").mkdir()
    (tmp_path / "tinygames" / "tiny_game" / "data" / "game.toml").write_text('title = "Tiny Game"\n', encoding="utf-8")
    _package(tmp_path / "tinygames", "shared_helpers", "HELPER = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = discover(importlib.import_module("tinygames"), "CATALOG", GameCatalog)
    assert list(found) == ["tiny-game"]
    assert found["tiny-game"].facts == GameFacts("tiny-game", "Tiny Game", 1, 10)  # its title from its data, once
    assert found["tiny-game"].load(tmp_path) == tmp_path
    for name in [m for m in sys.modules if m.startswith("tinygames")]:
        monkeypatch.delitem(sys.modules, name)


def test_a_declaration_of_the_wrong_type_or_a_second_one_for_an_id_is_refused(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _package(tmp_path, "badgames", "")
    _package(tmp_path / "badgames", "a_game", "from cardgen.render import PrintKit\nKIT = PrintKit('one', ())\n")
    _package(tmp_path / "badgames", "b_game", "KIT = {'id': 'two'}\n")
    _package(tmp_path, "twicegames", "")
    for name in ("a_game", "b_game"):
        _package(tmp_path / "twicegames", name, "from cardgen.render import PrintKit\nKIT = PrintKit('same', ())\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(TypeError, match=r"badgames\.b_game\.KIT is a dict, not a PrintKit"):
        discover(importlib.import_module("badgames"), "KIT", PrintKit)
    with pytest.raises(ValueError, match=r"twicegames\.b_game declares game 'same' a second time"):
        discover(importlib.import_module("twicegames"), "KIT", PrintKit)
    for name in [m for m in sys.modules if m.startswith(("badgames", "twicegames"))]:
        monkeypatch.delitem(sys.modules, name)


SHARED_MODULES = sorted([*CATALOG_ROOT.parent.glob("*.py"), *CATALOG_ROOT.glob("*.py"),
                         *(CATALOG_ROOT.parent / "render").glob("*.py")])


def test_shared_cardgen_modules_name_no_game() -> None:
    words = {w for game in GAMES for w in (game, game.replace("-", "_"), re.findall(r"\w+", catalogs()[game].title)[0])}
    named = [f"{path.relative_to(CATALOG_ROOT.parents[1])}: {word}" for path in SHARED_MODULES for word in words
             if re.search(rf"\b{re.escape(word.lower())}\b", path.read_text(encoding="utf-8").lower())]
    assert len(SHARED_MODULES) > 20 and named == []


def test_a_games_own_commands_come_from_its_catalog() -> None:
    from cardgen.cli import main

    declared = {c.name: game for game, cat in catalogs().items() for c in cat.commands}
    assert declared == {"jsmn-balance": "jsmn"}
    for name in declared:
        assert main.commands[name] is next(c for c in catalogs()[declared[name]].commands if c.name == name)
    assert {"check", "build", "export", "calibrate", "printer"} <= set(main.commands)


# -- shared code names no game ------------------------------------------------------------------------

def game_words() -> dict[str, str]:
    """How each discovered game may be named in code or templates, by its id as a module name: the parts of
    its id (as written anywhere, ``barony_sorcery`` included) and the long words of its title (whole words:
    "Strange" is a name, "stranger" is not). Found from the games' own declarations, so a new game is covered."""
    from companion.rules import SPECS

    words: dict[str, str] = {}
    for game, spec in SPECS.items():
        parts = sorted({p for p in re.split(r"[-_]", game) if len(p) >= 4} | {game.replace("-", "_")})
        titled = sorted({w.casefold() for w in re.findall(r"[A-Za-z]+", spec.title) if len(w) >= 6} - set(parts))
        words[game.replace("-", "_")] = "|".join([*map(re.escape, parts), *(rf"\b{re.escape(w)}\b" for w in titled)])
    return words


#: How each game may be named in code or templates (its id, and the words of its title).
GAME_WORDS = game_words()


def shared_files_naming_games(root: Path) -> set[tuple[str, str]]:
    """(file, game) for every shared source file that names a game. A game's own places are not shared:
    a folder named for the game (``companion/rules/<game>/``, ``templates/pages/<game>/``...) or a file
    whose name starts with the game's id (``companion/web/games/<game>.py``, ``<game>_board.py``...)."""
    found: set[tuple[str, str]] = set()
    for top in ("companion", "cardgen", "templates"):
        for path in sorted((root / top).rglob("*")):
            if not path.is_file() or path.suffix not in {".py", ".html", ".js", ".css", ".json", ".toml"}:
                continue
            rel = path.relative_to(root)
            if set(rel.parts[:-1]) & set(GAME_WORDS) or any(path.stem == g or path.stem.startswith((f"{g}_", f"{g}-"))
                                                              for g in GAME_WORDS):
                continue
            text = path.read_text(encoding="utf-8", errors="replace").casefold()
            found.update((rel.as_posix(), game) for game, words in GAME_WORDS.items() if re.search(words, text))
    return found


def test_shared_code_names_no_game() -> None:
    root = Path(__file__).resolve().parents[1]
    assert shared_files_naming_games(root) == set()


def test_the_naming_check_sees_a_game_named_in_a_shared_file(tmp_path: Path) -> None:
    (tmp_path / "companion" / "web" / "games").mkdir(parents=True)
    named, other = list(GAME_WORDS)[:2]
    (tmp_path / "companion" / "web" / "shared.py").write_text(f"if game == '{named}': pass\n")
    (tmp_path / "companion" / "web" / "words.py").write_text("# a stranger may not claim a seat\n")
    (tmp_path / "companion" / "web" / "games" / f"{named}_board.py").write_text(f"# {named.title()}\n")
    (tmp_path / "companion" / other).mkdir()
    (tmp_path / "companion" / other / "x.py").write_text(f"# {other.title()}\n")
    assert shared_files_naming_games(tmp_path) == {("companion/web/shared.py", named)}


def test_the_naming_words_come_from_every_discovered_game() -> None:
    from companion.rules import SPECS

    assert set(GAME_WORDS) == {game.replace("-", "_") for game in SPECS}
    for game, spec in SPECS.items():  # each game's id and its title's long words name it
        words = GAME_WORDS[game.replace("-", "_")]
        assert re.search(words, game.replace("-", "_")) and all(
            re.search(words, w.casefold()) for w in re.findall(r"[A-Za-z]{6,}", spec.title))


# -- what the data says is written once -----------------------------------------------------------------

def _repeats(path: Path, titles: set[str]) -> list[str]:
    """Where ``path`` writes a game's title as a string of its own, or a player count as a number."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip() in titles:
            found.append(f"{path}:{node.lineno}: the title {node.value!r}")
        elif isinstance(node, ast.keyword) and node.arg in ("min_players", "max_players") \
                and isinstance(node.value, ast.Constant):
            found.append(f"{path}:{node.lineno}: {node.arg}={node.value.value!r}")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Constant) and any(
                isinstance(t, ast.Name) and t.id in ("TITLE", "MIN_PLAYERS", "MAX_PLAYERS")
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            found.append(f"{path}:{node.lineno}: a constant {ast.unparse(node)}")
    return found


def test_no_python_file_repeats_a_games_title_or_player_counts() -> None:
    """A game's title and player counts are its ``game.toml``'s (read once: :class:`GameFacts`); no code of the
    project or of a discovered game outside the tree writes them again."""
    root = Path(__file__).resolve().parents[1]
    titles = {declared.title for declared in catalogs().values()}
    assert all(title not in GAMES for title in titles)  # each title was read from data (else it is the id)
    extra = [Path(importlib.import_module(name).__file__ or "") for name in extra_modules_from_env()]
    files = sorted({*(root / "cardgen").rglob("*.py"), *(root / "companion").rglob("*.py"), *extra})
    assert [hit for path in files for hit in _repeats(path, titles)] == []


def test_the_repeat_check_sees_a_title_or_a_player_count_written_in_code(tmp_path: Path) -> None:
    title = next(iter(catalogs().values())).title
    (tmp_path / "game.py").write_text(f"SPEC = dict(title={title!r}, min_players=2)\nMAX_PLAYERS = 4\n")
    assert len(_repeats(tmp_path / "game.py", {title})) == 3  # the title, a keyword, a constant


def test_cardgen_imports_nothing_from_companion() -> None:
    """Imports point one way (docs/architecture.md): the card-data layer and the print kit know no companion."""
    root = Path(__file__).resolve().parents[1] / "cardgen"
    found = [f"{path}:{node.lineno}" for path in root.rglob("*.py")
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if (isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "companion")
             or (isinstance(node, ast.Import) and any(a.name.split(".")[0] == "companion" for a in node.names))]
    assert found == []


def test_a_games_facts_are_its_data_and_a_broken_file_gives_its_id(tmp_path: Path) -> None:
    for game, declared in catalogs().items():
        loaded = content(game)
        assert declared.facts == GameFacts(game, loaded.title, loaded.min_players, loaded.max_players)
    (tmp_path / "game.toml").write_text('title = "Half a game\n', encoding="utf-8")  # not TOML
    assert read_facts("half", tmp_path) == GameFacts("half", "half", 1, 10)  # the loader names the problem
    (tmp_path / "game.toml").write_text('title = "Half"\nmin_players = 3\nmax_players = "four"\n', encoding="utf-8")
    assert read_facts("half", tmp_path) == GameFacts("half", "Half", 3, 10)
