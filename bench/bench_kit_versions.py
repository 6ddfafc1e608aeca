"""The whole print kit built by this checkout and by an earlier commit, side by side: build time and bytes.

    .venv/bin/python bench/bench_kit_versions.py [--before REV] [--repeats 3]

The earlier commit is unpacked (``git archive``) into a temporary folder and both versions
are built with this virtualenv, each run in a fresh interpreter with an empty output folder (no QR code
cache), interleaved (before, after, before, after, ...) so that a busy machine slows both alike; the best
of ``--repeats`` is kept. Each run is ``cardgen build --game all`` as a user types it: a new process
running the command line (``cardgen.cli.main``), timed whole (interpreter start, imports, data, every
PDF, the forked build processes) in wall time and in CPU time (user + system of the process and every
process it started, from ``getrusage(RUSAGE_CHILDREN)``): the machine is shared, so wall time swings
with the load and CPU time, which a busy machine disturbs far less, is the figure to compare. Cold
means a new process and an empty output folder (no QR code cache); the modules' bytecode is written
by one uncounted run of each tree first (``PYTHONDONTWRITEBYTECODE`` is cleared for the runs), as an
installed package has it. Also printed: the kit's bytes per document with its page count, and how
many of each version's bytes are embedded font programs (the ``FontFile2`` streams: the price of
embedding the fonts). The load average is printed beside the figures, and the critical path: the CPU of the
command's own process (interpreter, imports, data, the fork; waiting costs none) plus that of its slowest
forked build process, which is the wall time two free cores would give (a shared machine's wall time is
its load's). Then the one-card rebuild the docs
describe: a kit is built from a copy of ``data/``, the first record of the first game's ``cards.toml``
is renamed, and each version runs ``cardgen build --game all --changed-since`` (a new process each time,
interleaved): wall, CPU, and CPU after the imports (the imports' own CPU is measured in the process).

The default ``--before`` is the previous commit (``HEAD~1``); ``--before 55d541a`` compares with the kit
before the fonts were embedded and the 5 mm margins came in.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BEFORE = "HEAD~1"

CHILD = r"""
import json, resource, sys, time
tree, out, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f)]   # this tree's cardgen, not the venv's
sys.path.insert(0, tree)
import cardgen.cli
assert cardgen.cli.__file__.startswith(tree), cardgen.cli.__file__
own = resource.getrusage(resource.RUSAGE_SELF)
imported = own.ru_utime + own.ru_stime
build_module = sys.modules["cardgen.render.build"]
children = []  # each forked build process's own CPU seconds, read back through a pipe
import os
reading, writing = os.pipe()
for name in ("_write_group", "_write_on_request"):  # what each version's forked processes run
    inner = getattr(build_module, name, None)
    if inner is not None:
        def measured(*args, inner=inner):
            try:
                return inner(*args)
            finally:
                used = resource.getrusage(resource.RUSAGE_SELF)
                os.write(writing, f"{used.ru_utime + used.ru_stime}\n".encode())
        setattr(build_module, name, measured)
try:
    cardgen.cli.main(["build", "--game", "all", "--out", out, "--base-url", "https://cards.example.org", *extra])
except SystemExit as exit:
    if exit.code:
        raise
os.close(writing)
with os.fdopen(reading) as lines:
    children = [float(line) for line in lines]
own = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"import_cpu_s": imported, "parent_cpu_s": own.ru_utime + own.ru_stime, "children_cpu_s": children}))
"""

#: Reads the PDFs a run wrote (in a process of its own, after the timed one).
SIZES = r"""
import json, sys
from pathlib import Path
from pypdf import PdfReader
paths = sorted(Path(sys.argv[1]).glob("*/*.pdf"))
print(json.dumps({"files": {f"{p.parent.name}/{p.name}": p.stat().st_size for p in paths},
                  "pages": {f"{p.parent.name}/{p.name}": len(PdfReader(p).pages) for p in paths},
                  "paths": [str(p) for p in paths]}))
