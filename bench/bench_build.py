"""Benchmark the print kit: how long a Fillory build takes and where the time goes.

    .venv/bin/python bench/bench_build.py [--repeats 3]

Prints figures, asserts nothing: build time (cold: QR codes encoded afresh; warm: codes reused),
cards per second, PDF bytes per document, the cost of one QR code (encode and draw), and two ratios:
the share of a cold deck build spent encoding QR codes, and a build with ReportLab's C accelerator
(``rl_accel``) against one without it (measured in a child process that hides the accelerator).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _best_ms(samples: list[float]) -> float:
    """The fastest run: on a shared machine the minimum is the least noisy estimate of the cost."""
    return min(samples) * 1000


def deck_timings(repeats: int) -> dict[str, float]:
    """Cold and warm deck builds (ms) and the deck's size; run in this process."""
    from cardgen.render import BuildOptions, build
    from cardgen.render.qr import qr_matrix

    cold, warm = [], []
    size = 0
    with tempfile.TemporaryDirectory() as out:
        options = BuildOptions(game="fillory", documents=("deck",), out_dir=Path(out))
        build(options)  # warm-up: imports, font metrics, the catalog
        for _ in range(repeats):
            qr_matrix.cache_clear()
            start = time.perf_counter()
            (path,) = build(options)
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            build(options)
            warm.append(time.perf_counter() - start)
            size = path.stat().st_size
    return {"cold_ms": _best_ms(cold), "warm_ms": _best_ms(warm), "bytes": size}


def qr_costs(payloads: list[str], repeats: int) -> dict[str, float]:
    """Per-code encode and draw cost (ms), and the vector path's size in the content stream."""
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.pdf import pt
    from cardgen.render.qr import draw_qr, encode

    encode_runs, draw_runs = [], []
    matrices = [encode(p) for p in payloads]
    for _ in range(repeats):
        start = time.perf_counter()
        for payload in payloads:
            encode(payload)
        encode_runs.append((time.perf_counter() - start) / len(payloads))
        canvas = Canvas("/dev/null", invariant=1)
        start = time.perf_counter()
        for matrix in matrices:
            draw_qr(canvas, matrix, 0, 0, pt(18.5))
        draw_runs.append((time.perf_counter() - start) / len(matrices))
    canvas = Canvas("/dev/null", invariant=1)
    before = len(canvas.getCurrentPageContent())
    draw_qr(canvas, matrices[0], 0, 0, pt(18.5))
    path_bytes = len(canvas.getCurrentPageContent()) - before
    return {"encode_ms": _best_ms(encode_runs), "draw_ms": _best_ms(draw_runs),
            "path_bytes": path_bytes, "version": matrices[0].version, "modules": matrices[0].modules}


def full_kit(repeats: int) -> tuple[float, dict[str, int]]:
    from cardgen.render import BuildOptions, build
    from cardgen.render.qr import qr_matrix

    runs = []
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as out:
        for _ in range(repeats):
            qr_matrix.cache_clear()
            start = time.perf_counter()
            paths = build(BuildOptions(game="all", out_dir=Path(out)))
            runs.append(time.perf_counter() - start)
        sizes = {f"{p.parent.name}/{p.name}": p.stat().st_size for p in paths}
    return _best_ms(runs), sizes


def child_deck_timings(repeats: int, hide_accelerator: bool) -> dict[str, float]:
    """Deck timings from a fresh interpreter, optionally with rl_accel hidden from ReportLab."""
    args = [sys.executable, __file__, "--child", "--repeats", str(repeats)]
    if hide_accelerator:
        args.append("--no-accel")
    done = subprocess.run(args, capture_output=True, text=True, check=True, cwd=ROOT, timeout=600)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (the fastest is shown)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-accel", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.no_accel:
        sys.modules["_rl_accel"] = None  # type: ignore[assignment]  # ReportLab falls back to pure Python
    sys.path.insert(0, str(ROOT))
    if args.child:
        from reportlab.lib import rl_accel
        result = deck_timings(args.repeats)
        result["accelerated"] = float(bool(rl_accel._c_funcs))
        print(json.dumps(result))
        return

    from cardgen.catalog import content
    from cardgen.render.qr import card_url

    cards = content("fillory").cards
    payloads = [card_url("http://localhost:8000", "fillory", c.id) for c in cards]
    deck = deck_timings(args.repeats)
    qr = qr_costs(payloads, args.repeats)
    kit_ms, sizes = full_kit(args.repeats)
    with_accel = child_deck_timings(args.repeats, hide_accelerator=False)
    without_accel = child_deck_timings(args.repeats, hide_accelerator=True)

    n = len(cards)
    print(f"Fillory deck, {n} cards, A4 poker 9-up with duplex backs (best of {args.repeats})")
    print(f"  build, cold (QR codes encoded):   {deck['cold_ms']:8.1f} ms   {n / deck['cold_ms'] * 1000:6.1f} cards/s")
    print(f"  build, warm (QR codes reused):    {deck['warm_ms']:8.1f} ms   {n / deck['warm_ms'] * 1000:6.1f} cards/s")
    print(f"  deck.pdf:                         {deck['bytes']:8d} bytes  ({deck['bytes'] / n:.0f} bytes per card)")
    print(f"QR code (version {qr['version']:.0f}, {qr['modules']:.0f}x{qr['modules']:.0f} modules, one vector path)")
    print(f"  encode:                           {qr['encode_ms']:8.3f} ms per code")
    print(f"  draw:                             {qr['draw_ms']:8.3f} ms per code")
    print(f"  path in the page stream:          {qr['path_bytes']:8d} bytes per code (before compression)")
    print(f"  QR encoding share of a cold build: {qr['encode_ms'] * n / deck['cold_ms']:7.1%}")
    print(f"Whole kit, cold (deck, reference sheet, score pad): {kit_ms:.1f} ms")
    for name, size in sizes.items():
        print(f"  {name:<28} {size:8d} bytes")
    ratio = without_accel["cold_ms"] / with_accel["cold_ms"]
    print("rl_accel (ReportLab's C accelerator), cold deck build in a fresh process:")
    print(f"  with:    {with_accel['cold_ms']:8.1f} ms (accelerator active: {bool(with_accel['accelerated'])})")
    print(f"  without: {without_accel['cold_ms']:8.1f} ms (accelerator active: {bool(without_accel['accelerated'])})")
    print(f"  ratio without/with: {ratio:.2f}x")


if __name__ == "__main__":
    main()
