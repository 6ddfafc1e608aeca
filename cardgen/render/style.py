"""What every game's look shares: the kit's fonts (PDF base fonts, no embedding), the light cut-guide colour,
and the colour choices of a style with a full-colour and an ink-saver form.

Each game keeps its own colours and style class in ``cardgen/render/<game>/style.py``.
"""

from __future__ import annotations

from typing import ClassVar

from .colour import shade, tint

SERIF = "Times-Roman"
SERIF_BOLD = "Times-Bold"
SERIF_ITALIC = "Times-Italic"
SANS = "Helvetica"
SANS_BOLD = "Helvetica-Bold"
CAP_HEIGHT = 0.718          # Helvetica cap height per point of size
SERIF_CAP_HEIGHT = 0.662    # Times
WHITE = "#FFFFFF"
LIGHT_OUTLINE = "#C4C8D2"   # ink-saver mode: the thin cut guide on a face's trim


class InkSaverColours:
    """Colour choices for a style dataclass with fields ``ink_saver`` and ``ink``: large fills in full colour
    and none in ink-saver mode; text darkened on light grounds or white on fills."""

    ink_saver: bool
    ink: str
    #: How far ``pale`` lightens a colour towards white, unless told.
    pale_amount: ClassVar[float] = 0.8

    def fill(self, ink: str) -> str | None:
        """A large fill: ``ink`` in full colour, none in ink-saver mode."""
        return None if self.ink_saver else ink

    def pale(self, ink: str, amount: float | None = None) -> str | None:
        """A pale form of ``ink`` for a light ground (none in ink-saver mode)."""
        return None if self.ink_saver else tint(ink, self.pale_amount if amount is None else amount)

    def readable(self, ink: str) -> str:
        """A darker form of a colour for text on a light ground."""
        return shade(ink, 0.3)

    def on(self, ground: str | None) -> str:
        """Text and symbol colour on a ground: white on a fill, the ink on paper."""
        return WHITE if ground is not None else self.ink
