"""Synthetic table photos made from the project's own card renders, each with the cards it shows.

A scene is some of a game's printed card fronts (drawn by the print kit, rasterised by PDFium through
pypdfium2) laid on a table: spread or fanned (each card partly over the one before, its code left
visible), each turned by up to 30°, then the whole photo seen in perspective, blurred, lit unevenly and
saved as a JPEG at quality 60, at a given scale in pixels per millimetre of card. ``bench/bench_photo.py``
makes the large set; the tests make a few scenes of their own with the same functions.

Only Pillow: no numpy (the project does not depend on it).
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageDraw, ImageFilter

#: the print kit's card faces are rendered once at this scale and shrunk to each scene's
FACE_PX_PER_MM = 12.0
TABLE_COLOURS = ((92, 64, 42), (58, 74, 60), (120, 110, 98), (40, 44, 52))


@dataclass(frozen=True)
class Scene:
    """A generated photo: its JPEG bytes, the card ids it shows (a card laid twice is listed twice), its
    nominal scale and how it was made."""

    jpeg: bytes
    cards: tuple[str, ...]
    px_per_mm: float
    game: str
    layout: str
    size: tuple[int, int]
    #: cards laid but with their code partly under a later card: neither expected nor wrong when read
    hidden: tuple[str, ...] = ()
    #: each card laid (in the order laid) with its four corners in the photo's pixels, as made
    outlines: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()


@lru_cache(maxsize=4)
def _decks(game: str) -> tuple[object, dict[str, object]]:
    from cardgen.render.build import plan_build
    from cardgen.render.export import deck_faces
    from cardgen.render.options import BuildOptions

    plan = plan_build(BuildOptions(game=game, bleed=0.0, documents=("deck",)))
    item = plan.documents[0]
    cards = {}
    for deck in deck_faces(game, item.content, plan.resolved):
        for card in deck.cards:
            cards.setdefault(card.card_id, (deck, card))
    return plan.resolved, cards


def card_ids(game: str) -> list[str]:
    """Every card of ``game`` that has a printed face, in deck order."""
    return list(_decks(game)[1])


@lru_cache(maxsize=512)
def card_face(game: str, card_id: str) -> Image.Image:
    """The printed front of one card (no bleed) at :data:`FACE_PX_PER_MM`, RGB."""
    from cardgen.render.export import deck_pdf
    from cardgen.render.export_faces import DeckFaces

    resolved, cards = _decks(game)
    deck, card = cards[card_id]  # type: ignore[misc]
    data = deck_pdf(DeckFaces(deck.name, [card]), resolved, title=card_id, cmyk=False)  # type: ignore[attr-defined]
    document = pdfium.PdfDocument(data)
    try:
        page = document[0]
        width_pt, _ = page.get_size()
        scale = FACE_PX_PER_MM * 25.4 / 72
        image = page.render(scale=scale).to_pil().convert("RGB")
        assert width_pt > 0
    finally:
        document.close()
    return image


def _solve(matrix: list[list[float]], values: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (8 unknowns: a perspective transform)."""
    n = len(values)
    rows = [row[:] + [value] for row, value in zip(matrix, values, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def perspective_coefficients(source: Sequence[tuple[float, float]],
                             target: Sequence[tuple[float, float]]) -> list[float]:
    """Pillow's PERSPECTIVE coefficients mapping each output point in ``target`` to the input ``source``."""
    matrix, values = [], []
    for (x, y), (u, v) in zip(target, source, strict=True):
        matrix.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        matrix.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        values += [u, v]
    return _solve(matrix, values)


def _table(size: tuple[int, int], rng: random.Random) -> Image.Image:
    base = Image.new("RGB", size, rng.choice(TABLE_COLOURS))
    noise = Image.effect_noise((max(1, size[0] // 8), max(1, size[1] // 8)), 24).resize(size)
    grain = Image.merge("RGB", (noise, noise, noise))
    return ImageChops.add(ImageChops.multiply(base, Image.new("RGB", size, (230, 230, 230))), grain, 1.6, -70)


def _qr_box(face: Image.Image) -> tuple[float, float, float, float]:
    """The card's code as a box in face pixels (found once by decoding the clean face)."""
    import zxingcpp

    found = zxingcpp.read_barcodes(face, formats=zxingcpp.BarcodeFormat.QRCode)
    if not found:
        raise ValueError("the card's face has no readable code")
    p = found[0].position
    xs = [p.top_left.x, p.top_right.x, p.bottom_left.x, p.bottom_right.x]
    ys = [p.top_left.y, p.top_right.y, p.bottom_left.y, p.bottom_right.y]
    pad = (max(xs) - min(xs)) * 0.18  # the quiet zone
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


@lru_cache(maxsize=512)
def _face_qr_box(game: str, card_id: str) -> tuple[float, float, float, float]:
    return _qr_box(card_face(game, card_id))


def _place(canvas: Image.Image, face: Image.Image, qr: tuple[float, float, float, float],
           centre: tuple[float, float], angle: float, px_per_mm: float) -> tuple[Image.Image, Image.Image]:
    """Paste ``face`` scaled and turned about ``centre``; returns the card's and its code's masks on the canvas."""
    scale = px_per_mm / FACE_PX_PER_MM
    size = (max(1, round(face.width * scale)), max(1, round(face.height * scale)))
    card = face.resize(size, Image.Resampling.LANCZOS)
    mask = Image.new("L", size, 255)
    qr_mask = Image.new("L", size, 0)
    ImageDraw.Draw(qr_mask).rectangle([c * scale for c in qr], fill=255)
    turned = card.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    turned_mask = mask.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    turned_qr = qr_mask.rotate(angle, expand=True)
    corner = (round(centre[0] - turned.width / 2), round(centre[1] - turned.height / 2))
    canvas.paste(turned, corner, turned_mask)
    card_layer = Image.new("L", canvas.size, 0)
    card_layer.paste(turned_mask, corner)
    code_layer = Image.new("L", canvas.size, 0)
    code_layer.paste(turned_qr, corner)
    return card_layer, code_layer


def _corners(size: tuple[float, float], centre: tuple[float, float], angle: float) -> list[tuple[float, float]]:
    """The corners of a card of ``size`` pixels laid at ``centre`` and turned ``angle``° counter-clockwise."""
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)
    half_w, half_h = size[0] / 2, size[1] / 2
    return [(centre[0] + dx * cos + dy * sin, centre[1] - dx * sin + dy * cos)
            for dx, dy in ((-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h))]


def _mapped(point: tuple[float, float], c: Sequence[float]) -> tuple[float, float]:
    x, y = point
    w = c[6] * x + c[7] * y + 1
    return ((c[0] * x + c[1] * y + c[2]) / w, (c[3] * x + c[4] * y + c[5]) / w)


def _shadow(canvas: Image.Image, rng: random.Random, darkest: float) -> Image.Image:
    """Uneven light: a gradient across the photo (one side in shade) times a soft pool of light."""
    w, h = canvas.size
    gradient = Image.linear_gradient("L").rotate(rng.uniform(0, 360), expand=False).resize((w, h))
    low = round(255 * darkest)
    light = gradient.point(lambda v: low + (255 - low) * v // 255)
    pool = Image.radial_gradient("L").resize((w, h)).point(lambda v: 255 - v * 60 // 255)
    light = ImageChops.multiply(light, pool)
    return ImageChops.multiply(canvas, Image.merge("RGB", (light, light, light)))


def scene(game: str, cards: Sequence[str], px_per_mm: float, seed: int, *, layout: str = "spread",
          max_angle: float = 30.0, perspective: float = 0.12, blur: float = 0.6, darkest: float = 0.55,
          quality: int = 60) -> Scene:
    """A photo of ``cards`` (ids of ``game``; repeats allowed) laid out as ``layout``: ``spread`` (a grid,
    each card turned by up to ``max_angle``°) or ``fan`` (a row, each card over part of the one before).

    Scale: ``px_per_mm`` at the middle of the photo; ``perspective`` shrinks the far edge by that fraction.
    A card whose code ends up hidden under another is not listed among the photo's cards.
    """
    rng = random.Random(seed)
    faces = [card_face(game, card) for card in cards]
    w_mm, h_mm = faces[0].width / FACE_PX_PER_MM, faces[0].height / FACE_PX_PER_MM
    n = len(cards)
    if layout == "fan":
        step = 0.42 * w_mm
        columns, rows = n, 1
        width_mm = w_mm * 1.6 + step * (n - 1) + 30
        height_mm = h_mm * 1.5 + 30
    else:
        columns = max(1, math.ceil(math.sqrt(n * 1.3)))
        rows = math.ceil(n / columns)
        step = 0.0
        width_mm = columns * w_mm * 1.45 + 30
        height_mm = rows * h_mm * 1.3 + 30
    size = (round(width_mm * px_per_mm), round(height_mm * px_per_mm))
    canvas = _table(size, rng)
    laid: list[tuple[str, Image.Image, Image.Image]] = []  # (card, its mask, its code's mask)
    corners: list[tuple[str, list[tuple[float, float]]]] = []
    fan_angle = rng.uniform(-max_angle, max_angle) / 2
    for index, (card, face) in enumerate(zip(cards, faces, strict=True)):
        qr = _face_qr_box(game, card)
        if layout == "fan":
            # the code must stay visible: each card is laid over the side of the one before away from its code
            qr_left = (qr[0] + qr[2]) / 2 < face.width / 2
            x_mm = 15 + w_mm * 0.8 + step * index
            y_mm = height_mm / 2 + rng.uniform(-4, 4)
            angle = fan_angle + rng.uniform(-5, 5) + (index - n / 2) * 2.5
            if not qr_left:
                face = face.transpose(Image.Transpose.ROTATE_180)
                qr = (face.width - qr[2], face.height - qr[3], face.width - qr[0], face.height - qr[1])
        else:
            row, column = divmod(index, columns)
            x_mm = 15 + (column + 0.5) * (width_mm - 30) / columns + rng.uniform(-4, 4)
            y_mm = 15 + (row + 0.5) * (height_mm - 30) / rows + rng.uniform(-4, 4)
            angle = rng.uniform(-max_angle, max_angle) + rng.choice((0, 0, 90, 180, 270))
        centre = (x_mm * px_per_mm, y_mm * px_per_mm)
        laid.append((card, *_place(canvas, face, qr, centre, angle, px_per_mm)))
        scale = px_per_mm / FACE_PX_PER_MM
        corners.append((card, _corners((face.width * scale, face.height * scale), centre, angle)))
    shown, hidden = [], []
    above = Image.new("L", size, 0)  # every card laid after the one looked at
    for card, card_layer, code_layer in reversed(laid):
        covered = ImageChops.multiply(code_layer, above).getbbox() is not None
        (hidden if covered else shown).append(card)
        above = ImageChops.lighter(above, card_layer)
    if perspective:
        w, h = size
        shrink = perspective * w / 2
        target = [(0, 0), (w, 0), (w, h), (0, h)]
        source = [(-shrink, -shrink * 0.2 * rng.random()), (w + shrink, 0), (w, h), (0, h)]
        if rng.random() < 0.5:
            source = [(0, 0), (w, 0), (w + shrink, h), (-shrink, h)]
        canvas = canvas.transform(size, Image.Transform.PERSPECTIVE, perspective_coefficients(source, target),
                                  Image.Resampling.BICUBIC, fillcolor=TABLE_COLOURS[0])
        forward = perspective_coefficients(target, source)  # where each point of the table lands in the photo
        corners = [(card, [_mapped(point, forward) for point in points]) for card, points in corners]
    canvas = _shadow(canvas, rng, darkest)
    if blur:
        canvas = canvas.filter(ImageFilter.GaussianBlur(blur))
    buffer = io.BytesIO()
    canvas.save(buffer, "JPEG", quality=quality)
    return Scene(buffer.getvalue(), tuple(reversed(shown)), px_per_mm, game, layout, size, tuple(reversed(hidden)),
                 tuple((card, tuple(points)) for card, points in corners))


def scene_set(game: str, px_per_mm: float, count: int, seed: int = 0, per_scene: tuple[int, int] = (4, 9),
              **options: object) -> list[Scene]:
    """``count`` scenes of ``game`` at one scale, alternately spread and fanned, cards drawn at random
    (a card may be laid twice, as a game's copies are)."""
    rng = random.Random(f"{game}/{px_per_mm}/{seed}")
    ids = card_ids(game)
    scenes = []
    for index in range(count):
        n = rng.randint(*per_scene)
        chosen = [rng.choice(ids) for _ in range(n)]
        layout = "fan" if index % 2 else "spread"
        scenes.append(scene(game, chosen, px_per_mm, rng.randrange(1 << 30), layout=layout, **options))  # type: ignore[arg-type]
    return scenes

