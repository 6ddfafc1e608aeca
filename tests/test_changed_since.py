"""``cardgen build --changed-since DIR``: only the cards whose content version changed since the kit in
DIR, every deck's together, on as few sheets as the paper allows; the kit's card manifest."""

from __future__ import annotations

import json
import math
import re
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.catalog import content, load_game
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.catalog.versions import card_version
from cardgen.cli import main
from cardgen.render import BuildError, BuildOptions, build
from cardgen.render.changed import MANIFEST, build_changed

MARK = "Zqx"
MM = 72 / 25.4


def _data(tmp_path: Path, game: str) -> Path:
    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "print", root / "print")
    shutil.copytree(DEFAULT_DATA_DIR / game, root / game)
    return root


def _rename(path: Path, count: int) -> list[str]:
    """Give the first ``count`` records of a data file a new name; returns the new names."""
    text = path.read_text(encoding="utf-8")
    names: list[str] = []

    def renamed(match: re.Match[str]) -> str:
        if len(names) >= count:
            return match.group(0)
        names.append(f"{match.group(1)} {MARK}")
        return f'name = "{names[-1]}"'
    path.write_text(re.sub(r'^name = "([^"]+)"', renamed, text, flags=re.M), encoding="utf-8")
    assert len(names) == count
    return names


def _options(root: Path, out: Path, **extra: object) -> BuildOptions:
    return BuildOptions(game="jsmn", data_dir=root, out_dir=out, documents=("deck",),
                        base_url="http://192.168.1.20:8000", **extra)  # type: ignore[arg-type]


def test_the_manifest_lists_every_card_of_every_deck_at_its_content_version(tmp_path: Path) -> None:
    build(BuildOptions(game="jsmn", out_dir=tmp_path, documents=("deck",)))
    data = json.loads((tmp_path / "jsmn" / MANIFEST).read_text(encoding="utf-8"))
    jsmn = content("jsmn")
    assert data["format"] == 1 and data["game"] == "jsmn"
    assert len(data["cards"]) == len(jsmn.cards) == 189
    versions = {c.id: card_version(c) for c in jsmn.cards}
    assert {c["id"]: c["version"] for c in data["cards"]} == versions
    assert {c["deck"] for c in data["cards"]} == {"invitation", "introduction", "feat", "spell", "connexion", "book",
                                                 "marseilles"}


def test_changed_cards_of_a_portrait_and_a_landscape_deck_share_one_sheet(tmp_path: Path) -> None:
    root = _data(tmp_path, "jsmn")
    build(_options(root, tmp_path / "old"))
    new_names = _rename(root / "jsmn" / "invitations.toml", 5) + _rename(root / "jsmn" / "feats.toml", 4)
    [result] = build_changed(_options(root, tmp_path / "new"), tmp_path / "old")
    assert len(result.changed) == 9 and result.total == 189
    assert {deck for deck, _ in result.changed} == {"invitation", "feat"}
    assert result.path == tmp_path / "new" / "jsmn" / "changed.pdf"
    reader = PdfReader(result.path)
    assert len(reader.pages) == result.pages == 2          # one sheet, front and duplex back
    front = reader.pages[0].extract_text()
    assert front.count(MARK) == 9
    for name in new_names:
        assert name.split()[0] in front
    # every card on the sheet is a poker card's footprint; the feats lie sideways in portrait slots
    trim = reader.pages[0].trimbox
    assert float(trim.width) / MM == pytest.approx(3 * 63, abs=0.01)
    assert float(trim.height) / MM == pytest.approx(3 * 88, abs=0.01)
    # and today's manifest is written, so an immediate second reprint has nothing to do
    [again] = build_changed(_options(root, tmp_path / "newer"), tmp_path / "new")
    assert again.changed == [] and again.path is None and not (tmp_path / "newer" / "jsmn" / "changed.pdf").exists()


