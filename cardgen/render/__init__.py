"""The print generator: faces, imposition, QR codes and the documents of every game's print kit.

``build(BuildOptions(game="fillory", paper="Letter"))`` writes ``output/fillory/*.pdf`` and returns
the paths. Faces draw at their own origin (:mod:`.faces`), imposition places them on sheets
(:mod:`.imposition`, :mod:`.layout`), and each game lists its documents (:mod:`.registry`).
"""

from __future__ import annotations

from .build import BuildPlan, build, plan_build, run_build
from .layout import LayoutError, SheetLayout, plan_layout
from .options import DEFAULT_BASE_URL, BuildError, BuildOptions
from .print_specs import PrintSpecs, load_print_specs, print_specs
from .registry import Document, game_documents

__all__ = [
    "BuildError", "BuildOptions", "BuildPlan", "DEFAULT_BASE_URL", "Document", "LayoutError", "PrintSpecs",
    "SheetLayout", "build", "game_documents", "load_print_specs", "plan_build", "plan_layout", "print_specs",
    "run_build",
]
