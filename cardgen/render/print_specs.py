"""Print specifications as data: paper sizes, card sizes, sheet rules and colour themes.

Everything lives in ``data/print/*.toml`` and is validated like game content: problems are
collected with file, record and field, and raised together as one :class:`DataError`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from cardgen.catalog import DataError, data_dir
from cardgen.catalog.base import Problem, Reader

PRINT_FOLDER = "print"
_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")
_Named = TypeVar("_Named")


@dataclass(frozen=True)
class PaperSize:
    name: str
    width: float   # mm, portrait
    height: float  # mm


@dataclass(frozen=True)
class CardSize:
    name: str
    width: float   # mm, trim size, portrait
    height: float  # mm
    description: str = ""


@dataclass(frozen=True)
class SheetRules:
    """How cards are placed on a sheet and what marks surround them (all mm unless noted)."""

    margin: float = 5.0            # printable margin: nothing is printed closer to the paper edge
    gutter: float = 0.0
    allow_rotation: bool = True
    crop_gap: float = 0.5
    crop_length: float = 5.0
    crop_min_length: float = 1.5   # what a crop mark keeps at the least inside the printable margin
    crop_line_width_pt: float = 0.3
    registration_diameter: float = 5.0
    registration_line_width_pt: float = 0.3


@dataclass(frozen=True)
class TraitFamily:
    name: str
    colour: str
    traits: tuple[str, ...]


@dataclass(frozen=True)
class Theme:
    """A game's print colours: named colours plus trait families (each trait has one family)."""

    name: str
    colours: dict[str, str]
    families: tuple[TraitFamily, ...]

    def colour(self, key: str) -> str:
        return self.colours[key]

    def family_of(self, trait: str) -> TraitFamily | None:
        for family in self.families:
            if trait in family.traits:
                return family
        return None


@dataclass(frozen=True)
class PrintSpecs:
    papers: dict[str, PaperSize]
    card_sizes: dict[str, CardSize]
    sheet: SheetRules
    themes: dict[str, Theme]

    def paper(self, name: str) -> PaperSize:
        return _lookup(self.papers, name, "paper size")

    def card_size(self, name: str) -> CardSize:
        return _lookup(self.card_sizes, name, "card size")

    def theme(self, game: str) -> Theme:
        if game not in self.themes:
            raise KeyError(f"no colour theme for '{game}' in data/print/themes/")
        return self.themes[game]


def _lookup(table: dict[str, _Named], name: str, what: str) -> _Named:
    for key, value in table.items():
        if key.casefold() == name.strip().casefold():
            return value
    raise KeyError(f"unknown {what} '{name}' (known: {', '.join(table)})")


def _positive(reader: Reader, rec: dict[str, Any], record: str, key: str, *, maximum: float,
              default: float, required: bool = True, allow_zero: bool = False) -> float:
    value = rec.get(key)
    if value is None:
        if required:
            reader.problem(record, key, "is missing")
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        reader.problem(record, key, f"expected a number of millimetres, got {value!r}")
        return default
    low_ok = value >= 0 if allow_zero else value > 0
    if not low_ok or value > maximum:
        low = "0" if allow_zero else "above 0"
        reader.problem(record, key, f"{value} must be {low} and at most {maximum}")
        return default
    return float(value)


#: The smallest card (mm, portrait) the faces are laid out for: a US mini card. On a smaller one the QR code,
#: which never shrinks below its poker size so that a phone reads it, covers the card's text.
SMALLEST_CARD_MM = (41.0, 63.0)


def _named_sizes(reader: Reader, key: str, record_name: str,
                 smallest: tuple[float, float] | None = None) -> list[tuple[str, float, float, str]]:
    out: list[tuple[str, float, float, str]] = []
    seen: set[str] = set()
    for i, rec in enumerate(reader.records(reader.load(), key), 1):
        name = reader.text(rec, f"{record_name} #{i}", "name")
        label = f"{record_name} #{i} '{name}'" if name else f"{record_name} #{i}"
        if name.casefold() in seen:
            reader.problem(label, "name", f"duplicate {record_name} '{name}'")
        seen.add(name.casefold())
        width = _positive(reader, rec, label, "width", maximum=1000.0, default=1.0)
        height = _positive(reader, rec, label, "height", maximum=1000.0, default=1.0)
        if width > height:
            reader.problem(label, "width", f"{width} is wider than the height {height}; give portrait sizes")
        elif smallest is not None:
            for field, value, least in (("width", width, smallest[0]), ("height", height, smallest[1])):
                if value < least:
                    reader.problem(label, field, f"{value:g} mm is below the smallest card the faces are laid out for "
                                   f"({smallest[0]:g} × {smallest[1]:g} mm): the QR code would cover the card's text")
        out.append((name, width, height, reader.text(rec, label, "description", required=False)))
    return out


