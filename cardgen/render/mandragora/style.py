"""The Mandragora look, in full colour or ink-saver form, derived from the theme data.

Each card colour's ink comes from the theme's families (for Mandragora a family is one colour, its
member the colour id). Ink-saver mode keeps the colour symbols and thin coloured outlines but
drops every large fill, so a sheet costs little toner and still reads without colour.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.catalog.mandragora import Card, MandragoraContent

from ..colour import shade, tint
from ..print_specs import Theme
from ..style import LIGHT_OUTLINE, type_pair

__all__ = ["CAP_HEIGHT", "FALLBACK_INK", "LIGHT_OUTLINE", "MandragoraStyle", "SANS", "SANS_BOLD", "SERIF", "SERIF_BOLD",
           "SERIF_CAP_HEIGHT", "SERIF_ITALIC", "mandragora_style", "style_for"]

FALLBACK_INK = "#6B7080"

# Caladea (an old-style serif with sturdy bold capitals) for names and titles, paired with Lato (a
# humanist sans, open at small sizes) for the recipes and rules.
TYPE = type_pair("Caladea", "Lato")
SERIF, SERIF_BOLD, SERIF_ITALIC = TYPE.serif, TYPE.serif_bold, TYPE.serif_italic
SANS, SANS_BOLD = TYPE.sans, TYPE.sans_bold
CAP_HEIGHT, SERIF_CAP_HEIGHT = TYPE.cap_height, TYPE.serif_cap_height


@dataclass(frozen=True)
class MandragoraStyle:
    ink_saver: bool
    theme: Theme
    item_frame: str | None   # border + bleed of item cards without a colour (scrolls, mandrakes)
    spell_frame: str | None  # border + bleed of spell cards
    panel: str | None        # the readable area
    outline: str | None      # ink-saver: light cut guide and panel edges
    ink: str
    muted: str
    accent: str
    curse: str
    mandrake: str
    day: str | None
    day_ink: str
    night: str | None
    night_ink: str

    def colour_ink(self, colour_id: str) -> str:
        """The printing colour of a card colour (its theme family)."""
        family = self.theme.family_of(colour_id)
        return family.colour if family else FALLBACK_INK

    def card_ink(self, card: Card) -> str:
        """The colour a card is identified by: its own colour, or the kind's (curse, mandrake, spell)."""
        if card.colour is not None:
            return self.colour_ink(card.colour)
        if card.kind == "cursed_scroll":
            return self.curse
        if card.kind == "mandrake":
            return self.mandrake
        return self.theme.colour("spell_frame")

    def frame_for(self, card: Card) -> str | None:
        """The border fill of a card face (None in ink-saver mode)."""
        if self.ink_saver:
            return None
        if card.kind == "spell":
            return self.spell_frame
        return self.card_ink(card)

    def medallion(self, ink: str) -> str | None:
        """A pale disc behind a big symbol (None in ink-saver mode)."""
        return None if self.ink_saver else tint(ink, 0.82)

    def readable(self, ink: str) -> str:
        """A darker form of a colour for text on the panel (yellow text must stay legible)."""
        return shade(ink, 0.35)


def mandragora_style(theme: Theme, ink_saver: bool) -> MandragoraStyle:
    colour = theme.colour
    if ink_saver:
        return MandragoraStyle(
            ink_saver=True, theme=theme, item_frame=None, spell_frame=None, panel=None, outline=LIGHT_OUTLINE,
            ink=colour("ink"), muted=colour("muted"), accent=shade(colour("accent"), 0.2), curse=colour("curse"),
            mandrake=colour("mandrake"), day=None, day_ink=colour("ink"), night=None, night_ink=colour("ink"),
        )
    return MandragoraStyle(
        ink_saver=False, theme=theme, item_frame=colour("frame"), spell_frame=colour("spell_frame"),
        panel=colour("panel"), outline=None, ink=colour("ink"), muted=colour("muted"), accent=colour("accent"),
        curse=colour("curse"), mandrake=colour("mandrake"), day=colour("day"), day_ink=colour("day_ink"),
        night=colour("night"), night_ink=colour("night_ink"),
    )


def style_for(content: MandragoraContent, theme: Theme, ink_saver: bool) -> MandragoraStyle:
    """The style, checked: every colour of the content must have a theme family."""
    missing = [c.id for c in content.colours if theme.family_of(c.id) is None]
    if missing:
        raise KeyError(f"the mandragora colour theme has no family for {', '.join(missing)}")
    return mandragora_style(theme, ink_saver)
