"""The print generator: faces, imposition, QR codes and the documents of every game's print kit.

``build(BuildOptions(game=game_id, paper="Letter"))`` writes ``output/<game>/*.pdf`` and returns
the paths. Faces draw at their own origin (:mod:`.faces`), imposition places them on sheets
(:mod:`.imposition`, :mod:`.layout`), and each game declares its kit in its own package (:mod:`.registry`).
"""

from __future__ import annotations

from .build import BuildPlan, build, plan_build, run_build
from .layout import LayoutError, SheetLayout, plan_layout
from .options import DEFAULT_BASE_URL, BuildError, BuildOptions
from .print_specs import PrintSpecs, load_print_specs, print_specs
from .registry import Document, PrintKit, ThemeCheck, game_documents, print_kits

__all__ = [
    "BuildError", "BuildOptions", "BuildPlan", "DEFAULT_BASE_URL", "Document", "LayoutError", "PrintKit", "PrintSpecs",
    "SheetLayout", "ThemeCheck", "build", "game_documents", "load_print_specs", "plan_build", "plan_layout",
    "print_kits", "print_specs", "run_build",
]
