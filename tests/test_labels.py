"""Printed labels come from data/print/labels/<lang>.toml, chosen with --lang (issue 26): English ships; a
second language's file changes the words on the cards and the sheet captions with no code edit."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.catalog import load_game
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.catalog.versions import card_version
from cardgen.cli import main
from cardgen.render import BuildError, BuildOptions, build
from cardgen.render.labels import load_labels

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
    return " ".join(" ".join(page.extract_text() for page in PdfReader(pdf).pages).split())


def test_english_ships_with_every_section_the_faces_read() -> None:
    english = load_labels()
    assert {"sheet", "card", "fillory", "mandragora", "barony-sorcery", "jsmn"} <= set(english)
    assert english["fillory"]["when_played"] == "WHEN PLAYED FROM HAND"
    raw = tomllib.loads((DEFAULT_DATA_DIR / "print" / "labels" / "en.toml").read_text(encoding="utf-8"))
    assert raw == english


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


# The sentences the faces build round the data (lists, counts with their plural, "Summon A, B or C"): every
# word from the labels. A translation of exactly these, and the English words that must then be gone.
SENTENCES = {
    "or_list": ("{first} oder {last}", None),
    "summon": ("Beschwöre", "Summon "),
    "banish": ("Verbanne", "Banish "),
    "either_ability": ("{first} – oder – {second}", None),
    "curses_other": ("Gibt {count} Flüche", "CURSES"),
    "curses_one": ("Gibt {count} Fluch", "CURSE"),
    "worth_other": ("{magic} · {count} Punkte wert", "POINTS"),
    "ingredient": ("Für {colour}e Zauber", "SPELLS"),
    "cost_one": ("kostet {count} Magiemarke", "Magic token"),
    "cost_other": ("kostet {count} Magiemarken", None),
    "spell_number": ("Zauber {number}/{count}", None),
    "discard_for": ("Oder für {count} Ansehen abwerfen (eigener Zug).", "prestige (your turn)"),
    "number_line": ("{deck} {position}/{count} · Karte {number}/{total}", "· card "),
    "number_line_short": ("{position}/{count} · Karte {number}/{total}", None),
    "tokens_one": ("{count} {element}-Marke", None),  # the data's own texts say "token" too
    "tokens_other": ("{count} {element}-Marken", None),
    "feat_needs": ("Braucht genau <b>{needs}</b>. Erfüllt: <b>+{count} Zauberkunst</b>, ziehe einen Zauber.",
                   "Needs exactly"),
    "magicianship_played": ("+{count} ZAUBERKUNST nach dem Ausspielen", "MAGICIANSHIP once played"),
    "person_historical": ("eine Person der Geschichte", "a person of history"),
}


def test_sentences_built_round_the_data_come_from_the_labels_in_every_game(tmp_path: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, root)
    text = (root / "print" / "labels" / "en.toml").read_text(encoding="utf-8")
    for key, (word, _english) in SENTENCES.items():
        text, count = re.subn(rf'^{key} = "[^"]*"$', f'{key} = "{word}"', text, count=1, flags=re.M)
        assert count == 1, key
    (root / "print" / "labels" / "de.toml").write_text(text, encoding="utf-8")
    english, german = {}, {}
    for game in ("fillory", "mandragora", "barony-sorcery", "jsmn"):
        for lang, texts in (("en", english), ("de", german)):
            [deck] = build(BuildOptions(game=game, documents=("deck",), data_dir=root, out_dir=tmp_path / lang, lang=lang))
            texts[game] = _text(deck)
    # the translated words are printed, in the game whose faces build that sentence
    for game, words in {"fillory": ["Beschwöre", "Verbanne", " oder ", "– oder –"],
                        "mandragora": ["GIBT 1 FLUCH", "GIBT 2 FLÜCHE", "PUNKTE WERT", "ZAUBER"],
                        "barony-sorcery": ["kostet 1 Magiemarke", "kostet 2 Magiemarken", "Zauber 1/"],
                        "jsmn": ["Ansehen abwerfen", "· Karte ", "-Marke", "Braucht genau", "ZAUBERKUNST",
                                 "eine Person der Geschichte"]}.items():
        for word in words:
            assert word in german[game], (game, word)
    # and the English ones are gone from the German kit, while the English kit has them
    for key, (_word, gone) in SENTENCES.items():
        if gone is None:
            continue
        assert any(gone in printed for printed in english.values()), (key, gone)
        assert not any(gone in printed for printed in german.values()), (key, gone)
