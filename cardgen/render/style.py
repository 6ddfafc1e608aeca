"""What every game's look shares: the kit's default type pairing (embedded TrueType, see :mod:`.fonts`), the light cut-guide colour,
and the colour choices of a style with a full-colour and an ink-saver form.

Each game keeps its own colours and style class in ``cardgen/render/<game>/style.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .colour import shade, tint
from .fonts import KIT, cap_height, family

# The default pairing: Source Serif Pro for names and titles, Source Sans Pro for text. A game's own
# style module may pair other families (each game's style.py says which and why).
_SERIF = family("SourceSerif")
SERIF = _SERIF.regular
SERIF_BOLD = _SERIF.bold
SERIF_ITALIC = _SERIF.italic
SANS = KIT.regular
SANS_BOLD = KIT.bold
SANS_ITALIC = KIT.italic
CAP_HEIGHT = cap_height(SANS_BOLD)          # cap height per point of size
SERIF_CAP_HEIGHT = cap_height(SERIF_BOLD)
WHITE = "#FFFFFF"


@dataclass(frozen=True)
class TypePair:
    """A game's two families: a display face for names and titles, a text face for everything else."""

    serif: str
    serif_bold: str
    serif_italic: str
    sans: str
    sans_bold: str
    sans_italic: str
    cap_height: float          # the text face's bold capitals, per point of size
    serif_cap_height: float    # the display face's bold capitals


def type_pair(display: str, text: str) -> TypePair:
    """The pairing of two registered families (names from :data:`.fonts.FAMILIES`)."""
    d, t = family(display), family(text)
    return TypePair(d.regular, d.bold, d.italic, t.regular, t.bold, t.italic, cap_height(t.bold), cap_height(d.bold))
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
