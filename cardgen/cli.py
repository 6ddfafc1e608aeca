"""``cardgen``: check the game data and build the print kits.

A thin layer over :mod:`cardgen.catalog` and :mod:`cardgen.render`: it parses options, calls the
library and turns every library error into a clean message and exit status 1 (never a traceback).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import click

from cardgen import __version__
from cardgen.catalog import GAMES, DataError, catalogs, data_dir, game_folder, load_game
from cardgen.catalog.base import Problem

DEFAULT_PAPERS = ("A4", "Letter")
DEFAULT_CARD_SIZES = ("poker", "bridge", "tarot", "mini")


class FiniteFloatRange(click.FloatRange):
    """A float range that refuses ``nan`` and ``inf``: click's range lets NaN through (every comparison with
    it is false), and a NaN offset or size would be written into the PDFs as a broken operator."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number (a number of mm, such as 1.5)", param, ctx)
        return float(number)


def _print_choices() -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """Paper and card-size names from the project's print data, for --help and validation."""
    from cardgen.render import print_specs
    try:
        specs = print_specs()
    except DataError:
        return DEFAULT_PAPERS, DEFAULT_CARD_SIZES, ""
    sizes = ", ".join(f"{c.name} {c.width:g}×{c.height:g} mm" for c in specs.card_sizes.values())
    return tuple(specs.papers), tuple(specs.card_sizes), sizes


def _document_names() -> tuple[str, ...]:
    from cardgen.render import game_documents
    return tuple(dict.fromkeys(d.name for docs in game_documents().values() for d in docs))


def _printable_games() -> tuple[str, ...]:
    from cardgen.render import game_documents
    return tuple(game_documents())


PAPERS, CARD_SIZES, CARD_SIZE_HELP = _print_choices()


def fail_with_problems(heading: str, problems: list[Problem]) -> None:
    click.secho(f"{heading}: {len(problems)} problem(s)", fg="red", err=True)
    for problem in problems:
        click.echo(f"  {problem}", err=True)


def _out_folder(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """Every ``--out``, as given: a blank folder name (``--out "$OUT"`` with ``OUT`` unset, a stray space or tab)
    or one starting with ``-`` (``-`` elsewhere means standard output; ``--out --game x`` takes ``--game``) is
    refused, never written into as a folder so named (a folder really so named is ``./-``)."""
    if value is None:
        return None
    if not value.strip():
        raise click.ClickException("--out is empty: give the folder to write into, or leave it out for the default")
    if value.strip().startswith("-"):
        given = value.strip()
        raise click.ClickException(f"--out {given!r} reads as standard output or an option, not a folder (a folder "
                                   f"so named is ./{given}): give the folder to write into")
    return Path(value)


def _human_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.2f} MB"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardgen")
def main() -> None:
    """Spellbook Table print kit: validate the game data and build print-ready PDFs."""