def test_ten_changed_cards_take_two_sheets_and_a_new_card_counts_as_changed(tmp_path: Path) -> None:
    root = _data(tmp_path, "jsmn")
    build(_options(root, tmp_path / "old"))
    manifest = tmp_path / "old" / "jsmn" / MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["cards"] = data["cards"][1:]                        # the old kit did not have the first card
    manifest.write_text(json.dumps(data), encoding="utf-8")
    _rename(root / "jsmn" / "introductions.toml", 9)
    [result] = build_changed(_options(root, tmp_path / "new", duplex=False), tmp_path / "old")
    assert len(result.changed) == 10
    assert len(PdfReader(result.path).pages) == result.pages == 2 * math.ceil(10 / 9)


def test_without_a_manifest_the_reprint_names_the_missing_file(tmp_path: Path) -> None:
    (tmp_path / "old" / "jsmn").mkdir(parents=True)
    with pytest.raises(BuildError, match=r"old/jsmn/cards\.json not found"):
        build_changed(_options(DEFAULT_DATA_DIR, tmp_path / "new"), tmp_path / "old")
    (tmp_path / "old" / "jsmn" / MANIFEST).write_text("{not json", encoding="utf-8")
    with pytest.raises(BuildError, match="cannot read the card manifest"):
        build_changed(_options(DEFAULT_DATA_DIR, tmp_path / "new"), tmp_path / "old")
    assert not (tmp_path / "new" / "jsmn" / "changed.pdf").exists()


def test_the_command_says_what_changed_per_game(tmp_path: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, root)
    runner = CliRunner()
    first = runner.invoke(main, ["build", "--data", str(root), "--out", str(tmp_path / "old"), "--only", "deck",
                                 "--base-url", "http://192.168.1.20:8000"])
    assert first.exit_code == 0, first.output
    old_cards = {c.id: c for c in load_game("fillory", root).cards}
    _rename(root / "fillory" / "cards.toml", 2)
    fillory = load_game("fillory", root)
    # the renamed cards, and every card whose ability names one of them ("Summon Julia, Alice or Penny")
    renamed = {c.id for c in fillory.cards if c.name != old_cards[c.id].name}
    naming = {c.id for c in fillory.cards if fillory.ability_text(c) != load_game("fillory", DEFAULT_DATA_DIR).ability_text(c)}
    expected = len(renamed | naming)
    assert len(renamed) == 2 and expected > 2
    done = runner.invoke(main, ["build", "--data", str(root), "--out", str(tmp_path / "new"),
                                "--changed-since", str(tmp_path / "old"), "--base-url", "http://192.168.1.20:8000"])
    assert done.exit_code == 0, done.output
    assert f"fillory: {expected} of 110 cards changed since" in done.output
    assert f"({2 * math.ceil(expected / 9)} pages" in done.output
    assert "jsmn: no card changed since" in done.output
    assert sorted(p.name for p in (tmp_path / "new" / "fillory").iterdir()) == ["cards.json", "changed.pdf"]