"""


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode
    return env


FLOOR_CHILD = r"""
import json, sys, time
started = time.perf_counter()
sys.path.insert(0, sys.argv[1])
from bench_build import draw_floor
from cardgen.catalog import GAMES, content
from cardgen.render import plan_layout, print_specs
specs = print_specs()
layout = plan_layout(specs.paper("A4"), specs.card_size("poker"), 3.0, specs.sheet)
cards = sum(len(content(g).cards) for g in GAMES)
imported = time.perf_counter()
draw_floor(__import__("pathlib").Path(sys.argv[2]), layout, cards, 160)
print(json.dumps({"cards": cards, "build_s": time.perf_counter() - imported, "process_s": time.perf_counter() - started}))
"""


def floor_run(out: Path) -> dict[str, Any]:
    """Plain ReportLab drawing as many cards as the kit's decks hold (a name and 160 characters each) on
    the same A4 poker sheets, in a fresh interpreter: the floor a kit build is judged against."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", FLOOR_CHILD, str(ROOT / "bench"), str(out)], capture_output=True,
                          text=True, cwd=ROOT, timeout=600, env=_environment())
    whole = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"floor failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["whole_s"] = whole
    result["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result


def build_in(tree: Path, out: Path) -> dict[str, Any]:
    """``cardgen build --game all`` of ``tree`` in a new process: wall and CPU seconds, bytes and pages."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(out)], capture_output=True, text=True,
                          cwd=tree, timeout=600, env=_environment())
    whole = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"build in {tree} failed:\n{done.stderr}")
    sizes = subprocess.run([sys.executable, "-c", SIZES, str(out)], capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(sizes.stdout.strip().splitlines()[-1])
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    result["import_cpu_s"] = float(measured["import_cpu_s"])
    # what the wall time would be on two free cores: this process's own CPU (imports, data, waiting is
    # free) plus its slowest forked build process's
    result["critical_cpu_s"] = float(measured["parent_cpu_s"]) + max(measured["children_cpu_s"], default=0.0)
    result["children_cpu_s"] = measured["children_cpu_s"]
    result["whole_s"] = whole
    result["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result


def reprint_in(tree: Path, out: Path, data: Path, since: Path) -> dict[str, float]:
    """``cardgen build --game all --data DATA --changed-since SINCE`` of ``tree`` in a new process (the
    one-card rebuild the docs describe): wall and CPU seconds, and the CPU its imports took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(out), "--data", str(data), "--changed-since",
                           str(since)], capture_output=True, text=True, cwd=tree, timeout=600, env=_environment())
    whole = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"reprint in {tree} failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    imports = float(json.loads(done.stdout.strip().splitlines()[-1])["import_cpu_s"])
    return {"whole_s": whole, "cpu_s": cpu, "after_imports_cpu_s": cpu - imports}


def one_card_changed(data: Path) -> str:
    """Rename the first record of the first game's ``cards.toml`` (in a copy of the data); returns what changed."""
    cards = sorted(data.glob("*/cards.toml"))[0]
    text = cards.read_text(encoding="utf-8")
    match = re.search(r'^name = "([^"]+)"', text, flags=re.M)
    assert match is not None, cards
    cards.write_text(text[:match.start()] + f'name = "{match.group(1)} II"' + text[match.end():], encoding="utf-8")
    return f"{cards.parent.name}: '{match.group(1)}' renamed"


def reprint_figures(trees: dict[str, Path], tmp: Path, repeats: int) -> dict[str, list[dict[str, float]]]:
    """One card's data changed after a kit was built: each tree's reprint, interleaved, ``repeats`` times.

    Each tree reads its own data (a copy of its ``data/``, the same card renamed) against a kit it built
    itself: a data format that changed between the two (a field added) is read by the tree that knows it."""
    prepared: dict[str, tuple[Path, Path]] = {}
    changed = ""
    for name, tree in trees.items():
        data, since = tmp / f"data-{name}", tmp / f"printed-{name}"
        shutil.copytree(tree / "data", data)
        subprocess.run([sys.executable, "-c", CHILD, str(tree), str(since), "--data", str(data)],
                       capture_output=True, check=True, cwd=tree, env=_environment())
        changed = one_card_changed(data)
        prepared[name] = (data, since)
    print(f"  reprint after one card's data changed ({changed}): "
          f"`cardgen build --game all --changed-since`, a new process each time")
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for repeat in range(repeats):
        for name, tree in trees.items():
            data, since = prepared[name]
            runs[name].append(reprint_in(tree, tmp / f"reprint-{name}-{repeat}", data, since))
    return runs


