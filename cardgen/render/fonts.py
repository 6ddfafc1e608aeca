"""The print kit's typefaces: TrueType files from font packages on PyPI (pyproject.toml installs them),
registered with ReportLab so that every PDF embeds the glyphs it uses.

A print shop rejects a PDF whose fonts are not embedded, and a viewer substitutes its own: the PDF base
fonts (Helvetica, Times) are never used. ReportLab embeds a TrueType font as subsets holding only the
glyphs a document draws. All four families are under the SIL Open Font License, which allows embedding.

Each game pairs a display face (names, titles: ``serif``) with a text face (rules, captions: ``sans``);
every family comes in regular, bold, italic and bold italic, and each is registered as a family so a
Paragraph's ``<b>`` and ``<i>`` find the right file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache, partial
from importlib.resources import files
from typing import Callable

from reportlab import rl_config
from reportlab.lib.fonts import addMapping
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus.tables import CellStyle

#: Family name -> (package, regular, bold, italic, bold italic file names in the package's files/).
FAMILIES: dict[str, tuple[str, str, str, str, str]] = {
    "SourceSerif": ("font_source_serif_pro", "SourceSerifPro-Regular.ttf", "SourceSerifPro-Bold.ttf",
                    "SourceSerifPro-It.ttf", "SourceSerifPro-BoldIt.ttf"),
    "SourceSans": ("font_source_sans_pro", "SourceSansPro-Regular.ttf", "SourceSansPro-Bold.ttf",
                   "SourceSansPro-It.ttf", "SourceSansPro-BoldIt.ttf"),
    "Caladea": ("font_caladea", "Caladea-Regular.ttf", "Caladea-Bold.ttf", "Caladea-Italic.ttf",
                "Caladea-BoldItalic.ttf"),
    "Lato": ("font_lato", "Lato-Regular.ttf", "Lato-Bold.ttf", "Lato-Italic.ttf", "Lato-BoldItalic.ttf"),
}
_STYLES = ("", "-Bold", "-Italic", "-BoldItalic")

#: Where a family's files lack a character (the italics of all four have no Greek or Cyrillic, some lack
#: letters of Latin Extended-A), it is drawn from Noto of the same kind (serif or sans) and slant: Noto
#: Serif and Noto Sans (the fontpkg-noto-serif and fontpkg-noto-sans packages, SIL Open Font License)
#: cover Latin Extended, Greek and Cyrillic in upright and italic. Those packages ship variable fonts, of
#: which ReportLab draws the default instance: a character taken from Noto in a bold style is drawn at
#: Noto's regular weight. A character no face has is refused by ``cardgen check`` (:func:`undrawable`).
FALLBACK_FILES: dict[str, tuple[str, str, str]] = {
    "serif": ("fontpkg_noto_serif", "NotoSerif[wdth,wght].ttf", "NotoSerif-Italic[wdth,wght].ttf"),
    "sans": ("fontpkg_noto_sans", "NotoSans[wdth,wght].ttf", "NotoSans-Italic[wdth,wght].ttf"),
}
KINDS: dict[str, str] = {"SourceSerif": "serif", "Caladea": "serif", "SourceSans": "sans", "Lato": "sans"}

#: What every text style draws (``tests/test_fonts.py`` checks every registered face, fallbacks included).
REQUIRED_SCRIPTS: dict[str, tuple[int, int]] = {"Latin-1": (0xA0, 0xFF), "Latin Extended-A": (0x100, 0x17F),
                                                  "Greek": (0x391, 0x3C9), "Cyrillic": (0x400, 0x45F)}

_WIDTHS_KEPT = 65536  # measured strings remembered per face (then started afresh)
_FALLBACK_SUBSET = 1 << 16  # subset numbers at or over this are the fallback face's (its number + this)


class FallbackTTFont(TTFont):
    """A TrueType font that draws the characters its file lacks from a fallback font of the same style.

    ReportLab writes text as runs of one font subset each (``splitString`` and ``getSubsetInternalName``,
    read by the text object for every string, paragraph line included); here a run of missing characters
    is a run of the fallback font's subset, embedded like any other. Widths (``stringWidth``, which
    paragraphs wrap and centred strings place by) count each character in the font that draws it.
    """

    def __init__(self, name: str, filename: str, fallback: Callable[[], TTFont]) -> None:
        super().__init__(name, filename)
        self._load_fallback = fallback   # read on first need: the Noto files are large (2 MB each)
        self._own = self.face.charToGlyph
        self._widths: dict[tuple[str, float], float] = {}

    @cached_property
    def _own_chars(self) -> frozenset[str]:
        """The characters this file draws: text made only of them is one run of this font, found in C
        (curly quotes and dashes make most of the kit's text non-ASCII; cutting it into runs character
        by character in Python was about 2 % of a build). Made at the first such text."""
        return frozenset(map(chr, self._own)) | {"\xa0"}

    @property
    def fallback(self) -> TTFont:
        return self._load_fallback()

    def _runs(self, text: str) -> list[tuple[bool, str]]:
        """(own?, run) pieces of ``text``: characters the file has, and those the fallback draws."""
        own = self._own
        runs: list[tuple[bool, str]] = []
        for ch in text:
            mine = ord(ch) in own or ch == "\xa0"
            if runs and runs[-1][0] == mine:
                runs[-1] = (mine, runs[-1][1] + ch)
            else:
                runs.append((mine, ch))
        return runs

    def stringWidth(self, text: str, size: float, encoding: str = "utf8") -> float:  # noqa: N802
        """The width of ``text`` at ``size``, remembered: a kit measures the same words and lines over and
        over (a paragraph's words at every wrap attempt, a title at each trial size; about 43,000
        measurements of the whole kit, most of them repeats)."""
        if isinstance(text, bytes):
            text = text.decode(encoding)
        key = (text, size)
        width = self._widths.get(key)
        if width is None:
            if text.isascii() or self._own_chars.issuperset(text):
                width = float(super().stringWidth(text, size, encoding))
            else:
                width = sum(float(TTFont.stringWidth(self, run, size, encoding)) if mine else
                            float(self.fallback.stringWidth(run, size, encoding)) for mine, run in self._runs(text))
            if len(self._widths) >= _WIDTHS_KEPT:
                self._widths.clear()
            self._widths[key] = width
        return width

    def splitString(self, text: str, doc: object, encoding: str = "utf-8") -> list[tuple[int, bytes]]:  # noqa: N802
        if isinstance(text, bytes):
            text = text.decode(encoding)
        if text.isascii() or self._own_chars.issuperset(text):
            return super().splitString(text, doc, encoding)  # type: ignore[no-any-return]
        out: list[tuple[int, bytes]] = []
        for mine, run in self._runs(text):
            if mine:
                out.extend(super().splitString(run, doc, encoding))
            else:
                out.extend((_FALLBACK_SUBSET + n, t) for n, t in self.fallback.splitString(run, doc, encoding))
        return out

    def getSubsetInternalName(self, subset: int, doc: object) -> str:  # noqa: N802
        if subset >= _FALLBACK_SUBSET:
            return str(self.fallback.getSubsetInternalName(subset - _FALLBACK_SUBSET, doc))
        return str(super().getSubsetInternalName(subset, doc))


class FontError(RuntimeError):
    """A typeface package is missing or broken: the kit cannot embed its fonts."""


@dataclass(frozen=True)
class Family:
    """The four registered font names of one family."""

    regular: str
    bold: str
    italic: str
    bold_italic: str


def _register(family: str) -> Family:
    package, *names = FAMILIES[family]
    try:
        folder = files(package) / "files"
    except ModuleNotFoundError as exc:
        raise FontError(f"the typeface package '{package}' is not installed: run scripts/setup.sh") from exc
    registered = []
    for suffix, filename in zip(_STYLES, names, strict=True):
        name = family + suffix
        if name not in pdfmetrics.getRegisteredFontNames():
            try:
                pdfmetrics.registerFont(FallbackTTFont(name, str(folder / filename),
                                                       partial(_fallback, KINDS[family], "Italic" in suffix)))
            except Exception as exc:  # ReportLab raises TTFError, OSError and others for an unusable file
                raise FontError(f"cannot load {filename} from '{package}': {exc}") from exc
        registered.append(name)
    regular, bold, italic, bold_italic = registered
    pdfmetrics.registerFontFamily(family, normal=regular, bold=bold, italic=italic, boldItalic=bold_italic)
    for face in registered:  # <b>/<i> inside a paragraph set in any of the four
        addMapping(face, 0, 0, regular)
        addMapping(face, 1, 0, bold)
        addMapping(face, 0, 1, italic)
        addMapping(face, 1, 1, bold_italic)
    return Family(regular, bold, italic, bold_italic)


@lru_cache(maxsize=None)
def _fallback(kind: str, italic: bool) -> TTFont:
    package, upright, slanted = FALLBACK_FILES[kind]
    try:
        folder = files(package) / "files"
    except ModuleNotFoundError as exc:
        raise FontError(f"the typeface package '{package}' is not installed: run scripts/setup.sh") from exc
    filename = slanted if italic else upright
    try:
        font = TTFont(f"Noto-{kind}{'-Italic' if italic else ''}", str(folder / filename))
    except Exception as exc:  # ReportLab raises TTFError, OSError and others for an unusable file
        raise FontError(f"cannot load {filename} from '{package}': {exc}") from exc
    pdfmetrics.registerFont(font)
    return font


@lru_cache(maxsize=None)
def family(name: str) -> Family:
    """The family ``name`` (a key of FAMILIES), registered with ReportLab on first use."""
    return _register(name)


def drawable(font: str) -> frozenset[int]:
    """The code points a registered face draws, its fallback's included."""
    face = pdfmetrics.getFont(font)
    own = set(face.face.charToGlyph)
    fallback = getattr(face, "fallback", None)
    if fallback is not None:
        own |= set(fallback.face.charToGlyph)
    return frozenset(own)


