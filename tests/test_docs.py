"""The docs document every command and its options, every game's move types and options, and the README
stays a short on-ramp with both set-up commands and links that lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from cardgen.catalog import catalogs
from cardgen.cli import main as cardgen_main
from companion.cli import main as companion_main
from companion.rules import GAMES

ROOT = Path(__file__).resolve().parents[1]
README_PATH = ROOT / "README.md"
README = README_PATH.read_text(encoding="utf-8")
DOC_PATHS = [README_PATH, ROOT / "bench" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
ALL_DOCS = "\n".join(p.read_text(encoding="utf-8") for p in DOC_PATHS)
README_MAX_LINES = 200


def _options(group: click.Group, command: str) -> list[str]:
    cmd = group.commands[command]  # type: ignore[attr-defined]
    names: list[str] = []
    for param in cmd.params:
        if isinstance(param, click.Option) and "--help" not in param.opts:
            names.extend(o for o in param.opts if o.startswith("--"))
            names.extend(o for o in param.secondary_opts if o.startswith("--"))
    return names


PROGRAMS = {"cardgen": cardgen_main, "companion": companion_main}  # the console scripts in pyproject.toml


@pytest.mark.parametrize("program, command", [(program, command) for program, group in PROGRAMS.items()
                                              for command in sorted(group.commands)])  # type: ignore[attr-defined]
def test_every_cli_option_is_documented(program: str, command: str) -> None:
    group = PROGRAMS[program]
    assert re.search(rf"\b{program} {re.escape(command)}\b", ALL_DOCS), f"no doc shows '{program} {command}'"
    options = _options(group, command)
    missing = [o for o in options if not re.search(re.escape(o) + r"(?![a-z-])", ALL_DOCS)]
    assert not missing, f"the docs do not mention {program} {command} options: {missing}"


def _in_tree(game: str) -> bool:
    """A game of this tree, not one added from outside it (which keeps its data beside its code)."""
    return catalogs()[game].data is None


def _game_doc(game: str) -> str:
    """``docs/games/<id>.md``; a game outside the tree keeps its page beside its data folder (``<id>.md``)."""
    data = catalogs()[game].data
    path = ROOT / "docs" / "games" / f"{game}.md" if data is None else data.parent / f"{game}.md"
    assert path.is_file(), f"{game} has no page at {path}"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_type_is_in_its_games_move_table(game: str) -> None:
    doc = _game_doc(game)
    missing = [m for m in GAMES[game].MOVE_TYPES if f"| `{m}` |" not in doc]
    assert not missing, f"{game}'s page's move table lacks {missing}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_option_is_in_its_games_options_table(game: str) -> None:
    doc = _game_doc(game)
    missing = [o for o in GAMES[game].OPTIONS if f"| `{o}` |" not in doc]
    assert not missing, f"{game}'s page's options table lacks {missing}"


def test_the_readme_is_a_short_on_ramp_with_the_two_commands_and_ci_runs_the_test_one() -> None:
    lines = README.count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines (at most {README_MAX_LINES}): move detail to docs/"
    assert "scripts/start.sh" in README and "scripts/test.sh" in README
    assert "scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for script in ("start.sh", "test.sh", "setup.sh"):
        assert (ROOT / "scripts" / script).stat().st_mode & 0o111, f"scripts/{script} is not executable"


def test_the_readme_says_what_a_fresh_machine_needs_before_the_first_command() -> None:
    """The Python the project requires (pyproject.toml's ``requires-python``) and Debian's venv package, said
    before the two commands, and the same minimum that scripts/setup.sh checks."""
    import tomllib

    required = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    minimum = re.fullmatch(r">=\s*(\d+\.\d+)", required)
    assert minimum, required
    before = README.split("scripts/start.sh", 1)[0]
    assert f"{minimum.group(1)} or newer" in before and "apt install python3-venv" in before
    setup = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    assert f"sys.version_info >= ({minimum.group(1).replace('.', ', ')})" in setup
    assert f"needs Python {minimum.group(1)} or newer" in setup


def test_the_readme_links_every_game_page() -> None:
    missing = [game for game in GAMES if _in_tree(game) and f"docs/games/{game}.md" not in README]
    assert not missing, f"README.md links no page for {missing}"


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", DOC_PATHS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_to_a_file_that_exists(doc: Path) -> None:
    broken = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or an anchor in the same page
        path = target.split("#", 1)[0]
        if not (doc.parent / path).exists():
            broken.append(target)
    assert not broken, f"{doc.relative_to(ROOT)} links to missing files: {broken}"


def test_benchmark_command_names_existing_scripts() -> None:
    bench_readme = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    assert "bench/run_all.py" in README and "bench/run_all.py" in bench_readme
    for script in re.findall(r'\("(bench_\w+\.py)"', (ROOT / "bench" / "run_all.py").read_text(encoding="utf-8")):
        assert (ROOT / "bench" / script).exists(), script
        assert script in bench_readme, f"bench/README.md does not describe {script}"


# -- docs/adding-a-game.md: what a game declares is what the code takes -------------------------------------

ADDING = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")


def test_adding_a_game_names_only_paths_that_exist() -> None:
    """Every concrete path the page names (no ``<id>`` placeholder in it) exists."""
    named = {p.rstrip("/") for p in re.findall(r"`((?:cardgen|companion|templates|tests|data|docs)/[^`<>…\s]*)`", ADDING)}
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert len(named) >= 10 and not missing, missing


def test_adding_a_game_declares_with_the_fields_the_declarations_have() -> None:
    """The spec in its example takes only GameSpec's fields (no title or player counts: those are the data's);
    the GamePages hooks in its table and the GameCatalog fields it names exist, with the defaults it says."""
    import dataclasses

    from cardgen.catalog import GameCatalog
    from companion.rules.spec import GameSpec
    from companion.web.games import GamePages
    from companion.web.seat_forms import SeatForms, generic_headline

    example = ADDING.split("```python\nSPEC = GameSpec(", 1)[1].split("```", 1)[0]
    keywords = set(re.findall(r"(?<![\w.])(\w+)=", re.sub(r"MoveSpec\([^)]*\)", "", example)))
    spec_fields = {f.name for f in dataclasses.fields(GameSpec)}
    assert keywords and keywords <= spec_fields, keywords - spec_fields
    assert not {"title", "min_players", "max_players"} & spec_fields
    table = [row.split("|")[1] for row in ADDING.splitlines() if row.startswith("| `")]
    hooks = {name for cell in table for name in re.findall(r"`(\w+)", cell)}
    pages_fields = {f.name for f in dataclasses.fields(GamePages)}
    assert len(hooks) >= 10 and hooks <= pages_fields, hooks - pages_fields
    assert GamePages().headline is generic_headline and GamePages().note_move is None
    assert not GamePages().compact_lists and GamePages().playable and GamePages().choice_forms
    assert {"headline", "choices", "note", "advice", "undo_text"} <= {f.name for f in dataclasses.fields(SeatForms)}
    from cardgen.catalog.base import CardAndRuleLookups

    content_hooks = re.findall(r"`(\w+)\(card\)`", ADDING.split("may override its hooks", 1)[1].split("\n\n", 1)[0])
    assert len(content_hooks) == 4 and all(callable(getattr(CardAndRuleLookups, h, None)) for h in content_hooks)
    catalog_fields = {f.name for f in dataclasses.fields(GameCatalog)}
    assert {"id", "load", "counted", "commands", "data"} == catalog_fields and "title" not in catalog_fields


def test_adding_a_game_names_every_trait_a_game_declares_for_the_shared_tests() -> None:
    """Section 10 names each field of ``GameTraits`` (tests/game_traits.py): a new trait a game must declare for
    the shared tests is written where a newcomer reads it, and no named trait is gone."""
    import dataclasses

    from game_traits import GameTraits

    section = ADDING.split("## 10. Tests", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(\w+)`", section))
    fields = {f.name for f in dataclasses.fields(GameTraits)}
    assert fields <= named, f"traits the page does not name: {sorted(fields - named)}"
    assert "`TRAITS = GameTraits(...)`" in section and "TEST_TRAITS" in named


# -- docs/architecture.md: the house as it is ---------------------------------------------------------------

ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_architecture_names_only_modules_paths_and_names_that_exist() -> None:
    """Every concrete path (from the root, or under companion/, its web/ or static/) and every dotted
    ``companion.``/``cardgen.`` name the page gives resolves: a renamed or split module fails here."""
    import importlib

    named = {name.strip() for name in re.findall(r"`([^`]+)`", ARCHITECTURE)}
    paths = {n.rstrip("/") for n in named if re.fullmatch(r"[\w./-]+", n) and "/" in n and not n.startswith("/")}
    missing = [p for p in sorted(paths) if not any((base / p).exists() for base in
               (ROOT, ROOT / "companion", ROOT / "companion" / "web", ROOT / "companion" / "static"))]
    unresolved = []
    for dotted in sorted(n for n in named if re.fullmatch(r"(companion|cardgen)(\.\w+)+", n)):
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):  # the longest importable prefix, then attributes
            try:
                found: object = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            for part in parts[i:]:
                found = getattr(found, part, None)
            if found is None:
                unresolved.append(dotted)
            break
    assert len(paths) >= 30 and not missing, missing
    assert not unresolved, unresolved


def test_architecture_lists_the_blueprints_create_app_registers(tmp_path: Path) -> None:
    """The page and API areas the Web paragraph names are the blueprints ``create_app`` registers (a game's
    calculator as ``calc_<game>``), and the size limit it quotes is the one tests/test_web_shape.py keeps."""
    from companion.web import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "companion.sqlite3"), "SECRET_KEY": "k"})
    try:
        registered = {re.sub(r"^calc_\w+$", "calc_<game>", name) for name in app.blueprints}
    finally:
        app.extensions["store"].close()
    areas = ARCHITECTURE.split("Page areas", 1)[1].split("What several areas use", 1)[0]
    named = set(re.findall(r"`([a-z_]+(?:<game>)?)`", areas))
    assert registered <= named, f"blueprints the page does not list: {registered - named}"
    assert named - registered <= {"bp", "calculator_module"}, f"listed, not registered: {named - registered}"
    import test_web_shape

    assert f"no module over {test_web_shape.MAX_LINES} lines" in ARCHITECTURE


def test_architecture_names_the_lint_rules_ci_runs() -> None:
    import tomllib

    rules = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]["select"]
    said = re.search(r"runs `ruff check` \(rules ([^)]*)\)", ARCHITECTURE)
    assert said and set(re.findall(r"\b[A-Z]+\b", said.group(1))) == set(rules), said


def test_architecture_layers_point_one_way() -> None:
    """'Imports point one way: bench → companion → cardgen', and neither imports the tests: every import in
    cardgen/ and companion/ (absolute, top-level name) stays inside its layer or below."""
    import ast

    assert "`bench` → `companion` → `cardgen`" in ARCHITECTURE
    below = {"cardgen": {"companion", "bench", "tests"}, "companion": {"bench", "tests"}}
    crossing = []
    for layer, forbidden in below.items():
        for path in sorted((ROOT / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
                crossing += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in names
                             if name.split(".")[0] in forbidden]
    assert crossing == []


# -- docs/print-kit.md: "Every option and document" (the README's words) --------------------------------------

PRINT_KIT = (ROOT / "docs" / "print-kit.md").read_text(encoding="utf-8")


def _print_kit_section(command: str) -> str:
    """The section of docs/print-kit.md whose heading names ``cardgen <command>``, up to the next heading."""
    for section in PRINT_KIT.split("\n## ")[1:]:
        heading, _, body = section.partition("\n")
        if f"`cardgen {command}`" in heading:
            return body
    return ""


@pytest.mark.parametrize("command", sorted(cardgen_main.commands))  # type: ignore[attr-defined]
def test_the_print_kit_page_has_a_section_for_every_cardgen_command_with_its_options(command: str) -> None:
    """The README sends a reader to docs/print-kit.md for "every option": each ``cardgen`` command has a section
    there, which names each of its options (a group: each sub-command), unless it is a game's own command
    (``GameCatalog.commands``), which the section hands on to that game's page by a link."""
    section = _print_kit_section(command)
    assert section, f"docs/print-kit.md has no section headed `cardgen {command}`"
    group = cardgen_main.commands[command]  # type: ignore[attr-defined]
    if isinstance(group, click.Group):
        missing = [sub for sub in sorted(group.commands) if f"cardgen {command} {sub}" not in section]
        assert not missing, f"docs/print-kit.md's `cardgen {command}` section does not name {missing}"
        return
    games_own = {cmd.name for catalog in catalogs().values() for cmd in catalog.commands}
    if command in games_own:
        assert "](games/" in section, f"`cardgen {command}` is a game's command: link its game's page"
        return
    missing = [o for o in _options(cardgen_main, command) if not re.search(re.escape(o) + r"(?![a-z-])", section)]
    assert not missing, f"docs/print-kit.md's `cardgen {command}` section does not mention {missing}"
