"""A card's version is the hash of what its face and back print (issue 26): an edit of a *related* record (a
Mandragora spell's text, a Fillory trick, a JS&MN map location's name, a Barony category's name) changes the
version of exactly the cards that print it, which ``cardgen build --changed-since`` reprints and whose card
page, opened from the old print's QR code, says the card has changed.

The oracle is the drawing itself: every card's front and back drawn before and after the edit (with one fixed
QR code) and compared; the cards whose drawing changed must be the cards whose version changed."""

from __future__ import annotations

import dataclasses
import io
import re
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest
from flask.testing import FlaskClient
from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog import load_game
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.catalog.versions import card_version
from cardgen.render import BuildOptions, build
from cardgen.render.changed import build_changed
from cardgen.render.options import resolve
from cardgen.render.print_specs import load_print_specs
from cardgen.render.qr import qr_matrix
from cardgen.render.registry import print_kits

FIXED_QR = qr_matrix("http://example.invalid/c/x")


def _data(tmp_path: Path, game: str) -> Path:
    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "print", root / "print")
    shutil.copytree(DEFAULT_DATA_DIR / game, root / game)
    return root


def _drawings(game: str, root: Path) -> dict[str, bytes]:
    """Each card's front and back drawn alone (the QR code fixed), by card id."""
    catalog = load_game(game, root)
    resolved = resolve(BuildOptions(game=game, data_dir=root), load_print_specs(root))
    kit = print_kits()[game]
    assert kit.deck_faces is not None
    drawn: dict[str, bytes] = {}
    for deck in kit.deck_faces(catalog, resolved):
        for card in deck.cards:
            out = io.BytesIO()
            canvas = Canvas(out, invariant=1, pageCompression=0)
            dataclasses.replace(card.front, qr=FIXED_QR).draw(canvas, 3.0)  # type: ignore[type-var]
            canvas.showPage()
            card.back.draw(canvas, 3.0)
            canvas.save()
            drawn[card.card_id] = out.getvalue()
    return drawn


def _versions(game: str, root: Path) -> dict[str, str]:
    return {c.id: card_version(c) for c in load_game(game, root).cards}


def _sub(path: Path, pattern: str, replacement: str) -> None:
    text = path.read_text(encoding="utf-8")
    new, count = re.subn(pattern, replacement, text, count=1, flags=re.M | re.S)
    assert count == 1, pattern
    path.write_text(new, encoding="utf-8")


def _spell_text(root: Path) -> set[str]:
    _sub(root / "mandragora" / "spells.toml", r'(id = "banishment".*?\ntext = ")[^"]*"', r'\1Send one cursed scroll of yours back to the box."')
    return {c.id for c in load_game("mandragora", root).cards if c.spell == "banishment"}


def _trick_text(root: Path) -> set[str]:
    _sub(root / "fillory" / "traits.toml", r'(name = "Fillory"\ntrick = \{[^}]*text = ")[^"]*"', r'\1Score 1 victory point now."')
    return {c.id for c in load_game("fillory", root).cards if "Fillory" in c.traits}


def _location_name(root: Path) -> set[str]:
    _sub(root / "jsmn" / "map.toml", r'(id = "westminster"\nname = ")[^"]*"', r'\1Palace of Westminster"')
    return {c.id for c in load_game("jsmn", root).cards if getattr(c, "location", None) == "westminster"}


def _category_name(root: Path) -> set[str]:
    catalog = load_game("barony-sorcery", root)
    first = catalog.categories[0]
    _sub(root / "barony-sorcery" / "game.toml", rf'(id = "{first.id}"\nname = ")[^"]*"', r'\1Arcana"')
    return {c.id for c in catalog.cards if c.category == first.id}


def _location_position(root: Path) -> set[str]:
    """A map location moved (latitude): the poster changes, no card does."""
    _sub(root / "jsmn" / "map.toml", r'(id = "westminster"\nname = "[^"]*"\nregion = "city"\nlat = )[0-9.]+', r'\g<1>51.5')
    return set()


EDITS: list[tuple[str, Callable[[Path], set[str]], int]] = [
    ("mandragora", _spell_text, 4), ("fillory", _trick_text, 17), ("jsmn", _location_name, 0),
    ("barony-sorcery", _category_name, 0), ("jsmn", _location_position, 0)]


@pytest.mark.parametrize(("game", "edit", "count"), EDITS, ids=[e[1].__name__.strip("_") for e in EDITS])
def test_an_edit_of_a_related_record_changes_the_version_of_exactly_the_cards_that_print_it(
        tmp_path: Path, game: str, edit: Callable[[Path], set[str]], count: int) -> None:
    root = _data(tmp_path, game)
    before_versions, before_drawn = _versions(game, root), _drawings(game, root)
    affected = edit(root)
    after_versions, after_drawn = _versions(game, root), _drawings(game, root)
    if count:
        assert len(affected) == count
    drawn_changed = {c for c in before_drawn if before_drawn[c] != after_drawn[c]}
    version_changed = {c for c in before_versions if before_versions[c] != after_versions[c]}
    assert drawn_changed == affected, "the edit changes the drawing of exactly these cards"
    assert version_changed == affected


