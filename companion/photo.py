"""Read a photo of cards on a table: every printed QR code decoded, each resolved to its card.

A photo is decoded in memory and never stored (nor logged): :func:`read_photo` takes its bytes and gives
back only what the codes say and where they are. The decoder is zxing-cpp's multi-code reader. Each code
names a card page, ``<any address>/c/<game>/<card id>[?v=<version>]`` (:func:`cardgen.render.qr.card_url`);
the address does not matter, so cards printed for another table or an older kit count, and the card is
looked up through the card-data layer as the card page does (:meth:`find_card`, any case).

Limits (each a :class:`PhotoError` with its HTTP status): at most :data:`MAX_PHOTO_BYTES` bytes
(413), a JPEG, PNG or WebP image (415), at most :data:`MAX_PHOTO_PIXELS` pixels (413), a JPEG of at most
:data:`MAX_JPEG_SCANS` scans (413), an image that decodes (400). A 12 MP phone photo passes.

Speed: the photo is read in grey at its full resolution (zxing-cpp also reads it downscaled by itself,
for codes that fill many pixels); a photo of at most :data:`UPSCALE_UP_TO` pixels on its long side whose
codes look small (none read, or one under :data:`SMALL_CODE` pixels) is read a second time at twice its
size, where codes of 3 pixels a module or less read far better.
``bench/bench_photo.py`` measures the rates and a 12 MP photo's time.
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence
from urllib.parse import unquote, urlsplit

from PIL import Image

if TYPE_CHECKING:
    from cardgen.catalog.base import CardAndRuleLookups

MAX_PHOTO_BYTES = 20 * 1024 * 1024
#: 50 million pixels: every phone camera's full-size photo (48 MP sensors' included)
MAX_PHOTO_PIXELS = 50_000_000
#: scans of a JPEG: a camera's is one (baseline) or about ten (progressive); each scan is decoded over the whole
#: image, so a file of a thousand tiny scans costs minutes of CPU at the size limit (an audit's "scan bomb")
MAX_JPEG_SCANS = 100
FORMATS = ("JPEG", "PNG", "WEBP")
#: how a JPEG's and a PNG's first bytes read (a WebP's: RIFF, its size, WEBP): a file that begins so but does not
#: open is a damaged photo (400), not another kind of file (415)
_SIGNATURES = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n")
MIME_TYPES = ("image/jpeg", "image/png", "image/webp")
UPSCALE_UP_TO = 3000
#: a code read with a side under this many pixels (a 16 mm code at about 5.6 px/mm) says the photo's codes are
#: small: others as small may have been missed, so the photo is read again at twice the size
SMALL_CODE = 90
_ORIENTATION = 0x0112  # EXIF: how the camera was held
_TURNS = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
          5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
          8: Image.Transpose.ROTATE_90}
_CARD_PATH = re.compile(r"^(?:.*/)?c/([a-z0-9][a-z0-9-]{0,40})/([A-Za-z0-9][A-Za-z0-9_.-]{0,80})/?$")


class PhotoError(ValueError):
    """A photo the companion cannot take; ``status`` is the HTTP answer, ``message`` a sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


@dataclass(frozen=True)
class Code:
    """One code in the photo: its text and its four corners (x, y) in the photo's pixels, clockwise from
    the top left of the code."""

    text: str
    corners: tuple[tuple[int, int], ...]
    version: int | None = None  # the QR version read (its width in modules: 17 + 4 × version)


@dataclass(frozen=True)
class FoundCard:
    card_id: str
    name: str
    corners: tuple[tuple[int, int], ...]
    stale: bool = False  # printed from older card data (the code's ?v= is not the card's version today)
    #: the whole card's four corners in the photo, from its code's and the print layout (None: not known)
    outline: tuple[tuple[int, int], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card_id, "name": self.name, "corners": [list(c) for c in self.corners],
                "outline": [list(c) for c in self.outline] if self.outline else None, "stale": self.stale}


