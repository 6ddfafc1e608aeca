"""Speed-ups in the print path that must not change what is printed: artwork drawn once as a PDF form
and placed again, and QR paths made from each code's row text."""

from __future__ import annotations

import random
import string
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops
from pypdf import PdfReader
from qrcode.constants import ERROR_CORRECT_M
from reportlab.pdfgen.canvas import Canvas

from cardgen.render import BuildOptions, build, qr
from cardgen.render import pdf as render_pdf

_RNG = random.Random(11)
_ALPHABET = string.ascii_letters + string.digits + "/:.-_?=&%~"


def _byte_capacity(version: int) -> int:
    """Bytes a code of this version holds at level M (from the qrcode package's own table)."""
    from qrcode import util
    count_bits = util.length_in_bits(util.MODE_8BIT_BYTE, version)
    return (util.BIT_LIMIT_TABLE[ERROR_CORRECT_M][version] - 4 - count_bits) // 8


# every version from 1 to 40 at level M, each full to the last byte and with one byte more than the
# version before holds, plus non-ASCII text (UTF-8 bytes): byte mode at every version
_LENGTHS = sorted({n for v in range(1, 41) for n in (_byte_capacity(v), _byte_capacity(v - 1) + 1 if v > 1 else 1)})
BYTE_PAYLOADS = ["".join(_RNG.choice(_ALPHABET) for _ in range(n)) for n in _LENGTHS]
BYTE_PAYLOADS += ["Ünïcödé ✓ 漢字 http://x/c/g/é", "http://localhost:8000/c/fillory/the-beast",
                  "https://table.example.org:8443/play/c/mandragora/spell-banish-2"]


def test_the_sample_spans_every_version() -> None:
    assert {qr.encode(p).version for p in BYTE_PAYLOADS} == set(range(1, 41))


def test_too_much_for_any_version_is_refused() -> None:
    from qrcode.exceptions import DataOverflowError
    with pytest.raises(DataOverflowError):
        qr.encode("x" * (_byte_capacity(40) + 1))


# -- forms --------------------------------------------------------------------------------------

def _forms_in(path: Path) -> int:
    return sum(
        1 for ref in PdfReader(path).pages[0]["/Resources"].get_object().get("/XObject", {}).values()
        if ref.get_object()["/Subtype"] == "/Form")


def test_a_drawing_becomes_a_form_only_when_it_recurs(tmp_path: Path) -> None:
    path = tmp_path / "reuse.pdf"
    canvas = Canvas(str(path), invariant=1)
    drawn: list[str] = []

    def square(tag: str) -> None:
        drawn.append(tag)
        canvas.setFillColor("#224466")
        canvas.rect(0, 0, 20, 20, stroke=0, fill=1)
    for key, x in (("a", 10), ("b", 40), ("a", 70), ("a", 100)):
        canvas.saveState()
        canvas.translate(x, 100)
        render_pdf.draw_reused(canvas, key, (0, 0, 20, 20), lambda key=key: square(key))
        canvas.restoreState()
    canvas.save()
    assert drawn == ["a", "b", "a"]  # inline the first time, into a form the second, placed the third
    assert _forms_in(path) == 1
    content = PdfReader(path).pages[0].get_contents().get_data().decode("latin-1")
    assert content.count(" Do") == 2


def _page_images(path: Path, pages: list[int]) -> list[object]:
    document = pdfium.PdfDocument(str(path))
    return [document[i].render(scale=100 / 72).to_pil().convert("RGB") for i in pages]


@pytest.mark.parametrize("game", ["fillory", "mandragora"])
def test_decks_with_forms_print_the_same_as_drawn_inline(game: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (with_forms,) = build(BuildOptions(game=game, documents=("deck",), out_dir=tmp_path / "forms"))

    def inline(canvas: Canvas, key: object, box: object, draw: object, *, keep: object = None) -> None:
        draw()  # type: ignore[operator]
    monkeypatch.setattr(render_pdf, "draw_reused", inline)
    for module in ("cardgen.render.faces", "cardgen.render.imposition", f"cardgen.render.{game}.card_faces"):
        monkeypatch.setattr(f"{module}.draw_reused", inline)
    (drawn_inline,) = build(BuildOptions(game=game, documents=("deck",), out_dir=tmp_path / "inline"))
    assert _forms_in(drawn_inline) == 0 and _forms_in(with_forms) > 0
    pages = [0, 1, len(PdfReader(with_forms).pages) - 2]  # a front sheet, its backs, a later front sheet
    for ours, reference in zip(_page_images(with_forms, pages), _page_images(drawn_inline, pages), strict=True):
        red, green, blue = ImageChops.difference(ours, reference).split()  # type: ignore[arg-type]
        changed = sum(ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()[9:])
        assert changed < 0.0005 * ours.width * ours.height  # type: ignore[attr-defined]  # anti-aliasing only


@pytest.mark.parametrize("payload", BYTE_PAYLOADS[::9])
def test_path_from_row_text_matches_the_path_from_modules(payload: str) -> None:
    encoded = qr.encode(payload)
    assert encoded._lines
    plain = qr.QrMatrix(encoded.payload, encoded.version, encoded.rows)  # no row text: the module loop
    assert encoded.path_operators() == plain.path_operators()
