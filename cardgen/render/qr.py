"""QR codes drawn as one vector path: crisp at any printer resolution, small in the PDF.

The matrix comes from the ``qrcode`` package (error correction M: a smudged or creased card still
scans); the drawing is ours: each row's runs of dark modules become rectangles of a single path,
filled once, on a light square that includes the 4-module quiet zone scanners need.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

import qrcode
from qrcode.constants import ERROR_CORRECT_M
from reportlab.pdfgen.canvas import Canvas

QUIET_ZONE_MODULES = 4


@dataclass(frozen=True)
class QrMatrix:
    payload: str
    version: int
    rows: tuple[tuple[bool, ...], ...]  # True = dark module; row 0 is the top

    @property
    def modules(self) -> int:
        return len(self.rows)

    def runs(self) -> list[tuple[int, int, int]]:
        """Horizontal runs of dark modules as (row, first column, length)."""
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


def encode(payload: str) -> QrMatrix:
    """Encode ``payload`` (uncached: the benchmark measures this)."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    code.add_data(payload)
    code.make(fit=True)
    return QrMatrix(payload, int(code.version), tuple(tuple(bool(v) for v in row) for row in code.get_matrix()))


@lru_cache(maxsize=4096)
def qr_matrix(payload: str) -> QrMatrix:
    """Encode ``payload`` once per process (a rebuild with the same base URL reuses every code)."""
    return encode(payload)


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


def draw_qr(canvas: Canvas, matrix: QrMatrix, x: float, y: float, size: float, *,
            dark: str = "#000000", light: str | None = "#FFFFFF") -> None:
    """Draw the code with its quiet zone in the square (x, y, size) given in points.

    ``light`` paints the square first (None leaves the background as it is, which must be light).
    """
    canvas.saveState()
    if light is not None:
        canvas.setFillColor(light)
        canvas.rect(x, y, size, size, stroke=0, fill=1)
    module = size / (matrix.modules + 2 * QUIET_ZONE_MODULES)
    n = matrix.modules
    # Draw in module units (whole numbers make a short, fast path); row 0 is the top row.
    canvas.translate(x + QUIET_ZONE_MODULES * module, y + QUIET_ZONE_MODULES * module)
    canvas.scale(module, module)
    path = canvas.beginPath()
    for row, column, length in matrix.runs():
        path.rect(column, n - 1 - row, length, 1)
    canvas.setFillColor(dark)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