@main.command()
@click.option("--data", "data_folder", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Data folder to check (default: the project's data/, or $SPELLBOOK_DATA).")
def check(data_folder: Path | None) -> None:
    """Validate every game in a data folder and list its data notes.

    Prints each game's counts and every note on the printed rulebook, grouped by the card it
    concerns. On problems, prints one line per problem (file, record, field) and exits 1.
    """
    from cardgen.render.drawable_text import folder_problems
    from cardgen.render.face_words import fit_problems
    from cardgen.render.labels import LABELS_FOLDER, load_labels
    from cardgen.render.print_specs import (
        PRINT_FOLDER,
        load_print_specs,
        theme_problems,
    )
    from cardgen.render.registry import print_kits

    root = data_folder if data_folder is not None else data_dir()
    if not root.is_dir():
        raise click.ClickException(f"data folder {root} does not exist")
    # the games the folder holds; with no --data, also the games outside the tree that keep their own data
    games = [g for g in GAMES if (game_folder(g, root) if data_folder is None else root / g).is_dir()]
    has_print = (root / PRINT_FOLDER).is_dir()
    if not games and not has_print:
        raise click.ClickException(f"no game folders in {root} (expected one of: {', '.join(GAMES)})")
    found: dict[str, list[Problem]] = {}  # heading -> its problems, printed together after the notes
    specs = None
    if has_print:
        try:
            specs = load_print_specs(root)
        except DataError as exc:
            found["print"] = list(exc.problems)
        else:
            label_problems = folder_problems(root / PRINT_FOLDER / LABELS_FOLDER)
            for path in sorted((root / PRINT_FOLDER / LABELS_FOLDER).glob("*.toml")):
                try:
                    load_labels(root, path.stem)
                except DataError as exc:
                    label_problems.extend(exc.problems)
            if label_problems:
                found["print labels"] = label_problems
            click.echo(f"print: {len(specs.papers)} paper sizes ({', '.join(specs.papers)}), "
                       f"{len(specs.card_sizes)} card sizes ({', '.join(specs.card_sizes)}), "
                       f"colour themes: {', '.join(specs.themes) or 'none'}")
    for game in games:
        try:
            content = load_game(game, root)
        except DataError as exc:
            found[game] = list(exc.problems)
            continue
        unprintable = folder_problems(game_folder(game, root))
        if unprintable:
            found[f"{game} characters"] = list(unprintable)
        counts = ", ".join(f"{len(getattr(content, name))} {name}" for name in catalogs()[game].counted)
        click.echo(f"{game}: {content.title}: {counts}")
        kit = print_kits().get(game)
        if specs is not None and kit is not None and kit.theme is not None:
            problems = theme_problems(specs, root, game, kit.theme.members(content), member=kit.theme.member)
            if problems:
                found[f"{game} colour theme"] = list(problems)
        if specs is not None and not unprintable and f"{game} colour theme" not in found:
            unfit = fit_problems(content, specs, root)  # every card at every card size, as a build draws it
            if unfit:
                found[f"{game} text that cannot fit"] = unfit
        grouped: dict[str, list[str]] = {}
        for note in content.notes:
            grouped.setdefault(content.subject_label(note.subject), []).append(note.describe())
        if grouped:
            click.echo(f"  data notes ({sum(len(v) for v in grouped.values())}):")
        for subject, lines in grouped.items():
            click.echo(f"    {subject}:")
            for line in lines:
                click.echo(f"      {line}")
    checked = f"{len(games)} game(s){' and the print data' if has_print else ''}"
    if found:
        click.echo("", err=True)
        for heading, problems in found.items():
            fail_with_problems(heading, problems)
        total = sum(len(problems) for problems in found.values())
        click.secho(f"FAILED: {total} problem(s) in {', '.join(found)} ({checked} checked); each line above "
                    "names the file, record and field.", fg="red", err=True)
        sys.exit(1)
    click.secho(f"OK: {checked} checked, no problems.", fg="green")


@main.command()
@click.option("--game", type=click.Choice([*_printable_games(), "all"], case_sensitive=False), default="all",
              show_default=True,
              help="Which game's print kit to build.")
@click.option("--paper", type=click.Choice(PAPERS, case_sensitive=False), default="A4", show_default=True,
              metavar="[" + "|".join(PAPERS) + "]",
              help="Paper size of every PDF.")
@click.option("--card-size", type=str, default="poker", metavar="[" + "|".join(CARD_SIZES) + "|NAME]",
              show_default=True,
              help=f"Card trim size ({CARD_SIZE_HELP}); as many cards go on a sheet as fit."
              if CARD_SIZE_HELP else "Card trim size; as many cards go on a sheet as fit.")
@click.option("--bleed", type=FiniteFloatRange(0, 10), default=3.0, show_default=True, metavar="MM",
              help="Extra background printed beyond the cut line, so a slightly-off cut shows no white edge.")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True,
              help="Short lines outside the cards showing where to cut.")
@click.option("--duplex/--no-duplex", default=True, show_default=True,
              help="Put each sheet's backs right after it, mirrored for long-edge double-sided printing; "
                   "with --no-duplex every front sheet of a document comes first, then all their backs in the "
                   "same order, unmirrored (to cut and glue).")
@click.option("--back-offset-x", type=FiniteFloatRange(-20, 20), default=0.0, show_default=True, metavar="MM",
              help="Shift back pages right (negative: left) to correct a printer's duplex misregistration.")
@click.option("--back-offset-y", type=FiniteFloatRange(-20, 20), default=0.0, show_default=True, metavar="MM",
              help="Shift back pages up (negative: down) to correct a printer's duplex misregistration.")
@click.option("--ink-saver", is_flag=True, default=False,
              help="No full-bleed fills or heavy backgrounds: white cards with light outlines.")
@click.option("--base-url", default=None, metavar="URL",
              help="Companion address the QR codes point to (each card opens URL/c/<game>/<card-id>) "
                   "[default: $SPELLBOOK_BASE_URL, else the instance's saved one (companion base-url), else "
                   "http://localhost:8000].")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", callback=_out_folder,
              show_default=True, help="Folder to write <game>/*.pdf into.")
