"""QR codes drawn as one vector path: crisp at any printer resolution, small in the PDF.

Codes are those of the ``qrcode`` package at error correction M (a smudged or creased card still
scans) with one fixed mask pattern: left to itself, ``qrcode`` lays each symbol out eight times to
score every mask (about 4 ms a code; the QR standard allows any mask). A payload that ``qrcode``
writes as one byte-mode segment, as every card URL is, is encoded here on ``qrcode``'s own layout,
version choice and padding, with our Reed-Solomon and module placement: the very same matrix
(tested against ``qrcode`` for every version, 1 to 40) at about 0.12 ms instead of 0.8 ms. Every
printed code is also decoded back in the tests, and ``bench/bench_build.py`` measures each way.

Drawing is ours too: each row's runs of dark modules become rectangles of a single path in module
units, filled once, on a light square that includes the 4-module quiet zone scanners need.
Codes can also be kept on disk between builds (:func:`disk_cache`), keyed by their payload.
"""

from __future__ import annotations

import json
import os
import re
from bisect import bisect_left
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

import qrcode
from qrcode import util as qr_util
from qrcode.base import rs_blocks
from qrcode.constants import ERROR_CORRECT_M
from qrcode.exceptions import DataOverflowError
from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

QUIET_ZONE_MODULES = 4
_DARK_RUN = re.compile("1+")
#: Bumped whenever encode() could give a different matrix for the same payload (invalidates caches).
ENCODER_ID = f"ec-M/qrcode-{package_version('qrcode')}/mask-2"


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
            if self._lines:  # straight from the row text, in one pass
                self._path.append("\n".join([f"{run.start()} {n - 1 - row} {run.end() - run.start()} 1 re"
                                             for row, line in enumerate(self._lines)
                                             for run in _DARK_RUN.finditer(line)]))
            else:
                self._path.append("\n".join(f"{column} {n - 1 - row} {length} 1 re"
                                            for row, column, length in self.runs()))
        return self._path[0]


# -- encoding -------------------------------------------------------------------------------------

#: The mask pattern every code uses (0-7; any is valid). Changing it changes every printed code.
FIXED_MASK = 2


def encode(payload: str) -> QrMatrix:
    """Encode ``payload`` at level M with the fixed mask (uncached: the benchmark measures this).

    A payload that ``qrcode`` would write as one byte-mode segment (every card URL) takes
    :func:`_byte_mode_matrix`, which gives the very same matrix about six times sooner; anything
    else (numeric or alphanumeric runs) is left to ``qrcode``.
    """
    chunks = list(qr_util.optimal_data_chunks(payload, minimum=20))  # how qrcode.add_data splits it
    if len(chunks) == 1 and chunks[0].mode == qr_util.MODE_8BIT_BYTE:
        return _byte_mode_matrix(payload, bytes(chunks[0].data))
    return _qrcode_matrix(payload, FIXED_MASK)


def encode_best_mask(payload: str) -> QrMatrix:
    """``qrcode`` scoring all eight masks itself: the slower default, kept for the benchmark."""
    return _qrcode_matrix(payload, None)


def _qrcode_matrix(payload: str, mask: int | None) -> QrMatrix:
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=mask)
    code.add_data(payload)
    code.make(fit=True)
    lines = tuple("".join("1" if v else "0" for v in row) for row in code.get_matrix())
    return _from_lines(payload, int(code.version), lines)


# -- byte mode, fast: qrcode's own layout, version choice and padding; our Reed-Solomon and placement --

class _Layout(qrcode.QRCode):  # type: ignore[misc]
    """A QRCode that stops where it would place the data: its modules are then the function
    patterns, format and version information that ``qrcode`` itself draws (None = a data module)."""

    def map_data(self, data: Any, mask_pattern: int) -> None:
        self.template = [list(row) for row in self.modules]


@dataclass(frozen=True)
class _VersionPlan:
    blocks: tuple[tuple[int, int], ...]   # (data codewords, error-correction codewords) per block
    data_codewords: int
    modules: int                          # per side
    data_modules: int                     # data and remainder bits, in qrcode's map_data walk
    mask: int                             # the fixed mask's bits along that walk, first bit highest
    gather: Callable[[str], tuple[str, ...]]  # walk bits + "01" -> every module, row by row


@lru_cache(maxsize=None)
def _version_plan(version: int) -> _VersionPlan:
    layout = _Layout(version=version, error_correction=ERROR_CORRECT_M, border=0)
    layout.data_cache = []  # skip the data: only the template is wanted
    layout.makeImpl(False, FIXED_MASK)
    template = layout.template
    n = len(template)
    positions: list[tuple[int, int]] = []
    row, step = n - 1, -1
    for col in range(n - 1, 0, -2):  # two columns at a time from the right, up then down
        if col <= 6:
            col -= 1  # the vertical timing pattern is skipped
        while 0 <= row < n:
            positions += [(row, c) for c in (col, col - 1) if template[row][c] is None]
            row += step
        row, step = row - step, -step
    dark = qr_util.mask_func(FIXED_MASK)
    mask = int("".join("1" if dark(r, c) else "0" for r, c in positions), 2)
    blocks = tuple((b.data_count, b.total_count - b.data_count) for b in rs_blocks(version, ERROR_CORRECT_M))
    walk = {position: k for k, position in enumerate(positions)}
    light, dark_module = len(positions), len(positions) + 1  # where "0" and "1" sit after the walk's bits
    sources = [walk[(r, c)] if template[r][c] is None else dark_module if template[r][c] else light
               for r in range(n) for c in range(n)]
    return _VersionPlan(blocks, sum(d for d, _ in blocks), n, len(positions), mask, itemgetter(*sources))


