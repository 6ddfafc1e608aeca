"""QR codes drawn as one vector path: crisp at any printer resolution, small in the PDF.

The codewords come from the ``qrcode`` package (error correction M: a smudged or creased card still
scans). Choosing the mask is ours: ``qrcode`` lays the whole symbol out nine times and scores each
layout module by module, which made QR codes most of a deck's build time. :func:`encode` lays it out
once, then applies and scores the eight masks on whole rows held as integers (bit operations and
regular expressions), picking exactly the mask ``qrcode`` would pick: the codes are identical,
about six times faster (``tests/test_qr.py`` checks both; ``bench/bench_build.py`` measures it).

Drawing is ours too: each row's runs of dark modules become rectangles of a single path in module
units, filled once, on a light square that includes the 4-module quiet zone scanners need.
Codes can also be kept on disk between builds (:func:`disk_cache`), keyed by their payload.
"""

from __future__ import annotations

import json
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import qrcode
from qrcode import util as qr_util
from qrcode.constants import ERROR_CORRECT_M
from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

QUIET_ZONE_MODULES = 4
#: Bumped whenever encode() could give a different matrix for the same payload (invalidates caches).
ENCODER_ID = f"ec-M/qrcode-{package_version('qrcode')}/masks-1"


@dataclass(frozen=True)
class QrMatrix:
    payload: str
    version: int
    rows: tuple[tuple[bool, ...], ...]  # True = dark module; row 0 is the top
    _path: list[str] = field(default_factory=list, init=False, repr=False, compare=False, hash=False)
    _lines: tuple[str, ...] = field(default=(), repr=False, compare=False, hash=False)  # rows as "0101…"

    @property
    def modules(self) -> int:
        return len(self.rows)

    def runs(self) -> list[tuple[int, int, int]]:
        """Horizontal runs of dark modules as (row, first column, length)."""
        if self._lines:
            return [(r, run.start(), run.end() - run.start())
                    for r, line in enumerate(self._lines) for run in _DARK_RUN.finditer(line)]
        out: list[tuple[int, int, int]] = []
        for r, row in enumerate(self.rows):
            c = 0
            while c < len(row):
                if row[c]:
                    start = c
                    while c < len(row) and row[c]:
                        c += 1
                    out.append((r, start, c - start))
                else:
                    c += 1
        return out

    def path_operators(self) -> str:
        """PDF path operators for every dark run in module units (y up, row 0 at the top); made once."""
        if not self._path:
            n = self.modules
            self._path.append("\n".join(f"{column} {n - 1 - row} {length} 1 re" for row, column, length in self.runs()))
        return self._path[0]


# -- encoding -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Layout:
    """Where a version's modules are (rows as integers) and the masks, packed for scoring.

    For scoring, a symbol's rows and then its columns are packed into one integer, each line of
    ``size`` bits followed by a zero bit that keeps runs and patterns from crossing lines.
    """

    size: int
    data: tuple[int, ...]                  # per row: bit set where a data module is
    reserved: tuple[int, ...]              # per row: format info, version info and the dark module
    masks: tuple[tuple[int, ...], ...]     # per mask pattern, per row: data modules the mask flips
    packed_masks: tuple[int, ...]          # per mask pattern: its rows and columns, packed
    lines: int                             # packed: every module bit (no separators)
    windows: int                           # packed: where an 11-module window fits inside its line
    blocks: int                            # packed: top-left corners of 2x2 blocks (row part)


def _bit(size: int, column: int) -> int:
    """Rows are integers read left to right: column 0 is the most significant of ``size`` bits."""
    return 1 << (size - 1 - column)


def _pack(rows: list[int] | tuple[int, ...], n: int) -> int:
    """Rows then columns of a symbol as one integer (see :class:`_Layout`)."""
    lines = [format(row, f"0{n}b") for row in rows]
    return int("0".join(lines + ["".join(column) for column in zip(*lines)]), 2)


