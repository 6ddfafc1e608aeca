"""Benchmark the print kit of every registered game: cold builds, a plain ReportLab floor, rebuilds, QR codes.

    .venv/bin/python bench/bench_build.py [--repeats 3] [--figures FILE]

Each build that counts as cold runs in a fresh interpreter with an empty output folder (so no
QR code comes from a cache) and is timed from ``plan_build`` (which loads the game data) to the
last PDF written; the imports before it (ReportLab, every game's print modules) are shown apart. The best of ``--repeats``
runs is kept: on a shared machine the minimum is the least noisy estimate. Figures:

- cards per second for the whole kit (``cardgen build --game all``) and for each game; a sheet
  (reference, score pad) counts as one card, as it does in the build's progress bar;
- the floor: plain ReportLab drawing the same number of cards on the same sheet layout (fronts and
  duplex backs), text only (as many characters per card as our PDFs hold), no QR code; our time ÷ it.
  Both sides are timed alike: a fresh interpreter each, imports done before the clock starts, page
  compression on, the same ReportLab settings (``cardgen.render.pdf`` sets them for both); ours
  also loads the game's data (``plan_build``), which a real build has to do and the floor has not;
- where a cold build's time goes: data, QR encoding, QR drawing, card faces, sheet furniture (marks,
  labels), each document, and page output with its zlib share, timed in one more fresh process;
- PDF bytes per card; peak memory (``ru_maxrss``) of the build process and any it started;
- a rebuild in a fresh process after one card's data changed, with the output folder of an earlier
  build (and so its QR code cache) in place;
- the whole kit, and each game, built in one process against its documents spread over forked
  processes (as ``run_build`` does: a game's deck beside its sheets);
- what each way of making QR codes cheaper buys, per code: our mask search against ``qrcode``'s
  own, a lower error-correction level, a shorter payload, ``segno``, the disk cache, and drawing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from build_stages import child_breakdown, stage_order  # noqa: E402
from figures import Report  # noqa: E402

KIT_RATE_TARGET = 500.0       # cards per second, whole kit, cold
FLOOR_RATIO_TARGET = 2.0      # our cold build ÷ the plain ReportLab floor
REBUILD_TARGET_S = 0.3        # one card changed, earlier output (and its cache) in place
MEMORY_TARGET_MB = 300.0      # peak resident memory of a full build
FLOOR_FILLER = ("The quick brown fox jumps over the lazy dog while seven wizards quietly pack their "
                "bags with a dozen jugs of liquid. ")


# -- children: each runs in a fresh interpreter and prints one JSON object ------------------------

def child_cold(game: str, out: Path) -> dict[str, Any]:
    started = time.perf_counter()
    from cardgen.render import BuildOptions, game_documents, plan_build, run_build
    game_documents()  # imports every game's print modules (ReportLab's platypus among them)
    imported, cpu = time.perf_counter(), _cpu_seconds()
    plan = plan_build(BuildOptions(game=game, out_dir=out))
    planned = time.perf_counter()
    paths = run_build(plan)
    done = time.perf_counter()
    return {"import_s": imported - started, "plan_s": planned - imported, "run_s": done - planned,
            "build_s": done - imported, "cpu_s": _cpu_seconds() - cpu, "items": plan.total_work,
            "files": {f"{p.parent.name}/{p.name}": p.stat().st_size for p in paths},
            "maxrss_kb": max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                             resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)}


def _cpu_seconds() -> float:
    """CPU time of this process and of the children it waited for (forked builds)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def child_one_process(game: str, out: Path) -> dict[str, Any]:
    """A cold build kept in one process (as on a one-core machine): what forking per game saves."""
    os.cpu_count = lambda: 1  # parallel_groups() then keeps every document here
    return child_cold(game, out)


def changed_one_card(content: Any) -> tuple[Any, str]:
    """The content with its first card renamed (any game whose content lists named cards)."""
    cards: Any = getattr(content, "cards", None)
    if not dataclasses.is_dataclass(content) or isinstance(content, type) or not cards or not hasattr(cards[0], "name"):
        return content, "no card to change: rebuilt unchanged"
    first = dataclasses.replace(cards[0], name=cards[0].name + " II")
    return dataclasses.replace(content, cards=(first, *cards[1:])), f"renamed '{cards[0].name}'"


