"""A duplex calibration sheet and saved printer profiles.

``cardgen calibrate`` writes a two-page PDF: the front carries two millimetre scales (one across, one
upright), the back a pointer line over each, at the spot a perfect long-edge duplex print puts it. Printed
duplex and held against a light, each pointer crosses its scale at the number to pass as
``--back-offset-x`` and ``--back-offset-y`` (the scales are labelled so that no sign needs working out).
Printed again with those offsets, both pointers sit on 0.

A printer profile keeps the two numbers under a name (``cardgen printer save NAME``), in a small TOML file
outside the project (``$SPELLBOOK_PRINTERS``, else ``$XDG_CONFIG_HOME/spellbook-table/printers.toml``, else
``~/.config/spellbook-table/printers.toml``); ``cardgen build --printer NAME`` then applies them.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import tomli
from reportlab.pdfgen.canvas import Canvas

from .documents import FOOTER_BASELINE_MM, FOOTER_FONT, FOOTER_INK, set_full_page_boxes
from .fonts import KIT
from .labels import label
from .options import MAX_BACK_OFFSET_MM, BuildError, back_offset_ok
from .pdf import new_canvas, pt
from .print_specs import PaperSize

#: Half the range of each scale (mm) and the step between ticks.
SCALE_REACH_MM = 10
TICK_STEP_MM = 0.5
LABEL_EVERY_MM = 5
POINTER_HALF_MM = 7.0
RULER_MM = 150.0


@dataclass(frozen=True)
class CalibrationGeometry:
    """Where the scales sit on the front page (mm, origin bottom left): the x scale's zero and line, the y
    scale's zero and line."""

    x_zero: float
    x_scale_y: float
    y_zero: float
    y_scale_x: float
    lower_y: float = 0.0        # the two lower across scales (skew and scale): their line
    lower_left: float = 0.0     # and their zeros
    lower_right: float = 0.0

    def x_label(self, front_x: float) -> float:
        """The --back-offset-x a pointer seen at ``front_x`` on the front asks for."""
        return front_x - self.x_zero

    def y_label(self, front_y: float) -> float:
        """The --back-offset-y a pointer seen at ``front_y`` asks for (a back printed too high needs a
        negative offset)."""
        return -(front_y - self.y_zero)


def calibration_geometry(paper: PaperSize) -> CalibrationGeometry:
    return CalibrationGeometry(x_zero=paper.width / 2, x_scale_y=paper.height * 0.62,
                               y_zero=paper.height * 0.38, y_scale_x=paper.width / 2,
                               lower_y=paper.height * 0.15, lower_left=paper.width * 0.2,
                               lower_right=paper.width * 0.8)


def skew_and_scale(geo: CalibrationGeometry, upper: float, lower_left: float, lower_right: float
                   ) -> tuple[float, float]:
    """From the three across readings (mm): how far the back is turned against the front (degrees: positive
    when the lower reading is the larger) and how much wider it prints (per cent). A back that is only
    shifted reads the same on all three; one turned reads differently high and low; one scaled reads
    differently left and right."""
    spread = geo.lower_right - geo.lower_left
    scale = (lower_right - lower_left) / spread
    lower = (lower_left + lower_right) / 2 - scale * ((geo.lower_left + geo.lower_right) / 2 - geo.x_zero)
    turn = math.degrees(math.atan2(lower - upper, geo.x_scale_y - geo.lower_y))
    return round(turn, 3), round(100 * scale, 3)


def _tick_length(t: float, whole: bool) -> float:
    """Ticks: 5 mm at 0, 3.5 mm every 5 mm, 2.5 mm every millimetre, 1.2 mm at the half millimetres."""
    if abs(t) < 1e-9:
        return 5.0
    if whole:
        return 3.5 if round(t) % LABEL_EVERY_MM == 0 else 2.5
    return 1.2


def _label(value: float) -> str:
    whole = int(round(value))
    return "0" if whole == 0 else f"{whole:+d}"


def word(key: str, **fields: object) -> str:
    return label("calibrate", key, **fields)


def _ticks() -> list[float]:
    steps = int(SCALE_REACH_MM / TICK_STEP_MM)
    return [i * TICK_STEP_MM for i in range(-steps, steps + 1)]


