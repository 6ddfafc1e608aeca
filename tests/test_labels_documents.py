"""Every word the print kit prints that is not game data comes from data/print/labels/<lang>.toml (issue 26),
in every document: card decks, reference sheets, score pads, boards, tiles, tokens, the map, the calibration
sheet and the proof sheets.

A pseudo-language rewrites every English label letter by letter ("Score sheet" -> "Šçóŕé šĥééţ", placeholders
and markup kept). Every document of every discovered game is built once in it; its PDFs' text may then hold
English only where the game's data prints it. Two checks, each against everything the data says (the data
files, the catalog's content and constants, what each card's face prints): no English word the data lacks, and
no phrase of the print code's own string literals (cardgen/render) that the data lacks: a label still written
in Python shows up as one or the other.
"""

from __future__ import annotations

import ast
import re
import shutil
import sys
import tomllib
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, Iterator

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from cardgen.catalog import load_game
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.catalog.versions import printed_record
from cardgen.cli import main
from cardgen.render import BuildError, BuildOptions, build
from cardgen.render.calibrate import render_calibration
from cardgen.render.labels import load_labels, use_labels
from cardgen.render.print_specs import load_print_specs
from cardgen.render.proof import proof
from cardgen.render.registry import print_kits

LANG = "xx"
RENDER_DIR = Path(build.__code__.co_filename).parent
# each letter that has an accented form in Latin Extended-A (which every text style draws) gets it
MAPPED = frozenset("acdeghijklnorstuwyz")
ACCENTED = "áçďéğĥíĵķĺñóŕšţúŵýžÁÇĎÉĞĤÍĴĶĹÑÓŔŠŢÚŴÝŽ"
PSEUDO = str.maketrans("acdeghijklnorstuwyzACDEGHIJKLNORSTUWYZ", ACCENTED)
UNDO = str.maketrans(ACCENTED, "acdeghijklnorstuwyzACDEGHIJKLNORSTUWYZ")
KEPT = re.compile(r"(\{\w+\}|</?(?:b|i|u|br|font|super|sub)\b[^>]*>|&\w+;)")  # placeholders, markup, entities
LABEL_LINE = re.compile(r'^([\w-]+ = ")((?:[^"\\]|\\.)*)("\s*)$', re.M)
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def pseudo(text: str) -> str:
    """``text`` with every letter outside placeholders and markup accented."""
    return "".join(part if KEPT.fullmatch(part) else part.translate(PSEUDO) for part in KEPT.split(text))


def _strings(value: Any, seen: set[int]) -> Iterator[str]:
    """Every string reachable from ``value`` through dataclass fields, mappings and sequences."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key, seen)
            yield from _strings(item, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _strings(item, seen)
    elif is_dataclass(value) and not isinstance(value, type) and id(value) not in seen:
        seen.add(id(value))
        for field in fields(value):
            yield from _strings(getattr(value, field.name, None), seen)


def _catalog_strings(content: Any) -> Iterator[str]:
    """The strings the game's catalog code defines at module level (kind names, symbol names...): game
    facts like the data's, which the faces print."""
    package = type(content).__module__.rsplit(".", 1)[0]
    for module_name, module in list(sys.modules.items()):
        if module is not None and (module_name == package or module_name.startswith(package + ".")):
            for name, value in vars(module).items():
                if not name.startswith("_") and isinstance(value, (str, dict, list, tuple)):  # not docstrings
                    yield from _strings(value, set())


def _data_texts(root: Path) -> list[str]:
    """Every data string: the data files, the catalog's content and constants, and every card's printed
    record (what its face prints, labels and the label words it draws left out)."""
    texts: list[str] = []
    for path in root.rglob("*.toml"):
        if path.parent.name != "labels":
            texts += _strings(tomllib.loads(path.read_text(encoding="utf-8")), set())
    for game in print_kits():
        content = load_game(game, root)
        texts += _strings(content, set())
        texts += _catalog_strings(content)
        for card in content.cards:
            record = printed_record(card, content)
            record.pop("labels", None)
            record.pop("words", None)  # the label words its faces draw (its version's): labels, not data
            texts += _strings(record, set())
    return texts


def _words(texts: list[str]) -> set[str]:
    return {word.lower() for text in texts for word in WORD.findall(text)}


def _corpus(texts: list[str]) -> str:
    return "\n".join(_flat(text) for text in texts)


def _flat(text: str) -> str:
    return " ".join(text.lower().split())


def _code_phrases() -> set[str]:
    """The phrases of the print code's string literals (f-strings split at their fields): what a label still
    written in Python would print."""
    phrases: set[str] = set()
    for path in Path(RENDER_DIR).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                phrases.update(_flat(part) for part in KEPT.split(node.value) if not KEPT.fullmatch(part))
    return {p for p in phrases if any(_english(w) and len(w) > 2 for w in WORD.findall(p))}


def _english(word: str) -> bool:
    """An unaccented word of two letters or more that the pseudo-language would have changed."""
    return len(word) > 1 and word.isascii() and any(c in MAPPED for c in word.lower())


def leftovers(text: str, words: set[str]) -> set[str]:
    """The English words of ``text`` that no data string has."""
    return {word for word in WORD.findall(text) if _english(word) and word.lower() not in words}


def phrase_finder(phrases: set[str], corpus: str) -> re.Pattern[str]:
    """A pattern for the ``phrases`` that no data string has, as whole words (lower case, spaces collapsed)."""
    kept = sorted((p for p in phrases if p not in corpus), key=len, reverse=True)
    return re.compile(r"(?<![^\W_])(?:" + "|".join(map(re.escape, kept)) + r")(?![^\W_])")