def child_rebuild(game: str, out: Path) -> dict[str, Any]:
    from cardgen.render import (
        BuildOptions,
        BuildPlan,
        game_documents,
        plan_build,
        run_build,
    )
    game_documents()  # imports, as in child_cold
    started, cpu = time.perf_counter(), _cpu_seconds()
    plan = plan_build(BuildOptions(game=game, out_dir=out))
    changes: dict[int, tuple[Any, str]] = {}
    documents = []
    for item in plan.documents:
        if id(item.content) not in changes:
            changes[id(item.content)] = changed_one_card(item.content)
        documents.append(dataclasses.replace(item, content=changes[id(item.content)][0]))
    run_build(BuildPlan(plan.resolved, tuple(documents)))
    return {"build_s": time.perf_counter() - started, "cpu_s": _cpu_seconds() - cpu,
            "change": "; ".join(c for _, c in changes.values())}


def draw_floor(path: Path, layout: Any, cards: int, characters: int) -> None:
    """Plain ReportLab: a name and wrapped text per card, a title per back, same sheets and boxes."""
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.pdf import pt
    body = (FLOOR_FILLER * (characters // len(FLOOR_FILLER) + 1))[:characters]
    canvas = Canvas(str(path), pagesize=(pt(layout.paper.width), pt(layout.paper.height)), invariant=1,
                    pageCompression=1)
    per_sheet = layout.per_sheet
    for sheet in range(layout.sheets_for(cards)):
        on_sheet = min(per_sheet, cards - sheet * per_sheet)
        for i in range(on_sheet):
            trim = layout.slot(i).trim
            width, height = pt(trim.width), pt(trim.height)
            canvas.saveState()
            canvas.translate(pt(trim.x), pt(trim.y))
            canvas.setFont("Helvetica-Bold", 11)
            canvas.drawString(8, height - 18, f"Card {sheet * per_sheet + i + 1}")
            canvas.setFont("Helvetica", 7)
            y = height - 30
            for line in simpleSplit(body, "Helvetica", 7, width - 16):
                canvas.drawString(8, y, line)
                y -= 8.4
            canvas.restoreState()
        canvas.showPage()
        for i in range(on_sheet):
            trim = layout.back_slot(i).trim
            canvas.setFont("Helvetica-Bold", 11)
            canvas.drawCentredString(pt(trim.x + trim.width / 2), pt(trim.y + trim.height / 2), "BACK")
        canvas.showPage()
    canvas.save()


def child_floor(game: str, cards: int, characters: int, out: Path) -> dict[str, Any]:
    from cardgen.render import BuildOptions, plan_build
    layout = plan_build(BuildOptions(game=game, out_dir=out)).resolved.card_layout()
    out.mkdir(parents=True, exist_ok=True)
    started, cpu = time.perf_counter(), _cpu_seconds()
    draw_floor(out / "floor.pdf", layout, cards, characters)
    return {"build_s": time.perf_counter() - started, "cpu_s": _cpu_seconds() - cpu,
            "bytes": (out / "floor.pdf").stat().st_size}


CHILDREN: dict[str, Callable[..., dict[str, Any]]] = {
    "cold": child_cold, "one-process": child_one_process, "rebuild": child_rebuild, "floor": child_floor,
    "breakdown": child_breakdown}


def in_fresh_process(kind: str, *args: Any) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", kind, *map(str, args)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"{kind} child failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def best(runs: list[dict[str, Any]], key: str = "build_s") -> dict[str, Any]:
    return min(runs, key=lambda run: run[key])


# -- the parent: orchestrates and prints -------------------------------------------------------------

def text_characters(files: list[Path]) -> int:
    """Characters of text our PDFs hold (the floor prints as many per card)."""
    from pypdf import PdfReader
    return sum(len(page.extract_text() or "") for path in files for page in PdfReader(path).pages)


def kit_figures(report: Report, games: list[str], repeats: int, work: Path) -> None:
    report.heading(f"Print kit, cold builds in fresh processes (best of {repeats}): {', '.join(games)}")
    targets = ["all", *games] if len(games) > 1 else ["all"]
    cold: dict[str, dict[str, Any]] = {}
    cold_runs: dict[str, list[dict[str, Any]]] = {}
    outs: dict[str, Path] = {}
    for target in targets:
        runs = []
        for attempt in range(repeats):
            out = work / f"cold-{target}-{attempt}"
            runs.append(dict(in_fresh_process("cold", target, out), out=str(out)))
        cold[target], cold_runs[target] = best(runs), runs
        outs[target] = Path(cold[target]["out"])
    whole = cold["all"]
    label = "whole kit" if len(games) > 1 else f"whole kit ({games[0]})"
    report.target("kit.cards_per_second", f"{label}: cards per second, cold", whole["items"] / whole["build_s"],
                  "cards/s", "at least", KIT_RATE_TARGET,
                  note=f"{whole['items']} cards and sheets in {whole['build_s'] * 1000:.0f} ms: data "
                       f"{whole['plan_s'] * 1000:.0f} ms, drawing {whole['run_s'] * 1000:.0f} ms")
    report.info("kit.import_ms", f"{label}: imports before the build (ReportLab, print modules)", whole["import_s"] * 1000, "ms")
    report.target("kit.peak_memory_mb", f"{label}: peak memory of the build process", whole["maxrss_kb"] / 1024,
                  "MB", "below", MEMORY_TARGET_MB)
    for game in games:
        source = cold.get(game, whole)
        files = [outs["all" if game not in cold else game] / name for name in source["files"] if name.startswith(game + "/")]
        sizes = {name: size for name, size in source["files"].items() if name.startswith(game + "/")}
        items = source["items"] if game in cold else _items_of(game)
        seconds = source["build_s"] if game in cold else whole["build_s"]
        if game in cold:
            report.info(f"kit.{game}.cards_per_second", f"{game}: cards per second, cold", items / seconds, "cards/s")
        report.info(f"kit.{game}.bytes_per_card", f"{game}: PDF bytes per card (all documents)",
                    sum(sizes.values()) / items, "B", note=", ".join(f"{n.split('/')[1]} {s / 1024:.0f} KB"
                                                                      for n, s in sizes.items()))
        characters = text_characters(files) // items
        floors = [in_fresh_process("floor", game, items, characters, work / f"floor-{game}-{i}")
                  for i in range(repeats)]
        floor = best(floors)
        report.info(f"kit.{game}.floor_ms", f"{game}: plain ReportLab floor, same cards and sheets",
                    floor["build_s"] * 1000, "ms", note=f"text only, {characters} characters a card, no QR")
        report.target(f"kit.{game}.floor_ratio", f"{game}: our cold build ÷ the floor", seconds / floor["build_s"],
                      "×", "at most", FLOOR_RATIO_TARGET,
                      note="our cards draw chips, panels, rich text and a QR code each: every page operator costs")
        if game in cold:
            drawing = cold[game]["run_s"]
            report.info(f"kit.{game}.floor_ratio_drawing", f"{game}: the same without loading the data",
                        drawing / floor["build_s"], "×", note=f"drawing alone {drawing * 1000:.0f} ms")
            ours_cpu = min(run["cpu_s"] for run in cold_runs[game])
            floor_cpu = min(run["cpu_s"] for run in floors)
            report.info(f"kit.{game}.floor_ratio_cpu", f"{game}: the same in CPU time (steadier when shared)",
                        ours_cpu / floor_cpu, "×", note=f"{ours_cpu * 1000:.0f} ms ÷ {floor_cpu * 1000:.0f} ms, "
                                                       f"least of {repeats} runs each")
        if game in cold:
            single = best([in_fresh_process("one-process", game, work / f"one-process-{game}-{i}")
                           for i in range(repeats)])
            report.info(f"kit.{game}.split_speedup", f"{game}: one process ÷ its deck beside its other documents",
                        single["build_s"] / cold[game]["build_s"], "×",
                        note=f"{single['build_s'] * 1000:.0f} ms vs {cold[game]['build_s'] * 1000:.0f} ms")
        stages = best([in_fresh_process("breakdown", game, work / f"breakdown-{game}-{i}") for i in range(repeats)],
                      "total_ms")["stages"]
        report.info(f"kit.{game}.stages", f"{game}: where a cold one-process build goes (ms)", sum(
            v for k, v in stages.items() if k.startswith("document") or k.startswith("data")), "ms",
            note="; ".join(f"{name.strip()} {stages[name]:.0f}" for name in sorted(stages, key=stage_order)))
        rebuilds = []
        for i in range(repeats):
            folder = work / f"rebuild-{game}-{i}"
            shutil.copytree(outs["all" if game not in cold else game], folder)
            rebuilds.append(in_fresh_process("rebuild", game, folder))
        rebuild = best(rebuilds)
        report.target(f"kit.{game}.rebuild_s", f"{game}: rebuild after one card's data changed",
                      rebuild["build_s"], "s", "at most", REBUILD_TARGET_S,
                      note=f"{rebuild['change']}; fresh process, data loaded again, QR codes from the cache; "
                           f"CPU time {min(r['cpu_s'] for r in rebuilds):.3f} s")
    if len(games) > 1:
        single = best([in_fresh_process("one-process", "all", work / f"one-process-{i}") for i in range(repeats)])
        report.info("kit.parallel_speedup", "whole kit: one process ÷ its documents spread over the cores",
                    single["build_s"] / whole["build_s"], "×",
                    note=f"{single['build_s'] * 1000:.0f} ms vs {whole['build_s'] * 1000:.0f} ms on {os.cpu_count()} cores")


def _items_of(game: str) -> int:
    from cardgen.render import BuildOptions, plan_build
    return plan_build(BuildOptions(game=game, out_dir=Path("unused"))).total_work


def per_code_ms(encode: Callable[[str], Any], payloads: list[str], repeats: int) -> float:
    runs = []
    for _ in range(repeats):
        started = time.perf_counter()
        for payload in payloads:
            encode(payload)
        runs.append((time.perf_counter() - started) / len(payloads) * 1000)
    return min(runs)


def qr_figures(report: Report, games: list[str], repeats: int, work: Path) -> None:
    import qrcode
    from qrcode.constants import ERROR_CORRECT_L

    from cardgen.catalog import content
    from cardgen.render import DEFAULT_BASE_URL, qr

    cards = [(game, card) for game in games for card in getattr(content(game), "cards", ())]
    slugs = [qr.card_url(DEFAULT_BASE_URL, game, card.id) for game, card in cards]
    numbers = [qr.card_url(DEFAULT_BASE_URL, game, str(getattr(card, "number", i)))
               for i, (game, card) in enumerate(cards, 1)]
    sample = qr.encode(slugs[0])
    report.heading(f"QR codes: {len(slugs)} card URLs such as {slugs[0]} (version {sample.version}, "
                   f"{sample.modules}×{sample.modules} modules), ms per code, best of {repeats}")

    def qrcode_at(level: int) -> Callable[[str], Any]:
        def make(payload: str) -> Any:
            code = qrcode.QRCode(error_correction=level, border=0)
            code.add_data(payload)
            code.make(fit=True)
            return code.get_matrix()
        return make

    baseline = per_code_ms(qr.encode_best_mask, slugs, repeats)
    report.info("qr.encode_ms.qrcode", "qrcode package, level M, choosing its own mask (its default)", baseline, "ms")
    options: list[tuple[str, str, float, str]] = [
        ("zxing_cpp", f"zxing-cpp (zint's C encoder), level M, fixed mask {qr.FIXED_MASK} (in use)",
         per_code_ms(qr.encode, slugs, repeats), "the library the companion reads photos with; every printed code is "
         "decoded back in the tests"),
        ("fixed_mask", f"qrcode, level M, fixed mask {qr.FIXED_MASK} (in use until 2026-12)",
         per_code_ms(qr.encode_qrcode, slugs, repeats), "pure Python: a quarter of a cold kit build"),
        ("level_l", "qrcode, level L instead of M", per_code_ms(qrcode_at(ERROR_CORRECT_L), slugs, repeats),
         "not taken: M survives smudges and creases"),
        ("short_payload", "qrcode, card number in the URL instead of the id", per_code_ms(qr.encode_best_mask, numbers, repeats),
         "not taken: the card pages answer at /c/<game>/<card-id>"),
        ("fixed_mask_short_payload", "qrcode, fixed mask and the card number in the URL",
         per_code_ms(qr.encode_qrcode, numbers, repeats),
         "not taken: as above"),
    ]
    try:
        import segno
        segno_ms = per_code_ms(lambda p: segno.make_qr(p, error="m", mask=qr.FIXED_MASK, boost_error=False).matrix,
                               slugs, repeats)
        options.append(("segno", f"segno package, level M, fixed mask {qr.FIXED_MASK}", segno_ms,
                        "not taken: pure Python like qrcode, several times zxing-cpp's time"))
    except ImportError:
        report.info("qr.encode_ms.segno", "segno package, level M", float("nan"), "ms", note="segno not installed")
    cache_file = work / "qr-cache.json"
    with qr.disk_cache(cache_file):
        for payload in slugs:
            qr.qr_matrix(payload)
    qr.qr_matrix.cache_clear()  # type: ignore[attr-defined]

    def from_disk(payloads: list[str]) -> None:
        with qr.disk_cache(cache_file):
            for payload in payloads:
                qr.qr_matrix(payload)
    started = time.perf_counter()
    from_disk(slugs)
    options.append(("disk_cache", "from the build's disk cache (a rebuild)", (time.perf_counter() - started) / len(slugs) * 1000,
                    "in use: <out>/.cache/<game>-<document>.qr.json, keyed by payload"))
    for key, label, value, note in options:
        report.info(f"qr.encode_ms.{key}", label, value, "ms", note=f"{baseline / value:.1f}× faster; {note}")
    draw_figures(report, [qr.encode(p) for p in slugs], repeats)


def draw_figures(report: Report, matrices: list[Any], repeats: int) -> None:
    from reportlab.lib import colors
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.qr import draw_qr

    def path_api(canvas: Canvas, matrix: Any) -> None:  # how codes were drawn before: ReportLab's path object
        canvas.saveState()
        canvas.setFillColor("#FFFFFF")
        canvas.rect(0, 0, 52, 52, stroke=0, fill=1)
        canvas.translate(6, 6)
        canvas.scale(1.4, 1.4)
        path = canvas.beginPath()
        for row, column, length in matrix.runs():
            path.rect(column, matrix.modules - 1 - row, length, 1)
        canvas.setFillColor("#000000")
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.restoreState()

    def time_draw(draw: Callable[[Canvas, Any], None]) -> float:
        runs = []
        for _ in range(repeats):
            fresh = [dataclasses.replace(m) for m in matrices]  # no path remembered: a first draw's cost
            canvas = Canvas(os.devnull)
            started = time.perf_counter()
            for matrix in fresh:
                draw(canvas, matrix)
            runs.append((time.perf_counter() - started) / len(fresh) * 1000)
        return min(runs)

    names = colors.toColor.extraColorsNS
    colors.toColor.setExtraColorsNameSpace({})
    before = time_draw(path_api)
    colors.toColor.setExtraColorsNameSpace(names)
    literal_first = time_draw(lambda canvas, matrix: draw_qr(canvas, matrix, 0, 0, 52))
    report.info("qr.draw_ms.path_object", "draw, ReportLab path object (before)", before, "ms")
    report.info("qr.draw_ms.literal", "draw, one prepared path per code (in use)", literal_first, "ms",
                note=f"{before / literal_first:.1f}× faster")
    colour_per_call = []
    namespaces: list[Any] = [{}, names]
    for namespace in namespaces:
        colors.toColor.setExtraColorsNameSpace(namespace)
        started = time.perf_counter()
        for _ in range(2000):
            colors.toColor("#2A3B4C")
        colour_per_call.append((time.perf_counter() - started) / 2000 * 1e6)
    colors.toColor.setExtraColorsNameSpace(names)
    report.info("render.hex_colour_us", "a \"#RRGGBB\" colour read by ReportLab, per call", colour_per_call[1], "µs",
                note=f"was {colour_per_call[0]:.1f} µs before hex colours were cached ({colour_per_call[0] / colour_per_call[1]:.0f}×)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (the fastest is kept)")
    parser.add_argument("--figures", type=Path, default=None, help="also write the figures to this JSON file")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        converted = [int(a) if a.isdigit() else a for a in rest]
        converted = [Path(a) if isinstance(a, str) and "/" in a else a for a in converted]
        print(json.dumps(CHILDREN[kind](*converted)))
        return

    from cardgen.render import game_documents
    games = list(game_documents())
    report = Report(args.figures)
    with tempfile.TemporaryDirectory() as tmp:
        kit_figures(report, games, args.repeats, Path(tmp))
        qr_figures(report, games, args.repeats, Path(tmp))
    report.save()


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    if "--child" not in sys.argv:
        print(f"  (bench_build took {time.perf_counter() - started:.0f} s)")
