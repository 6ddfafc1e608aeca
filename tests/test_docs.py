"""The README documents every command and its options, every game's move types and both set-up commands."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from cardgen.cli import main as cardgen_main
from companion.cli import main as companion_main
from companion.rules import GAMES

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


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
def test_every_cli_option_is_in_the_readme(program: str, command: str) -> None:
    group = PROGRAMS[program]
    assert re.search(rf"\b{program} {re.escape(command)}\b", README), f"README never shows '{program} {command}'"
    options = _options(group, command)
    missing = [o for o in options if not re.search(re.escape(o) + r"(?![a-z-])", README)]
    assert not missing, f"README does not mention {command} options: {missing}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_type_is_in_the_readme(game: str) -> None:
    missing = [m for m in GAMES[game].MOVE_TYPES if f"| `{m}` |" not in README]
    assert not missing, f"README's move table lacks {missing}"


def test_readme_holds_the_two_commands_and_ci_runs_the_test_one() -> None:
    root = Path(__file__).resolve().parents[1]
    assert "scripts/start.sh" in README and "scripts/test.sh" in README
    assert "scripts/test.sh" in (root / ".ci" / "run").read_text(encoding="utf-8")
    for script in ("start.sh", "test.sh", "setup.sh"):
        assert (root / "scripts" / script).stat().st_mode & 0o111, f"scripts/{script} is not executable"


def test_benchmark_command_names_existing_scripts() -> None:
    root = Path(__file__).resolve().parents[1]
    assert "bench/run_all.py" in README
    for script in re.findall(r'\("(bench_\w+\.py)"', (root / "bench" / "run_all.py").read_text(encoding="utf-8")):
        assert (root / "bench" / script).exists(), script