@click.option("--only", "documents", multiple=True, type=click.Choice(_document_names()),
              help="Build only this document (repeatable); default: all of them.")
@click.option("--hex-size", type=FiniteFloatRange(20, 120), default=None, metavar="MM",
              help="Hex tiles: width of a hex across flats, to match your base game's tiles (default: the game "
                   "data's).")
@click.option("--gutter", type=FiniteFloatRange(0, 20), default=None, metavar="MM",
              help="Space between neighbouring cards, filled by each card's own bleed (up to the bleed on "
                   "each side), so a slightly-off cut never shows the neighbour's colour; crop marks stay "
                   "in line with every cut (default 0: neighbours share one cut).")
@click.option("--gutter-fold", is_flag=True, default=False,
              help="For single-sided printers: each page holds fronts on one half and their backs mirrored on "
                   "the other; fold along the dashed middle line and glue (--duplex is then ignored).")
@click.option("--cutter", type=click.Choice(["silhouette", "cricut"]), default=None,
              help="Print and cut: the cutter's registration marks on every card sheet (no crop marks) and "
                   "OUT/<game>/deck-cut.svg with each card's cut line.")
@click.option("--full-bleed", is_flag=True, default=False,
              help="Only sheet layouts that keep the whole --bleed round the grid (poker on Letter: 8 a sheet, "
                   "sideways, instead of 9 with 0.7 mm above and below).")
@click.option("--strict", is_flag=True, default=False,
              help="Fail (exit 1) instead of warning when the QR codes would point at a loopback address.")
@click.option("--printer", default=None, metavar="NAME",
              help="Apply a saved printer profile's back offsets (see cardgen calibrate and cardgen printer save); "
                   "--back-offset-x/-y given as well win.")
@click.option("--changed-since", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None,
              metavar="DIR",
              help="Write only the cards whose content changed since the kit in DIR (its <game>/cards.json), "
                   "all decks together on as few sheets as possible: OUT/<game>/changed.pdf.")
@click.option("--lang", default="en", show_default=True, metavar="LANG",
              help="Language of every printed label: data/print/labels/LANG.toml.")
