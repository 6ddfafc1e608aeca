"""Build a print kit: pick the games and documents, check the options, write the PDFs.

``build(BuildOptions(...))`` is what the CLI, the tests and the benchmark call. Files are written to
a temporary name first and renamed, so a failed build never leaves half a PDF behind.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import re
import sys
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from reportlab.lib import colors

from cardgen.catalog import DataError, GameCatalog, game_folder, load_game
from cardgen.catalog import content as default_content
from cardgen.catalog import data_dir as catalog_data_dir
from cardgen.catalog.spec import discover, imported_when_called
from cardgen.catalog.versions import FACE_LAYOUT, version_labels_path

from .drawable_text import file_problems, folder_problems
from .labels import DEFAULT_LANG, labels_path, labels_root
from .options import BuildError, BuildOptions, ResolvedOptions, resolve
from .print_specs import load_print_specs, print_specs
from .qr import disk_cache
from .registry import Document, PrintKit, Progress, game_documents

#: Per-card work kept between builds, inside the output folder (QR codes by payload).
CACHE_FOLDER = ".cache"
#: Cards (see ``document_cost``) below which a build stays in one process: a fork costs a few milliseconds.
PARALLEL_MIN_WORK = 60
#: Progress steps (cards) a build process gathers before it tells the parent: one message a card woke the
#: parent 400 times in a kit, taking turns on the cores with the processes doing the work.
PROGRESS_BATCH = 16
#: A sheet (tiles, tokens, boards) takes about as long to write as this many cards: 3 to 49 ms
#: against about 1.2 ms a card in bench/bench_build.py's breakdowns (median sheet ~13 ms). The reference
#: sheets (tables: two to three times a plain sheet) and the one-page pads declare their own
#: (``Document.cost``): handed out costliest first, the kit's two build processes then finish within a small
#: sheet of each other (callgrind: 5.22 and 5.19 G instructions, against 5.02 and 5.35 with every sheet 15).
SHEET_COST = 15

_HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}\Z")


class _HexColours(dict[str, colors.Color]):
    """"#RRGGBB" strings for ReportLab's ``toColor``, each parsed once.

    Faces and styles give colours as "#RRGGBB" strings. ``toColor`` tries CSS forms, colour names and
    two expression parsers before it reads one (about 15 µs a call), and a deck sets colours thousands
    of times: a sixth of a warm build went there. ReportLab asks its extra colour names first, so
    answering hex strings here gives the same colour (``HexColor``) at dictionary speed.
    """

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and _HEX_COLOUR.match(name) is not None

    def __missing__(self, name: str) -> colors.Color:
        colour = self[name] = colors.HexColor(name)
        return colour


if not colors.toColor.extraColorsNS:  # leave alone a namespace someone else installed
    colors.toColor.setExtraColorsNameSpace(_HexColours())


@dataclass(frozen=True)
class PlannedDocument:
    game: str
    document: Document
    content: Any
    path: Path
    work: int
    inputs: str | None = None   # the game's inputs digest (:func:`inputs_digest`), taken before its data was read


@dataclass(frozen=True)
class BuildPlan:
    resolved: ResolvedOptions
    documents: tuple[PlannedDocument, ...]

    @property
    def total_work(self) -> int:
        return sum(d.work for d in self.documents)


def plan_build(options: BuildOptions, keep: Callable[[str, str | None], bool] | None = None) -> BuildPlan:
    """Check the options and load the content; raises BuildError or DataError before writing anything.

    ``keep(game, inputs)``, asked for each game with a document to build before its data is read (``inputs``:
    its :func:`inputs_digest`), leaves the game out of the plan, unread, when it answers False."""
    specs = print_specs() if options.data_dir is None else load_print_specs(options.data_dir)
    resolved = resolve(options, specs)
    registry = game_documents()
    if options.game == "all":
        games = list(registry)
    elif options.game in registry:
        games = [options.game]
    else:
        raise BuildError(f"unknown game '{options.game}' (known: {', '.join(registry)}, or all)")
    known_docs = {d.name for docs in registry.values() for d in docs}
    for name in options.documents:
        if name not in known_docs:
            raise BuildError(f"unknown document '{name}' (known: {', '.join(sorted(known_docs))})")
        offered = [d.name for game in games for d in registry[game]]
        if name not in offered:
            raise BuildError(f"{options.game} has no document '{name}' (its documents: {', '.join(offered)})")
    resolved.card_layout()  # fail early if the cards do not fit the paper
    planned: list[PlannedDocument] = []
    for game in games:
        documents = [d for d in registry[game] if not options.documents or d.name in options.documents]
        if not documents:
            continue
        inputs = inputs_digest(game, options.data_dir, options.lang)
        if keep is not None and not keep(game, inputs):
            continue
        content = default_content(game) if options.data_dir is None else load_game(game, options.data_dir)
        _refuse_undrawable(game, options)
        for document in documents:
            path = Path(options.out_dir) / game / document.filename
            planned.append(PlannedDocument(game, document, content, path, document.work(content), inputs))
    return BuildPlan(resolved, tuple(planned))


def _refuse_undrawable(game: str, options: BuildOptions) -> None:
    """DataError, as ``cardgen check`` reports it, when the game's data or the printed language's labels hold a
    character no font of the kit draws: ReportLab would print it as nothing (a blank title, a name missing
    from an ability line), silently."""
    root = Path(options.data_dir) if options.data_dir is not None else catalog_data_dir()
    problems = folder_problems(game_folder(game, root))
    labels = labels_path(labels_root(root), options.lang)
    if labels.is_file():
        problems += file_problems(labels)
    if problems:
        raise DataError(problems)


@lru_cache(maxsize=None)
def _code_fingerprint() -> str:
    """The name, size and modification time of every module of ``cardgen`` and of its JSON (the pinned card
    versions): what reads the data and says what the cards print (any edit of it counts as a change of every
    game's inputs)."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted([*package.rglob("*.py"), *package.rglob("*.json")]):
        stat = path.stat()
        digest.update(f"{path.relative_to(package).as_posix()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


@lru_cache(maxsize=None)
def _in_tree_games() -> frozenset[str]:
    """The games whose catalog and print kit are this package's (their code is in :func:`_code_fingerprint`)."""
    import cardgen.catalog

    from . import registry

    return frozenset(discover(cardgen.catalog, "CATALOG", GameCatalog)) & frozenset(
        discover(sys.modules[registry.__package__], "KIT", PrintKit))


def inputs_digest(game: str, data_dir: Path | str | None, lang: str = DEFAULT_LANG) -> str | None:
    """A digest of everything a game's card manifest is made from: every file of its data folder, the print
    labels its card versions include and those of the printed language ``lang``, the face layout revision and
    ``cardgen``'s code. The manifest records it, so that ``--changed-since`` leaves a game whose digest is the
    same unread (same inputs, same cards at the same versions). None for a game whose code is outside this
    package, or with no data folder."""
    if game not in _in_tree_games():
        return None
    root = Path(data_dir) if data_dir is not None else catalog_data_dir()
    folder = game_folder(game, root)
    if not folder.is_dir():
        return None
    digest = hashlib.sha256(json.dumps({"layout": FACE_LAYOUT, "code": _code_fingerprint()}, sort_keys=True).encode())
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(folder).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    labels = version_labels_path(root)
    digest.update(b"labels\0" + (labels.read_bytes() if labels.is_file() else b""))
    if lang != DEFAULT_LANG:
        printed = labels_path(labels_root(root), lang)
        digest.update(f"labels {lang}\0".encode() + (printed.read_bytes() if printed.is_file() else b""))
    return digest.hexdigest()


def code_cache_path(plan: BuildPlan, item: PlannedDocument) -> Path:
    """Where a document keeps its QR codes for the next build (a rebuild after a data change
    re-encodes only the codes whose payload is new). One file per document: documents may be
    written by different processes."""
    return Path(plan.resolved.options.out_dir) / CACHE_FOLDER / f"{item.game}-{item.document.name}.qr.json"


def run_build(plan: BuildPlan, progress: Progress | None = None) -> list[Path]:
    """Write every planned document and, beside each deck, its card manifest (see :mod:`.changed`);
    returns the PDFs written, in plan order.

    On a machine with several cores the documents are split over forked processes by their cost (see
    :func:`parallel_groups`); bench/bench_build.py measures what that saves on your machine. A deck's
    manifest is written by the process that wrote the deck, right after it: its cards' versions are then in memory (the
    parent writing every manifest after the build computed them all a second time, serially).
    """
    groups = parallel_groups(plan)
    if len(groups) < 2:
        return _write_documents(plan, plan.documents, progress)
    for item in plan.documents:  # each document's code (and the fonts it registers) once, before the fork
        if isinstance(item.document.render, imported_when_called):
            item.document.render.target()
    return _write_in_processes(plan, groups, progress)


def document_cost(item: PlannedDocument) -> int:
    """What writing a document costs, in cards: its cards, but never less than its declared ``cost`` (a
    sheet's, ``SHEET_COST`` unless it says)."""
    return max(item.work, item.document.cost if item.document.cost is not None else SHEET_COST)


def parallel_groups(plan: BuildPlan) -> list[list[int]]:
    """Documents (plan indexes) per process: the costliest document first, each onto the least loaded process,
    as the costs estimate it. Its length is how many processes a build forks; at run time each process
    takes the costliest document left whenever it finishes one (:func:`_write_in_processes`), which
    gives these groups when the estimates are right and stays balanced when they are not.

    Documents, not whole games, are what is spread: a game's documents share no warm-up work that
    forking does not already share (the imports, fonts and data are loaded before the fork; a
    document's time is the same first or last, measured in both orders), and whole games left the
    whole kit's two processes at 1.01 and 0.81 s of CPU (two games in each) where documents balance them
    within a sheet's cost. Only where ``fork`` is the cheap
    way to start (POSIX) and this process runs no other thread (forking a threaded process can
    deadlock), for builds big enough to repay a fork.
    """
    everything = list(range(len(plan.documents)))
    cores = os.cpu_count() or 1
    costs = [document_cost(item) for item in plan.documents]
    if (not hasattr(os, "fork") or cores < 2 or threading.active_count() > 1 or len(everything) < 2
            or sum(costs) < PARALLEL_MIN_WORK):
        return [everything]
    import multiprocessing  # here: a build too small to fork (a reprint, one sheet) never imports it

    if "fork" not in multiprocessing.get_all_start_methods():
        return [everything]
    bins: list[list[int]] = [[] for _ in range(min(cores, len(everything)))]
    loads = [0] * len(bins)
    for index in sorted(everything, key=lambda i: -costs[i]):
        lightest = loads.index(min(loads))
        bins[lightest].append(index)
        loads[lightest] += costs[index]
    return [sorted(b) for b in bins if b]


def _write_in_processes(plan: BuildPlan, groups: list[list[int]], progress: Progress | None) -> list[Path]:
    """One forked process per group; each asks this one for its next document as it finishes one, and
    gets the costliest not yet handed out, so that a cost misestimated (a reference sheet takes 10 to
    100 ms against a flat ``SHEET_COST``) costs the kit at most its last small document, not the
    difference between the groups."""
    import multiprocessing
    from multiprocessing.connection import wait as connection_wait

    report: Callable[[int], None] = progress or (lambda steps: None)
    context = multiprocessing.get_context("fork")
    order = iter(sorted(range(len(plan.documents)), key=lambda i: (-document_cost(plan.documents[i]), i)))
    running: dict[Any, Any] = {}
    # The forked processes start with everything this one holds frozen, out of the collector's reach: their
    # full collections no longer walk (and so copy, page by page) the imported modules, fonts and data
    # (the collector took 0.04-0.05 s of each build process's CPU, 0.015 s frozen). This one unfreezes.
    gc.freeze()
    try:
        for _ in groups:
            ours, theirs = context.Pipe(duplex=True)
            process = context.Process(target=_write_on_request, args=(plan, theirs), daemon=True)
            process.start()
            theirs.close()
            running[ours] = process
    finally:
        gc.unfreeze()
    written: dict[int, Path] = {}
    failure: BaseException | None = None
    while running:
        for ready in connection_wait(list(running)):
            channel: Any = ready
            try:
                kind, value = channel.recv()
            except EOFError:
                kind, value = "error", BuildError("a build process stopped before it finished its documents")
            if kind == "step":
                report(value)
                continue
            if kind == "next":  # value: the document it just wrote (plan index, path), or None at its start
                if value is not None:
                    written[value[0]] = value[1]
                try:
                    channel.send(None if failure is not None else next(order, None))  # None: stop
                    continue
                except OSError:  # it is gone; its EOF comes next
                    continue
            if kind == "error" and failure is None:
                failure = value
            running.pop(channel).join()
            channel.close()
    if failure is not None:
        raise failure
    return [written[i] for i in range(len(plan.documents))]


def _write_on_request(plan: BuildPlan, channel: Any) -> None:
    """In a forked process: write the plan's documents the parent hands out one at a time (reporting
    steps) until it says None, then say done; an error is handed to the parent instead."""
    pending = 0

    def step(steps: int) -> None:
        nonlocal pending
        pending += steps
        if pending >= PROGRESS_BATCH:
            channel.send(("step", pending))
            pending = 0
    try:
        just_written: tuple[int, Path] | None = None
        while True:
            channel.send(("next", just_written))
            index = channel.recv()
            if index is None:
                break
            [path] = _write_documents(plan, (plan.documents[index],), step)
            if pending:
                channel.send(("step", pending))
                pending = 0
            just_written = (index, path)
        channel.send(("done", None))
    except BaseException as error:  # handed to the parent, which raises it
        try:
            channel.send(("error", error))
        except Exception:  # an exception that cannot be pickled: keep its words
            channel.send(("error", BuildError(f"{type(error).__name__}: {error}")))
    finally:
        channel.close()


def _write_documents(plan: BuildPlan, documents: tuple[PlannedDocument, ...], progress: Progress | None) -> list[Path]:
    from .changed import write_deck_manifest

    report: Callable[[int], None] = progress or (lambda steps: None)
    written: list[Path] = []
    for item in documents:
        make_folder(item.path.parent)

        def render(partial: Path, item: PlannedDocument = item) -> None:
            with disk_cache(code_cache_path(plan, item)):
                item.document.render(item.content, plan.resolved, partial, report)
        write_atomically(item.path, render)
        written.append(item.path)
        if item.document.name == "deck":  # <out>/<game>/cards.json beside it, for a later --changed-since
            write_deck_manifest(plan, item)
    return written


def make_folder(folder: Path) -> None:
    """``folder`` and its parents, or a BuildError naming it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot create folder {folder}: {exc.strerror or exc}") from exc


def write_atomically(path: Path, write: Callable[[Path], object]) -> None:
    """``write`` a file at a temporary name beside ``path``, then rename it: a failed write never leaves half
    a file behind (an OSError becomes a BuildError naming ``path``)."""
    partial = path.with_name(path.name + ".partial")
    try:
        write(partial)
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise BuildError(f"cannot write {path}: {exc.strerror or exc}") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def build(options: BuildOptions, progress: Progress | None = None) -> list[Path]:
    """Plan and write the print kit described by ``options``; returns the PDFs written."""
    return run_build(plan_build(options), progress)
