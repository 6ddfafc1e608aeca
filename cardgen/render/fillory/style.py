"""The Magicians of Fillory look, in full colour or ink-saver form, derived from the theme data."""

from __future__ import annotations

from dataclasses import dataclass

from ..colour import shade, tint
from ..print_specs import Theme
from ..style import LIGHT_OUTLINE, type_pair

UNKNOWN_FAMILY_COLOUR = "#6B7080"

# Lato (a warm, modern sans: the books' Brakebills is today's world) for names, traits and rules, paired
# with Source Serif Pro's italic for the storybook voice of Fillory's flavour lines.
TYPE = type_pair("SourceSerif", "Lato")
BOLD, REGULAR, OBLIQUE = TYPE.sans_bold, TYPE.sans, TYPE.serif_italic
CAP_HEIGHT = TYPE.cap_height


@dataclass(frozen=True)
class ChipColours:
    fill: str | None
    edge: str
    text: str


@dataclass(frozen=True)
class FilloryStyle:
    ink_saver: bool
    frame: str | None        # bleed + border fill; None in ink-saver mode
    panel: str | None        # reading area fill; None in ink-saver mode
    outline: str | None      # light trim/panel outlines (ink-saver only)
    ink: str
    muted: str
    accent: str
    ability_fill: str | None
    back_ground: str | None
    back_lines: str
    back_text: str
    theme: Theme

    def family_colour(self, trait: str) -> str:
        family = self.theme.family_of(trait)
        return family.colour if family else UNKNOWN_FAMILY_COLOUR

    def chip(self, trait: str) -> ChipColours:
        base = self.family_colour(trait)
        if self.ink_saver:
            return ChipColours(fill=None, edge=tint(base, 0.35), text=shade(base, 0.45))
        return ChipColours(fill=tint(base, 0.84), edge=base, text=shade(base, 0.5))


def fillory_style(theme: Theme, ink_saver: bool) -> FilloryStyle:
    colour = theme.colour
    if ink_saver:
        return FilloryStyle(
            ink_saver=True, frame=None, panel=None, outline=LIGHT_OUTLINE, ink=colour("ink"),
            muted=colour("muted"), accent=shade(colour("accent"), 0.2), ability_fill=None, back_ground=None,
            back_lines=LIGHT_OUTLINE, back_text=tint(colour("muted"), 0.2), theme=theme,
        )
    return FilloryStyle(
        ink_saver=False, frame=colour("frame"), panel=colour("panel"), outline=None, ink=colour("ink"),
        muted=colour("muted"), accent=colour("accent"), ability_fill=tint(colour("accent"), 0.86),
        back_ground=colour("frame"), back_lines=colour("accent"), back_text=tint(colour("accent"), 0.35),
        theme=theme,
    )
