"""Run every benchmark in bench/ one after the other, then print each judged figure beside its target.

    .venv/bin/python bench/run_all.py [--quick] [--json FILE]

Each benchmark runs in its own process and prints its figures as it goes; the summary at the end
repeats the ones with a target, marked OK or MISSED. Bounded in time (about three minutes; ``--quick``
shortens every run for a smoke check), loopback only. The exit status is 0 when every benchmark
ran, whatever the figures: this measures, it does not test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from figures import Figure, load, summary  # noqa: E402

BENCHMARKS: list[tuple[str, list[str], list[str]]] = [
    # (script, full-run arguments, quick-run arguments)
    ("bench_rules.py", ["--seconds", "3"], ["--seconds", "1"]),
    ("bench_pages.py", [], []),
    ("bench_build.py", ["--repeats", "3"], ["--repeats", "1"]),
    ("bench_kit_versions.py", ["--repeats", "3"], ["--repeats", "1"]),
    ("bench_api.py", ["--seconds", "4"], ["--seconds", "2"]),
]


def machine() -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}; load average {load}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--json", type=Path, default=None, help="also write every figure to this JSON file")
    args = parser.parse_args()
    print(f"Machine: {machine()}", flush=True)
    started = time.perf_counter()
    failed: list[str] = []
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as tmp:
        for script, full, quick in BENCHMARKS:
            print(f"\n=== {script} ===", flush=True)
            out = Path(tmp) / f"{script}.json"
            result = subprocess.run([sys.executable, str(HERE / script), *(quick if args.quick else full),
                                     "--figures", str(out)])
            if result.returncode != 0 or not out.exists():
                failed.append(script)
                continue
            figures += load(out)
    print(f"\n=== Summary: every figure with a target ({time.perf_counter() - started:.0f} s; "
          f"load average now {', '.join(f'{x:.1f}' for x in os.getloadavg())}) ===")
    for line in summary(figures):
        print(line)
    if failed:
        print(f"  benchmarks that did not finish: {', '.join(failed)}")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "figures": [asdict(f) for f in figures]}, indent=1),
                             encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
