"""Every text style of the print kit draws Latin Extended, Greek and Cyrillic (its own files or the Noto
fallback), card names in those scripts print, and ``cardgen check`` refuses what no font can draw, naming
the file, record and field (issue 26)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.catalog import DataError, load_game
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.cli import main
from cardgen.render import BuildOptions, build
from cardgen.render.fonts import (
    FAMILIES,
    REQUIRED_SCRIPTS,
    drawable,
    family,
    undrawable,
)

FACES = [name for fam in FAMILIES for name in vars(family(fam)).values()]


@pytest.mark.parametrize("face", FACES)
def test_every_text_style_draws_latin_extended_greek_and_cyrillic(face: str) -> None:
    covered = drawable(face)
    for script, (first, last) in REQUIRED_SCRIPTS.items():
        missing = [f"U+{c:04X}" for c in range(first, last + 1) if c not in covered and c != 0x3A2]  # no final capital sigma
        assert not missing, f"{face} cannot draw {script}: {missing[:8]}"


def test_the_check_and_the_faces_agree_on_what_is_drawable() -> None:
    assert undrawable("Юлия Ξένια Łódź Ærøskøbing") == []
    assert undrawable("アリス 爱丽丝") == ["ア", "リ", "ス", "爱", "丽", "丝"]


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "print", root / "print")
    shutil.copytree(DEFAULT_DATA_DIR / "fillory", root / "fillory")
    return root


def _rename(root: Path, old: str, new: str) -> None:
    cards = root / "fillory" / "cards.toml"
    text = cards.read_text(encoding="utf-8")
    assert f'name = "{old}"' in text
    cards.write_text(text.replace(f'name = "{old}"', f'name = "{new}"', 1), encoding="utf-8")


def test_greek_and_cyrillic_names_print_on_the_card_and_in_the_abilities_that_name_it(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _rename(root, "Julia", "Юлия Ξένια")
    catalog = load_game("fillory", root)
    julia = next(c for c in catalog.cards if c.name == "Юлия Ξένια")
    quoting = [c for c in catalog.cards if "Юлия Ξένια" in catalog.ability_text(c)]
    assert quoting
    assert CliRunner().invoke(main, ["check", "--data", str(root)]).exit_code == 0
    [deck] = build(BuildOptions(game="fillory", data_dir=root, out_dir=tmp_path / "out", documents=("deck",)))
    reader = PdfReader(deck)
    text = " ".join(" ".join(page.extract_text() for page in reader.pages[::2]).split())  # fronts, lines joined
    assert text.count("Юлия Ξένια") >= 1 + len(quoting), "the title and every ability line that names her"
    assert ", , " not in text and julia.number == 2


def test_check_refuses_what_no_font_draws_naming_file_record_and_field(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _rename(root, "Julia", "アリス")
    traits = root / "fillory" / "traits.toml"
    traits.write_text(traits.read_text(encoding="utf-8").replace('text = "Gain 1 victory point."',
                                                                 'text = "Gain 1 victory point 爱."', 1),
                      encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--data", str(root)])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()   # the problems come after the notes, grouped, then one summary line
    assert "fillory characters: 2 problem(s)" in lines and lines[-1].startswith("FAILED: ")
    assert any(line.startswith(f"  {root}/fillory/cards.toml: card #") and "'アリス': field 'name': no font of the "
               "print kit can draw 'ア' (U+30A2 KATAKANA LETTER A), 'リ'" in line for line in lines), lines
    assert any(line.startswith(f"  {root}/fillory/traits.toml: trait #") and "'Fillory': field 'trick.text': "
               "no font of the print kit can draw '爱' (U+7231" in line for line in lines), lines


@pytest.mark.parametrize(("name", "shown"), [("アリス", "'ア' (U+30A2 KATAKANA LETTER A)"),
                                             ("Jul\x00ia", "'\\u0000' (U+0000 unnamed)")])
@pytest.mark.parametrize("command", ["build", "proof", "export"])
def test_build_refuses_what_no_font_draws_as_check_does(tmp_path: Path, command: str, name: str, shown: str) -> None:
    """The print audit: build printed such a name as a blank title (and "Summon  or Hedge" in the abilities
    naming it) with exit status 0, while check failed. Now every command that prints refuses it, with check's
    file, record and field, and writes nothing."""
    root = _copy(tmp_path)
    _rename(root, "Julia", name.replace("\x00", "\\u0000"))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [command, "--game", "fillory", "--data", str(root), "--out", str(out),
                                       "--base-url", "http://10.0.0.2:8000"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert any(line.startswith(f"  {root}/fillory/cards.toml: card #2 ") and "field 'name': no font of the print "
               f"kit can draw {shown}" in line for line in result.stderr.splitlines()), result.stderr
    assert not out.exists()
    with pytest.raises(DataError, match="no font of the print kit can draw"):
        build(BuildOptions(game="fillory", data_dir=root, out_dir=out, documents=("deck",)))


def test_a_label_no_font_draws_stops_the_build_in_that_language(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    labels = root / "print" / "labels" / "en.toml"
    text = labels.read_text(encoding="utf-8")
    first = text.index(' = "') + len(' = "')
    labels.write_text(text[:first] + "爱" + text[first:], encoding="utf-8")
    with pytest.raises(DataError, match=r"en\.toml.*no font of the print kit can draw '爱'"):
        build(BuildOptions(game="fillory", data_dir=root, out_dir=tmp_path / "out", documents=("deck",)))
