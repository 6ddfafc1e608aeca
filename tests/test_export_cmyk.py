"""``cardgen export --cmyk`` for a print shop (issue 26): text and strokes of neutral ink on the black plate
alone (the body text at 100 % K, so 6 pt type cannot fringe on misregistration), and an OutputIntent that
names the conversion that made the CMYK numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from cardgen.render import BuildOptions
from cardgen.render.export import (
    CMYK_CONDITION,
    ExportSettings,
    export_cards,
    to_cmyk,
    to_k,
)


def _marks(obj: Any, reader: PdfReader, out: list[tuple[str, tuple[float, ...]]]) -> None:
    """(kind, CMYK) of every text run and stroke, in page content and in the forms it places."""
    fill: tuple[float, ...] = ()
    stroke: tuple[float, ...] = ()
    stack: list[tuple[tuple[float, ...], tuple[float, ...]]] = []
    content = obj.get_contents() if hasattr(obj, "get_contents") else obj
    xobjects = (obj["/Resources"].get("/XObject") if "/Resources" in obj else None) or {}
    for operands, op in ContentStream(content, reader).operations:
        op = op.decode()
        assert op not in ("rg", "RG", "g", "G", "sc", "scn"), f"an RGB or grey colour ({op}) in a CMYK file"
        if op == "k":
            fill = tuple(float(x) for x in operands)
        elif op == "K":
            stroke = tuple(float(x) for x in operands)
        elif op == "q":
            stack.append((fill, stroke))
        elif op == "Q":
            fill, stroke = stack.pop()
        elif op in ("Tj", "TJ"):
            out.append(("text", fill))
        elif op in ("S", "s", "B", "b", "B*", "b*"):
            out.append(("stroke", stroke))
        elif op == "Do":
            _marks(xobjects[operands[0]].get_object(), reader, out)


@pytest.fixture(scope="module")
def cmyk_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cmyk")
    [path] = export_cards(BuildOptions(game="barony-sorcery", out_dir=out), ExportSettings(format="pdf", cmyk=True))
    return path


def test_neutral_text_and_strokes_are_on_the_black_plate_alone(cmyk_pdf: Path) -> None:
    reader = PdfReader(cmyk_pdf)
    marks: list[tuple[str, tuple[float, ...]]] = []
    for page in reader.pages:
        _marks(page, reader, marks)
    texts = [c for kind, c in marks if kind == "text"]
    assert texts and (0.0, 0.0, 0.0, 1.0) in texts, "the body text at 100 % K"
    for kind, (c, m, y, k) in marks:
        if c == m == y == 0:
            continue
        # a coloured mark: only a chromatic ink (a category's colour) may use the colour plates
        r, g, b = ((1 - x) * (1 - k) for x in (c, m, y))
        assert max(r, g, b) - min(r, g, b) > 0.15, f"a near-neutral {kind} on the colour plates: {(c, m, y, k)}"


def test_the_output_intent_names_the_conversion(cmyk_pdf: Path) -> None:
    [intent] = PdfReader(cmyk_pdf).trailer["/Root"]["/OutputIntents"]
    assert intent["/Type"] == "/OutputIntent" and intent["/OutputConditionIdentifier"] == "Custom"
    assert intent["/OutputCondition"] == CMYK_CONDITION and "no ICC profile" in CMYK_CONDITION


def test_the_house_ink_becomes_solid_black_and_colours_keep_their_plates() -> None:
    ink = to_cmyk("#1B1E2B")
    assert (ink.cyan, ink.black) != (0, 1)             # as a fill: the plain conversion, a rich black
    solid = to_k("#1B1E2B")
    assert (solid.cyan, solid.magenta, solid.yellow, solid.black) == (0, 0, 0, 1)
    assert to_k(to_cmyk("#1B1E2B")) == solid          # judged by the colour a converted fill stands for
    grey = to_k("#8A8F9C")
    assert grey.cyan == grey.magenta == grey.yellow == 0 and 0 < grey.black < 0.8
    red = to_k("#A3242F")
    assert red.magenta > 0.5                          # a chromatic ink keeps its colour
