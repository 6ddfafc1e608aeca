"""PDF plumbing shared by every document: deterministic canvases, page boxes, print preferences."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Hashable
from weakref import WeakKeyDictionary

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .fonts import BASE_FONT
from .layout import Rect

# Same input, same bytes: no creation dates and a document ID derived from the content.
rl_config.invariant = 1
# Compressed streams stored as binary, not also ASCII85-encoded as ReportLab does by default: a
# quarter smaller, and the encoding was a tenth of a deck's build time.
rl_config.useA85 = 0

PRODUCER = "Spellbook Table cardgen"


def pt(value_mm: float) -> float:
    """Millimetres to PDF points."""
    return value_mm * mm


def new_canvas(path: Path, width_mm: float, height_mm: float, *, title: str, subject: str) -> Canvas:
    """A canvas that writes a reproducible PDF that printers must not rescale."""
    canvas = Canvas(str(path), pagesize=(pt(width_mm), pt(height_mm)), invariant=1, pageCompression=1,
                    pdfVersion=(1, 6), initialFontName=BASE_FONT)
    apply_document_settings(canvas, title=title, subject=subject)
    return canvas


def apply_document_settings(canvas: Canvas, *, title: str, subject: str) -> None:
    """Metadata plus PrintScaling=None, so "fit to page" does not shrink cards off their size."""
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor("Spellbook Table")
    canvas.setCreator(PRODUCER)
    canvas.setProducer(PRODUCER)
    canvas.setViewerPreference("PrintScaling", "None")


def set_page_boxes(canvas: Canvas, trim: Rect, bleed: Rect, media_w_mm: float, media_h_mm: float) -> None:
    """TrimBox and BleedBox (clamped to the page) for the page being drawn."""
    def clamp(r: Rect) -> tuple[float, float, float, float]:
        x0, y0 = max(0.0, r.x), max(0.0, r.y)
        x1, y1 = min(media_w_mm, r.right), min(media_h_mm, r.top)
        return (pt(x0), pt(y0), pt(x1), pt(y1))
    canvas.setTrimBox(clamp(trim))
    canvas.setBleedBox(clamp(bleed))


# Per canvas, by the caller's key: the form's name once a drawing has recurred (None after its first
# use), and the key's object kept alive with it.
_FORMS: WeakKeyDictionary[Canvas, dict[Hashable, tuple[str | None, object]]] = WeakKeyDictionary()


def draw_reused(canvas: Canvas, key: Hashable, box: tuple[float, float, float, float],
                draw: Callable[[], object], *, keep: object = None) -> None:
    """Draw ``draw()`` at the current origin; from the second time ``key`` is met on this canvas, as
    a PDF form XObject made once and placed again.

    Artwork that recurs on a canvas (a deck's shared back, a trait chip, a repeated text block) is
    then written once and placed with one ``Do`` operator: a smaller file, far less work for
    ReportLab and zlib, and the same marks on paper. A drawing met only once stays inline (a form
    costs more than it saves there). ``box`` (x0, y0, x1, y1, in points at the current origin) bounds
    the drawing: a form clips to it, so it must hold everything ``draw`` paints. ``draw`` must set
    every colour, font and line width it uses (a form inherits the graphics state where it is
    placed). ``keep`` is held as long as the canvas, for keys made from ``id()``. Forms are named in
    order of first reuse, so the output stays deterministic.
    """
    forms = _FORMS.get(canvas)
    if forms is None:
        forms = _FORMS[canvas] = {}
    known = forms.get(key)
    if known is None:
        forms[key] = (None, keep)
        draw()
        return
    name = known[0]
    if name is None:
        name = f"R{sum(1 for n, _ in forms.values() if n is not None) + 1}"  # short: pages list their forms
        canvas.beginForm(name, *box)
        draw()
        canvas.endForm()  # also gives back the state ReportLab had before beginForm
        forms[key] = (name, keep)
    canvas.doForm(name)