def test_a_reprint_encodes_the_codes_of_the_changed_cards_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card's faces are made to compare versions; only the drawn (changed) cards' QR codes are encoded."""
    from cardgen.render import qr

    root = _data(tmp_path, "jsmn")
    build(_options(root, tmp_path / "old"))
    _rename(root / "jsmn" / "invitations.toml", 3)
    qr.qr_matrix.cache_clear()  # type: ignore[attr-defined]
    encoded: list[str] = []
    real_encode = qr.encode

    def counting(payload: str) -> qr.QrMatrix:
        encoded.append(payload)
        return real_encode(payload)
    monkeypatch.setattr(qr, "encode", counting)
    [result] = build_changed(_options(root, tmp_path / "new"), tmp_path / "old")
    assert len(result.changed) == 3 and result.total == 189
    assert sorted(encoded) == sorted(qr.card_url("http://192.168.1.20:8000", "jsmn", card.card_id, card.version)
                                     for _deck, card in result.changed)


def test_a_game_whose_inputs_are_unchanged_is_not_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The manifest keeps a digest of what its cards were made from (the game's data files, the print labels,
    the code); a reprint reads only the games whose digest differs, and keeps the others' manifests."""
    from cardgen.catalog import catalogs
    from cardgen.render import print_kits

    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, root)
    games = [game for game, kit in print_kits().items() if kit.deck_faces is not None and (root / game).is_dir()]
    assert len(games) >= 2
    build(BuildOptions(game="all", data_dir=root, out_dir=tmp_path / "old", documents=("deck",),
                       base_url="http://192.168.1.20:8000"))
    old = {game: (tmp_path / "old" / game / MANIFEST).read_bytes() for game in games}
    assert all(json.loads(text)["inputs"] for text in old.values())
    read: list[str] = []
    for game in games:
        catalog = catalogs()[game]

        def counting(folder: Path, load: object = catalog.load, game: str = game) -> object:
            read.append(game)
            return load(folder)  # type: ignore[operator]
        monkeypatch.setitem(catalogs(), game, replace(catalog, load=counting))

    def reprint(out: str) -> dict[str, object]:
        results = build_changed(replace(_options(root, tmp_path / out), game="all"), tmp_path / "old")
        assert all(r.changed == [] and r.path is None for r in results)   # no edit changed a printed card
        return {r.game: r.total for r in results}

    # nothing edited: no game is read, every manifest is the old one
    totals = reprint("same")
    assert read == [] and list(totals) == games
    assert all((tmp_path / "same" / g / MANIFEST).read_bytes() == old[g] for g in games)
    assert all(totals[g] == len(json.loads(old[g])["cards"]) for g in games)
    # a comment added to one game's data changes its digest only: that game is read (its cards compared)
    first = sorted((root / games[0]).glob("*.toml"))[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    reprint("one")
    assert read == games[:1]
    written = json.loads((tmp_path / "one" / games[0] / MANIFEST).read_text(encoding="utf-8"))
    assert written["inputs"] != json.loads(old[games[0]])["inputs"] and written["cards"] == json.loads(old[games[0]])["cards"]
    # the print labels are printed on every game's cards; a manifest without a digest (an older kit) is read
    read.clear()
    labels = root / "print" / "labels" / "en.toml"
    labels.write_text(labels.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    reprint("labels")
    assert sorted(read) == sorted(games)
    first.write_text(first.read_text(encoding="utf-8").removesuffix("\n# a note\n"), encoding="utf-8")
    labels.write_text(labels.read_text(encoding="utf-8").removesuffix("\n# a note\n"), encoding="utf-8")
    read.clear()
    stale = tmp_path / "old" / games[1] / MANIFEST
    stale.write_text(json.dumps({k: v for k, v in json.loads(old[games[1]]).items() if k != "inputs"}), encoding="utf-8")
    reprint("older")
    assert read == games[1:2]


def test_a_kit_printed_before_versions_read_their_faces_words_reprints_only_the_cards_whose_face_changed(
        tmp_path: Path) -> None:
    """Its manifest (no language recorded, the labels digest of then) lists the versions pinned for each game:
    the reprint takes only the cards whose version today is another (the feats whose plural was fixed), not
    every card because a label changed (it took all 189 JS&MN cards)."""
    from cardgen.render import plan_build, print_kits
    from cardgen.render.changed import _decks, manifest

    games = [g for g, kit in print_kits().items() if kit.deck_faces is not None]
    pinned_games = 0
    for game in games:
        catalog = content(game)
        path = Path(sys.modules[type(catalog).__module__].__file__ or "").with_name("versions_before_words.json")
        if not path.is_file():
            continue
        pins = json.loads(path.read_text(encoding="utf-8"))
        pinned_games += 1
        out = tmp_path / game
        options = replace(_options(DEFAULT_DATA_DIR, out / "new"), game=game)
        plan = plan_build(options)
        [item] = [i for i in plan.documents if i.document.name == "deck"]
        old = manifest(game, _decks(plan, item, codes_when_drawn=True))
        del old["lang"]
        old["labels"] = pins["labels"]
        for card in old["cards"]:
            card["version"] = pins["cards"][card["id"]][0]
        (out / "old" / game).mkdir(parents=True)
        (out / "old" / game / MANIFEST).write_text(json.dumps(old), encoding="utf-8")
        [result] = build_changed(options, out / "old")
        expected = {c.id for c in catalog.cards if card_version(c) != pins["cards"][c.id][0]}
        assert {card.card_id for _, card in result.changed} == expected, game
        assert len(expected) < result.total, game
    assert pinned_games == len(games)
