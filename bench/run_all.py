"""Run every benchmark in bench/ one after the other and print their figures.

    .venv/bin/python bench/run_all.py [--quick]

``--quick`` shortens each run (fewer repeats, a 5 s load) for a smoke check of the numbers.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

BENCHMARKS: list[tuple[str, list[str], list[str]]] = [
    # (script, full-run arguments, quick-run arguments)
    ("bench_build.py", ["--repeats", "5"], ["--repeats", "2"]),
    ("bench_api.py", ["--seconds", "10"], ["--seconds", "5"]),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    args = parser.parse_args()
    failed = 0
    for script, full, quick in BENCHMARKS:
        print(f"\n=== {script} ===", flush=True)
        result = subprocess.run([sys.executable, str(HERE / script), *(quick if args.quick else full)])
        failed += result.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