@lru_cache(maxsize=40)
def _layout(version: int) -> _Layout:
    n = 4 * version + 17
    function = [[False] * n for _ in range(n)]

    def mark(row: int, column: int) -> None:
        function[row][column] = True

    for top, left in ((0, 0), (0, n - 8), (n - 8, 0)):  # finder patterns with their separators
        for r in range(top, top + 8):
            for c in range(left, left + 8):
                mark(r, c)
    centres = qr_util.pattern_position(version)
    for row in centres:  # alignment patterns, except where they would sit on a finder
        for column in centres:
            if function[row][column]:
                continue
            for r in range(row - 2, row + 3):
                for c in range(column - 2, column + 3):
                    mark(r, c)
    for i in range(n):  # timing patterns
        mark(6, i)
        mark(i, 6)
    reserved = [[False] * n for _ in range(n)]
    for r, c in _format_positions(n):
        reserved[r][c] = True
    reserved[n - 8][8] = True  # the dark module
    if version >= 7:
        for i in range(18):
            reserved[i // 3][i % 3 + n - 11] = True
            reserved[i % 3 + n - 11][i // 3] = True

    def rows_of(grid: list[list[bool]]) -> tuple[int, ...]:
        return tuple(sum(_bit(n, c) for c in range(n) if grid[r][c]) for r in range(n))

    data_grid = [[not function[r][c] and not reserved[r][c] for c in range(n)] for r in range(n)]
    masks = []
    for pattern in range(8):
        flips = qr_util.mask_func(pattern)
        masks.append(rows_of([[data_grid[r][c] and flips(r, c) for c in range(n)] for r in range(n)]))
    stride, full = n + 1, (1 << n) - 1
    lines = sum(full << (slot * stride) for slot in range(2 * n))
    windows = sum(((1 << (n - 10)) - 1) << (slot * stride) for slot in range(2 * n))
    blocks = sum(((1 << (n - 1)) - 1) << (slot * stride) for slot in range(n, 2 * n - 1))  # rows are on top
    return _Layout(n, rows_of(data_grid), rows_of(reserved), tuple(masks),
                   tuple(_pack(mask, n) for mask in masks), lines, windows, blocks)


def _format_positions(n: int) -> list[tuple[int, int]]:
    """The 15 format bits, least significant first, in both copies (as ``qrcode`` places them)."""
    vertical = [(i, 8) if i < 6 else (i + 1, 8) if i < 8 else (n - 15 + i, 8) for i in range(15)]
    horizontal = [(8, n - 1 - i) if i < 8 else (8, 7) if i == 8 else (8, 14 - i) for i in range(15)]
    return vertical + horizontal


def _format_rows(layout: _Layout, error_correction: int, pattern: int, version: int) -> list[int]:
    """Format information for the mask (both copies), the dark module and the version information."""
    n = layout.size
    rows = [0] * n
    bits = qr_util.BCH_type_info((error_correction << 3) | pattern)
    for i, (r, c) in enumerate(_format_positions(n)):
        if (bits >> (i % 15)) & 1:
            rows[r] |= _bit(n, c)
    rows[n - 8] |= _bit(n, 8)
    if version >= 7:
        number = qr_util.BCH_type_number(version)
        for i in range(18):
            if (number >> i) & 1:
                rows[i // 3] |= _bit(n, i % 3 + n - 11)
                rows[i % 3 + n - 11] |= _bit(n, i // 3)
    return rows


_DARK_RUN = re.compile("1+")
#: The two 1:1:3:1:1 finder-like patterns with 4 light modules on one side (mirror images).
_FINDER_LIKE = ("10111010000", "00001011101")


def penalty(packed: int, layout: _Layout) -> int:
    """The mask score ``qrcode`` uses (``util.lost_point``), on a packed symbol (a few big-integer steps).

    Runs of 5 or more modules of one colour score their length less 2; each finder-like pattern 40;
    each 2x2 block of one colour 3; and every 5 % that dark modules stray from half, 10.
    """
    n = layout.size
    light = ~packed & layout.lines
    score = 0
    for colour in (packed, light):
        fives = colour & (colour >> 1) & (colour >> 2) & (colour >> 3) & (colour >> 4)
        score += fives.bit_count() + 2 * (fives & ~(fives >> 1)).bit_count()  # (len - 4) + 2 per run
    for pattern in _FINDER_LIKE:
        found = layout.windows
        for shift, module in enumerate(pattern):
            found &= (packed if module == "1" else light) >> shift
        score += 40 * found.bit_count()
    same_below = ~(packed ^ (packed >> (n + 1)))
    same_beside = ~(packed ^ (packed >> 1))
    score += 3 * (same_below & (same_below >> 1) & same_beside & layout.blocks).bit_count()
    dark = (packed >> (n * (n + 1))).bit_count()
    return score + int(abs(float(dark) / (n * n) * 100 - 50) / 5) * 10


_AS_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def encode(payload: str) -> QrMatrix:
    """Encode ``payload`` (uncached: the benchmark measures this). Same matrix as ``qrcode`` makes."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=0)
    code.add_data(payload)
    code.make(fit=True)  # one layout, with mask 0
    version = int(code.version)
    layout = _layout(version)
    n = layout.size
    laid_out = [int(bytes(row).translate(_AS_DIGITS), 2) for row in code.modules[:n]]
    plain = [(row & data) ^ flip for row, data, flip in zip(laid_out, layout.data, layout.masks[0])]
    fixed = [row & ~data & ~reserved for row, data, reserved in zip(laid_out, layout.data, layout.reserved)]
    packed_fixed, packed_plain = _pack(fixed, n), _pack(plain, n)
    # scored as qrcode scores them: format and version bits still blank; the first best mask wins
    scores = [penalty(packed_fixed | (packed_plain ^ mask), layout) for mask in layout.packed_masks]
    best = scores.index(min(scores))
    extra = _format_rows(layout, ERROR_CORRECT_M, best, version)
    final = [f | e | (d ^ m) for f, e, d, m in zip(fixed, extra, plain, layout.masks[best])]
    return _matrix(payload, version, final, n)


def _matrix(payload: str, version: int, rows: list[int], n: int) -> QrMatrix:
    lines = tuple(format(row, f"0{n}b") for row in rows)
    return QrMatrix(payload, version, tuple(tuple(map("1".__eq__, line)) for line in lines), lines)


def encode_with_qrcode(payload: str) -> QrMatrix:
    """The ``qrcode`` package on its own (it scores every mask itself): the reference :func:`encode` matches."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    code.add_data(payload)
    code.make(fit=True)
    return QrMatrix(payload, int(code.version), tuple(tuple(bool(v) for v in row) for row in code.get_matrix()))


# -- caches -----------------------------------------------------------------------------------------

class _DiskCache:
    """Matrices by payload in one JSON file; entries not used by a build are dropped when it is saved."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.stored: dict[str, Any] = {}
        self.used: dict[str, Any] = {}
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(saved, dict) and saved.get("encoder") == ENCODER_ID and isinstance(saved.get("codes"), dict):
                self.stored = saved["codes"]
        except (OSError, ValueError):
            pass  # no cache yet, or an unreadable one: start afresh

    def get(self, payload: str) -> QrMatrix | None:
        entry = self.stored.get(payload)
        if not isinstance(entry, dict):
            return None
        try:
            version, hex_rows = int(entry["version"]), [int(h, 16) for h in entry["rows"]]
        except (KeyError, TypeError, ValueError):
            return None
        n = 4 * version + 17
        if len(hex_rows) != n:
            return None
        self.used[payload] = entry
        return _matrix(payload, version, hex_rows, n)

    def put(self, matrix: QrMatrix) -> None:
        lines = matrix._lines or tuple("".join("1" if m else "0" for m in row) for row in matrix.rows)
        rows = [format(int(line, 2), "x") for line in lines]
        self.used[matrix.payload] = {"version": matrix.version, "rows": rows}

    def save(self) -> None:
        if self.used == self.stored:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps({"encoder": ENCODER_ID, "codes": self.used}, separators=(",", ":")),
                           encoding="utf-8")
        os.replace(partial, self.path)


_disk: list[_DiskCache] = []


@contextmanager
def disk_cache(path: Path) -> Iterator[None]:
    """Within the block, :func:`qr_matrix` also reads and writes codes kept in the file ``path``.

    The file is rewritten (atomically) only if the block completes and its codes changed.
    """
    cache = _DiskCache(path)
    _disk.append(cache)
    try:
        yield
    finally:
        _disk.remove(cache)
    cache.save()


@lru_cache(maxsize=4096)
def _memory(payload: str) -> QrMatrix:
    return encode(payload)


def qr_matrix(payload: str) -> QrMatrix:
    """The code for ``payload``: from this process's memory, else the disk cache if one is open, else encoded."""
    if not _disk:
        return _memory(payload)
    cache = _disk[-1]
    found = cache.get(payload)
    if found is None:
        found = _memory(payload)
        cache.put(found)
    return found


qr_matrix.cache_clear = _memory.cache_clear  # type: ignore[attr-defined]  # benchmarks clear the memory


# -- URLs -------------------------------------------------------------------------------------------

def validate_base_url(base_url: str) -> str:
    """The companion's address without a trailing slash; ValueError with a reason if unusable."""
    url = base_url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"base URL must start with http:// or https:// and name a host, got '{base_url}'")
    if parts.query or parts.fragment:
        raise ValueError(f"base URL must not carry a query or fragment, got '{base_url}'")
    if any(ch.isspace() for ch in url):
        raise ValueError(f"base URL must not contain spaces, got '{base_url}'")
    return url


def card_url(base_url: str, game: str, card_id: str) -> str:
    """The companion page a printed card's QR code opens: ``<base>/c/<game>/<card id>``."""
    return f"{base_url.rstrip('/')}/c/{game}/{card_id}"


# -- drawing ----------------------------------------------------------------------------------------

@lru_cache(maxsize=256)
def _colour(value: str) -> Color:
    """"#RRGGBB" as a ReportLab colour, converted once (ReportLab's own parsing is slow for strings)."""
    return HexColor(value)


def draw_qr(canvas: Canvas, matrix: QrMatrix, x: float, y: float, size: float, *,
            dark: str = "#000000", light: str | None = "#FFFFFF") -> None:
    """Draw the code with its quiet zone in the square (x, y, size) given in points.

    ``light`` paints the square first (None leaves the background as it is, which must be light).
    """
    canvas.saveState()
    if light is not None:
        canvas.setFillColor(_colour(light) if isinstance(light, str) else light)
        canvas.rect(x, y, size, size, stroke=0, fill=1)
    module = size / (matrix.modules + 2 * QUIET_ZONE_MODULES)
    # Drawn in module units (whole numbers make a short path); row 0 is the top row.
    canvas.translate(x + QUIET_ZONE_MODULES * module, y + QUIET_ZONE_MODULES * module)
    canvas.scale(module, module)
    canvas.setFillColor(_colour(dark) if isinstance(dark, str) else dark)
    canvas.addLiteral(matrix.path_operators() + "\nf")
    canvas.restoreState()