def _sheet(reader: Reader) -> SheetRules:
    doc = reader.load()
    if reader.problems:  # missing or unreadable: that one problem says it all
        return SheetRules()
    marks = doc.get("crop_marks", {})
    reg = doc.get("registration", {})
    for section, value in (("crop_marks", marks), ("registration", reg)):
        if not isinstance(value, dict):
            reader.problem(section, "", "expected a table")
    marks = marks if isinstance(marks, dict) else {}
    reg = reg if isinstance(reg, dict) else {}
    rotation = doc.get("allow_rotation", True)
    if not isinstance(rotation, bool):
        reader.problem("sheet", "allow_rotation", f"expected true or false, got {rotation!r}")
        rotation = True
    return SheetRules(
        margin=_positive(reader, doc, "sheet", "margin", maximum=50.0, default=5.0, allow_zero=True),
        gutter=_positive(reader, doc, "sheet", "gutter", maximum=50.0, default=0.0, allow_zero=True),
        allow_rotation=rotation,
        crop_gap=_positive(reader, marks, "crop_marks", "gap", maximum=10.0, default=0.5, allow_zero=True),
        crop_length=_positive(reader, marks, "crop_marks", "length", maximum=30.0, default=5.0),
        crop_min_length=_positive(reader, marks, "crop_marks", "min_length", maximum=30.0, default=1.5,
                                  required=False),
        crop_line_width_pt=_positive(reader, marks, "crop_marks", "line_width_pt", maximum=5.0, default=0.3),
        registration_diameter=_positive(reader, reg, "registration", "diameter", maximum=30.0, default=5.0),
        registration_line_width_pt=_positive(reader, reg, "registration", "line_width_pt", maximum=5.0,
                                             default=0.3),
    )


def _theme(reader: Reader, name: str) -> Theme:
    doc = reader.load()
    colours: dict[str, str] = {}
    raw = doc.get("colours", {})
    if not isinstance(raw, dict):
        reader.problem("colours", "", "expected a table of name = \"#RRGGBB\"")
        raw = {}
    for key, value in raw.items():
        if not isinstance(value, str) or not _HEX.match(value):
            reader.problem("colours", key, f"expected a colour like \"#1E2340\", got {value!r}")
            continue
        colours[key] = value
    families: list[TraitFamily] = []
    owner: dict[str, str] = {}
    for i, rec in enumerate(reader.records(doc, "family"), 1):
        fname = reader.text(rec, f"family #{i}", "name")
        label = f"family #{i} '{fname}'" if fname else f"family #{i}"
        colour = reader.text(rec, label, "colour")
        if colour and not _HEX.match(colour):
            reader.problem(label, "colour", f"expected a colour like \"#2F5D9E\", got {colour!r}")
            colour = "#666666"
        traits = reader.strings(rec, label, "traits")
        for trait in traits:
            if trait in owner:
                reader.problem(label, "traits", f"'{trait}' is already in family '{owner[trait]}'")
            owner[trait] = fname
        families.append(TraitFamily(fname, colour, traits))
    return Theme(name=name, colours=colours, families=tuple(families))


def load_print_specs(root: Path | str | None = None) -> PrintSpecs:
    """Load ``<root>/print`` (default: the project's data folder); raises DataError with every problem."""
    base = (Path(root) if root is not None else data_dir()) / PRINT_FOLDER
    paper_r, card_r, sheet_r = Reader(base, "papers.toml"), Reader(base, "card-sizes.toml"), Reader(base, "sheet.toml")
    papers = {n: PaperSize(n, w, h) for n, w, h, _ in _named_sizes(paper_r, "paper", "paper")}
    cards = {n: CardSize(n, w, h, d) for n, w, h, d in _named_sizes(card_r, "card_size", "card size", SMALLEST_CARD_MM)}
    sheet = _sheet(sheet_r)
    readers = [paper_r, card_r, sheet_r]
    themes: dict[str, Theme] = {}
    theme_dir = base / "themes"
    for path in sorted(theme_dir.glob("*.toml")) if theme_dir.is_dir() else []:
        theme_r = Reader(theme_dir, path.name)
        themes[path.stem] = _theme(theme_r, path.stem)
        readers.append(theme_r)
    problems = [p for r in readers for p in r.problems]
    if problems:
        raise DataError(problems)
    return PrintSpecs(papers=papers, card_sizes=cards, sheet=sheet, themes=themes)


@lru_cache(maxsize=None)
def _cached_specs(root: str) -> PrintSpecs:
    return load_print_specs(root)


def print_specs(root: Path | str | None = None) -> PrintSpecs:
    """The print specs of a data folder, loaded once per process."""
    return _cached_specs(str(Path(root) if root is not None else data_dir()))



def theme_problems(specs: PrintSpecs, root: Path | str | None, game: str, trait_names: list[str],
                   member: str = "trait") -> list[Problem]:
    """Mismatches between a game's colour theme and its traits (or card colours):
    every member needs exactly one family. ``member`` names what the members are in messages."""
    base = Path(root) if root is not None else data_dir()
    label = str(base / PRINT_FOLDER / "themes" / f"{game}.toml")
    if game not in specs.themes:
        return [Problem(label, "", "", f"file is missing: the {game} print kit needs a colour theme")]
    theme = specs.themes[game]
    problems: list[Problem] = []
    known = set(trait_names)
    for trait in trait_names:
        if theme.family_of(trait) is None:
            problems.append(Problem(label, "family", "traits", f"{member} '{trait}' is in no family"))
    for family in theme.families:
        for trait in family.traits:
            if trait not in known:
                problems.append(Problem(label, f"family '{family.name}'", "traits", f"unknown {member} '{trait}'"))
    return problems
