"""Print and cut: ``cardgen build --cutter silhouette|cricut``.

A cutting machine finds the printed sheet by registration marks its optical eye reads, then cuts the
lines of a cut file. With ``--cutter`` the card sheets keep a band of :data:`KEEP_MM` clear along every
edge for the marks (no crop marks: the machine cuts), each front page carries the cutter's marks, and
``OUT/<game>/<document>-cut.svg`` (one per sheet layout of the document: ``…-cut-<W>x<H>.svg`` when a
document has several) holds each card's cut line, a rectangle on its trim, in millimetres on the page.

* Silhouette (Cameo, Portrait): a filled 5 mm square in the top-left corner and L-shaped corners (10 mm
  arms, 0.5 mm thick) top-right and bottom-left, 5 mm in from the paper edges. In Silhouette Studio set
  the registration marks to type 1, length 10 mm, thickness 0.5 mm, inset 5 mm, and open the SVG.
* Cricut (Print Then Cut): a 0.75 mm black frame 5 mm in from the paper edges with a filled 5 mm square
  inside its top-left corner. Upload the SVG to Design Space as the cut layer.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from cardgen.render.markup import escape

from .layout import SheetLayout
from .pdf import pt

CUTTERS = ("silhouette", "cricut")
INSET_MM = 5.0        # marks this far in from the paper edge
MARK_MM = 5.0         # the square
ARM_MM = 10.0         # the L's arms
LINE_MM = 0.5         # the L's thickness
FRAME_MM = 0.75       # Cricut's frame
KEEP_MM = INSET_MM + MARK_MM + 0.5   # nothing of a card (bleed included) nearer the paper edge


def draw_marks(canvas: Canvas, cutter: str, width: float, height: float) -> None:
    """The cutter's registration marks on a front page of ``width × height`` mm."""
    i, m = INSET_MM, MARK_MM
    canvas.saveState()
    canvas.setFillColor("#000000")
    canvas.setStrokeColor("#000000")
    canvas.rect(pt(i), pt(height - i - m), pt(m), pt(m), stroke=0, fill=1)
    if cutter == "silhouette":
        a, t = ARM_MM, LINE_MM
        canvas.rect(pt(width - i - a), pt(height - i - t), pt(a), pt(t), stroke=0, fill=1)   # top-right L
        canvas.rect(pt(width - i - t), pt(height - i - a), pt(t), pt(a), stroke=0, fill=1)
        canvas.rect(pt(i), pt(i), pt(a), pt(t), stroke=0, fill=1)                             # bottom-left L
        canvas.rect(pt(i), pt(i), pt(t), pt(a), stroke=0, fill=1)
    else:
        f = FRAME_MM
        canvas.setLineWidth(pt(f))
        canvas.rect(pt(i + f / 2), pt(i + f / 2), pt(width - 2 * i - f), pt(height - 2 * i - f), stroke=1, fill=0)
    canvas.restoreState()


def cut_svg(layout: SheetLayout, title: str) -> str:
    """The SVG cut file of a full sheet of ``layout``: one rectangle per card on its trim (mm, y down)."""
    w, h = layout.paper.width, layout.paper.height
    rects = []
    for index in range(layout.per_sheet):
        t = layout.slot(index).trim
        rects.append(f'  <rect id="card-{index + 1}" x="{t.x:.3f}" y="{h - t.top:.3f}" '
                     f'width="{t.width:.3f}" height="{t.height:.3f}"/>')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" viewBox="0 0 {w:g} {h:g}">\n'
            f'  <title>{escape(title)}</title>\n'
            f'  <g fill="none" stroke="#FF0000" stroke-width="0.1">\n' + "\n".join("  " + r for r in rects) +
            "\n  </g>\n</svg>\n")


def write_cut_files(folder: Path, document: str, layouts: list[SheetLayout], title: str) -> list[Path]:
    """``document``-cut.svg for each distinct sheet layout the document's cards use."""
    from .build import write_atomically
    distinct: dict[tuple[object, ...], SheetLayout] = {}
    for layout in layouts:  # the same cuts (a portrait deck turned sideways, a landscape deck upright): one file
        key = tuple(layout.slot(i).trim for i in range(layout.per_sheet))
        distinct.setdefault(key, layout)
    written = []
    for layout in distinct.values():
        w, h = layout.footprint
        name = f"{document}-cut.svg" if len(distinct) == 1 else f"{document}-cut-{w:g}x{h:g}.svg"
        text = cut_svg(layout, f"{title}: cut lines, {layout.per_sheet} cards a sheet")
        path = folder / name
        write_atomically(path, partial(_write_text, text=text))
        written.append(path)
    return written


def write_plan_cut_files(plan: Any) -> list[Path]:
    """The cut files of every deck a build plan wrote (called after the build, as the manifests are)."""
    from .changed import _decks
    written: list[Path] = []
    for item in plan.documents:
        if item.document.name != "deck":
            continue
        layouts = [plan.resolved.layout_for(deck.cards[0].front.size) for deck in _decks(plan, item) if deck.cards]
        written += write_cut_files(item.path.parent, item.document.name, layouts,
                                   str(getattr(item.content, "title", item.game)))
    return written


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
