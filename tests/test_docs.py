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
