"""Where a cold print-kit build spends its time: a stopwatch round each stage, for ``bench_build.py``.

Run in a fresh interpreter (``bench_build.py --child breakdown <game> <out>``), so nothing is warm;
the stages overlap where one calls the other (faces include QR drawing, page output includes zlib).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any


def child_breakdown(game: str, out: Path) -> dict[str, Any]:
    """A cold one-process build with a stopwatch round each stage (nested stages overlap: faces
    include QR drawing, page output includes zlib)."""
    os.cpu_count = lambda: 1  # one process: every stage is timed here
    import importlib
    import zlib
    from collections import Counter

    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render import BuildOptions, game_documents, imposition, plan_build, qr
    build_module = importlib.import_module("cardgen.render.build")  # the package's ``build`` is a function
    game_documents()
    spent: Counter[str] = Counter()

    def timed(owner: Any, name: str, stage: str) -> None:
        inner = getattr(owner, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[stage] += time.perf_counter() - began
        setattr(owner, name, wrapper)
    timed(qr, "encode", "QR encoding")
    timed(Canvas, "save", "page output (serialising, zlib)")
    compress = zlib.compress
    pdfdoc.zlib = type("zlib", (), {"compress": staticmethod(compress), "decompress": staticmethod(zlib.decompress)})
    timed(pdfdoc.zlib, "compress", "  of which zlib")
    timed(imposition, "draw_face", "card faces (fronts and backs)")
    for name in ("draw_crop_marks", "draw_registration", "draw_sheet_label"):
        timed(imposition, name, "sheet furniture (crop and registration marks, labels)")
    draw_qr = qr.draw_qr
    for module in list(sys.modules.values()):  # the faces import draw_qr by name
        if getattr(module, "draw_qr", None) is draw_qr and module.__name__.startswith("cardgen.render."):
            timed(module, "draw_qr", "  of which QR drawing")
    started = began = time.perf_counter()
    plan = plan_build(BuildOptions(game=game, out_dir=out))
    spent["data (catalog, print specs)"] = time.perf_counter() - began
    for item in plan.documents:
        began = time.perf_counter()
        build_module._write_documents(plan, (item,), None)
        spent[f"document {item.document.filename}"] = time.perf_counter() - began
    return {"stages": {name: seconds * 1000 for name, seconds in spent.items()},
            "total_ms": (time.perf_counter() - started) * 1000}


_STAGES = ("data", "QR encoding", "card faces", "  of which QR drawing", "sheet furniture", "page output",
           "  of which zlib", "document")


def stage_order(name: str) -> int:
    return next(i for i, start in enumerate(_STAGES) if name.startswith(start))
