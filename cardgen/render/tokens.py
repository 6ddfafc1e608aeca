"""Square two-sided tokens shared by the games' token sheets.

A token has the same picture on both sides: the back page repeats the fronts (mirrored for long-edge duplex,
or unmirrored after the fronts to cut and glue). This module draws a token's ground and ring and lays a
sheet of them out; each game keeps its own pictures, captions and sizes.
"""

from __future__ import annotations

from typing import Sequence

from reportlab.pdfgen.canvas import Canvas

from .colour import luminance, shade
from .faces import Face, card_ground
from .imposition import ImpositionSettings, SheetLabel, impose
from .layout import SheetLayout
from .options import ResolvedOptions
from .pdf import pt
from .style import LIGHT_OUTLINE, WHITE

DARK_TEXT = "#1E1E28"


def token_text_ink(ink: str, ink_saver: bool) -> str:
    """The caption's colour: a darker ``ink`` on white in ink-saver mode, else dark or white on the ink."""
    if ink_saver:
        return shade(ink, 0.3)
    return DARK_TEXT if luminance(ink) > 0.4 else WHITE


def draw_token_ground(canvas: Canvas, width: float, bleed_mm: float, ink: str, text_ink: str, ink_saver: bool, *,
                      ring_inset_mm: float, ring_width: float, ink_saver_ring_width: float) -> str:
    """The token's ground (ink to the bleed, or a light cut outline) and its ring; returns the ground colour.

    ``width`` is the token's side in points. The ring is drawn ``ring_inset_mm`` inside the edge, in the
    text colour on a full-colour ground and in ``ink`` in ink-saver mode.
    """
    w = width
    card_ground(canvas, w, w, bleed_mm, None if ink_saver else ink, LIGHT_OUTLINE)
    canvas.setStrokeColor(ink if ink_saver else text_ink)
    canvas.setLineWidth(ink_saver_ring_width if ink_saver else ring_width)
    canvas.circle(w / 2, w / 2, w / 2 - pt(ring_inset_mm), stroke=1, fill=0)
    return WHITE if ink_saver else ink


def impose_two_sided(canvas: Canvas, resolved: ResolvedOptions, layout: SheetLayout, faces: Sequence[Face],
                     label: SheetLabel) -> int:
    """Sheets of ``faces`` with the same faces on the backs; returns the number of pages written."""
    return impose(canvas, layout, resolved.specs.sheet, faces, faces, ImpositionSettings.from_options(resolved.options),
                  label)