@dataclass(frozen=True)
class Unread:
    """A code that names no card of this game, said in words (never the code's whole text: it is shown)."""

    reason: str
    corners: tuple[tuple[int, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "corners": [list(c) for c in self.corners]}


@dataclass(frozen=True)
class Reading:
    width: int
    height: int
    cards: tuple[FoundCard, ...]
    unread: tuple[Unread, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "cards": [c.to_json() for c in self.cards],
                "unread": [u.to_json() for u in self.unread]}


def card_ref(text: str) -> tuple[str, str, str | None] | None:
    """(game, card id, printed version or None) from a card code's text, whatever its address; None when
    the text is no card page's address."""
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https"):
        return None
    found = _CARD_PATH.match(unquote(parts.path))
    if found is None:
        return None
    version = None
    for pair in parts.query.split("&"):
        key, _, value = pair.partition("=")
        if key == "v" and value:
            version = value
    return found.group(1), found.group(2), version


def jpeg_scans(data: bytes, enough: int) -> int:
    """The scans of the first image of a JPEG (the one decoded), counted by walking its segments up to its end
    (EOI), at most ``enough``: each scan begins with an SOS segment, whose coded data holds no marker (an FF there
    is followed by 00 or a restart marker). What follows the image (a phone's motion-photo video, a second
    picture) and what its metadata segments hold are not counted."""
    scans, i, size = 0, 2, len(data)
    while i + 1 < size and scans < enough:
        if data[i] != 0xFF:
            break  # not a marker where one must be: the decoder will say the file is damaged
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker == 0xD9:  # EOI: the image ends
            break
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # segments without a length
            i += 2
            continue
        if i + 3 >= size:
            break
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
        if marker != 0xDA:
            continue
        scans += 1
        while True:  # the scan's coded data: to the next FF that is neither stuffing (00) nor a restart marker
            i = data.find(b"\xff", i)
            if i < 0 or i + 1 >= size:
                return scans
            if data[i + 1] == 0 or 0xD0 <= data[i + 1] <= 0xD7:
                i += 2
                continue
            break
    return scans


def open_photo(data: bytes) -> Image.Image:
    """The photo as an image, its size checked before its pixels are decoded; PhotoError when refused."""
    if len(data) > MAX_PHOTO_BYTES:
        raise PhotoError(413, f"the photo is {len(data):,} bytes; at most {MAX_PHOTO_BYTES:,} are taken")
    if not data:
        raise PhotoError(400, "no photo was sent: send the image itself as the request body")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=FORMATS)
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise PhotoError(413, f"the photo has too many pixels; at most {MAX_PHOTO_PIXELS:,} are taken") from None
    except Exception:  # Pillow raises UnidentifiedImageError, or others for a broken header
        if data.startswith(_SIGNATURES) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
            raise PhotoError(400, "the photo could not be decoded: the file is damaged or cut short") from None
        raise PhotoError(415, "the photo must be a JPEG, PNG or WebP image") from None
    if data.startswith(b"\xff\xd8"):  # a JPEG, whatever Pillow calls it (an MPO is JPEGs one after another)
        scans = jpeg_scans(data, MAX_JPEG_SCANS + 1)
        if scans > MAX_JPEG_SCANS:
            raise PhotoError(413, f"the photo is a JPEG of more than {MAX_JPEG_SCANS} scans; at most {MAX_JPEG_SCANS} are taken "
                                  "(a camera's has one to about twenty): save it again as an ordinary JPEG")
    pixels = image.width * image.height
    if pixels > MAX_PHOTO_PIXELS:
        raise PhotoError(413, f"the photo is {image.width:,} x {image.height:,} pixels ({pixels / 1e6:.1f} MP); "
                              f"at most {MAX_PHOTO_PIXELS / 1e6:.0f} MP are taken")
    return image


def _read(grey: Image.Image, scale: float = 1.0) -> list[Code]:
    import zxingcpp  # imported on first use: the app starts without it

    found = zxingcpp.read_barcodes(grey, formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode))
    return [Code(result.text, tuple((round(pt.x / scale), round(pt.y / scale))
                                    for pt in (result.position.top_left, result.position.top_right,
                                               result.position.bottom_right, result.position.bottom_left)),
                 _version(result))
            for result in found]


def _version(result: Any) -> int | None:
    """The QR version zxing-cpp read (its ``extra``), None if it does not say."""
    extra = getattr(result, "extra", None)
    try:
        return int(extra["Version"]) if isinstance(extra, dict) else None
    except (KeyError, TypeError, ValueError):
        return None


