"""Reprints after a data change: the card manifest of a kit and ``cardgen build --changed-since DIR``.

Every build that writes a game's deck also writes ``OUT/<game>/cards.json``, the manifest: each card's
deck, id and content version (the ``?v=`` its QR code carries, :func:`cardgen.catalog.versions.card_version`).
``build_changed(options, DIR)`` compares today's cards with the manifest in ``DIR`` and writes
``OUT/<game>/changed.pdf`` holding only the cards that are new or whose version differs: the changed
cards of all the game's decks together, each with its own back, on as few sheets as the paper allows
(cards of one size share sheets whatever their deck or orientation: a landscape card goes sideways
into a portrait slot). It then writes the manifest of today's cards into ``OUT``: the old print with
these cards swapped in is today's deck, so the next reprint compares against it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from cardgen.catalog.versions import pinned_labels_digest

from .build import (
    BuildPlan,
    PlannedDocument,
    code_cache_path,
    make_folder,
    plan_build,
    write_atomically,
)
from .export_faces import CardFaces, DeckFaces
from .imposition import ImpositionSettings, impose, sheet_label
from .labels import DEFAULT_LANG, face_labels_digest, label
from .options import BuildError, BuildOptions, language_labels
from .pdf import new_canvas
from .print_specs import CardSize
from .qr import deferred_codes, disk_cache
from .registry import print_kits

MANIFEST = "cards.json"
MANIFEST_FORMAT = 1
CHANGED_FILE = "changed.pdf"


def _decks(plan: BuildPlan, item: PlannedDocument, *, codes_when_drawn: bool = False) -> list[DeckFaces]:
    """The game's decks as faces; ``codes_when_drawn``: their QR codes encoded only when a face is drawn
    (a reprint compares every card's version and draws only the changed ones)."""
    kit = print_kits()[item.game]
    if kit.deck_faces is None:
        return []
    if codes_when_drawn:
        with deferred_codes():
            return list(kit.deck_faces(item.content, plan.resolved))
    with disk_cache(code_cache_path(plan, item)):  # the codes the deck's build just encoded
        return list(kit.deck_faces(item.content, plan.resolved))


def manifest(game: str, decks: list[DeckFaces], inputs: str | None = None,
             lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """A game's card manifest: format, game, the digest of what the cards were made from (``inputs``, see
    :func:`~cardgen.render.build.inputs_digest`; left out when unknown), the printed language and the digest
    of its face labels (:func:`~cardgen.render.labels.face_labels_digest`) and, deck by deck, each card's id
    and content version."""
    found: dict[str, Any] = {"format": MANIFEST_FORMAT, "game": game}
    if inputs is not None:
        found["inputs"] = inputs
    found["lang"] = lang
    found["labels"] = face_labels_digest(game)
    found["cards"] = [{"deck": deck.name, "id": card.card_id, "version": card.version}
                      for deck in decks for card in deck.cards]
    return found


def write_manifest(path: Path, game: str, decks: list[DeckFaces], inputs: str | None = None,
                   lang: str = DEFAULT_LANG) -> Path:
    return _write_text(path, json.dumps(manifest(game, decks, inputs, lang), indent=1, ensure_ascii=False) + "\n")


def _write_text(path: Path, text: str) -> Path:
    make_folder(path.parent)
    write_atomically(path, lambda partial: partial.write_text(text, encoding="utf-8"))
    return path


def write_deck_manifest(plan: BuildPlan, item: PlannedDocument) -> Path:
    """The manifest of the game whose deck ``item`` is (written by the build right after the deck).

    A manifest holds ids and versions, no QR code: the faces' codes are left unencoded (deferred, never
    drawn), where asking for them again reread the deck's code cache and re-stored every code in it."""
    return write_manifest(item.path.parent / MANIFEST, item.game, _decks(plan, item, codes_when_drawn=True), item.inputs,
                          plan.resolved.options.lang)


def write_manifests(plan: BuildPlan) -> list[Path]:
    """The manifest of every game whose deck the plan wrote."""
    return [write_deck_manifest(plan, item) for item in plan.documents if item.document.name == "deck"]


def read_manifest(path: Path, game: str) -> dict[tuple[str, str], str]:
    """(deck, card id) -> content version from a kit's manifest; BuildError naming the file if it is
    missing or not a manifest of ``game``."""
    return _versions(path, game, _read_manifest(path))


def _read_manifest(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BuildError(f"{path} not found: --changed-since needs the folder of a kit built with its card "
                         f"manifest (cardgen build writes <out>/<game>/{MANIFEST} beside each deck)") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BuildError(f"cannot read the card manifest {path}: {exc}") from exc


def _versions(path: Path, game: str, data: Any) -> dict[tuple[str, str], str]:
    try:
        if data["format"] != MANIFEST_FORMAT or data["game"] != game:
            raise BuildError(f"{path} is not a format-{MANIFEST_FORMAT} card manifest of {game}")
        return {(str(c["deck"]), str(c["id"])): str(c["version"]) for c in data["cards"]}
    except (KeyError, TypeError) as exc:
        raise BuildError(f"{path} is not a card manifest (missing or malformed field {exc})") from None


@dataclass(frozen=True)
class ChangedGame:
    game: str
    changed: list[tuple[str, CardFaces]]   # (deck, card), in deck order
    total: int                              # cards in today's decks
    path: Path | None                       # changed.pdf, or None when nothing changed
    pages: int


def _portrait(size: CardSize) -> CardSize:
    if size.width <= size.height:
        return size
    return CardSize(f"{size.name} (portrait)", size.height, size.width, size.description)


def changed_cards(decks: list[DeckFaces], old: dict[tuple[str, str], str]) -> list[tuple[str, CardFaces]]:
    """Today's cards that the old kit does not have at this content version (new cards included)."""
    return [(deck.name, card) for deck in decks for card in deck.cards if old.get((deck.name, card.card_id)) != card.version]


def render_changed(path: Path, title: str, cards: list[tuple[str, CardFaces]], plan: BuildPlan,
                   since: Path, progress: Callable[[int], None]) -> int:
    """The changed cards imposed on as few sheets as possible, grouped by card size; returns the pages."""
    resolved = plan.resolved
    groups: dict[tuple[float, float], list[CardFaces]] = {}
    for _deck, card in cards:
        size = _portrait(card.front.size)
        groups.setdefault((size.width, size.height), []).append(card)
    settings = ImpositionSettings.from_options(resolved.options)
    pages = 0

    def write(partial: Path) -> None:
        nonlocal pages
        canvas = new_canvas(partial, resolved.paper.width, resolved.paper.height,
                            title=f"{title}: the cards changed since {since}",
                            subject=f"{len(cards)} changed cards, "
                                    f"{'duplex backs' if resolved.options.duplex else 'backs after fronts'}")
        for group in groups.values():
            layout = resolved.layout_for(_portrait(group[0].front.size))
            pages += impose(canvas, layout, resolved.specs.sheet, [c.front for c in group], [c.back for c in group],
                            settings, sheet_label(label("changed", "sheet", game=title)), on_card=progress)
        canvas.save()
    write_atomically(path, write)
    return pages


def _every_face_changed(game: str, catalog: Any, old: dict[str, Any], options: BuildOptions) -> bool:
    """Whether every face's words changed since the old kit's manifest ``old``: it was printed in another
    language, or in this one (not the default) and that language's labels changed since.

    The default language's words a face draws are in its card's version: a label edit there reprints the
    cards that draw it, and only those. A manifest from before it recorded its language was printed in the
    default one when its labels digest is that language's today, or the one the pinned versions were made
    with (:func:`~cardgen.catalog.versions.pinned_labels_digest`); with no digest, in the default language."""
    printed = old.get("labels")
    lang = old.get("lang")
    if lang is None:
        english = {face_labels_digest(game, language_labels(options.data_dir, DEFAULT_LANG)), pinned_labels_digest(catalog)}
        lang = DEFAULT_LANG if printed is None or printed in english else None
    if lang != options.lang:
        return True
    return lang != DEFAULT_LANG and printed != face_labels_digest(game)


def build_changed(options: BuildOptions, since: Path, progress: Callable[[int], None] | None = None) -> list[ChangedGame]:
    """Write ``OUT/<game>/changed.pdf`` (only the cards changed since the kit in ``since``) and today's
    manifest for each game built; games with no changed card get no PDF.

    A game whose inputs digest (its data files, labels, face layout and code: see
    :func:`~cardgen.render.build.inputs_digest`) is the one its old manifest records is not read at all: its
    cards are the old kit's, at the same versions, and its manifest is copied."""
    report = progress or (lambda steps: None)
    olds: dict[str, tuple[Any, dict[tuple[str, str], str]]] = {}   # game -> (its old manifest, its versions)
    unchanged: set[str] = set()

    def keep(game: str, inputs: str | None) -> bool:
        path = Path(since) / game / MANIFEST
        data = _read_manifest(path)
        olds[game] = (data, _versions(path, game, data))
        if inputs is not None and data.get("inputs") == inputs:
            unchanged.add(game)
            return False
        return True

    plan = plan_build(replace(options, documents=("deck",)), keep)
    planned = {item.game: item for item in plan.documents}
    results: list[ChangedGame] = []
    for game, (data, versions) in olds.items():
        target = Path(options.out_dir) / game / MANIFEST
        if game in unchanged:
            if not (target.exists() and target.samefile(Path(since) / game / MANIFEST)):
                _write_text(target, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
            results.append(ChangedGame(game, [], len(versions), None, 0))
            continue
        item = planned[game]
        decks = _decks(plan, item, codes_when_drawn=True)
        cards = changed_cards(decks, versions)
        if _every_face_changed(game, item.content, data, options):
            cards = [(deck.name, card) for deck in decks for card in deck.cards]
        total = sum(len(d.cards) for d in decks)
        path: Path | None = None
        pages = 0
        if cards:
            path = item.path.parent / CHANGED_FILE
            make_folder(path.parent)
            pages = render_changed(path, getattr(item.content, "title", item.game), cards, plan, Path(since), report)
        write_manifest(target, item.game, decks, item.inputs, options.lang)
        results.append(ChangedGame(item.game, cards, total, path, pages))
    return results
