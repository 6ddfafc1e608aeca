"""Score by photo: how many cards a table photo gives back, at each scale, and how long a 12 MP photo takes.

    .venv/bin/python bench/bench_photo.py [--scenes 8] [--games all] [--figures FILE] [--layouts-only]

For every game that scores by photo (discovered, none named here) and each scale from 3 to 8 pixels per
millimetre of card, ``--scenes`` photos made by ``bench/photo_set.py`` from the print kit's own faces:
4 to 9 cards each, spread (each turned by up to 30°) or fanned (each card over part of the one before,
its code left visible), the whole photo in perspective, blurred, lit unevenly, saved as JPEG quality
60. Each photo is read by :func:`companion.photo.read_photo`, exactly as the API reads an upload.

Prints per scale: cards laid, found, found %, wrong cards (a card read that the photo does not show),
and the slowest read (wall time: a busy machine stretches it). Targets: at 5 px/mm and more, >= 95 % found and 0 wrong. Then a 12 MP photo (4000 x
3000, 12 cards at about 11 px/mm, quality 90 as a phone saves) read five times: median and worst wall
time (and CPU time, which a busy machine disturbs far less), target <= 1 s.

First, per game, what the first photo of the game a server process reads pays to learn where each card's
front prints its code (:func:`companion.photo_outline.face_codes`, cold in a fresh process, CPU and wall);
``--layouts-only`` measures only that.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import photo_set  # noqa: E402
from PIL import Image  # noqa: E402

from companion.photo import read_photo  # noqa: E402
from companion.photo_outline import face_codes  # noqa: E402
from companion.web.photo import games_with_photo  # noqa: E402

SCALES = (3.0, 4.0, 5.0, 6.0, 7.0, 8.0)
TARGET_FOUND = 0.95
TARGET_SECONDS = 1.0


def rates(games: list[str], scenes: int, scales: tuple[float, ...] = SCALES) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for scale in scales:
        laid = found = wrong = 0
        slowest = 0.0
        misses: Counter[str] = Counter()
        errors: list[float] = []
        for game in games:
            for scene in photo_set.scene_set(game, scale, scenes):
                started = time.perf_counter()
                reading = read_photo(scene.jpeg, game)
                slowest = max(slowest, time.perf_counter() - started)
                errors += _outline_errors(scene, reading)
                read = Counter(card.card_id for card in reading.cards)
                expected = Counter(scene.cards)
                laid += sum(expected.values())
                found += sum((read & expected).values())
                wrong += sum((read - expected - Counter(scene.hidden)).values())
                misses.update({f"{game} {scene.layout}": sum((expected - read).values())})
        share = found / laid if laid else 0.0
        judged = scale >= 5
        ok = share >= TARGET_FOUND and wrong == 0
        rows.append({"px_per_mm": scale, "laid": laid, "found": found, "found_share": round(share, 4),
                     "wrong": wrong, "slowest_s": round(slowest, 3), "judged": judged, "ok": ok,
                     "outline_median_mm": round(statistics.median(errors), 2) if errors else None,
                     "outline_worst_mm": round(max(errors), 2) if errors else None,
                     "misses": {k: v for k, v in misses.items() if v}})
    return rows


def _outline_errors(scene: photo_set.Scene, reading: object) -> list[float]:
    """For each card read with an outline: how far its farthest corner lies from the card's true corner, in mm at
    the photo's nominal scale (a card laid twice: the nearer of its places)."""
    truth: dict[str, list[tuple[tuple[float, float], ...]]] = {}
    for card, corners in scene.outlines:
        truth.setdefault(card, []).append(corners)
    out = []
    for found in reading.cards:  # type: ignore[attr-defined]
        if found.outline and found.card_id in truth:
            out.append(min(max(min(math.dist(p, q) for q in corners) for p in found.outline)
                           for corners in truth[found.card_id]) / scene.px_per_mm)
    return out


_COLD_LAYOUT = """
import json, sys, time
from cardgen.catalog import content
from companion.photo import read_photo  # noqa: F401  what a server has imported before its first photo
from companion.photo_outline import face_codes
content(sys.argv[1])  # the reader loads the game's content before it asks for the code places
cpu, wall = time.process_time(), time.perf_counter()
cards = len(face_codes(sys.argv[1]))
print(json.dumps({"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall, "cards": cards}))
"""


