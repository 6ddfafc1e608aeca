"""Printed labels come from data/print/labels/<lang>.toml, chosen with --lang (issue 26): English ships; a
second language's file changes the words on the cards and the sheet captions with no code edit.

These checks iterate the discovered games (what a game's faces build from the labels, each game declares:
``GameTraits.label_sentences``, tests/game_traits.py); a game's own checks are in its files
(tests/test_labels_fillory.py)."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest
from game_traits import traits_for
from pdf_checks import document_text

from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.render import BuildOptions, build
from cardgen.render.labels import load_labels
from cardgen.render.registry import print_kits
from companion.rules import SPECS


def test_english_ships_with_every_section_the_faces_read() -> None:
    english = load_labels()
    assert {"sheet", "card"} <= set(english)
    # the rest: a game's own faces ([<game>]) or one of its documents ([<game>-<document>]), or what every kit
    # shares (the reference documents, the calibration, proof and changed-cards sheets)
    shared = {"sheet", "card", "document", "calibrate", "proof", "changed"}
    kits = set(print_kits())
    strays = [section for section in set(english) - shared
              if section not in kits and not any(section.startswith(f"{kit}-") for kit in kits)]
    assert strays == [], f"sections for a game that is not there: {strays}"
    raw = tomllib.loads((DEFAULT_DATA_DIR / "print" / "labels" / "en.toml").read_text(encoding="utf-8"))
    assert raw == english


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


#: the games whose decks build sentences round the data from the labels (each declares which, and their words)
LABELLED = sorted(game for game in print_kits() if game in SPECS and traits_for(game).label_sentences)


@pytest.fixture(scope="module")
def translated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data folder with a German labels file holding :data:`SENTENCES`."""
    root = tmp_path_factory.mktemp("labels") / "data"
    shutil.copytree(DEFAULT_DATA_DIR, root)
    text = (root / "print" / "labels" / "en.toml").read_text(encoding="utf-8")
    for key, (word, _english) in SENTENCES.items():
        text, count = re.subn(rf'^{key} = "[^"]*"$', f'{key} = "{word}"', text, count=1, flags=re.M)
        assert count == 1, key
    (root / "print" / "labels" / "de.toml").write_text(text, encoding="utf-8")
    return root


def test_every_sentence_with_english_words_is_printed_by_a_game() -> None:
    """Each sentence whose English words the German kit must lose is declared by a discovered game (so the
    check below ran on a kit that prints it)."""
    declared = {key for game in LABELLED for key in traits_for(game).label_sentences}
    assert declared <= set(SENTENCES)
    assert {key for key, (_word, gone) in SENTENCES.items() if gone is not None} <= declared


@pytest.mark.parametrize("game", LABELLED)
def test_sentences_built_round_the_data_come_from_the_labels(translated: Path, tmp_path: Path, game: str) -> None:
    printed = {}
    for lang in ("en", "de"):
        [deck] = build(BuildOptions(game=game, documents=("deck",), data_dir=translated, out_dir=tmp_path / lang,
                                    lang=lang))
        printed[lang] = document_text(deck)
    for key, word in traits_for(game).label_sentences.items():
        assert word in printed["de"], (key, word)  # the translated words are printed
        gone = SENTENCES[key][1]
        assert gone is None or gone in printed["en"], (key, gone)  # the English kit has the English ones
    for key, (_word, gone) in SENTENCES.items():  # and no English one is left in the German kit
        assert gone is None or gone not in printed["de"], (key, gone)


def test_every_count_with_a_word_after_it_has_a_one_and_an_other_form() -> None:
    """printing.md: "A number with a word after it has two labels, KEY_one (for 1) and KEY_other" (the print
    audit found "Needs exactly 1 birds" on JS&MN's feats, from a label with one form). Every section of every
    game, the documents' included."""
    english = load_labels()
    uncounted = "prestige|magicianship"  # what a number of reads the same for 1 ("1 prestige", "2 prestige")
    single = [f"[{section}] {key}: {text}" for section, words in english.items() for key, text in words.items()
              if re.search(rf"\{{count\}}(</b>)?\s+(?!of\b|(?i:{uncounted})\b)[{{\w]", text)
              and not re.search(r"_(one|other)$", key)]
    assert single == []
    for section, words in english.items():
        for key, text in words.items():
            stem, form = key.rpartition("_")[::2]
            if stem and (form == "other" or (form == "one" and "{count}" in text)):
                assert f"{stem}_one" in words and f"{stem}_other" in words, (section, key)


def test_a_label_asked_for_with_a_count_reads_the_form_for_that_count() -> None:
    from cardgen.render.labels import counted, label, use_labels

    use_labels(load_labels())
    section, stem = next((s, k[:-4]) for s, words in load_labels().items() for k in words if k.endswith("_one"))
    for count in (1, 2, 0):
        assert label(section, stem, count=count) == counted(section, stem, count)
    assert label(section, stem, count=1) != label(section, stem, count=2)