def printed_phrases(text: str, finder: re.Pattern[str]) -> set[str]:
    """The phrases of ``finder`` that ``text`` prints."""
    return set(finder.findall(_flat(text)))


def _text(pdf: Path) -> str:
    """The PDF's text, page by page (pdfium: a hundred times faster than pypdf on the decks)."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


def _pseudo_data(root: Path) -> int:
    """Copy the project's data to ``root`` with a labels file in the pseudo-language; returns its label count."""
    shutil.copytree(DEFAULT_DATA_DIR, root)
    english = (root / "print" / "labels" / "en.toml").read_text(encoding="utf-8")
    translated, count = LABEL_LINE.subn(lambda m: m.group(1) + pseudo(m.group(2)) + m.group(3), english)
    (root / "print" / "labels" / f"{LANG}.toml").write_text(translated, encoding="utf-8")
    return count


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Every document of every discovered game, the calibration sheet and one game's proof sheets, built
    once in the pseudo-language, with their text, and the data's words."""
    tmp = tmp_path_factory.mktemp("pseudo")
    root = tmp / "data"
    count = _pseudo_data(root)
    out = tmp / "out"
    pdfs = build(BuildOptions(game="all", data_dir=root, out_dir=out, lang=LANG))
    calibration = out / "calibration.pdf"
    use_labels(load_labels(root, LANG))
    render_calibration(calibration, load_print_specs(root).paper("A4"))
    # the proof sheets' own words are the same for every game: one game's (the first discovered) prove them
    proofs = proof(BuildOptions(game=next(iter(print_kits())), data_dir=root, out_dir=out / "proof", lang=LANG))
    yield {"root": root, "count": count, "pdfs": [*pdfs, calibration, *proofs],
           "texts": {pdf: _text(pdf) for pdf in [*pdfs, calibration, *proofs]}, "data": _data_texts(root)}
    use_labels(load_labels())  # the process prints English again


def test_the_pseudo_language_rewrites_every_label(kit: dict[str, Any]) -> None:
    english = load_labels()
    translated = load_labels(kit["root"], LANG)  # the loader's own check: every key, the same placeholders
    assert kit["count"] == sum(len(keys) for keys in english.values())
    for section, keys in english.items():
        for key, text in keys.items():
            if any(c in MAPPED for c in KEPT.sub("", text).lower()):
                assert translated[section][key] != text, (section, key)


def test_every_document_of_every_game_prints_no_english_label(kit: dict[str, Any]) -> None:
    built = {(pdf.parent.name, pdf.stem) for pdf in kit["pdfs"]}
    for game, printed in print_kits().items():
        for document in printed.documents:
            assert (game, Path(document.filename).stem) in built, (game, document.name)
    words, phrases = _words(kit["data"]), _code_phrases()
    assert len(phrases) > 100  # the print code's literals: ids, font names, messages... and any label left
    finder = phrase_finder(phrases, _corpus(kit["data"]))
    found = {str(pdf.relative_to(pdf.parents[1])): sorted(leftovers(text, words) | printed_phrases(text, finder))
             for pdf, text in kit["texts"].items()}
    assert {pdf: left for pdf, left in found.items() if left} == {}
    # and the pseudo-language's words are there, in every document
    for pdf, text in kit["texts"].items():
        assert re.search(f"[{ACCENTED}]", text), pdf


def test_the_checks_find_english_labels_where_they_are_printed(kit: dict[str, Any]) -> None:
    """The same checks find the labels themselves in the same PDFs read back in English (the pseudo-language
    undone): a label printed from Python would be found the same way."""
    words, corpus = _words(kit["data"]), _corpus(kit["data"])
    phrases = {_flat(part) for keys in load_labels().values() for text in keys.values()
               for part in KEPT.split(text) if not KEPT.fullmatch(part)}
    phrases = {p for p in phrases if any(_english(w) and len(w) > 2 for w in WORD.findall(p))}
    finder, every = phrase_finder(phrases, corpus), phrase_finder(phrases, "")
    printed: set[str] = set()
    caught: set[str] = set()
    flagged = 0
    for text in kit["texts"].values():
        english = text.translate(UNDO)
        caught |= printed_phrases(english, finder)
        printed |= printed_phrases(english, every)
        flagged += bool(leftovers(english, words) | printed_phrases(english, finder))
    # most label phrases are phrases the data never prints (256 of 415 in December 2026; the rest, such as
    # "MAGIC", "Total" or "black magic", the data prints too)
    assert len(caught) >= 0.55 * len(printed) and len(printed) > 200, (len(caught), len(printed))
    assert flagged >= 0.9 * len(kit["texts"]), (flagged, len(kit["texts"]))


def test_a_language_file_missing_a_document_label_is_refused_by_name(kit: dict[str, Any], tmp_path: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(kit["root"] / "print", root / "print")
    path = root / "print" / "labels" / f"{LANG}.toml"
    text, count = re.subn(r'^retold = "[^"]*"\n', "", path.read_text(encoding="utf-8"), count=1, flags=re.M)
    assert count == 1
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BuildError, match=rf"--lang {LANG}: .*{LANG}\.toml: \[document\]: field 'retold': missing"):
        build(BuildOptions(game="all", data_dir=root, out_dir=tmp_path / "out", lang=LANG))
    assert not (tmp_path / "out").exists()
    result = CliRunner().invoke(main, ["check", "--data", str(root)])
    assert result.exit_code == 1 and "[document]: field 'retold': missing" in result.output, result.output
    result = CliRunner().invoke(main, ["calibrate", "--lang", LANG, "--out", str(tmp_path / "cal")],
                                env={"SPELLBOOK_DATA": str(root)})
    assert result.exit_code != 0 and "[document]: field 'retold': missing" in result.output, result.output
