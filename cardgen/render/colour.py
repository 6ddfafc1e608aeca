"""Colour arithmetic on "#RRGGBB" strings (tints and shades for chips, ink-saver greys)."""

from __future__ import annotations

from functools import lru_cache


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c))):02X}" for c in rgb)


@lru_cache(maxsize=1024)
def mix(colour: str, other: str, amount: float) -> str:
    """``colour`` moved ``amount`` (0..1) of the way towards ``other`` (remembered: faces ask for the same
    tints and shades card after card)."""
    a, b = _rgb(colour), _rgb(other)
    return _hex(tuple(x + (y - x) * amount for x, y in zip(a, b, strict=True)))  # type: ignore[arg-type]


def tint(colour: str, amount: float) -> str:
    """Lighter: ``amount`` of the way to white."""
    return mix(colour, "#FFFFFF", amount)


def shade(colour: str, amount: float) -> str:
    """Darker: ``amount`` of the way to black."""
    return mix(colour, "#000000", amount)


def luminance(colour: str) -> float:
    """Relative luminance (WCAG) of a colour, 0 (black) .. 1 (white)."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = _rgb(colour)
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio between two colours (1..21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