def _byte_mode_version(length: int) -> int:
    """The smallest version holding ``length`` bytes at level M (as ``QRCode.best_fit`` finds it)."""
    limits, version = qr_util.BIT_LIMIT_TABLE[ERROR_CORRECT_M], 1
    while True:
        count_bits = qr_util.length_in_bits(qr_util.MODE_8BIT_BYTE, version)
        found = bisect_left(limits, 4 + count_bits + 8 * length, version)
        if found > 40:
            raise DataOverflowError(f"{length} bytes do not fit a QR code at level M")
        if qr_util.length_in_bits(qr_util.MODE_8BIT_BYTE, found) == count_bits:
            return found
        version = found


_EXP = [0] * 512
_LOG = [0] * 256
_value = 1
for _power in range(255):
    _EXP[_power] = _value
    _LOG[_value] = _power
    _value <<= 1
    if _value & 0x100:
        _value ^= 0x11D  # the QR field's polynomial
for _power in range(255, 512):
    _EXP[_power] = _EXP[_power - 255]


@lru_cache(maxsize=None)
def _remainder_table(ec_count: int) -> tuple[int, ...]:
    """For each byte f, f times the generator polynomial's lower terms, as one ``ec_count``-byte integer."""
    generator = [1]
    for i in range(ec_count):  # (x - a^0)(x - a^1)...(x - a^(ec_count-1))
        product = generator + [0]
        for j, coefficient in enumerate(generator):
            if coefficient:
                product[j + 1] ^= _EXP[_LOG[coefficient] + i]
        generator = product
    lower = generator[1:]
    table = [0] * 256
    for bit in range(8):  # the products by 1, 2, 4 ... 128; the rest are sums of those (XOR)
        f = 1 << bit
        table[f] = int.from_bytes(bytes(_EXP[_LOG[f] + _LOG[g]] if g else 0 for g in lower), "big")
    for f in range(3, 256):
        if f & (f - 1):
            table[f] = table[f & (f - 1)] ^ table[f & -f]
    return tuple(table)


def _error_correction(data: bytes, ec_count: int) -> bytes:
    """Reed-Solomon check bytes: the remainder of data(x)·x^ec_count divided by the generator."""
    table, top, keep = _remainder_table(ec_count), 8 * (ec_count - 1), (1 << 8 * ec_count) - 1
    remainder = 0
    for byte in data:
        remainder = ((remainder << 8) & keep) ^ table[byte ^ (remainder >> top)]
    return remainder.to_bytes(ec_count, "big")


def _byte_mode_matrix(payload: str, data: bytes) -> QrMatrix:
    version = _byte_mode_version(len(data))
    plan = _version_plan(version)
    count_bits = qr_util.length_in_bits(qr_util.MODE_8BIT_BYTE, version)
    capacity = 8 * plan.data_codewords
    bits = ((qr_util.MODE_8BIT_BYTE << count_bits | len(data)) << 8 * len(data)) | int.from_bytes(data, "big")
    used = 4 + count_bits + 8 * len(data)
    terminator = min(4, capacity - used) + (-(used + min(4, capacity - used))) % 8  # then whole bytes
    used += terminator
    stream = (bits << terminator).to_bytes(used // 8, "big") + bytes([0xEC, 0x11] * capacity)[:(capacity - used) // 8]
    data_blocks, check_blocks, offset = [], [], 0
    for data_count, ec_count in plan.blocks:
        block = stream[offset:offset + data_count]
        offset += data_count
        data_blocks.append(block)
        check_blocks.append(_error_correction(block, ec_count))
    codewords = bytearray()
    for blocks in (data_blocks, check_blocks):  # interleaved: first bytes of every block, then second...
        for i in range(max(len(b) for b in blocks)):
            codewords += bytes(b[i] for b in blocks if i < len(b))
    spare = plan.data_modules - 8 * len(codewords)  # remainder bits, left light before masking
    placed = format((int.from_bytes(codewords, "big") << spare) ^ plan.mask, f"0{plan.data_modules}b")
    flat, n = "".join(plan.gather(placed + "01")), plan.modules
    return _from_lines(payload, version, tuple(flat[i:i + n] for i in range(0, n * n, n)))


def _matrix(payload: str, version: int, rows: list[int], n: int) -> QrMatrix:
    """A matrix from rows held as integers (how the disk cache stores them)."""
    return _from_lines(payload, version, tuple(format(row, f"0{n}b") for row in rows))


def _from_lines(payload: str, version: int, lines: tuple[str, ...]) -> QrMatrix:
    return QrMatrix(payload, version, tuple(tuple(map("1".__eq__, line)) for line in lines), lines)


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
