"""Printed labels for Magicians of Fillory in another language (tests/test_labels.py holds the shared checks, which
name no game): --lang de changes the words on the cards and the sheet captions, a language file missing a label
or a placeholder is refused by name, and an edit of an English label changes the card versions."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pdf_checks import document_text

from cardgen.catalog import load_game
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.catalog.versions import card_version
from cardgen.cli import main
from cardgen.render import BuildError, BuildOptions, build

GERMAN = {"when_played": "BEIM AUSSPIELEN AUS DER HAND", "trick": "KARTENTRICK",
          "trick_discard": "KARTENTRICK: AUS DER HAND ABWERFEN", "starts_neutral": "START: NEUTRALE ZONE", "neutral": "NEUTRALE ZONE",
          "fronts": "Vorderseiten", "backs": "Rückseiten", "cards": "Karten",
          "caption": "{name} · {side} · Bogen {sheet}/{sheets} · {unit} {first}–{last}",
          "scan": "Scannen für die Regeln dieser Karte"}


def _with_german(tmp_path: Path, drop: str | None = None, caption: str | None = None) -> Path:
    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "print", root / "print")
    shutil.copytree(DEFAULT_DATA_DIR / "fillory", root / "fillory")
    text = (root / "print" / "labels" / "en.toml").read_text(encoding="utf-8")
    for key, word in GERMAN.items():
        if key == "caption" and caption is not None:
            word = caption
        text, count = re.subn(rf'^{key} = "[^"]*"$', f'{key} = "{word}"', text, count=1, flags=re.M)
        assert count == 1, key
    if drop:
        text = re.sub(rf'^{drop} = "[^"]*"\n', "", text, count=1, flags=re.M)
    (root / "print" / "labels" / "de.toml").write_text(text, encoding="utf-8")
    return root


def _text(pdf: Path) -> str:
    return document_text(pdf)


def test_a_second_language_prints_its_words_on_the_cards_and_the_sheet_captions(tmp_path: Path) -> None:
    root = _with_german(tmp_path)
    result = CliRunner().invoke(main, ["build", "--game", "fillory", "--only", "deck", "--data", str(root),
                                       "--out", str(tmp_path / "de"), "--lang", "de"])
    assert result.exit_code == 0, result.output
    german = _text(tmp_path / "de" / "fillory" / "deck.pdf")
    for word in ("BEIM AUSSPIELEN AUS DER HAND", "KARTENTRICK", "START: NEUTRALE ZONE",
                 "Vorderseiten · Bogen 1/13 · Karten 1–9", "Rückseiten · Bogen 1/13"):
        assert word in german, word
    for word in ("WHEN PLAYED FROM HAND", "fronts · sheet", "STARTS IN NEUTRAL ZONE"):
        assert word not in german, word
    [english] = build(BuildOptions(game="fillory", documents=("deck",), data_dir=root, out_dir=tmp_path / "en"))
    assert "WHEN PLAYED FROM HAND" in _text(english) and "KARTENTRICK" not in _text(english)


def test_a_language_file_missing_a_label_or_a_placeholder_is_refused_by_name(tmp_path: Path) -> None:
    root = _with_german(tmp_path, drop="neutral")
    with pytest.raises(BuildError, match=r"--lang de: .*de\.toml: \[fillory\]: field 'neutral': missing"):
        build(BuildOptions(game="fillory", documents=("deck",), data_dir=root, out_dir=tmp_path / "x", lang="de"))
    root2 = _with_german(tmp_path / "b", caption="{name} Bogen {sheet}")
    with pytest.raises(BuildError, match=r"\[sheet\]: field 'caption': must use the placeholders"):
        build(BuildOptions(game="fillory", documents=("deck",), data_dir=root2, out_dir=tmp_path / "y", lang="de"))
    with pytest.raises(BuildError, match=r"xx\.toml: file is missing"):
        build(BuildOptions(game="fillory", documents=("deck",), data_dir=root, out_dir=tmp_path / "z", lang="xx"))
    assert not (tmp_path / "x").exists()


def test_an_edit_of_a_games_english_label_changes_that_games_card_versions(tmp_path: Path) -> None:
    root = _with_german(tmp_path)
    before = {c.id: card_version(c) for c in load_game("fillory", root).cards}
    path = root / "print" / "labels" / "en.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('"WHEN PLAYED FROM HAND"', '"ON PLAY"'), encoding="utf-8")
    moved = tmp_path / "moved"
    shutil.copytree(root, moved)    # a fresh folder: the labels are read once per data folder
    after = {c.id: card_version(c) for c in load_game("fillory", moved).cards}
    assert all(before[c] != after[c] for c in before)


def test_a_reprint_in_another_language_or_after_its_words_changed_flags_every_face(tmp_path: Path) -> None:
    root = _with_german(tmp_path)
    runner = CliRunner()

    def build_into(out: str, *more: str) -> str:
        result = runner.invoke(main, ["build", "--game", "fillory", "--only", "deck", "--data", str(root),
                                      "--out", str(tmp_path / out), *more])
        assert result.exit_code == 0, result.output
        return result.output

    build_into("en")
    build_into("de", "--lang", "de")
    assert "no card changed" in build_into("en-again", "--changed-since", str(tmp_path / "en"))
    assert "no card changed" in build_into("de-again", "--lang", "de", "--changed-since", str(tmp_path / "de"))
    # the English kit reprinted in German: every face's words are new, though no card's record changed
    assert "110 of 110 cards changed" in build_into("en-to-de", "--lang", "de", "--changed-since", str(tmp_path / "en"))
    assert "110 of 110 cards changed" in build_into("de-to-en", "--changed-since", str(tmp_path / "de"))
    # a word of the German file changed: every German face changed; the English kit did not
    german = root / "print" / "labels" / "de.toml"
    german.write_text(german.read_text(encoding="utf-8").replace(GERMAN["when_played"], "BEIM SPIELEN"), encoding="utf-8")
    assert "110 of 110 cards changed" in build_into("de-edited", "--lang", "de", "--changed-since", str(tmp_path / "de"))
    assert "no card changed" in build_into("en-after", "--changed-since", str(tmp_path / "en"))
