"""PDF plumbing shared by every document: deterministic canvases, page boxes, print preferences."""

from __future__ import annotations

from pathlib import Path

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .layout import Rect

# Same input, same bytes: no creation dates and a document ID derived from the content.
rl_config.invariant = 1

PRODUCER = "Spellbook Table cardgen"


def pt(value_mm: float) -> float:
    """Millimetres to PDF points."""
    return value_mm * mm


def new_canvas(path: Path, width_mm: float, height_mm: float, *, title: str, subject: str) -> Canvas:
    """A canvas that writes a reproducible PDF that printers must not rescale."""
    canvas = Canvas(str(path), pagesize=(pt(width_mm), pt(height_mm)), invariant=1, pageCompression=1,
                    pdfVersion=(1, 6))
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
