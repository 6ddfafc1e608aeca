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
from functools import lru_cache
from importlib.resources import files

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.lib.fonts import addMapping
from reportlab.lib.styles import ParagraphStyle
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
    for suffix, filename in zip(_STYLES, names):
        name = family + suffix
        if name not in pdfmetrics.getRegisteredFontNames():
            try:
                pdfmetrics.registerFont(TTFont(name, str(folder / filename)))
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
def family(name: str) -> Family:
    """The family ``name`` (a key of FAMILIES), registered with ReportLab on first use."""
    return _register(name)


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