@click.option("--data", "data_folder", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Data folder to read (default: the project's data/, or $SPELLBOOK_DATA).")
@click.pass_context
def build(ctx: click.Context, game: str, paper: str, card_size: str, bleed: float, crop_marks: bool, duplex: bool,
          back_offset_x: float, back_offset_y: float, ink_saver: bool, base_url: str | None, out_dir: Path,
          documents: tuple[str, ...], hex_size: float | None, gutter: float | None, gutter_fold: bool,
          cutter: str | None, full_bleed: bool, strict: bool, printer: str | None, changed_since: Path | None, lang: str,
          data_folder: Path | None) -> None:
    """Build print-ready PDFs: card decks, reference sheets and score pads.

    Writes OUT/<game>/deck.pdf, reference.pdf and score-pad.pdf and lists them with their sizes, and
    OUT/<game>/cards.json, each card's content version (for a later --changed-since).
    """
    from cardgen.render import BuildError, BuildOptions, plan_build, run_build
    from cardgen.render.imposition import MIN_REGISTRATION_MM, registration_points
    from cardgen.render.options import bleed_note

    if printer is not None:
        from cardgen.render.calibrate import profile
        try:
            saved = profile(printer)
        except BuildError as exc:
            raise click.ClickException(str(exc)) from exc
        if ctx.get_parameter_source("back_offset_x") is not click.core.ParameterSource.COMMANDLINE:
            back_offset_x = saved.back_offset_x
        if ctx.get_parameter_source("back_offset_y") is not click.core.ParameterSource.COMMANDLINE:
            back_offset_y = saved.back_offset_y
        click.echo(f"printer {printer}: {_backs_shifted(back_offset_x, back_offset_y)}", err=True)
    base_url = _base_url(base_url)
    options = BuildOptions(game=game, paper=paper, card_size=card_size, bleed=bleed, crop_marks=crop_marks,
                           duplex=duplex, back_offset_x=back_offset_x, back_offset_y=back_offset_y,
                           ink_saver=ink_saver, base_url=base_url, out_dir=out_dir, data_dir=data_folder,
                           documents=documents, hex_size=hex_size, gutter=gutter, gutter_fold=gutter_fold, lang=lang,
                           full_bleed=full_bleed, cutter=cutter)
    _check_base_url(base_url, strict)
    if changed_since is not None:
        _build_changed(options, changed_since)
        return
    try:
        plan = plan_build(options)
        layout = plan.resolved.card_layout()
        if gutter_fold:
            from cardgen.render.gutter_fold import plan_fold_layout
            layout = plan_fold_layout(layout.paper, layout.card, layout.bleed, plan.resolved.specs.sheet,
                                      layout.gutter).half
        click.echo(f"{plan.resolved.card_size.name} cards "
                   f"({plan.resolved.card_size.width:g}×{plan.resolved.card_size.height:g} mm, {bleed:g} mm bleed): "
                   f"{layout.per_sheet} per {plan.resolved.paper.name} sheet"
                   f"{' (turned sideways)' if layout.rotated else ''}"
                   f"{', with their backs beside them to fold' if gutter_fold else ''}", err=True)
        note = bleed_note(plan.resolved, layout)
        if note:
            click.echo(f"  {note}", err=True)
        if not gutter_fold and not registration_points(layout, plan.resolved.specs.sheet):
            click.echo(f"  no registration targets on the card sheets: the margins round this grid are under "
                       f"{MIN_REGISTRATION_MM:g} mm wide (line up the crop marks of front and back instead)", err=True)
        if sys.stderr.isatty():
            with click.progressbar(length=plan.total_work, label="Building", file=sys.stderr) as bar:
                written = run_build(plan, bar.update)
        else:
            written = run_build(plan)
        if cutter is not None:
            from cardgen.render.cutter import write_plan_cut_files
            written = [*written, *write_plan_cut_files(plan)]
    except DataError as exc:
        fail_with_problems("game data", exc.problems)
        sys.exit(1)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"Wrote {len(written)} file(s):")
    width = max(len(str(p)) for p in written) if written else 0
    for path in written:
        click.echo(f"  {str(path):<{width}}  {_human_size(path.stat().st_size):>9}")


def _build_changed(options: object, since: Path) -> None:
    from cardgen.render import BuildError
    from cardgen.render.changed import build_changed

    try:
        results = build_changed(options, since)  # type: ignore[arg-type]
    except DataError as exc:
        fail_with_problems("game data", exc.problems)
        sys.exit(1)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    for result in results:
        if result.path is None:
            click.echo(f"{result.game}: no card changed since {since} ({result.total} cards)")
            continue
        click.echo(f"{result.game}: {len(result.changed)} of {result.total} cards changed since {since}: "
                   f"{result.path} ({result.pages} pages, {_human_size(result.path.stat().st_size)})")


def _backs_shifted(x: float, y: float) -> str:
    """A printer profile's offsets in words: "backs shifted 0.5 mm right, 1 mm down" (x is to the right as seen
    on the back page, y up; a negative offset is the other way, never "-1 mm up")."""
    parts = [f"{abs(value):g} mm {ahead if value > 0 else back}"
             for value, ahead, back in ((x, "right", "left"), (y, "up", "down")) if value]
    return "backs shifted " + ", ".join(parts) if parts else "backs not shifted"


def _base_url(given: str | None) -> str:
    """The address the QR codes carry: ``--base-url``, else ``$SPELLBOOK_BASE_URL``, else the instance's saved
    one (:mod:`cardgen.site`), else http://localhost:8000 (which :func:`_check_base_url` warns about).

    Checked as ``companion base-url`` and ``serve`` check it (:func:`~cardgen.render.qr.validate_instance_url`):
    the companion answers at its address's root on a real port, so a code printed with a path
    (https://club.example/spellbook) or an impossible port would open nothing."""
    from cardgen.render.qr import validate_instance_url
    from cardgen.site import SiteError, resolve_base_url

    try:
        url, source = resolve_base_url(given, "http://localhost:8000")
        url = validate_instance_url(url)
    except SiteError as error:
        raise click.ClickException(str(error)) from None
    except ValueError as error:
        raise click.ClickException(str(error) if source == "--base-url" else f"{error} ({source})") from None
    if source not in ("--base-url", "default"):
        click.echo(f"QR codes point at {url} ({source})", err=True)
    return url


def _check_base_url(base_url: str, strict: bool) -> None:
    """Warn (or with ``strict`` stop, exit 1) when the cards' QR codes would point at a loopback address."""
    from cardgen.render.options import base_url_warning

    warning = base_url_warning(base_url)
    if warning is None:
        return
    if strict:
        raise click.ClickException(warning)
    click.secho(f"Warning: {warning}.", fg="yellow", err=True)


@main.command(name="proof")
@click.option("--game", type=click.Choice([*_printable_games(), "all"], case_sensitive=False), default="all",
              show_default=True, help="Which game's decks to proof.")
@click.option("--paper", type=click.Choice(PAPERS, case_sensitive=False), default="A4", show_default=True,
              metavar="[" + "|".join(PAPERS) + "]", help="Paper size of the proof sheets.")
@click.option("--card-size", type=str, default="poker", metavar="[" + "|".join(CARD_SIZES) + "|NAME]",
              show_default=True, help="Card trim size the faces are laid out for.")
@click.option("--base-url", default=None, metavar="URL",
              help="Companion address the QR codes point to [default: as cardgen build].")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", callback=_out_folder,
              show_default=True, help="Folder to write <game>/proof-<deck>.pdf into.")
