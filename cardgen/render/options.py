"""What a build is asked to do: one frozen, validated set of options shared by every document."""

from __future__ import annotations

import ipaddress
import math
import os
import re
import socket
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urlsplit

from cardgen.catalog.base import DEFAULT_DATA_DIR, DataError

from .cutter import CUTTERS
from .cutter import KEEP_MM as CUTTER_KEEP_MM
from .labels import Labels, labels_root, load_labels, use_labels
from .layout import LayoutError, SheetLayout, bleed_shortfall, plan_layout
from .print_specs import CardSize, PaperSize, PrintSpecs, SheetRules
from .qr import validate_base_url

DEFAULT_BASE_URL = "http://localhost:8000"
MAX_BLEED_MM = 10.0
MAX_BACK_OFFSET_MM = 20.0
MAX_GUTTER_MM = 20.0
HEX_SIZE_RANGE_MM = (20.0, 120.0)   # hex tiles, across flats


def back_offset_ok(value: float) -> bool:
    """Whether a back offset is a finite number of mm within ±:data:`MAX_BACK_OFFSET_MM` (NaN passes every
    comparison's "not", so it is asked for by name)."""
    return math.isfinite(value) and abs(value) <= MAX_BACK_OFFSET_MM


class BuildError(Exception):
    """A build that cannot go ahead, with a reason a person can act on."""


@dataclass(frozen=True)
class BuildOptions:
    """Everything ``cardgen build`` can be told. Lengths in millimetres."""

    game: str = "all"
    paper: str = "A4"
    card_size: str = "poker"
    bleed: float = 3.0
    crop_marks: bool = True
    duplex: bool = True
    back_offset_x: float = 0.0
    back_offset_y: float = 0.0
    ink_saver: bool = False
    base_url: str = DEFAULT_BASE_URL
    out_dir: Path = Path("output")
    data_dir: Path | None = None          # None: the project's data/ (or $SPELLBOOK_DATA)
    documents: tuple[str, ...] = field(default=())  # empty: every document of each game
    hex_size: float | None = None         # hex tiles across flats; None: the game's own default
    gutter: float | None = None           # space between cards, filled by their bleed; None: data/print/sheet.toml's
    gutter_fold: bool = False             # fronts and backs side by side on one page, folded along the middle
    lang: str = "en"                      # the printed labels: data/print/labels/<lang>.toml
    full_bleed: bool = False              # only sheet grids that keep the whole bleed round the grid
    cutter: str | None = None             # "silhouette" | "cricut": print-and-cut marks and an SVG cut file


@dataclass(frozen=True)
class ResolvedOptions:
    """Options checked against the print specs: real sizes instead of names."""

    options: BuildOptions
    specs: PrintSpecs
    paper: PaperSize
    card_size: CardSize
    base_url: str

    def card_layout(self) -> SheetLayout:
        return self.layout_for(self.card_size)

    @property
    def sheet_rules(self) -> SheetRules:
        """The sheet's rules as this build lays cards out: with a cutter, a band clear for its marks and no
        crop marks."""
        if self.options.cutter is not None:
            return replace(self.specs.sheet, margin=CUTTER_KEEP_MM, crop_gap=0.0, crop_min_length=0.0)
        return self.specs.sheet

    def layout_for(self, size: CardSize) -> SheetLayout:
        """Sheets of ``size`` pieces on this paper with this bleed; BuildError if none fits."""
        try:
            return plan_layout(self.paper, size, self.options.bleed, self.sheet_rules, self.options.gutter,
                               self.options.full_bleed)
        except LayoutError as exc:
            raise BuildError(str(exc)) from exc


