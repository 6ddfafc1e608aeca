"""Document plumbing shared by every game's print kit: flowing text documents (reference sheets) with a
footer on every page, one-page sheets finished with a footer line, and the rule texts they quote."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Protocol, Sequence

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Table,
    TableStyle,
)
from reportlab.platypus import Paragraph as PlainParagraph

from cardgen.catalog import DataNote, RuleEntry
from cardgen.render.markup import escape

from .fonts import BASE_FONT, KIT
from .labels import label
from .layout import Rect
from .pdf import apply_document_settings, pt, set_page_boxes
from .print_specs import PaperSize
from .symbols import Drawer

FOOTER_FONT = KIT.regular
FOOTER_SIZE = 7
#: Where a page's footer line sits (mm above the bottom edge): inside the 5 mm no home printer reaches.
FOOTER_BASELINE_MM = 6.5
FOOTER_INK = "#6B7080"
GRID_LINE = "#C9CCD6"
REFERENCE_MARGIN_MM = 14.0


class Paragraph(PlainParagraph):  # type: ignore[misc]  # ReportLab ships no type hints
    """ReportLab's ``Paragraph``, remembering its last line breaking: a table wraps each cell several
    times at the same width while it sizes its rows and columns, and ``KeepTogether`` wraps its
    contents again. Same lines, same PDF bytes; the reference sheets took 40 % less time."""

    _wrapped: tuple[float, tuple[float, float]] | None = None  # (width offered, size answered)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if self._wrapped is None or self._wrapped[0] != availWidth:  # lines depend on the width alone
            width, height = super().wrap(availWidth, availHeight)
            self._wrapped = (availWidth, (float(width), float(height)))
        return self._wrapped[1]


class RuleSource(Protocol):
    """Any game content that looks rule entries up by id."""

    def rule(self, rule_id: str) -> RuleEntry: ...


def rule_text(content: RuleSource, rule_ids: tuple[str, ...]) -> str:
    """The texts of the given rule entries, escaped for a Paragraph, joined by spaces."""
    return " ".join(escape(content.rule(rule_id).text) for rule_id in rule_ids)


def set_full_page_boxes(canvas: Canvas, paper: PaperSize) -> None:
    """Trim and bleed boxes equal to the whole page (documents printed edge to edge as they are)."""
    page = Rect(0, 0, paper.width, paper.height)
    set_page_boxes(canvas, page, page, paper.width, paper.height)


def finish_single_page(canvas: Canvas, paper: PaperSize, footer: str, x: float, y: float) -> None:
    """Draw the footer line at (x, y), set the page boxes and write the one-page document."""
    canvas.setFont(FOOTER_FONT, FOOTER_SIZE)
    canvas.setFillColor(FOOTER_INK)
    canvas.drawString(x, y, footer)
    set_full_page_boxes(canvas, paper)
    canvas.showPage()
    canvas.save()


def render_flowing_document(path: Path, paper: PaperSize, *, title: str, subject: str, footer: str,
                            story: Callable[[float], list[Flowable]],
                            margin_mm: float = REFERENCE_MARGIN_MM) -> None:
    """A multi-page document from a story of flowables (built for the frame width it is given), with
    ``footer`` and the page number bottom left and the retold-rules notice bottom right on every page."""
    page_w, page_h = pt(paper.width), pt(paper.height)
    margin = pt(margin_mm)

    def on_page(canvas: Canvas, doc: BaseDocTemplate) -> None:
        apply_document_settings(canvas, title=title, subject=subject)
        canvas.saveState()
        canvas.setFont(FOOTER_FONT, FOOTER_SIZE)
        canvas.setFillColor(FOOTER_INK)
        canvas.drawString(margin, margin / 2, words("page", footer=footer, page=doc.page))
        canvas.drawRightString(page_w - margin, margin / 2, retold_notice())
        canvas.restoreState()
        set_full_page_boxes(canvas, paper)

    doc = BaseDocTemplate(str(path), pagesize=(page_w, page_h), leftMargin=margin, rightMargin=margin,
                          topMargin=margin, bottomMargin=margin, invariant=1, pageCompression=1,
                          title=title, author="Spellbook Table", creator="Spellbook Table cardgen",
                          initialFontName=BASE_FONT)
    frame = Frame(margin, margin, page_w - 2 * margin, page_h - 2 * margin, id="body",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=on_page)])
    doc.build(story(page_w - 2 * margin))


def words(key: str, **fields: object) -> str:
    """The shared documents' word ``key`` (section ``[document]`` of the labels)."""
    return label("document", key, **fields)