def _front(canvas: Canvas, paper: PaperSize, geo: CalibrationGeometry) -> None:
    canvas.setFillColor("#1E1E28")
    canvas.setFont(KIT.bold, 14)
    canvas.drawCentredString(pt(paper.width / 2), pt(paper.height - 25), word("heading"))
    canvas.setFont(KIT.regular, 9)
    lines = [word("how_1"), word("how_2"), word("how_3"), word("how_4")]
    for i, line in enumerate(lines):
        canvas.drawCentredString(pt(paper.width / 2), pt(paper.height - 35 - i * 5), line)
    canvas.setStrokeColor("#000000")
    canvas.setLineWidth(0.25)
    # across: ticks upwards from a base line, labelled with the x offset to pass
    y = geo.x_scale_y
    canvas.line(pt(geo.x_zero - SCALE_REACH_MM), pt(y), pt(geo.x_zero + SCALE_REACH_MM), pt(y))
    canvas.setFont(KIT.regular, 6)
    for t in _ticks():
        whole = abs(t - round(t)) < 1e-9
        length = _tick_length(t, whole)
        canvas.line(pt(geo.x_zero + t), pt(y), pt(geo.x_zero + t), pt(y + length))
        if whole and round(t) % LABEL_EVERY_MM == 0:
            canvas.drawCentredString(pt(geo.x_zero + t), pt(y - 3), _label(geo.x_label(geo.x_zero + t)))
    canvas.setFont(KIT.bold, 8)
    canvas.drawCentredString(pt(geo.x_zero), pt(y - 9), word("across"))
    # upright: ticks to the right of a base line, labelled with the y offset to pass
    x = geo.y_scale_x
    canvas.line(pt(x), pt(geo.y_zero - SCALE_REACH_MM), pt(x), pt(geo.y_zero + SCALE_REACH_MM))
    canvas.setFont(KIT.regular, 6)
    for t in _ticks():
        whole = abs(t - round(t)) < 1e-9
        length = _tick_length(t, whole)
        canvas.line(pt(x), pt(geo.y_zero + t), pt(x + length), pt(geo.y_zero + t))
        if whole and round(t) % LABEL_EVERY_MM == 0:
            canvas.drawRightString(pt(x - 1.5), pt(geo.y_zero + t - 0.7),
                                   _label(geo.y_label(geo.y_zero + t)))
    canvas.setFont(KIT.bold, 8)
    canvas.drawString(pt(x + 8), pt(geo.y_zero - 1), word("upright"))
    # skew and scale: two more across scales low on the page, left and right (read them like the first:
    # the same number on all three is a plain shift; different numbers high and low, a turned back;
    # different numbers left and right, a back printed larger or smaller)
    for zero, name in ((geo.lower_left, "lower_left"), (geo.lower_right, "lower_right")):
        y = geo.lower_y
        canvas.setFont(KIT.regular, 6)
        canvas.line(pt(zero - SCALE_REACH_MM), pt(y), pt(zero + SCALE_REACH_MM), pt(y))
        for t in _ticks():
            whole = abs(t - round(t)) < 1e-9
            canvas.line(pt(zero + t), pt(y), pt(zero + t), pt(y + _tick_length(t, whole)))
            if whole and round(t) % LABEL_EVERY_MM == 0:
                canvas.drawCentredString(pt(zero + t), pt(y - 3), _label(t))
        canvas.setFont(KIT.bold, 8)
        canvas.drawCentredString(pt(zero), pt(y - 9), word(name))
    canvas.setFont(KIT.regular, 7.5)
    canvas.drawCentredString(pt(paper.width / 2), pt(geo.lower_y - 15),
                             word("skew"))
    # the absolute scale: a 150 mm rule to measure with a ruler ("fit to page" prints it about 3 % short)
    ruler_y = geo.lower_y + 22
    left = paper.width / 2 - RULER_MM / 2
    canvas.line(pt(left), pt(ruler_y), pt(left + RULER_MM), pt(ruler_y))
    for mm in range(0, int(RULER_MM) + 1, 10):
        canvas.line(pt(left + mm), pt(ruler_y), pt(left + mm), pt(ruler_y + (3 if mm % 50 else 5)))
    canvas.setFont(KIT.regular, 7.5)
    canvas.drawCentredString(pt(paper.width / 2), pt(ruler_y - 4), word("ruler", length=f"{RULER_MM:g}"))


def back_pointers(paper: PaperSize, geo: CalibrationGeometry, offset_x: float, offset_y: float
                  ) -> tuple[float, float]:
    """Where the back page draws its two pointers (x of the upright one, y of the level one), in the back
    page's own coordinates: mirrored for long-edge duplex, shifted by the offsets like every back."""
    return paper.width - geo.x_zero + offset_x, geo.y_zero + offset_y