@click.option("--lang", default="en", show_default=True, metavar="LANG", help="Language of the printed labels.")
@click.option("--data", "data_folder", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Data folder to read (default: the project's data/, or $SPELLBOOK_DATA).")
def proof_command(game: str, paper: str, card_size: str, base_url: str | None, out_dir: Path, lang: str,
                  data_folder: Path | None) -> None:
    """Write a contact sheet per deck to proofread before printing: OUT/<game>/proof-<deck>.pdf, every
    card small with its number and id, the deck's back first."""
    from cardgen.render import BuildError, BuildOptions
    from cardgen.render.proof import proof

    base_url = _base_url(base_url)
    options = BuildOptions(game=game, paper=paper, card_size=card_size, base_url=base_url, out_dir=out_dir,
                           data_dir=data_folder, lang=lang)
    try:
        written = proof(options)
    except DataError as exc:
        fail_with_problems("game data", exc.problems)
        sys.exit(1)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"Wrote {len(written)} proof sheet(s):")
    for path in written:
        click.echo(f"  {path}")


@main.command()
@click.option("--game", type=click.Choice([*_printable_games(), "all"], case_sensitive=False), default="all",
              show_default=True,
              help="Which game's cards to export.")
@click.option("--format", "file_format", type=click.Choice(["png", "pdf"]), default="pdf", show_default=True,
              help="png: one image per card face; pdf: one card face a page, TrimBox on the cut, BleedBox round it.")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True,
              help="Resolution of the PNG images (a poker card with 3 mm bleed at 300 dpi is 815 × 1110 px).")
@click.option("--card-size", type=str, default="poker", metavar="[" + "|".join(CARD_SIZES) + "|NAME]",
              show_default=True, help="Card trim size.")
