"""Boxes on the whole card: from a code's four corners and where the print layout puts the code on the card, the
card's outline; on photos made from the print kit's own faces it lies within a few millimetres of the true edges."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from companion.photo import read_photo
from companion.photo_outline import face_codes, modules_of, outline
from companion.web.photo import games_with_photo

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import photo_set  # noqa: E402  bench/photo_set.py: table photos from the print kit's faces

PHOTO_GAMES = games_with_photo()


@pytest.mark.parametrize("game", PHOTO_GAMES)
def test_every_printed_card_has_its_code_placed_by_the_layout(game: str) -> None:
    """Each card with a printed front: its code's square lies inside the card, at least 15 mm across (what a phone
    reads), as the rendered face shows it (within half a millimetre)."""
    codes = face_codes(game)
    ids = photo_set.card_ids(game)
    assert set(ids) <= set(codes)
    for card in ids[::7]:
        code = codes[card]
        assert 0 <= code.left and code.left + code.side <= code.width
        assert 0 <= code.top and code.top + code.side <= code.height and code.side >= 15
        # the rendered face: its code (quiet zone left out) where the layout says
        rendered = [v / photo_set.FACE_PX_PER_MM for v in photo_set._face_qr_box(game, card)]
        pad = (rendered[2] - rendered[0]) * 0.18 / 1.36   # photo_set pads its box by 18 % of the code's side
        quiet = code.side * 4 / (modules_of(4) + 8)
        assert abs(rendered[0] + pad - (code.left + quiet)) < 0.6, card
        assert abs(rendered[1] + pad - (code.top + quiet)) < 0.6, card


def _worst_mm(scene: photo_set.Scene) -> float:
    """The farthest any outline's corner lies from the true corner of its card, in millimetres at the photo's
    nominal scale (every card read must have an outline)."""
    truth: dict[str, list[tuple[tuple[float, float], ...]]] = {}
    for card, corners in scene.outlines:
        truth.setdefault(card, []).append(corners)
    reading = read_photo(scene.jpeg, scene.game)
    assert reading.cards
    worst = 0.0
    for found in reading.cards:
        assert found.outline is not None, found.card_id
        distance = min(max(min(math.dist(p, q) for q in corners) for p in found.outline)
                       for corners in truth[found.card_id])
        worst = max(worst, distance / scene.px_per_mm)
    return worst


@pytest.mark.parametrize("game", PHOTO_GAMES)
def test_the_outline_is_within_a_few_mm_of_the_card_edges(game: str) -> None:
    """Flat photos (turned up to 30°, blurred, JPEG 60): within 2 mm; the bench's strong perspective (the far edge
    12 % smaller), which the outline's affine map does not follow across a card: within 6 mm."""
    ids = photo_set.card_ids(game)[:9]
    for layout, ppm, seed in (("spread", 5.0, 1), ("fan", 6.0, 2)):
        flat = photo_set.scene(game, ids[seed:seed + 5], ppm, seed, layout=layout, perspective=0)
        assert _worst_mm(flat) <= 2.0, (layout, ppm)
        tilted = photo_set.scene(game, ids[seed:seed + 5], ppm, seed, layout=layout, perspective=0.12)
        assert _worst_mm(tilted) <= 6.0, (layout, ppm)


def test_an_outline_follows_the_code_turned_and_needs_four_corners() -> None:
    game = PHOTO_GAMES[0]
    code = next(iter(face_codes(game).values()))
    modules = modules_of(4)
    quiet = code.side * 4 / (modules + 8)
    side = code.side - 2 * quiet
    # a code read upright at 10 px/mm, its card's top left at (100, 50): the card is w × h mm from there
    x0, y0 = 100 + 10 * (code.left + quiet), 50 + 10 * (code.top + quiet)
    upright = [(x0, y0), (x0 + 10 * side, y0), (x0 + 10 * side, y0 + 10 * side), (x0, y0 + 10 * side)]
    card = outline(code, upright, modules)
    assert card is not None
    expected = [(100, 50), (100 + 10 * code.width, 50), (100 + 10 * code.width, 50 + 10 * code.height),
                (100, 50 + 10 * code.height)]
    assert all(math.dist(a, b) <= 1 for a, b in zip(card, expected, strict=True))
    # the same card upside down: its corners come round with the code's
    turned = [(2000 - x, 2000 - y) for x, y in upright]
    assert all(math.dist(a, (2000 - b[0], 2000 - b[1])) <= 1
               for a, b in zip(outline(code, turned, modules) or (), expected, strict=True))
    assert outline(code, upright[:3], modules) is None
    assert modules_of(None) == modules_of(4) == 33 and modules_of(2) == 25