def font_program_bytes(paths: list[str]) -> int:
    """Bytes of the embedded font programs (compressed, as stored) in these PDFs."""
    from pypdf import PdfReader
    total = 0
    for path in paths:
        reader = PdfReader(path)
        seen: set[int] = set()
        for obj_id in _object_ids(reader):
            if obj_id in seen:
                continue
            seen.add(obj_id)
            obj = reader.get_object(obj_id)
            if hasattr(obj, "get") and obj.get("/FontFile2") is not None:
                stream = obj["/FontFile2"].get_object()
                total += int(stream.get("/Length", len(stream._data)))
    return total


def _object_ids(reader: Any) -> list[int]:
    ids: list[int] = []
    for generation in reader.xref.values():
        ids.extend(generation)
    ids.extend(reader.xref_objStm)
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=DEFAULT_BEFORE, help="the earlier commit (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved runs of each version (best kept)")
    parser.add_argument("--figures", type=Path, default=None, help="also write the figures to this JSON file")
    args = parser.parse_args()
    print(f"load average before: {open('/proc/loadavg').read().split()[:3]}")
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = Path(tmp) / "before"
        old_tree.mkdir()
        archive = subprocess.run(["git", "archive", args.before], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old_tree)], input=archive, check=True)
        for name, tree in (("before", old_tree), ("after", ROOT)):  # uncounted: writes each tree's bytecode
            build_in(tree, Path(tmp) / f"{name}-warm-up")
        floor_run(Path(tmp) / "floor-warm-up.pdf")
        runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
        floors: list[dict[str, Any]] = []
        for repeat in range(args.repeats):
            for name, tree in (("before", old_tree), ("after", ROOT)):
                runs[name].append(build_in(tree, Path(tmp) / f"{name}-{repeat}"))
            floors.append(floor_run(Path(tmp) / f"floor-{repeat}.pdf"))
        best = {name: min(results, key=lambda r: r["cpu_s"]) for name, results in runs.items()}
        fonts_before = font_program_bytes(best["before"]["paths"])
        fonts = font_program_bytes(best["after"]["paths"])
        reprints = reprint_figures({"before": old_tree, "after": ROOT}, Path(tmp), args.repeats)
    before, after = best["before"], best["after"]
    floor_wall = min(r["whole_s"] for r in floors)
    floor_cpu = min(r["cpu_s"] for r in floors)
    wall_before, wall_after = (min(r["whole_s"] for r in runs[name]) for name in ("before", "after"))
    cpu_before, cpu_after = (min(r["cpu_s"] for r in runs[name]) for name in ("before", "after"))
    print(f"whole kit: `cardgen build --game all`, a new process each time, best of {args.repeats} interleaved "
          f"cold runs ({args.before} -> this checkout); CPU = user + system of the process and its children")
    print(f"  wall         {wall_before:7.2f} s -> {wall_after:7.2f} s   x{wall_after / wall_before:.2f}   "
          f"the plain ReportLab floor {floor_wall:.2f} s ({floors[0]['cards']} cards): x{wall_after / floor_wall:.2f} "
          f"the floor (target: the kit within 1.0 s)")
    print(f"  CPU          {cpu_before:7.2f} s -> {cpu_after:7.2f} s   x{cpu_after / cpu_before:.2f}   "
          f"the floor {floor_cpu:.2f} s: x{cpu_after / floor_cpu:.2f} the floor")
    crit_before, crit_after = (min(r["critical_cpu_s"] for r in runs[name]) for name in ("before", "after"))
    print(f"  critical path {crit_before:6.2f} s -> {crit_after:7.2f} s   x{crit_after / crit_before:.2f}   (CPU of the "
          f"parent + its slowest build process: the wall time on two free cores; build processes' CPU "
          f"{' / '.join(f'{c:.2f}' for c in before['children_cpu_s'])} -> "
          f"{' / '.join(f'{c:.2f}' for c in after['children_cpu_s'])} s)")
    b_total, a_total = sum(before["files"].values()), sum(after["files"].values())
    print(f"  bytes        {b_total / 1024:7.0f} KB -> {a_total / 1024:7.0f} KB   x{a_total / b_total:.2f} "
          f"({(a_total - b_total) / 1024:+.0f} KB)")
    print(f"  embedded font programs {fonts_before / 1024:5.0f} KB -> {fonts / 1024:5.0f} KB "
          f"({fonts / len(after['files']) / 1024:.1f} KB a document on average; the rest of the kit "
          f"{(b_total - fonts_before) / 1024:.0f} -> {(a_total - fonts) / 1024:.0f} KB)")
    b_pages, a_pages = sum(before.get("pages", {}).values()), sum(after["pages"].values())
    print(f"  pages        {b_pages:7d}    -> {a_pages:7d}")
    print("  per document: KB before -> after, pages before -> after")
    for name in sorted(set(before["files"]) | set(after["files"])):
        b, a = before["files"].get(name, 0), after["files"].get(name, 0)
        bp, ap = before.get("pages", {}).get(name, 0), after["pages"].get(name, 0)
        print(f"    {name:<34} {b / 1024:7.1f} -> {a / 1024:7.1f}  ({(a - b) / 1024:+6.1f})   {bp:3d} -> {ap:3d}")
    for label, key in (("wall", "whole_s"), ("CPU", "cpu_s"), ("CPU after imports", "after_imports_cpu_s")):
        b, a = (min(r[key] for r in reprints[name]) for name in ("before", "after"))
        print(f"  reprint {label:<18} {b:6.2f} s -> {a:6.2f} s   x{a / b:.2f}   (target: 0.3 s)")
    print(f"  imports alone (CPU)        {min(r['import_cpu_s'] for r in runs['before']):6.2f} s -> "
          f"{min(r['import_cpu_s'] for r in runs['after']):6.2f} s")
    print(f"load average after: {open('/proc/loadavg').read().split()[:3]}")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from figures import Report

    report = Report(args.figures)
    note = f"{args.before}: {wall_before:.2f} s wall, {cpu_before:.2f} s CPU, {b_total / 1024:.0f} KB, {b_pages} pages"
    report.info("kit_versions.build_s", "whole kit, cold `cardgen build`, whole process, wall", wall_after, "s", note)
    report.info("kit_versions.cpu_s", "the same in CPU time (process and children)", cpu_after, "s", note)
    report.info("kit_versions.critical_cpu_s", "its critical path: CPU of the parent + its slowest build process",
                crit_after, "s", f"{args.before}: {crit_before:.2f} s")
    report.info("kit_versions.build_ratio", "its CPU time against the earlier commit's", cpu_after / cpu_before, "x")
    report.info("kit_versions.floor_ratio", "its wall time against the plain ReportLab floor's", wall_after / floor_wall,
                "x", f"floor {floor_wall:.2f} s wall, {floor_cpu:.2f} s CPU")
    report.info("kit_versions.kb", "whole kit, bytes of its PDFs", a_total / 1024, "KB", note)
    report.info("kit_versions.font_kb", "of which embedded font programs", fonts / 1024, "KB",
                f"{args.before}: {fonts_before / 1024:.0f} KB")
    report.info("kit_versions.pages", "whole kit, pages", float(a_pages), "", note)
    reprint_before, reprint_after = (min(r["after_imports_cpu_s"] for r in reprints[name]) for name in ("before", "after"))
    report.info("kit_versions.reprint_cpu_s", "reprint after one card changed (--changed-since), CPU after the imports",
                reprint_after, "s", f"{args.before}: {reprint_before:.2f} s; whole process "
                f"{min(r['cpu_s'] for r in reprints['after']):.2f} s CPU, {min(r['whole_s'] for r in reprints['after']):.2f} s wall")
    report.save()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