@click.option("--bleed", type=FiniteFloatRange(0, 10), default=3.0, show_default=True, metavar="MM",
              help="Background printed beyond the cut line, on every side of every card.")
@click.option("--cmyk", is_flag=True, default=False,
              help="PDF only: every colour as DeviceCMYK (a plain conversion, no ICC profile).")
@click.option("--ink-saver", is_flag=True, default=False,
              help="No full-bleed fills or heavy backgrounds: white cards with light outlines.")
@click.option("--base-url", default=None, metavar="URL",
              help="Companion address the QR codes point to (each card opens URL/c/<game>/<card-id>) "
                   "[default: $SPELLBOOK_BASE_URL, else the instance's saved one (companion base-url), else "
                   "http://localhost:8000].")
@click.option("--strict", is_flag=True, default=False,
              help="Fail (exit 1) instead of warning when the QR codes would point at a loopback address.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output/export", callback=_out_folder,
              show_default=True, help="Folder to write <game>/... into.")
@click.option("--lang", default="en", show_default=True, metavar="LANG",
              help="Language of every printed label: data/print/labels/LANG.toml.")
@click.option("--for", "target", type=click.Choice(["mpc", "drivethrucards", "thegamecrafter", "tts"]), default=None,
              help="Write what this card printer (or Tabletop Simulator) takes: its template's pixel size and "
                   "bleed, one orientation and one back per deck, its file names and order (--format and --dpi "
                   "are then not used).")
