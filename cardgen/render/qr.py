"""QR codes drawn as one vector path: crisp at any printer resolution, small in the PDF.

Codes come from ``zxing-cpp``'s encoder (``create_barcode``, zint's QR code writer in C: about 0.3 ms a
code against 1.5 ms for the pure-Python ``qrcode`` package, which took a quarter of a cold kit build)
at error correction M (a smudged or creased card still scans) with one fixed mask pattern: left to
itself an encoder lays each symbol out eight times to score every mask (the QR standard allows any
mask), and a fixed mask also keeps the output the same from one release to the next. zxing-cpp is the
library the companion already reads photos with. Every printed code is decoded back in the tests, and
``bench/bench_build.py`` measures each way of encoding (``qrcode`` is kept for that comparison).

Drawing is ours: each row's runs of dark modules become rectangles of a single path in module units,
filled once, on a light square that includes the 4-module quiet zone scanners need. Codes are kept in
this process's memory and, during a build, on disk between builds (:func:`disk_cache`), keyed by
their payload: encoding costs about a millisecond a code, a deck's worth of them a rebuild would
otherwise repeat.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import zxingcpp
from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

QUIET_ZONE_MODULES = 4
_DARK_RUN = re.compile("1+")


@dataclass(frozen=True, eq=False)
class QrMatrix:
    payload: str
    version: int
    rows: tuple[tuple[bool, ...], ...]  # True = dark module; row 0 is the top
    _path: list[str] = field(default_factory=list, init=False, repr=False, compare=False, hash=False)
    _lines: tuple[str, ...] = field(default=(), repr=False, compare=False, hash=False)  # rows as "0101…"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, QrMatrix):
            return NotImplemented
        return (self.payload, self.version, self.rows) == (other.payload, other.version, other.rows)

    def __hash__(self) -> int:  # equal codes have equal payloads and versions
        return hash((self.payload, self.version))

    @property
    def modules(self) -> int:
        return len(self._lines or self.rows)

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
        """PDF path operators for every dark run in module units (y up, row 0 at the top); made once.

        From the row text, each row is cut at its light modules: the pieces are the dark runs (and
        empty strings), a run's column is where its piece starts. That is about twice as fast as
        matching each run (a kit draws some 160,000 runs).
        """
        if not self._path:
            n = self.modules
            if self._lines:
                operators: list[str] = []
                add = operators.append
                for row, line in enumerate(self._lines):
                    y = f" {n - 1 - row} "
                    column = 0
                    for piece in line.split("0"):
                        if piece:
                            add(f"{column}{y}{len(piece)} 1 re")
                            column += len(piece) + 1
                        else:
                            column += 1
                self._path.append("\n".join(operators))
            else:
                self._path.append("\n".join(f"{column} {n - 1 - row} {length} 1 re"
                                            for row, column, length in self.runs()))
        return self._path[0]


class _QrMatrixFromText(QrMatrix):
    """A code read from its row text (the encoder's output, the disk cache): the rows of booleans are
    made only if asked for (drawing reads the text; making them was a third of a code's encoding)."""

    def __init__(self, payload: str, version: int, lines: tuple[str, ...]) -> None:  # noqa: D107
        object.__setattr__(self, "payload", payload)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "_lines", lines)
        object.__setattr__(self, "_path", [])

    def __getattr__(self, name: str) -> Any:  # only for a field not filled yet: the rows
        if name != "rows":
            raise AttributeError(name)
        rows = tuple(tuple(map("1".__eq__, line)) for line in self._lines)
        object.__setattr__(self, "rows", rows)
        return rows


class _DeferredQrMatrix(QrMatrix):
    """The code for a payload, encoded (or fetched, :func:`qr_matrix`) at its first use rather than when
    asked for: see :func:`deferred_codes`."""

    def __init__(self, payload: str) -> None:  # noqa: D107  # the other fields are filled at first use
        object.__setattr__(self, "payload", payload)

    def _resolved(self) -> QrMatrix:
        return qr_matrix(self.payload)

    def __getattr__(self, name: str) -> Any:  # only for a field not filled yet
        if name.startswith("__"):
            raise AttributeError(name)
        real = self._resolved()
        for attribute in ("version", "_path", "_lines"):
            object.__setattr__(self, attribute, getattr(real, attribute))
        if name == "rows" or not self._lines:
            object.__setattr__(self, "rows", real.rows)
        return object.__getattribute__(self, name)

    def __eq__(self, other: object) -> bool:
        return self._resolved() == other

    def __hash__(self) -> int:
        return hash(self._resolved())


_deferring: list[bool] = []


@contextmanager
def deferred_codes() -> Iterator[None]:
    """Within the block, :func:`qr_matrix` hands out codes that are encoded when first drawn or read.

    ``cardgen build --changed-since`` makes every card's faces to compare their versions with the old
    kit's and draws only the changed cards: encoding the others' codes was half of its work after the
    imports (414 codes, about 0.1 s).
    """
    _deferring.append(True)
    try:
        yield
    finally:
        _deferring.pop()


# -- encoding -------------------------------------------------------------------------------------

#: The mask pattern every code uses (0-7; any is valid). Changing it changes every printed code.
FIXED_MASK = 2


def encode(payload: str) -> QrMatrix:
    """Encode ``payload`` at level M with the fixed mask (uncached: the benchmark measures this).

    Too much data for any QR version raises ``qrcode``'s ``DataOverflowError`` saying so (``qrcode`` is
    imported only then: the companion's pages use it, the print kit does not need its import time).
    """
    try:
        code = zxingcpp.create_barcode(payload, zxingcpp.BarcodeFormat.QRCode, ec_level="M", data_mask=FIXED_MASK)
    except ValueError as exc:  # zint: "Input too long for ECC level M"
        from qrcode.exceptions import DataOverflowError
        raise DataOverflowError(f"{len(payload.encode())} bytes do not fit a QR code at level M "
                                f"(at most version 40): {payload[:60]}…") from exc
    image = code.to_image(scale=1, add_quiet_zones=False)  # one byte a module, 0 = dark
    n = int(image.shape[0])
    pixels = bytes(image).translate(_DARK_AS_ONE).decode("ascii")  # type: ignore[call-overload]
    lines = tuple(pixels[i:i + n] for i in range(0, n * n, n))
    return _from_lines(payload, (n - 17) // 4, lines)


_DARK_AS_ONE = bytes.maketrans(b"\x00\xff", b"10")


def encode_best_mask(payload: str) -> QrMatrix:
    """The ``qrcode`` package scoring all eight masks itself (its default): kept for the benchmark."""
    return _qrcode_matrix(payload, None)


def encode_qrcode(payload: str) -> QrMatrix:
    """The ``qrcode`` package with the fixed mask (the encoder before zxing-cpp): kept for the benchmark."""
    return _qrcode_matrix(payload, FIXED_MASK)


def _qrcode_matrix(payload: str, mask: int | None) -> QrMatrix:
    import qrcode
    from qrcode.constants import ERROR_CORRECT_M
    from qrcode.exceptions import DataOverflowError
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=mask)
    code.add_data(payload)
    try:
        code.make(fit=True)
    except (DataOverflowError, ValueError) as exc:  # qrcode says ValueError just past version 40
        raise DataOverflowError(f"{len(payload.encode())} bytes do not fit a QR code at level M "
                                f"(at most version 40): {payload[:60]}…") from exc
    lines = tuple("".join("1" if v else "0" for v in row) for row in code.get_matrix())
    return _from_lines(payload, int(code.version), lines)


def _matrix(payload: str, version: int, rows: list[int], n: int) -> QrMatrix:
    """A matrix from rows held as integers (how the disk cache stores them)."""
    return _from_lines(payload, version, tuple(format(row, f"0{n}b") for row in rows))


def _from_lines(payload: str, version: int, lines: tuple[str, ...]) -> QrMatrix:
    return _QrMatrixFromText(payload, version, lines)


#: What the disk cache's codes were encoded by: the encoder's own output for a probe payload, so that any
#: change of what encode() gives (another zxing-cpp or zint release, level or mask) invalidates the cache
#: without asking the package metadata for versions (``importlib.metadata`` costs a cold build its import).
ENCODER_ID = "ec-M/mask-2/" + hashlib.sha256("\n".join(encode("https://example.org/c/probe?v=1")._lines).encode()).hexdigest()[:16]


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


#: Codes this process encoded or read, by payload (at most ``_MEMORY_LIMIT``, then started afresh).
_memory: dict[str, QrMatrix] = {}
_MEMORY_LIMIT = 4096


def qr_matrix(payload: str) -> QrMatrix:
    """The code for ``payload``: from this process's memory, else the disk cache if one is open, else encoded.

    Memory comes first: a code asked for again in this process (a card drawn in two documents, a test's
    second build) is not read back from the disk cache's JSON (hex rows parsed into matrices cost more
    than encoding it). A code found in memory is still marked used in an open disk
    cache, so that the cache keeps it.
    """
    if _deferring and _deferring[-1]:
        return _DeferredQrMatrix(payload)
    found = _memory.get(payload)
    cache = _disk[-1] if _disk else None
    if found is None:
        found = cache.get(payload) if cache is not None else None
        if found is None:
            found = encode(payload)
            if cache is not None:
                cache.put(found)
        if len(_memory) >= _MEMORY_LIMIT:
            _memory.clear()
        _memory[payload] = found
    elif cache is not None and payload not in cache.used:
        cache.put(found)
    return found


qr_matrix.cache_clear = _memory.clear  # type: ignore[attr-defined]  # benchmarks clear the memory


# -- URLs -------------------------------------------------------------------------------------------

#: Longest companion address printed into the cards' codes: longer ones make codes too dense for a card.
MAX_BASE_URL_CHARS = 200


def validate_base_url(base_url: str) -> str:
    """The companion's address without a trailing slash; ValueError with a reason if unusable."""
    url = base_url.strip().rstrip("/")
    if len(url) > MAX_BASE_URL_CHARS:
        raise ValueError(f"base URL must be at most {MAX_BASE_URL_CHARS} characters (the cards' QR codes "
                         f"must stay small enough to scan), got {len(url)}")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"base URL must start with http:// or https:// and name a host, got '{base_url}'")
    if parts.query or parts.fragment:
        raise ValueError(f"base URL must not carry a query or fragment, got '{base_url}'")
    if any(ch.isspace() for ch in url):
        raise ValueError(f"base URL must not contain spaces, got '{base_url}'")
    return url


