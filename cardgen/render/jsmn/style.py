"""The Jonathan Strange & Mr Norrell look, in full colour or ink-saver form.

All colours are ours (the rulebook names none but the "silver" basin and the red book slot). Every colour
comes with a symbol or a word elsewhere in the kit: elements have their own drawings, magicians their own
shapes, London locations the L badge. Ink-saver mode keeps thin coloured outlines, symbols and text and
drops every large fill.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..style import (
    CAP_HEIGHT,
    LIGHT_OUTLINE,
    SANS,
    SANS_BOLD,
    SERIF,
    SERIF_BOLD,
    SERIF_CAP_HEIGHT,
    SERIF_ITALIC,
    WHITE,
    InkSaverColours,
)

__all__ = ["ANY_ELEMENT_INK", "CAP_HEIGHT", "DECK_INKS", "ELEMENT_INKS", "FAIRY_INK", "JsmnStyle", "LIGHT_OUTLINE",
           "LONDON_INK", "MAGICIAN_INKS", "RAVEN_INK", "RED_SLOT", "SANS", "SANS_BOLD", "SERIF", "SERIF_BOLD",
           "SERIF_CAP_HEIGHT", "SERIF_ITALIC", "SILVER", "WHITE", "style_for"]

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
class JsmnStyle(InkSaverColours):
    ink_saver: bool
    ink: str = "#1E1E28"
    muted: str = "#5E6270"
    panel: str | None = "#FBF7EE"
    pale_amount: ClassVar[float] = 0.82

    def element_ink(self, element: str) -> str:
        return ELEMENT_INKS.get(element, ANY_ELEMENT_INK)

    def deck_ink(self, kind: str) -> str:
        return DECK_INKS[kind]



def style_for(ink_saver: bool) -> JsmnStyle:
    return JsmnStyle(ink_saver=True, panel=None) if ink_saver else JsmnStyle(ink_saver=False)
