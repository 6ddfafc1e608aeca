"""``cardgen check``: counts and notes on the real data, the problem list on broken copies."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.catalog import GAMES, game_folder
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.cli import main

CONSOLE_SCRIPT = Path(sys.executable).parent / "cardgen"


def _broken_copy(tmp_path: Path) -> Path:
    """A data folder with two problems in the Fillory cards (and healthy print data)."""
    shutil.copytree(DEFAULT_DATA_DIR / "fillory", tmp_path / "fillory")
    shutil.copytree(DEFAULT_DATA_DIR / "print", tmp_path / "print")
    cards = tmp_path / "fillory" / "cards.toml"
    text = cards.read_text(encoding="utf-8")
    text = text.replace('"Telekinetics", "Fillory"]', '"Telekinesis", "Fillory"]', 1)
    text = text.replace('card = "Julia" },', 'card = "Julio" },', 1)
    cards.write_text(text, encoding="utf-8")
    return tmp_path


def test_check_real_data_passes_and_prints_counts_and_notes() -> None:
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "fillory: Magicians of Fillory: 110 cards, 27 traits, 43 rules, 20 notes" in out
    assert "print: 2 paper sizes (A4, Letter), 4 card sizes (poker, bridge, tarot, mini)" in out
    assert "data notes (20):" in out
    # grouped by subject: the card's name heads its notes, each note described once
    assert "    Mercenaries (mercenaries):\n      [trait-typo-creatures] traits: printed 'Creatures', read as " \
           "'Creature'." in out
    assert "    Source of Magic (source-of-magic):\n      [name-the-beast-source-of-magic]" in out
    assert "      [name-martin-source-of-magic] ability: printed 'Martin', read as 'Martin Chatwin'." in out
    assert "    the rulebook:\n      [single-colon-separators]" in out
    assert out.count("Source of Magic (source-of-magic):") == 1
    assert "mandragora: Mandragora: 106 cards, 8 spells, 6 colours, 10 shops," in out
    assert "jsmn: Jonathan Strange & Mr Norrell: 189 cards, 24 spells," in out
    assert "    Vinculus (vinculus):\n      [viniculus-spelling] clarifications, named connexion: printed 'Viniculus', " \
           "read as 'Vinculus'." in out
    games = [game for game in GAMES if game_folder(game).is_dir()]  # an extra game keeps its own data
    assert out.rstrip().endswith(f"OK: {len(games)} game(s) and the print data checked, no problems.")


def test_check_broken_copy_lists_every_problem_and_exits_1(tmp_path: Path) -> None:
    root = _broken_copy(tmp_path)
    result = CliRunner().invoke(main, ["check", "--data", str(root)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "",
        "fillory: 2 problem(s)",
        f"  {root}/fillory/cards.toml: card #1 'Quentin': field 'traits': unknown trait 'Telekinesis'",
        f"  {root}/fillory/cards.toml: card #1 'Quentin': field 'ability[1].card': 'Julio' does not name a card",
        "FAILED: 2 problem(s) in fillory (1 game(s) and the print data checked); each line above names the file, "
        "record and field.",
    ]
    assert "Traceback" not in result.output
    assert "OK:" not in result.output


def test_check_reports_broken_print_data(tmp_path: Path) -> None:
    shutil.copytree(DEFAULT_DATA_DIR / "print", tmp_path / "print")
    papers = tmp_path / "print" / "papers.toml"
    papers.write_text(papers.read_text(encoding="utf-8").replace("width = 210.0", 'width = "wide"'),
                      encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--data", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:3] == [
        "",
        "print: 1 problem(s)",
        f"  {tmp_path}/print/papers.toml: paper #1 'A4': field 'width': expected a number of millimetres, "
        "got 'wide'",
    ]
    assert result.stderr.splitlines()[-1].startswith("FAILED: 1 problem(s) in print (")


def test_check_reports_a_trait_missing_from_the_colour_theme(tmp_path: Path) -> None:
    shutil.copytree(DEFAULT_DATA_DIR / "fillory", tmp_path / "fillory")
    shutil.copytree(DEFAULT_DATA_DIR / "print", tmp_path / "print")
    theme = tmp_path / "print" / "themes" / "fillory.toml"
    theme.write_text(theme.read_text(encoding="utf-8").replace(', "Plover"]', "]"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--data", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:3] == [
        "",
        "fillory colour theme: 1 problem(s)",
        f"  {tmp_path}/print/themes/fillory.toml: family: field 'traits': trait 'Plover' is in no family",
    ]
    assert result.stderr.splitlines()[-1].startswith("FAILED: 1 problem(s) in fillory colour theme (")


@pytest.mark.parametrize("make, message", [
    (lambda root: root / "nowhere", "data folder {root}/nowhere does not exist"),
    (lambda root: root, "no game folders in {root} (expected one of: " + ", ".join(GAMES) + ")"),
])
def test_check_unusable_folder_is_a_clean_error(tmp_path: Path, make, message: str) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(main, ["check", "--data", str(make(tmp_path))])
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: " + message.format(root=tmp_path)


def test_console_script_runs_check(tmp_path: Path) -> None:
    assert CONSOLE_SCRIPT.exists(), "install the project (scripts/setup.sh) to get the cardgen console script"
    ok = subprocess.run([str(CONSOLE_SCRIPT), "check"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert "110 cards, 27 traits" in ok.stdout
    broken = subprocess.run([str(CONSOLE_SCRIPT), "check", "--data", str(_broken_copy(tmp_path))],
                            capture_output=True, text=True, timeout=60)
    assert broken.returncode == 1
    assert "unknown trait 'Telekinesis'" in broken.stderr
    assert "Traceback" not in broken.stderr + broken.stdout


def test_check_prints_the_problems_after_every_note_and_ends_with_one_summary_line(tmp_path: Path) -> None:
    """The problems are not lost among the notes: the notes (stdout) come first, then every problem grouped by
    game, then one line that says how many and where (the last line of the whole output)."""
    root = _broken_copy(tmp_path)
    for game in (p.name for p in DEFAULT_DATA_DIR.iterdir() if p.is_dir() and not (root / p.name).exists()):
        shutil.copytree(DEFAULT_DATA_DIR / game, root / game)
    result = CliRunner().invoke(main, ["check", "--data", str(root)])
    assert result.exit_code == 1
    combined = result.output.splitlines()  # click's runner interleaves the two streams as a terminal would
    notes = [n for n, line in enumerate(combined) if line.startswith("  data notes")]
    problems = [n for n, line in enumerate(combined) if line.endswith("problem(s)")]
    assert notes and problems and max(notes) < min(problems)
    assert combined[-1].startswith("FAILED: 2 problem(s) in fillory (")


def test_python_dash_m_cardgen_runs_the_cli(tmp_path: Path) -> None:
    """``python -m cardgen`` answered "No module named cardgen.__main__" (the print audit)."""
    project = Path(__file__).resolve().parents[1]
    helped = subprocess.run([sys.executable, "-m", "cardgen", "--help"], capture_output=True, text=True, timeout=60,
                            cwd=project)
    assert helped.returncode == 0, helped.stderr
    assert helped.stdout.startswith("Usage: cardgen ") and "build" in helped.stdout
    broken = subprocess.run([sys.executable, "-m", "cardgen", "check", "--data", str(_broken_copy(tmp_path))],
                            capture_output=True, text=True, timeout=60, cwd=project)
    assert broken.returncode == 1 and "unknown trait 'Telekinesis'" in broken.stderr


def _fillory_copy(tmp_path: Path, name: str) -> Path:
    """The Fillory data and the print data, its first card renamed ``name``."""
    shutil.copytree(DEFAULT_DATA_DIR / "fillory", tmp_path / "fillory")
    shutil.copytree(DEFAULT_DATA_DIR / "print", tmp_path / "print")
    cards = tmp_path / "fillory" / "cards.toml"
    text = cards.read_text(encoding="utf-8")
    assert 'name = "Quentin"' in text
    cards.write_text(text.replace('name = "Quentin"', f'name = "{name}"', 1), encoding="utf-8")
    return tmp_path


def test_a_name_too_long_for_its_card_is_refused_by_check_and_build_naming_file_record_and_field(tmp_path: Path) -> None:
    """The print audit: a 300-character name printed over the traits, the QR code and the footer, and the card
    quoting it ran past the card's edge, with check OK and build rc 0. A text that cannot fit at 6 pt is refused
    as an undrawable character is: file, record, field."""
    long = " ".join(["Quentin Makepeace Coldwater of Brakebills"] * 8)[:300]
    root = _fillory_copy(tmp_path / "data", long)
    checked = CliRunner().invoke(main, ["check", "--data", str(root)])
    assert checked.exit_code == 1
    cards = root / "fillory" / "cards.toml"
    assert f"{cards}: card #1 '{long}': field 'name': 300 characters do not fit the poker card's title" in checked.output
    assert "field 'ability': the ability line" in checked.output  # the cards that quote it, at the smaller sizes
    built = CliRunner().invoke(main, ["build", "--data", str(root), "--game", "fillory", "--only", "deck",
                                      "--out", str(tmp_path / "out"), "--base-url", "http://192.168.1.20:8000"])
    assert built.exit_code == 1
    assert f"{cards}: card #1 '{long}': field 'name'" in built.output
    assert not (tmp_path / "out" / "fillory" / "deck.pdf").exists()


def test_a_long_name_that_fits_wrapped_passes(tmp_path: Path) -> None:
    root = _fillory_copy(tmp_path / "data", "Quentin Makepeace Coldwater, King of Fillory")  # 45 characters
    checked = CliRunner().invoke(main, ["check", "--data", str(root)])
    assert checked.exit_code == 0, checked.output


def test_a_card_size_too_small_for_the_faces_is_refused(tmp_path: Path) -> None:
    """The print audit: 32 × 45 mm passed check and build, the QR code covering the text."""
    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "print", root / "print")
    shutil.copytree(DEFAULT_DATA_DIR / "fillory", root / "fillory")
    sizes = root / "print" / "card-sizes.toml"
    sizes.write_text(sizes.read_text(encoding="utf-8") + '\n[[card_size]]\nname = "tiny"\nwidth = 32.0\nheight = 45.0\n',
                     encoding="utf-8")
    checked = CliRunner().invoke(main, ["check", "--data", str(root)])
    assert checked.exit_code == 1
    assert f"{sizes}: card size #5 'tiny': field 'width': 32 mm is below the smallest card" in checked.output
    built = CliRunner().invoke(main, ["build", "--data", str(root), "--game", "fillory", "--card-size", "tiny",
                                      "--out", str(tmp_path / "out"), "--base-url", "http://192.168.1.20:8000"])
    assert built.exit_code == 1 and "field 'height': 45 mm is below the smallest card" in built.output