def resolve(options: BuildOptions, specs: PrintSpecs) -> ResolvedOptions:
    """Check every option; raises BuildError naming the option and the accepted values."""
    try:
        paper = specs.paper(options.paper)
        card_size = specs.card_size(options.card_size)
    except KeyError as exc:
        raise BuildError(exc.args[0]) from exc
    if not 0 <= options.bleed <= MAX_BLEED_MM:
        raise BuildError(f"bleed must be between 0 and {MAX_BLEED_MM:g} mm, got {options.bleed:g}")
    for name, value in (("back offset x", options.back_offset_x), ("back offset y", options.back_offset_y)):
        if not back_offset_ok(value):
            raise BuildError(f"{name} must be within ±{MAX_BACK_OFFSET_MM:g} mm, got {value:g}")
    if options.gutter is not None and not 0 <= options.gutter <= MAX_GUTTER_MM:
        raise BuildError(f"gutter must be between 0 and {MAX_GUTTER_MM:g} mm, got {options.gutter:g}")
    low, high = HEX_SIZE_RANGE_MM
    if options.hex_size is not None and not low <= options.hex_size <= high:
        raise BuildError(f"hex size must be between {low:g} and {high:g} mm across flats, got {options.hex_size:g}")
    try:
        base_url = validate_base_url(options.base_url)
    except ValueError as exc:
        raise BuildError(str(exc)) from exc
    if options.cutter is not None and options.cutter not in CUTTERS:
        raise BuildError(f"unknown cutter '{options.cutter}' (known: {', '.join(CUTTERS)})")
    use_labels(_labels(options))
    return ResolvedOptions(options, specs, paper, card_size, base_url)


def bleed_note(resolved: ResolvedOptions, layout: SheetLayout) -> str | None:
    """What the card sheets give up of the requested bleed and why, with the layout that keeps it, or None."""
    lost = bleed_shortfall(layout)
    if not lost:
        return None
    rules = resolved.sheet_rules
    keep = rules.margin + rules.crop_gap + rules.crop_min_length
    kept_for = "the cutter's registration marks" if resolved.options.cutter is not None else \
        "the printable margin and the crop marks"
    why = (f"{layout.columns} × {layout.rows} cards leave no more room on {layout.paper.name} inside the {keep:g} mm "
           f"kept along each edge for {kept_for}") if any("grid" in n for n in lost) \
        else "the gutter is narrower than two bleeds"
    note = f"bleed reduced to {', '.join(lost)}, not {layout.bleed:g} mm: {why}"
    if any("grid" in n for n in lost) and not resolved.options.full_bleed:
        try:
            full = plan_layout(layout.paper, layout.card, layout.bleed, rules, layout.gutter, True)
        except LayoutError:
            return note
        note += f"; --full-bleed puts {full.per_sheet} a sheet with the whole {layout.bleed:g} mm round the grid"
    return note


def _labels(options: BuildOptions) -> Labels:
    return language_labels(options.data_dir, options.lang)


def language_labels(data_dir: Path | None, lang: str) -> Labels:
    """The labels of ``--lang`` from the data folder's print data (the project's when it has none)."""
    root = data_dir if data_dir is not None else Path(os.environ.get("SPELLBOOK_DATA", DEFAULT_DATA_DIR))
    try:
        return load_labels(labels_root(root), lang)
    except DataError as exc:
        raise BuildError(f"--lang {lang}: " + "; ".join(str(p) for p in exc.problems)) from exc


def _browser_address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a browser reads ``host`` as, or None for a name. A host whose last label is a number is
    an IPv4 address to a browser (the WHATWG URL standard), short and hexadecimal forms included:
    ``127.1``, ``0x7f.1`` and ``2130706433`` all open 127.0.0.1, as ``inet_aton`` reads them."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    last = host.rsplit(".", 1)[-1]
    if not re.fullmatch(r"\d+|0x[0-9a-f]*", last):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def base_url_warning(base_url: str) -> str | None:
    """Why printed QR codes with this address would be dead on every phone, or None.

    A loopback address (localhost, 127.0.0.0/8, ::1) names the phone itself, not the machine serving
    the companion: such a deck opens nothing.
    """
    host = (urlsplit(base_url.strip()).hostname or "").rstrip(".").lower()
    loopback = host == "localhost" or host.endswith(".localhost")
    address = _browser_address(host)
    if address is not None:
        mapped = getattr(address, "ipv4_mapped", None)
        loopback = address.is_loopback or address.is_unspecified or bool(mapped and mapped.is_loopback)
    if not loopback:
        return None
    return (f"the QR codes point at {base_url}, a loopback address: on a phone it opens nothing. "
            "Pass --base-url with this machine's LAN address or the companion's public address "
            "(scripts/start.sh does this for you)")