def _back(canvas: Canvas, paper: PaperSize, geo: CalibrationGeometry, offset_x: float, offset_y: float) -> None:
    px, py = back_pointers(paper, geo, offset_x, offset_y)
    canvas.setStrokeColor("#000000")
    canvas.setLineWidth(0.5)
    canvas.line(pt(px), pt(geo.x_scale_y - POINTER_HALF_MM), pt(px), pt(geo.x_scale_y + POINTER_HALF_MM))
    level_x = paper.width - geo.y_scale_x + offset_x   # the upright scale, mirrored
    canvas.line(pt(level_x - POINTER_HALF_MM), pt(py), pt(level_x + POINTER_HALF_MM), pt(py))
    for zero in (geo.lower_left, geo.lower_right):   # the lower across scales' pointers, mirrored likewise
        lx = paper.width - zero + offset_x
        canvas.line(pt(lx), pt(geo.lower_y - POINTER_HALF_MM), pt(lx), pt(geo.lower_y + POINTER_HALF_MM))
    canvas.setFillColor("#1E1E28")
    canvas.setFont(KIT.regular, 9)
    canvas.drawCentredString(pt(paper.width / 2), pt(paper.height - 25),
                             word("back", x=f"{offset_x:g}", y=f"{offset_y:g}"))


def render_calibration(path: Path, paper: PaperSize, offset_x: float = 0.0, offset_y: float = 0.0) -> None:
    for value in (offset_x, offset_y):
        if not back_offset_ok(value):
            raise BuildError(f"back offsets must be within ±{MAX_BACK_OFFSET_MM:g} mm, got {value:g}")
    geo = calibration_geometry(paper)
    canvas = new_canvas(path, paper.width, paper.height, title=word("title", paper=paper.name), subject=word("subject"))
    for draw in (lambda: _front(canvas, paper, geo), lambda: _back(canvas, paper, geo, offset_x, offset_y)):
        draw()
        canvas.setFont(FOOTER_FONT, 7)
        canvas.setFillColor(FOOTER_INK)
        canvas.drawString(pt(12), pt(FOOTER_BASELINE_MM), word("footer", paper=paper.name))
        set_full_page_boxes(canvas, paper)
        canvas.showPage()
    canvas.save()


# -- printer profiles ------------------------------------------------------------------------------

@dataclass(frozen=True)
class PrinterProfile:
    name: str
    back_offset_x: float
    back_offset_y: float


def profiles_path() -> Path:
    explicit = os.environ.get("SPELLBOOK_PRINTERS")
    if explicit:
        return Path(explicit)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "spellbook-table" / "printers.toml"


def load_profiles(path: Path | None = None) -> dict[str, PrinterProfile]:
    path = path or profiles_path()
    if not path.exists():
        return {}
    try:
        data = tomli.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError) as exc:
        raise BuildError(f"cannot read the printer profiles in {path}: {exc}") from exc
    profiles: dict[str, PrinterProfile] = {}
    for name, entry in (data.get("printer") or {}).items():
        try:
            x, y = float(entry.get("back_offset_x", 0.0)), float(entry.get("back_offset_y", 0.0))
        except (TypeError, ValueError, AttributeError) as exc:
            raise BuildError(f"{path}: printer '{name}': back_offset_x and back_offset_y must be numbers") from exc
        for field, value in (("back_offset_x", x), ("back_offset_y", y)):
            if not back_offset_ok(value):
                raise BuildError(f"{path}: printer '{name}': {field} must be a number of mm within "
                                 f"±{MAX_BACK_OFFSET_MM:g}, got {value:g} (save the printer again with "
                                 "cardgen printer save)")
        profiles[name] = PrinterProfile(name, x, y)
    return profiles


def save_profile(profile: PrinterProfile, path: Path | None = None) -> Path:
    """Add or replace a profile; the file is rewritten whole (write to a temporary name, then rename)."""
    for value in (profile.back_offset_x, profile.back_offset_y):
        if not back_offset_ok(value):
            raise BuildError(f"back offsets must be within ±{MAX_BACK_OFFSET_MM:g} mm, got {value:g}")
    if not profile.name.strip():
        raise BuildError("a printer profile needs a name")
    path = path or profiles_path()
    profiles = load_profiles(path)
    profiles[profile.name] = profile
    lines = ["# Printer profiles for `cardgen build --printer NAME` (written by `cardgen printer save`).", ""]
    for entry in sorted(profiles.values(), key=lambda p: p.name):
        lines += [f"[printer.{json.dumps(entry.name)}]", f"back_offset_x = {entry.back_offset_x!r}",
                  f"back_offset_y = {entry.back_offset_y!r}", ""]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_text("\n".join(lines), encoding="utf-8")
        os.replace(partial, path)
    except OSError as exc:
        raise BuildError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return path


def profile(name: str, path: Path | None = None) -> PrinterProfile:
    profiles = load_profiles(path)
    if name not in profiles:
        known = ", ".join(sorted(profiles)) or "none saved yet: run cardgen calibrate, then cardgen printer save"
        raise BuildError(f"unknown printer '{name}' (known: {known})")
    return profiles[name]