_HOST_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?")


def validate_instance_url(base_url: str) -> str:
    """A companion instance's own address (``companion base-url``, ``serve --base-url``): a base URL as
    :func:`validate_base_url` takes, naming a host and a port that can be, with no path: the companion answers
    at its address's root, so cards printed with a path (https://club.example/spellbook) would open nothing."""
    url = validate_base_url(base_url)
    parts = urlsplit(url)
    host = parts.hostname or ""  # (lower case, an IPv6 address without its brackets)
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if not _HOST_NAME.fullmatch(host):
            raise ValueError(f"base URL must name a host (letters, digits, dots and dashes, or an address), "
                             f"got '{base_url}'") from None
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is not None and not 1 <= port <= 65535:
        raise ValueError(f"base URL must have a port from 1 to 65535, got '{base_url}'")
    if parts.path:
        raise ValueError(f"base URL must be the companion's own address with no path (it answers at its root: "
                         f"{parts.scheme}://{parts.netloc}), got '{base_url}'")
    return url


def card_url(base_url: str, game: str, card_id: str, version: str | None = None) -> str:
    """The companion page a printed card's QR code opens: ``<base>/c/<game>/<card id>``, with
    ``?v=<version>`` (the card's content version, :func:`cardgen.catalog.versions.card_version`) when
    given, so that the page can say when a print is out of date."""
    url = f"{base_url.rstrip('/')}/c/{game}/{card_id}"
    return f"{url}?v={version}" if version else url


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
