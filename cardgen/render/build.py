"""Build a print kit: pick the games and documents, check the options, write the PDFs.

``build(BuildOptions(...))`` is what the CLI, the tests and the benchmark call. Files are written to
a temporary name first and renamed, so a failed build never leaves half a PDF behind.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from reportlab.lib import colors

from cardgen.catalog import content as default_content
from cardgen.catalog import load_game

from .options import BuildError, BuildOptions, ResolvedOptions, resolve
from .print_specs import load_print_specs, print_specs
from .qr import disk_cache
from .registry import Document, Progress, game_documents

#: Per-card work kept between builds, inside the output folder (QR codes by payload).
CACHE_FOLDER = ".cache"

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


@dataclass(frozen=True)
class BuildPlan:
    resolved: ResolvedOptions
    documents: tuple[PlannedDocument, ...]

    @property
    def total_work(self) -> int:
        return sum(d.work for d in self.documents)


def plan_build(options: BuildOptions) -> BuildPlan:
    """Check the options and load the content; raises BuildError or DataError before writing anything."""
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
    resolved.card_layout()  # fail early if the cards do not fit the paper
    planned: list[PlannedDocument] = []
    for game in games:
        content = default_content(game) if options.data_dir is None else load_game(game, options.data_dir)
        for document in registry[game]:
            if options.documents and document.name not in options.documents:
                continue
            path = Path(options.out_dir) / game / document.filename
            planned.append(PlannedDocument(game, document, content, path, document.work(content)))
    return BuildPlan(resolved, tuple(planned))


def code_cache_path(plan: BuildPlan) -> Path:
    """Where a build keeps its QR codes for the next one (a rebuild after a data change re-encodes
    only the codes whose payload is new)."""
    return Path(plan.resolved.options.out_dir) / CACHE_FOLDER / "qr-codes.json"


def run_build(plan: BuildPlan, progress: Progress | None = None) -> list[Path]:
    """Write every planned document; returns the paths written, in plan order."""
    with disk_cache(code_cache_path(plan)):
        return _write_documents(plan, progress)


def _write_documents(plan: BuildPlan, progress: Progress | None) -> list[Path]:
    report: Callable[[int], None] = progress or (lambda steps: None)
    written: list[Path] = []
    for item in plan.documents:
        try:
            item.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BuildError(f"cannot create folder {item.path.parent}: {exc.strerror or exc}") from exc
        partial = item.path.with_name(item.path.name + ".partial")
        try:
            item.document.render(item.content, plan.resolved, partial, report)
            os.replace(partial, item.path)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise BuildError(f"cannot write {item.path}: {exc.strerror or exc}") from exc
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        written.append(item.path)
    return written


def build(options: BuildOptions, progress: Progress | None = None) -> list[Path]:
    """Plan and write the print kit described by ``options``; returns the PDFs written."""
    return run_build(plan_build(options), progress)
