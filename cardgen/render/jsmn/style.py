"""The Jonathan Strange & Mr Norrell look, in full colour or ink-saver form.

All colours are ours (the rulebook names none but the "silver" basin and the red book slot). Every colour
comes with a symbol or a word elsewhere in the kit: elements have their own drawings, magicians their own
shapes, London locations the L badge. Ink-saver mode keeps thin coloured outlines, symbols and text and
drops every large fill.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..colour import shade, tint

SERIF = "Times-Roman"
SERIF_BOLD = "Times-Bold"
SERIF_ITALIC = "Times-Italic"
SANS = "Helvetica"
SANS_BOLD = "Helvetica-Bold"
CAP_HEIGHT = 0.718          # Helvetica cap height per point of size
SERIF_CAP_HEIGHT = 0.662    # Times
WHITE = "#FFFFFF"
LIGHT_OUTLINE = "#C4C8D2"

#: The six elements' printing colours (each also has its own symbol).
ELEMENT_INKS: dict[str, str] = {"birds": "#3F74A8", "hills": "#6F7F2E", "rain": "#23848A", "stones": "#6E665C",
                                "trees": "#2F6B3A", "wind": "#7E5BA6"}
ANY_ELEMENT_INK = "#8A6D1F"
#: The four magicians' colours (the catalog's colour words), each with its own shape.
MAGICIAN_INKS: dict[str, str] = {"slate blue": "#4F6D8F", "crimson": "#A3243B", "forest green": "#2E6B3F",
                                 "ochre": "#B7801A"}
#: Each deck's frame and back colour.
DECK_INKS: dict[str, str] = {"invitation": "#6B2D3C", "introduction": "#2D4A6B", "feat": "#4E3570",
                             "spell": "#1F5F5B", "connexion": "#7A5A1E", "book": "#4A3420",
                             "marseilles": "#23233F"}
LONDON_INK = "#B0413E"      # London locations: this colour and the L badge
FAIRY_INK = "#5C6F7F"       # thistle-down grey-blue
RAVEN_INK = "#1E1E28"
SILVER = "#AEB4BE"
RED_SLOT = "#B0413E"


@dataclass(frozen=True)
class JsmnStyle:
    ink_saver: bool
    ink: str = "#1E1E28"
    muted: str = "#5E6270"
    panel: str | None = "#FBF7EE"

    def element_ink(self, element: str) -> str:
        return ELEMENT_INKS.get(element, ANY_ELEMENT_INK)

    def deck_ink(self, kind: str) -> str:
        return DECK_INKS[kind]

    def fill(self, ink: str) -> str | None:
        """A large fill: ``ink`` in full colour, none in ink-saver mode."""
        return None if self.ink_saver else ink

    def pale(self, ink: str, amount: float = 0.82) -> str | None:
        return None if self.ink_saver else tint(ink, amount)

    def readable(self, ink: str) -> str:
        """A darker form of a colour for text on a light ground."""
        return shade(ink, 0.3)

    def on(self, ground: str | None) -> str:
        """Text colour on a ground: white on a fill, the ink on paper."""
        return WHITE if ground is not None else self.ink


def style_for(ink_saver: bool) -> JsmnStyle:
    return JsmnStyle(ink_saver=True, panel=None) if ink_saver else JsmnStyle(ink_saver=False)