@lru_cache(maxsize=None)
def kit_coverage() -> frozenset[int]:
    """The code points every style of every family of the kit draws (so any text style can print them)."""
    faces = [name for fam in FAMILIES for name in vars(family(fam)).values()]
    common = drawable(faces[0])
    for name in faces[1:]:
        common &= drawable(name)
    return common | {0x20, 0xA0, 0x0A}


def undrawable(text: str) -> list[str]:
    """The characters of ``text`` no style of the kit can draw, each once, in order."""
    if text.isascii():
        return [c for c in dict.fromkeys(text) if not (c.isprintable() or c == "\n")]
    covered = kit_coverage()
    return [c for c in dict.fromkeys(text) if ord(c) not in covered and not (c.isspace() and c != "\t")]


def cap_height(font: str) -> float:
    """The height of a capital letter per point of size, from the font file."""
    face = pdfmetrics.getFont(font).face
    cap = getattr(face, "capHeight", 0) or 0.7 * 1000
    return float(cap) / 1000.0


#: The kit's chrome (sheet labels, footers, page furniture) and the default text face.
KIT = family("SourceSans")
#: What ReportLab starts every canvas, paragraph and table cell with unless told otherwise: a page's
#: initial font is listed in its resources, so it must be an embedded one too.
BASE_FONT = KIT.regular
rl_config.canvas_basefontname = BASE_FONT
# Styles and table cells that name no font take ReportLab's defaults, read when ReportLab was imported.
ParagraphStyle.defaults["fontName"] = ParagraphStyle.defaults["bulletFontName"] = BASE_FONT
CellStyle.fontname = BASE_FONT

#: The smallest text any document sets (pt): every face, sheet, label and footer stays legible at it.
MIN_TEXT_PT = 6.0
