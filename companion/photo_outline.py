"""Where a whole card lies in a photo, from the four corners of its code and the print layout.

Every card front of the print kit says where it prints its code: ``code_place()`` gives the square (code and
quiet zone) :func:`cardgen.render.faces.draw_card_qr` draws it in, computed from the face's layout without
drawing (:class:`cardgen.render.faces.CodePlace`; the face draws its code with the same answer).
:func:`face_codes` asks every front of a game once. :func:`outline` maps the card's rectangle into the photo
with the affine map that best takes the code's square (the quiet zone left out: its width in modules comes
from the code's version, as read) onto the four corners read: a card lies flat, so over its few centimetres a
phone photo's perspective is close to affine.

The layout is the kit's default card size for the game (the size the print kit makes unless asked for
another): a card printed at another size gets an outline of the default size around its code.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from cardgen.render.qr import QUIET_ZONE_MODULES


@dataclass(frozen=True)
class FaceCode:
    """Where a card's code is printed: the card's trim (mm) and the code's square with its quiet zone (mm from
    the card's top left corner, y down)."""

    width: float
    height: float
    left: float
    top: float
    side: float


@lru_cache(maxsize=8)
def face_codes(game: str) -> dict[str, FaceCode]:
    """Every card of ``game`` with a printed front: where its code is (cards whose front prints no code, i.e.
    declares no ``code_place``, are left out). Made once per game and process, without drawing a face."""
    from cardgen.render.build import plan_build
    from cardgen.render.export import deck_faces
    from cardgen.render.faces import CodedFace
    from cardgen.render.options import BuildOptions

    plan = plan_build(BuildOptions(game=game, bleed=0.0, documents=("deck",)))
    if not plan.documents:
        return {}
    found: dict[str, FaceCode] = {}
    for deck in deck_faces(game, plan.documents[0].content, plan.resolved):
        for card in deck.cards:
            front = card.front
            if card.card_id not in found and isinstance(front, CodedFace):
                left, top, side = front.code_place().on_card(front.size)
                found[card.card_id] = FaceCode(float(front.size.width), float(front.size.height), left, top, side)
    return found


def _affine(source: Sequence[tuple[float, float]], target: Sequence[tuple[float, float]]) -> list[list[float]]:
    """The least-squares affine map (2 rows of a, b, c: u = a x + b y + c) from ``source`` to ``target``."""
    n = len(source)
    sx = sum(x for x, _ in source)
    sy = sum(y for _, y in source)
    sxx = sum(x * x for x, _ in source)
    syy = sum(y * y for _, y in source)
    sxy = sum(x * y for x, y in source)
    normal = [[sxx, sxy, sx], [sxy, syy, sy], [sx, sy, float(n)]]
    rows = []
    for axis in (0, 1):
        values = [sum(x * t[axis] for (x, _), t in zip(source, target, strict=True)),
                  sum(y * t[axis] for (_, y), t in zip(source, target, strict=True)),
                  sum(t[axis] for t in target)]
        rows.append(_solve3(normal, values))
    return rows


def _solve3(matrix: list[list[float]], values: list[float]) -> list[float]:
    """Cramer's rule for a 3×3 system."""
    def det(m: list[list[float]]) -> float:
        return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))

    whole = det(matrix)
    if abs(whole) < 1e-12:
        raise ValueError("the code's corners are degenerate")
    out = []
    for column in range(3):
        replaced = [[values[r] if c == column else matrix[r][c] for c in range(3)] for r in range(3)]
        out.append(det(replaced) / whole)
    return out


def modules_of(version: int | None) -> int:
    """A QR code's width in modules from its version (1-40); version 4 (a card page's address) if unknown."""
    return 17 + 4 * (version if version and 1 <= version <= 40 else 4)


def outline(code: FaceCode, corners: Sequence[Sequence[float]], modules: int) -> tuple[tuple[int, int], ...] | None:
    """The card's four corners in the photo (its top left first, clockwise, as the code's corners), from the
    code's corners read there (top left of the code first, clockwise) and its width in modules; None without
    four corners."""
    if len(corners) != 4:
        return None
    quiet = code.side * QUIET_ZONE_MODULES / (modules + 2 * QUIET_ZONE_MODULES)
    left, top, side = code.left + quiet, code.top + quiet, code.side - 2 * quiet
    square = [(left, top), (left + side, top), (left + side, top + side), (left, top + side)]
    try:
        (a, b, c), (d, e, f) = _affine(square, [(float(x), float(y)) for x, y in corners])
    except ValueError:
        return None
    card = [(0.0, 0.0), (code.width, 0.0), (code.width, code.height), (0.0, code.height)]
    return tuple((round(a * x + b * y + c), round(d * x + e * y + f)) for x, y in card)


__all__ = ["FaceCode", "face_codes", "modules_of", "outline"]