def retold_notice() -> str:
    """The notice beside every reference page's footer: the rules are retold in our own words."""
    return words("retold")


def note_markup(note: DataNote, *, flagged: bool = False) -> str:
    """One data note as a short sentence: what was printed, what we read, and why (``flagged``: the
    notes of kept-as-printed fields say so)."""
    field = escape(note.field[:1].upper() + note.field[1:])
    if note.action == "normalised":
        return words("normalised", field=field, printed=escape(note.printed), used=escape(note.used),
                     text=escape(note.text))
    return words("kept_flagged" if flagged else "kept", field=field, printed=escape(note.printed),
                 text=escape(note.text))


def grid_style(header_fill: str, zebra: str | None, *, line: str = GRID_LINE, valign: str = "MIDDLE",
               header: bool = True) -> TableStyle:
    """The reference sheets' table look: a rule under every row, even padding, the header row (if any)
    filled with ``header_fill`` and the body rows striped with ``zebra`` (None: no stripes)."""
    commands: list[tuple[Any, ...]] = [
        ("LINEBELOW", (0, 0), (-1, -1), 0.4, line),
        ("VALIGN", (0, 0), (-1, -1), valign),
        ("TOPPADDING", (0, 0), (-1, -1), 2.4),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.8),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
    ]
    if header:
        commands.append(("BACKGROUND", (0, 0), (-1, 0), header_fill))
    if zebra:
        commands.append(("ROWBACKGROUNDS", (0, 1 if header else 0), (-1, -1), ["#FFFFFF", zebra]))
    return TableStyle(commands)


class SymbolCell(Flowable):  # type: ignore[misc]  # ReportLab ships no type information
    """A vector symbol as a table cell: ``draw(canvas, cx, cy, size, ink, light)`` in a square ``size`` wide."""

    def __init__(self, draw: Drawer, size: float, ink: str, light: str = "#FFFFFF") -> None:
        super().__init__()
        self.draw_symbol, self.size, self.ink, self.light = draw, size, ink, light
        self.width = self.height = size

    def draw(self) -> None:
        self.draw_symbol(self.canv, self.size / 2, self.size / 2, self.size, self.ink, self.light)


def short_title(title: str) -> str:
    """'Setup: the shop circle' -> 'The shop circle' (the section heading already says 'Setup')."""
    short = title.split(": ", 1)[-1]
    return short[:1].upper() + short[1:]


class NotedContent(Protocol):
    """Any game content with data notes and a readable label for each note's subject."""

    @property
    def notes(self) -> Sequence[DataNote]: ...

    def subject_label(self, subject: str) -> str: ...


def notes_table(content: NotedContent, label: ParagraphStyle, text: ParagraphStyle, width: float, *,
                label_mm: float, header_fill: str, zebra: str | None) -> Table:
    """The rulebook notes as a table: what each concerns (``label_mm`` wide), and what was printed and read."""
    rows = [[Paragraph(words("concerns"), label), Paragraph(words("notes_head"), label)]]
    for note in content.notes:
        subject = content.subject_label(note.subject)
        rows.append([Paragraph(escape(subject[:1].upper() + subject[1:]), label),
                     Paragraph(note_markup(note, flagged=True), text)])
    table = Table(rows, colWidths=[pt(label_mm), width - pt(label_mm)], repeatRows=1)
    table.setStyle(grid_style(header_fill, zebra))
    return table


def rules_table(content: RuleSource, rule_ids: Iterable[str], label: ParagraphStyle, text: ParagraphStyle,
                width: float, *, label_mm: float, valign: str = "MIDDLE",
                title: Callable[[str], str] = short_title) -> Table:
    """Rule entries as a two-column list, without a header: each rule's ``title`` (``label_mm`` wide), then
    the rule in our words."""
    rows = [[Paragraph(escape(title(content.rule(i).title)), label), Paragraph(escape(content.rule(i).text), text)]
            for i in rule_ids]
    table = Table(rows, colWidths=[pt(label_mm), width - pt(label_mm)])
    table.setStyle(grid_style("#FFFFFF", None, header=False, valign=valign))
    return table