@pytest.mark.parametrize(("game", "edit"), [(g, e) for g, e, _ in EDITS[:4]], ids=[e[1].__name__.strip("_") for e in EDITS[:4]])
def test_the_reprint_and_the_card_page_see_the_edit(tmp_path: Path, client: FlaskClient,
                                                      monkeypatch: pytest.MonkeyPatch, game: str,
                                                      edit: Callable[[Path], set[str]]) -> None:
    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, root)  # the companion serves every game from SPELLBOOK_DATA
    options = BuildOptions(game=game, data_dir=root, out_dir=tmp_path / "old", documents=("deck",),
                           base_url="http://192.168.1.20:8000")
    build(options)
    old = _versions(game, root)
    affected = edit(root)
    [result] = build_changed(dataclasses.replace(options, out_dir=tmp_path / "new"), tmp_path / "old")
    assert {card.card_id for _, card in result.changed} == affected
    assert result.path is not None and result.pages >= 1
    monkeypatch.setenv("SPELLBOOK_DATA", str(root))
    unaffected = next(c for c in old if c not in affected)
    for card_id in sorted(affected)[:3] + [unaffected]:
        page = client.get(f"/c/{game}/{card_id}?v={old[card_id]}").get_data(as_text=True)
        assert ("This card has changed since your print." in page) == (card_id in affected), card_id


def test_a_bound_card_and_its_catalog_give_one_version(tmp_path: Path) -> None:
    root = _data(tmp_path, "fillory")
    catalog = load_game("fillory", root)
    card: Any = catalog.cards[0]
    assert card_version(card) == card_version(card, catalog)
    loose = dataclasses.replace(card)   # a card no content holds: versioned from its own record
    assert card_version(loose) != card_version(card)
    assert card_version(loose, catalog) == card_version(card)


# -- the labels a version includes: the words the card's own faces draw --------------------------------------

class _Reads(dict):  # type: ignore[type-arg]
    """A labels section that notes which keys are read."""

    def __init__(self, section: str, words: dict[str, str], read: set[tuple[str, str]]) -> None:
        super().__init__(words)
        self.section, self.read = section, read

    def __getitem__(self, key: str) -> str:
        self.read.add((self.section, key))
        return str(super().__getitem__(key))


def _labels_read(game: str, root: Path) -> dict[str, set[tuple[str, str]]]:
    """(section, key) of every label each card's front and back read while drawn, by card id."""
    from cardgen.render import labels

    catalog = load_game(game, root)
    resolved = resolve(BuildOptions(game=game, data_dir=root), load_print_specs(root))
    kit = print_kits()[game]
    assert kit.deck_faces is not None
    read: set[tuple[str, str]] = set()
    table = {section: _Reads(section, words, read) for section, words in labels.load_labels(root).items()}
    found: dict[str, set[tuple[str, str]]] = {}
    active = list(labels._active)
    labels.use_labels(table)
    try:
        for deck in kit.deck_faces(catalog, resolved):
            for card in deck.cards:
                read.clear()
                dataclasses.replace(card.front, qr=FIXED_QR).draw(Canvas(io.BytesIO()), 3.0)  # type: ignore[type-var]
                card.back.draw(Canvas(io.BytesIO()), 3.0)
                found[card.card_id] = set(read)
    finally:
        labels._active[:] = active
    return found


def _edit_label(root: Path, section: str, key: str) -> None:
    path = root / "print" / "labels" / "en.toml"
    text = path.read_text(encoding="utf-8")
    head = text.index(f"[{section}]\n")
    new, count = re.subn(rf'^({re.escape(key)} = "[^"\n]*?)"', r'\1 Zqx"', text[head:], count=1, flags=re.M)
    assert count == 1, (section, key)
    path.write_text(text[:head] + new, encoding="utf-8")


@pytest.mark.parametrize("game", [g for g, kit in print_kits().items() if kit.deck_faces is not None])
def test_a_label_edit_changes_the_version_of_exactly_the_cards_that_draw_it(tmp_path: Path, game: str) -> None:
    """The label of the game's cards that the fewest of them draw (but some do) is edited: exactly the cards whose
    drawing changed get a new version (the versions once digested every label: every card changed)."""
    root = _data(tmp_path, game)
    read = _labels_read(game, root)
    keys = {key for found in read.values() for key in found}
    drawn_by = {key: {card for card, found in read.items() if key in found} for key in keys}
    key = min((k for k in keys if len(drawn_by[k]) < len(read)), key=lambda k: (len(drawn_by[k]), k))
    before_versions, before_drawn = _versions(game, root), _drawings(game, root)
    _edit_label(root, *key)
    after_versions, after_drawn = _versions(game, root), _drawings(game, root)
    drawn_changed = {c for c in before_drawn if before_drawn[c] != after_drawn[c]}
    version_changed = {c for c in before_versions if before_versions[c] != after_versions[c]}
    assert drawn_changed == drawn_by[key], key
    assert version_changed == drawn_changed and 0 < len(version_changed) < len(before_versions), key


def test_the_words_a_version_reads_are_the_words_a_page_draws() -> None:
    """The versions read the words off faces drawn on a canvas that paints nothing (a quarter of the cost):
    they are the words drawn on a real page, for every card of every game, at each face profile's size."""
    from reportlab.pdfgen.canvas import Canvas as RealCanvas

    from cardgen.catalog import content
    from cardgen.render import face_words

    real = face_words.ScratchCanvas
    games = [g for g, kit in print_kits().items() if kit.deck_faces is not None]
    for game in games:
        catalog = content(game)
        scratch = {c.id: face_words.printed_words(catalog, c) for c in catalog.cards}
        try:
            face_words.ScratchCanvas = lambda: RealCanvas(io.BytesIO())  # type: ignore[assignment,misc]
            drawn = {c.id: face_words.printed_words(catalog, c) for c in catalog.cards[::7]}
        finally:
            face_words.ScratchCanvas = real  # type: ignore[misc]
        assert all(scratch[c] == drawn[c] and drawn[c] for c in drawn), game
