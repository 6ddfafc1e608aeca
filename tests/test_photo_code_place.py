"""The print layer's answer to "where is this card's code" (``code_place()``, which score by photo reads) is
where the kit's PDF draws the code: read back from the content stream of the print-shop PDF
(``cardgen export``'s one face a page), for a few cards of every deck of every discovered game, at every card
size, and for the photo's own table (:func:`companion.photo_outline.face_codes`) at the default size."""

from __future__ import annotations

import io
from dataclasses import replace
from functools import lru_cache
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.lib.units import mm

from cardgen.render.build import plan_build
from cardgen.render.export import deck_faces, deck_pdf
from cardgen.render.export_faces import DeckFaces
from cardgen.render.faces import CodedFace
from cardgen.render.options import BuildOptions
from cardgen.render.qr import QUIET_ZONE_MODULES
from cardgen.render.registry import print_kits
from companion.photo_outline import face_codes

GAMES = sorted(game for game, kit in print_kits().items() if kit.deck_faces is not None)
BLEED = 3.0


def _card_sizes() -> list[str]:
    return sorted(plan_build(BuildOptions(game=GAMES[0], documents=("deck",))).resolved.specs.card_sizes)


Matrix = tuple[float, float, float, float, float, float]


def _times(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF order: a point is row-vector × m × n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def drawn_codes(page: Any, reader: PdfReader) -> list[tuple[float, float, float, int]]:
    """Every QR code the page's own content stream draws: a filled path of whole-module rectangles one module
    high whose extent is a QR symbol's square (21, 25, ... modules), under a square scale. Each as the code's
    square without its quiet zone (x, y of its bottom-left corner and side, in points on the page) and its
    width in modules."""
    found = []
    ctm: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    stack: list[Matrix] = []
    rects: list[list[float]] = []
    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        if operator == b"q":
            stack.append(ctm)
        elif operator == b"Q":
            ctm = stack.pop()
        elif operator == b"cm":
            ctm = _times(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
        elif operator == b"re":
            rects.append([float(v) for v in operands])
        elif operator in (b"f", b"f*", b"F", b"B", b"B*", b"b", b"b*", b"S", b"s", b"n"):
            if operator in (b"f", b"f*") and len(rects) >= 50 and all(
                    h == 1 and x == int(x) and y == int(y) and w == int(w) for x, y, w, h in rects):
                left = min(x for x, _, _, _ in rects)
                right = max(x + w for x, _, w, _ in rects)
                bottom = min(y for _, y, _, _ in rects)
                top = max(y + 1 for _, y, _, _ in rects)
                n = int(right - left)
                a, b, c, d, e, f = ctm
                if (left, bottom) == (0, 0) and top - bottom == n and (n - 17) % 4 == 0 and 21 <= n <= 177 \
                        and abs(b) < 1e-9 and abs(c) < 1e-9 and abs(a - d) < 1e-9 and a > 0:
                    found.append((e, f, a * n, n))
            rects = []
        elif operator in (b"m", b"l", b"c", b"v", b"y", b"h"):
            rects.append([0.5, 0.5, 0.5, 0.5])  # not a module: a path with curves or lines is no code
    return found


def _sample(deck: DeckFaces) -> DeckFaces:
    """The first, a middle and the last card of a deck."""
    cards = deck.cards
    picks = sorted({0, len(cards) // 2, len(cards) - 1})
    return replace(deck, cards=[cards[i] for i in picks])


@lru_cache(maxsize=None)
def placed_and_drawn(game: str, size: str) -> tuple[tuple[str, Any, Any], ...]:
    """For a few cards of each deck of ``game`` at card size ``size``: (card id, the front's code place on
    the card in mm as (left, top, side) or None, the codes its page of the print-shop PDF draws, in mm
    from the card's top left as (left, top, side) with the quiet zone)."""
    plan = plan_build(BuildOptions(game=game, card_size=size, bleed=BLEED, documents=("deck",)))
    out = []
    for deck in deck_faces(game, plan.documents[0].content, plan.resolved):
        sample = _sample(deck)
        reader = PdfReader(io.BytesIO(deck_pdf(sample, plan.resolved, title=game, cmyk=False)))
        for index, card in enumerate(sample.cards):
            front = card.front
            page = reader.pages[2 * index]  # each card's front, then its back
            drawn = []
            for x, y, side, n in drawn_codes(page, reader):
                quiet = side * QUIET_ZONE_MODULES / n
                left, bottom, whole = x - quiet - BLEED * mm, y - quiet - BLEED * mm, side + 2 * quiet
                drawn.append((left / mm, front.size.height - (bottom + whole) / mm, whole / mm))
            assert not drawn_codes(reader.pages[2 * index + 1], reader), f"{card.card_id}: a back draws a code"
            place = front.code_place().on_card(front.size) if isinstance(front, CodedFace) else None
            out.append((card.card_id, place, drawn))
    return tuple(out)


@pytest.mark.parametrize("size", _card_sizes())
@pytest.mark.parametrize("game", GAMES)
def test_each_front_draws_its_code_where_its_code_place_says(game: str, size: str) -> None:
    """A front that declares a code place draws exactly one code, there (to a thousandth of a millimetre);
    a front that declares none draws no code (a game cannot print codes the photo cannot place)."""
    for card_id, place, drawn in placed_and_drawn(game, size):
        if place is None:
            assert drawn == [], f"{card_id} prints a code but declares no code_place()"
            continue
        assert len(drawn) == 1, (card_id, drawn)
        assert all(abs(p - d) < 1e-3 for p, d in zip(place, drawn[0], strict=True)), (card_id, place, drawn)


@pytest.mark.parametrize("game", GAMES)
def test_the_photo_outline_reads_the_places_the_kit_draws(game: str) -> None:
    """The photo's table of code places (the default card size) is the drawn codes of the default kit."""
    codes = face_codes(game)
    checked = 0
    for card_id, _, drawn in placed_and_drawn(game, "poker"):
        if not drawn:
            assert card_id not in codes
            continue
        code = codes[card_id]
        assert all(abs(p - d) < 1e-3 for p, d in zip((code.left, code.top, code.side), drawn[0], strict=True)), \
            (card_id, code, drawn)
        checked += 1
    assert checked >= 3


def test_the_stream_reader_sees_a_code_moved_by_a_tenth_of_a_millimetre() -> None:
    """The check above could fail: a code drawn 0.1 mm off its place is read back 0.1 mm off."""
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.faces import CodePlace, draw_card_qr
    from cardgen.render.qr import qr_matrix

    place = CodePlace(20 * mm, 10 * mm, 1.0, 17.0)
    moved = replace(place, edge=place.edge + 0.1 * mm)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(63 * mm, 88 * mm))
    draw_card_qr(canvas, qr_matrix("http://localhost:8000/c/game/card?v=1"), moved, ink="#000000", ink_saver=False)
    canvas.showPage()
    canvas.save()
    reader = PdfReader(io.BytesIO(buffer.getvalue()))
    [(x, y, side, n)] = drawn_codes(reader.pages[0], reader)
    quiet = side * QUIET_ZONE_MODULES / n
    expected_x, expected_y, expected_side = place.square()
    assert abs(y - quiet - expected_y) < 1e-4 and abs(side + 2 * quiet - expected_side) < 1e-4  # 5 digits a point
    assert abs((x - quiet - expected_x) / mm - 0.1) < 1e-4
