"""The Barony: Sorcery look, in full colour or ink-saver form.

The category colours are the rulebook's words (cyan, maroon, orange) made into printing colours; player
colours and land-type colours are ours. Every colour comes with a symbol elsewhere in the kit, so nothing
is told by colour alone. Ink-saver mode keeps thin coloured outlines and the symbols and drops every fill.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..style import LIGHT_OUTLINE, WHITE, InkSaverColours, type_pair

__all__ = ["BaronyStyle", "CAP_HEIGHT", "CATEGORY_INKS", "GOLD", "LIGHT_OUTLINE", "MAGIC_INK", "PLAYER_INKS", "SANS",
           "SANS_BOLD", "SERIF", "SERIF_BOLD", "SERIF_CAP_HEIGHT", "TERRAIN_INKS", "WHITE", "style_for"]

#: The rulebook's card colours by category, as printing colours.
CATEGORY_INKS: dict[str, str] = {"cyan": "#1597B8", "maroon": "#7D1F3A", "orange": "#E0721C"}
#: The player colours of the Control tokens (ours, as are their names).
PLAYER_INKS: dict[str, str] = {"blue": "#2F5DB8", "red": "#C7362F", "yellow": "#E8B923", "green": "#2F8A4A",
                               "purple": "#6E3A9E"}
#: Land types of the hex spaces, with the magic of the Mysterious locations.
TERRAIN_INKS: dict[str, str] = {"mountain": "#8C8A86", "forest": "#3E7A3A", "plains": "#A8C86A",
                                "fields": "#E3C35A", "lake": "#5B9BD5", "mysterious": "#3B2A5C"}
MAGIC_INK = "#2A2140"   # near-black violet: never mistaken for the purple player colour
GOLD = "#E9C46A"

# Caladea's bold capitals for spell names and titles (a medieval-manuscript feel for a game of barons),
# Source Sans Pro for the effects and rules: compact and clear at small sizes.
TYPE = type_pair("Caladea", "SourceSans")
SERIF, SERIF_BOLD = TYPE.serif, TYPE.serif_bold
SANS, SANS_BOLD = TYPE.sans, TYPE.sans_bold
CAP_HEIGHT, SERIF_CAP_HEIGHT = TYPE.cap_height, TYPE.serif_cap_height


@dataclass(frozen=True)
class BaronyStyle(InkSaverColours):
    ink_saver: bool
    ink: str = "#1E1E28"
    muted: str = "#6B7080"
    panel: str | None = "#FBF6EA"
    back: str | None = "#2A2140"

    def category_ink(self, colour_word: str) -> str:
        return CATEGORY_INKS.get(colour_word, self.muted)

    def frame(self, ink: str) -> str | None:
        """A face's bleed and border fill: ``ink`` in full colour, none in ink-saver mode."""
        return self.fill(ink)


def style_for(ink_saver: bool) -> BaronyStyle:
    if ink_saver:
        return BaronyStyle(ink_saver=True, panel=None, back=None)
    return BaronyStyle(ink_saver=False)
