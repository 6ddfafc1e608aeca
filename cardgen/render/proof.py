"""Proof sheets: ``cardgen proof`` writes ``OUT/<game>/proof-<deck>.pdf``, every card of a deck small on as
few pages as possible, each with its number and id under it and the deck's back first, to proofread the
texts before printing. Cards are drawn at their trim (no bleed), turned to portrait, scaled so that
:data:`COLUMNS` of them fit across the page."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Callable

from .build import make_folder, plan_build, write_atomically
from .export import deck_faces
from .faces import Face
from .fonts import KIT, MIN_TEXT_PT
from .labels import label
from .options import BuildOptions
from .pdf import new_canvas, pt
from .print_specs import PaperSize

COLUMNS = 5
MARGIN_MM = 10.0
GAP_MM = 4.0
CAPTION_MM = 4.0


def _draw(canvas: object, face: Face, x: float, y: float, scale: float) -> None:
    c = canvas
    w, h = face.size.width, face.size.height
    c.saveState()  # type: ignore[attr-defined]
    c.translate(pt(x), pt(y))  # type: ignore[attr-defined]
    c.scale(scale, scale)  # type: ignore[attr-defined]
    if w > h:  # a landscape card, turned so that every card of the sheet reads the same way up
        c.translate(pt(h), 0)  # type: ignore[attr-defined]
        c.rotate(90)  # type: ignore[attr-defined]
    path = c.beginPath()  # type: ignore[attr-defined]
    path.rect(0, 0, pt(w), pt(h))
    c.clipPath(path, stroke=0, fill=0)  # type: ignore[attr-defined]
    face.draw(c, 0.0)  # type: ignore[arg-type]
    c.restoreState()  # type: ignore[attr-defined]
    c.saveState()  # type: ignore[attr-defined]
    c.setStrokeColor("#9AA0AE")  # type: ignore[attr-defined]
    c.setLineWidth(0.3)  # type: ignore[attr-defined]
    tw, th = (h, w) if w > h else (w, h)
    c.rect(pt(x), pt(y), pt(tw * scale), pt(th * scale), stroke=1, fill=0)  # type: ignore[attr-defined]
    c.restoreState()  # type: ignore[attr-defined]


def _write(target: Path, *, paper: PaperSize, title: str, entries: list[tuple[str, Face]],
           geometry: tuple[float, float, float, float, int]) -> None:
    slot_w, slot_h, ch, scale, per_page = geometry
    canvas = new_canvas(target, paper.width, paper.height, title=label("proof", "title", deck=title),
                        subject=label("proof", "subject", count=len(entries) - 1, per_page=per_page))
    pages = (len(entries) + per_page - 1) // per_page
    for page in range(pages):
        canvas.setFont(KIT.bold, 9)
        canvas.setFillColor("#1B1E2B")
        canvas.drawString(pt(MARGIN_MM), pt(paper.height - MARGIN_MM + 2), label("proof", "heading", deck=title, page=page + 1, pages=pages))
        for index, (caption, face) in enumerate(entries[page * per_page:(page + 1) * per_page]):
            col, row = index % COLUMNS, index // COLUMNS
            x = MARGIN_MM + col * (slot_w + GAP_MM)
            top = paper.height - MARGIN_MM - CAPTION_MM - row * (slot_h + GAP_MM)
            _draw(canvas, face, x, top - ch * scale, scale)
            canvas.setFont(KIT.regular, MIN_TEXT_PT)
            canvas.setFillColor("#1B1E2B")
            canvas.drawString(pt(x), pt(top - ch * scale - CAPTION_MM + 1.2), caption)
        canvas.showPage()
    canvas.save()


def proof(options: BuildOptions, progress: Callable[[int], None] | None = None) -> list[Path]:
    """Write a contact sheet per deck of ``options.game`` (or every game); returns the PDFs."""
    plan = plan_build(replace(options, documents=("deck",)))
    resolved = plan.resolved
    paper = resolved.paper
    report = progress or (lambda steps: None)
    written: list[Path] = []
    for item in plan.documents:
        title = str(getattr(item.content, "title", item.game))
        for deck in deck_faces(item.game, item.content, resolved):
            if not deck.cards:
                continue
            first = deck.cards[0].front.size
            cw, ch = sorted((first.width, first.height))
            slot_w = (paper.width - 2 * MARGIN_MM - (COLUMNS - 1) * GAP_MM) / COLUMNS
            scale = slot_w / cw
            slot_h = ch * scale + CAPTION_MM
            rows = max(1, int((paper.height - 2 * MARGIN_MM - CAPTION_MM + GAP_MM) // (slot_h + GAP_MM)))
            per_page = rows * COLUMNS
            entries: list[tuple[str, Face]] = [(label("proof", "back"), deck.cards[0].back)]
            entries += [(f"{n} · {card.card_id}", card.front) for n, card in enumerate(deck.cards, 1)]
            path = Path(options.out_dir) / item.game / f"proof-{deck.name}.pdf"
            make_folder(path.parent)
            report(len(entries))

            write_atomically(path, partial(_write, paper=paper, title=f"{title}: {deck.name}", entries=entries,
                                           geometry=(slot_w, slot_h, ch, scale, per_page)))
            written.append(path)
    return written