def face_layouts(games: list[str], runs: int = 3) -> dict[str, dict[str, float]]:
    """Seconds (CPU and wall, median of ``runs`` fresh processes) to find where every card's front puts its code:
    what the first photo of a game a server process reads pays (:func:`face_codes`, made once per game and
    process). Then made here too, so that the reads timed after it are as a running server's."""
    import subprocess

    out = {}
    for game in games:
        measured = [json.loads(subprocess.run([sys.executable, "-c", _COLD_LAYOUT, game], cwd=HERE.parent,
                                              check=True, capture_output=True, text=True).stdout)
                    for _ in range(runs)]
        out[game] = {key: round(statistics.median(m[key] for m in measured), 3) for key in ("cpu_s", "wall_s")}
        face_codes(game)
    return out


def twelve_megapixels(game: str) -> dict[str, object]:
    ids = photo_set.card_ids(game)
    scene = photo_set.scene(game, [ids[i % len(ids)] for i in range(0, 12 * 7, 7)], 11.0, 12, quality=90)
    photo = Image.open(io.BytesIO(scene.jpeg)).resize((4000, 3000), Image.Resampling.BICUBIC)
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=90)
    data = buffer.getvalue()
    read_photo(data, game)  # content loaded once, as in a running server
    times, cpu, counts = [], [], []
    for _ in range(5):
        started, started_cpu = time.perf_counter(), time.process_time()
        reading = read_photo(data, game)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        counts.append(len(reading.cards))
    return {"game": game, "bytes": len(data), "pixels": 4000 * 3000, "cards_laid": len(scene.cards),
            "cards_found": min(counts), "median_s": round(statistics.median(times), 3),
            "worst_s": round(max(times), 3), "cpu_median_s": round(statistics.median(cpu), 3),
            "ok": max(times) <= TARGET_SECONDS}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=8, help="photos per game and scale (default 8)")
    parser.add_argument("--games", default="all", help="comma-separated game ids (default: every game)")
    parser.add_argument("--figures", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--layouts-only", action="store_true",
                        help="only the first photo's cost of the code places (a few seconds)")
    parser.add_argument("--scales", default=",".join(f"{s:g}" for s in SCALES),
                        help="comma-separated px/mm to measure (default 3 to 8; 'none': only the 12 MP photo)")
    args = parser.parse_args()
    games = games_with_photo() if args.games == "all" else args.games.split(",")
    layouts = face_layouts(games)
    print("cards' code places from the print layout, once per game and process (cold, median of 3 processes): " +
          ", ".join(f"{game} CPU {t['cpu_s']:g} s (wall {t['wall_s']:g} s)" for game, t in layouts.items()))
    if args.layouts_only:
        if args.figures:
            args.figures.write_text(json.dumps({"face_layout_s": layouts}, indent=1))
        return 0
    print(f"Score by photo: {args.scenes} photos per game and scale, games {', '.join(games)}")
    print(f"{'px/mm':>6} {'laid':>6} {'found':>6} {'found %':>8} {'wrong':>6} {'slowest':>8}  target")
    scales = () if args.scales == "none" else tuple(float(s) for s in args.scales.split(","))
    rows = rates(games, args.scenes, scales)
    for row in rows:
        verdict = ("OK" if row["ok"] else "MISSED") if row["judged"] else "(not judged)"
        print(f"{row['px_per_mm']:>6g} {row['laid']:>6} {row['found']:>6} {100 * float(row['found_share']):>7.1f}% "  # type: ignore[arg-type]
              f"{row['wrong']:>6} {row['slowest_s']:>7.3f}s  >= 95 % and 0 wrong: {verdict}")
        if row["outline_worst_mm"] is not None:
            print(f"{'':>8}whole-card outline off the true corners: median {row['outline_median_mm']} mm, "
                  f"worst {row['outline_worst_mm']} mm")
        if row["misses"]:
            print(f"{'':>8}missed: {row['misses']}")
    big = [twelve_megapixels(game) for game in games]
    for entry in big:
        print(f"12 MP JPEG ({entry['game']}, {int(entry['bytes']) / 1e6:.1f} MB, {entry['cards_found']} of "  # type: ignore[call-overload]
              f"{entry['cards_laid']} cards): median {entry['median_s']} s, worst {entry['worst_s']} s "
              f"(CPU {entry['cpu_median_s']} s); "
              f"target <= {TARGET_SECONDS:g} s: {'OK' if entry['ok'] else 'MISSED'}")
    judged = [row for row in rows if row["judged"]] + big
    met = sum(1 for row in judged if row["ok"])
    print(f"{met} of {len(judged)} targets met")
    if args.figures:
        args.figures.write_text(json.dumps({"face_layout_s": layouts, "rates": rows, "twelve_mp": big}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