def _centre(code: Code) -> tuple[float, float]:
    return (sum(x for x, _ in code.corners) / 4, sum(y for _, y in code.corners) / 4)


def _merged(codes: list[Code], more: Sequence[Code]) -> list[Code]:
    """``codes`` and those of ``more`` not already among them (the same text within a code's side)."""
    out = list(codes)
    for code in more:
        (cx, cy), side = _centre(code), max(abs(code.corners[0][0] - code.corners[2][0]),
                                            abs(code.corners[0][1] - code.corners[2][1]), 1)
        if not any(other.text == code.text and abs(_centre(other)[0] - cx) < side
                   and abs(_centre(other)[1] - cy) < side for other in out):
            out.append(code)
    return out


def decode(image: Image.Image) -> tuple[list[Code], tuple[int, int]]:
    """Every QR code in the photo with its corners in the upright photo's pixels (as a phone shows it: its
    EXIF orientation applied), and that photo's size."""
    try:
        orientation = image.getexif().get(_ORIENTATION, 1)
        grey = image.convert("L")
        if orientation in _TURNS:
            grey = grey.transpose(_TURNS[orientation])
    except (OSError, ValueError, SyntaxError):
        raise PhotoError(400, "the photo could not be decoded: the file is damaged or cut short") from None
    codes = _read(grey)
    if max(grey.size) <= UPSCALE_UP_TO and (not codes or min(map(_side, codes)) < SMALL_CODE):
        # small codes read better at twice the size (4 px/mm: 43 % -> 70 % of cards found)
        bigger = grey.resize((grey.width * 2, grey.height * 2), Image.Resampling.BICUBIC)
        codes = _merged(codes, _read(bigger, 2.0))
    return codes, grey.size


def _side(code: Code) -> float:
    (x0, y0), (x1, y1) = code.corners[0], code.corners[1]
    return float(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)


def card_name(catalog: CardAndRuleLookups[Any], card: Any) -> str:
    """A card's short unambiguous label: its content's declared ``label(card)`` hook (default: its name)."""
    return catalog.label(card)


def resolve(codes: Sequence[Code], game: str, catalog: Any, card_version: Any = None,
            faces: Mapping[str, Any] | None = None) -> tuple[list[FoundCard], list[Unread]]:
    """Each code as a card of ``game`` (looked up in ``catalog``), or as a reason it is none; with ``faces``
    (:func:`companion.photo_outline.face_codes`), each card's outline."""
    from companion.photo_outline import modules_of, outline
    cards: list[FoundCard] = []
    unread: list[Unread] = []
    for code in codes:
        ref = card_ref(code.text)
        if ref is None:
            unread.append(Unread("a code that is no card's (not a card page's address)", code.corners))
            continue
        code_game, card_id, version = ref
        if code_game != game:
            unread.append(Unread(f"a card of another game ({code_game})", code.corners))
            continue
        card = catalog.find_card(card_id)
        if card is None:
            unread.append(Unread(f"a card this game does not have ('{card_id[:40]}')", code.corners))
            continue
        stale = bool(version and card_version is not None and version != card_version(card))
        face = (faces or {}).get(card.id)
        drawn = outline(face, code.corners, modules_of(code.version)) if face is not None else None
        cards.append(FoundCard(card.id, card_name(catalog, card), code.corners, stale, drawn))
    cards.sort(key=lambda c: (min(y for _, y in c.corners) // 200, min(x for x, _ in c.corners)))
    return cards, unread


def read_photo(data: bytes, game: str) -> Reading:
    """The cards of ``game`` a photo shows, and the codes in it that name none; PhotoError when refused."""
    from cardgen.catalog import content
    from cardgen.catalog.versions import card_version
    from companion.photo_outline import face_codes

    image = open_photo(data)
    codes, (width, height) = decode(image)
    cards, unread = resolve(codes, game, content(game), card_version, face_codes(game) if codes else None)
    return Reading(width, height, tuple(cards), tuple(unread))


__all__ = ["Code", "FoundCard", "MAX_PHOTO_BYTES", "MAX_PHOTO_PIXELS", "MIME_TYPES", "PhotoError", "Reading",
           "Unread", "card_name", "card_ref", "decode", "open_photo", "read_photo", "resolve"]
