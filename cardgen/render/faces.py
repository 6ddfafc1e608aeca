"""What a face is, plus the small typesetting helpers faces share.

A face (a card front, a card back, later a tile or a token) knows its trim size and draws itself
with its trim's bottom-left corner at the canvas origin, in points. It may paint up to ``bleed``
millimetres beyond every trim edge; imposition clips whatever a given sheet position cannot show.
"""

from __future__ import annotations

from typing import Protocol

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from .print_specs import CardSize


class Face(Protocol):
    @property
    def size(self) -> CardSize: ...

    def draw(self, canvas: Canvas, bleed_mm: float) -> None: ...


def fit_font_size(text: str, font: str, max_width: float, largest: float, smallest: float) -> float:
    """The largest size (in steps of 0.25 pt) at which ``text`` fits ``max_width`` points, or ``smallest``."""
    width_at_one = stringWidth(text, font, 1.0)
    if width_at_one <= 0:
        return largest
    size = min(largest, max_width / width_at_one)
    size = int(size * 4) / 4
    return max(smallest, size)


def wrap(text: str, font: str, size: float, max_width: float) -> list[str]:
    """Greedy word wrap to ``max_width`` points."""
    return simpleSplit(text, font, size, max_width)


def text_width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)