@click.option("--data", "data_folder", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Data folder to read (default: the project's data/, or $SPELLBOOK_DATA).")
def export(game: str, file_format: str, dpi: int, card_size: str, bleed: float, cmyk: bool, ink_saver: bool,
           base_url: str | None, strict: bool, out_dir: Path, lang: str, target: str | None, data_folder: Path | None) -> None:
    """Export every card on its own for a card printer or print shop.

    PNG: OUT/<game>/NNN-<deck>-<card>-1-front.png and ...-2-back.png, the card plus its bleed at --dpi,
    named in upload order. PDF: OUT/<game>/<game>-<deck>.pdf, one face a page (front, back, ...).
    """
    from cardgen.render import BuildError, BuildOptions
    from cardgen.render.export import ExportSettings, export_cards

    base_url = _base_url(base_url)
    options = BuildOptions(game=game, card_size=card_size, bleed=bleed, ink_saver=ink_saver, base_url=base_url,
                           out_dir=out_dir, data_dir=data_folder, lang=lang)
    _check_base_url(base_url, strict)
    try:
        if target is not None:
            from cardgen.render.printers import export_for
            written = export_for(options, target)
        else:
            written = export_cards(options, ExportSettings(format=file_format, dpi=dpi, cmyk=cmyk))
    except DataError as exc:
        fail_with_problems("game data", exc.problems)
        sys.exit(1)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    total = sum(p.stat().st_size for p in written)
    folders = sorted({str(p.parent) for p in written})
    click.echo(f"Wrote {len(written)} file(s), {_human_size(total)}, into {', '.join(folders)}")


@main.command()
@click.option("--paper", type=click.Choice(PAPERS, case_sensitive=False), default="A4", show_default=True,
              metavar="[" + "|".join(PAPERS) + "]", help="Paper size of the sheet.")
@click.option("--back-offset-x", type=FiniteFloatRange(-20, 20), default=0.0, show_default=True, metavar="MM",
              help="Shift the back as a build would (to check a correction: both pointers then sit on 0).")
@click.option("--back-offset-y", type=FiniteFloatRange(-20, 20), default=0.0, show_default=True, metavar="MM",
              help="Shift the back up (negative: down) as a build would.")
@click.option("--printer", default=None, metavar="NAME", help="Use a saved printer profile's offsets.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", callback=_out_folder,
              show_default=True, help="Folder to write calibration.pdf into.")
@click.option("--read", "readings", type=float, nargs=3, default=None, metavar="UPPER LEFT RIGHT",
              help="Instead of writing the sheet: the three across scales' readings (mm) of a printed sheet, "
                   "to say how far the back is turned and scaled against the front.")
@click.option("--lang", default="en", show_default=True, metavar="LANG",
              help="Language of the sheet's words: data/print/labels/LANG.toml.")
def calibrate(paper: str, back_offset_x: float, back_offset_y: float, printer: str | None, out_dir: Path,
              readings: tuple[float, float, float] | None, lang: str) -> None:
    """Write a two-sided duplex calibration sheet: OUT/calibration.pdf.

    Print it double-sided (long edge, 100 %), hold it to a light and read where each line from the back
    crosses its scale: those are the --back-offset-x and --back-offset-y to save with cardgen printer save.
    """
    from cardgen.render import BuildError, print_specs
    from cardgen.render.calibrate import (
        SCALE_REACH_MM,
        calibration_geometry,
        profile,
        render_calibration,
        skew_and_scale,
    )

    if readings:
        for reading in readings:  # what a scale of the sheet can show: a number from -10 to +10 mm
            if not math.isfinite(reading) or abs(reading) > SCALE_REACH_MM:
                raise click.BadParameter(f"{reading:g} is not on the sheet's scales: each reading is a number "
                                         f"from -{SCALE_REACH_MM} to +{SCALE_REACH_MM} (mm) where a back line "
                                         "crosses its scale", param_hint="'--read'")
        turn, scale = skew_and_scale(calibration_geometry(print_specs().paper(paper)), *readings)
        click.echo(f"back turned {turn:+.3f}° against the front (over a card's 88 mm: "
                   f"{88 * math.tan(math.radians(turn)):+.2f} mm), "
                   f"printed {scale:+.2f} % wider than the front")
        return
    try:
        if printer is not None:
            saved = profile(printer)
            back_offset_x, back_offset_y = saved.back_offset_x, saved.back_offset_y
        from cardgen.render.labels import use_labels
        from cardgen.render.options import language_labels

        use_labels(language_labels(None, lang))
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / "calibration.pdf"
        render_calibration(path, print_specs().paper(paper), back_offset_x, back_offset_y)
    except OSError as exc:
        raise click.ClickException(f"cannot write into {out_dir}: {exc.strerror or exc}") from exc
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"Wrote {path}: print it duplex (long edge, 100 %), then cardgen printer save NAME "
               "--back-offset-x X --back-offset-y Y")


@main.group()
def printer() -> None:
    """Saved printer profiles: the back offsets of a duplex printer, given once."""


@printer.command("save")
@click.argument("name")
@click.option("--back-offset-x", type=FiniteFloatRange(-20, 20), required=True, metavar="MM",
              help="What the calibration sheet's across scale read.")
@click.option("--back-offset-y", type=FiniteFloatRange(-20, 20), required=True, metavar="MM",
              help="What the calibration sheet's upright scale read.")
def printer_save(name: str, back_offset_x: float, back_offset_y: float) -> None:
    """Save (or replace) printer NAME's back offsets; cardgen build --printer NAME applies them."""
    from cardgen.render import BuildError
    from cardgen.render.calibrate import PrinterProfile, save_profile

    try:
        path = save_profile(PrinterProfile(name, back_offset_x, back_offset_y))
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"Saved printer {name} (x {back_offset_x:g} mm, y {back_offset_y:g} mm) in {path}")


@printer.command("list")
def printer_list() -> None:
    """List the saved printer profiles."""
    from cardgen.render import BuildError
    from cardgen.render.calibrate import load_profiles, profiles_path

    try:
        profiles = load_profiles()
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    if not profiles:
        click.echo(f"No printer profiles in {profiles_path()}.")
    for entry in profiles.values():
        click.echo(f"{entry.name}: back offset x {entry.back_offset_x:g} mm, y {entry.back_offset_y:g} mm")


def _add_game_commands() -> None:
    """Each game's own commands, as its catalog declares them (``GameCatalog.commands``)."""
    for declared in catalogs().values():
        for command in declared.commands:
            if command.name in main.commands:
                raise ValueError(f"game '{declared.id}' declares command '{command.name}', which cardgen has already")
            main.add_command(command)


_add_game_commands()


if __name__ == "__main__":  # pragma: no cover
    main()
