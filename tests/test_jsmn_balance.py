"""The Jonathan Strange & Mr Norrell balance model: deterministic for a seed, and the shape the issue asks for
(the fairy reachable by good play around 1811-1815, less often from 4 and rarely from 8)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cardgen.catalog import content
from cardgen.catalog.jsmn import JsmnContent
from cardgen.catalog.jsmn.balance import (
    STRATEGIES,
    BalanceRow,
    format_report,
    lineups,
    play_game,
    run_balance,
)
from cardgen.cli import main

JSMN: JsmnContent = content("jsmn")
GAMES = 80


@pytest.fixture(scope="module")
def rows() -> dict[tuple[int, str], BalanceRow]:
    return {(r.difficulty, r.lineup): r for r in run_balance(JSMN, GAMES, seed=7)}


def test_a_game_is_deterministic_for_a_seed_and_differs_between_seeds() -> None:
    lineup = ("scholar", "balanced", "socialite")
    first = play_game(JSMN, random.Random(11), lineup, 0)
    assert play_game(JSMN, random.Random(11), lineup, 0) == first
    others = {play_game(JSMN, random.Random(seed), lineup, 0) for seed in range(12, 20)}
    assert len(others | {first}) > 1


def test_a_game_follows_the_fairy_track_and_never_loses_magicianship() -> None:
    for seed in range(10):
        result = play_game(JSMN, random.Random(seed), ("scholar",) * 4, 4)
        assert len(result.fairy) == len(result.best) == 12
        assert result.fairy[-1] == 4 + sum(card.strength for card in JSMN.marseilles)   # every card revealed once
        assert all(a <= b for a, b in zip(result.fairy, result.fairy[1:], strict=False))
        assert all(a <= b for a, b in zip(result.best, result.best[1:], strict=False))
        assert result.defeated_in is None or result.defeated_in in JSMN.tracks.raven_years


def test_run_balance_is_deterministic_and_covers_every_difficulty_and_line_up() -> None:
    small = run_balance(JSMN, 6, seed=3, players=2)
    assert small == run_balance(JSMN, 6, seed=3, players=2)
    assert [(r.difficulty, r.lineup) for r in small] == [
        (d, name) for d in (0, 4, 8) for name in (*STRATEGIES, "mixed")]
    assert lineups(4)["mixed"] == ("scholar", "balanced", "socialite", "scholar")
    with pytest.raises(ValueError, match="2 to 4 players"):
        run_balance(JSMN, 1, seed=1, players=5)


def test_defeat_shares_only_grow_through_the_raven_years(rows: dict[tuple[int, str], BalanceRow]) -> None:
    for row in rows.values():
        shares = list(row.defeated_by.values())
        assert list(row.defeated_by) == [1811, 1813, 1815, 1817]
        assert all(0 <= a <= b <= 1 for a, b in zip(shares, shares[1:], strict=False))


def test_good_play_reaches_the_fairy_around_1811_to_1815(rows: dict[tuple[int, str], BalanceRow]) -> None:
    scholar = rows[(0, "scholar")].defeated_by
    assert 0.1 <= scholar[1811] <= 0.5          # possible in the first raven year, but not usual
    assert scholar[1815] >= 0.55                # most games with good play are won by 1815
    assert scholar[1815] - scholar[1811] >= 0.2  # the catching up happens over the middle years
    # the rulebook's example: a fairy of about 18 in 1811 against a magician a little short of it
    mean = rows[(0, "scholar")]
    assert 16 <= mean.mean_fairy[1811] <= 21 and mean.mean_best[1811] < mean.mean_fairy[1811]


def test_advanced_difficulty_is_harder_and_eight_nearly_impossible(rows: dict[tuple[int, str], BalanceRow]) -> None:
    for lineup in (*STRATEGIES, "mixed"):
        easy, hard, foolhardy = (rows[(d, lineup)].defeated_by for d in (0, 4, 8))
        for year in (1813, 1815, 1817):
            assert foolhardy[year] <= hard[year] <= easy[year]
    assert rows[(4, "scholar")].defeated_by[1817] <= rows[(0, "scholar")].defeated_by[1817] - 0.2
    assert rows[(8, "scholar")].defeated_by[1817] <= 0.25
    assert max(rows[(8, name)].defeated_by[1813] for name in (*STRATEGIES, "mixed")) <= 0.1


def test_good_play_beats_chasing_prestige(rows: dict[tuple[int, str], BalanceRow]) -> None:
    assert rows[(0, "scholar")].defeated_by[1817] > rows[(0, "socialite")].defeated_by[1817]


def test_the_report_and_the_command(rows: dict[tuple[int, str], BalanceRow]) -> None:
    lines = format_report(list(rows.values()), 3, 7)
    assert lines[0] == f"Jonathan Strange & Mr Norrell balance model: {GAMES} games per row, 3 players, seed 7."
    assert len(lines) == 5 + 12 and all("1811" in line for line in lines[4:5])
    result = CliRunner().invoke(main, ["jsmn-balance", "--games", "3", "--seed", "5", "--players", "2"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == format_report(run_balance(JSMN, 3, seed=5, players=2), 2, 5)
    refused = CliRunner().invoke(main, ["jsmn-balance", "--players", "5"])
    assert refused.exit_code == 2 and "5 is not in the range 2<=x<=4" in refused.output


#: games of 80 (seed 7, 3 players) in which the best player had reached the fairy by 1811 / 1813 / 1815 / 1817,
#: recorded with the figures of data/jsmn/notes.toml (note balance-figures). A change of the model or of the
#: authored numbers changes them: then run `cardgen jsmn-balance --games 2000 --seed 1`, record its figures in
#: that note as it prints them, and these again.
RECORDED_SMALL_RUN = {
    (0, "scholar"): (29, 45, 60, 68),
    (0, "balanced"): (28, 39, 46, 52),
    (0, "socialite"): (17, 24, 27, 28),
    (0, "mixed"): (24, 37, 49, 60),
    (4, "scholar"): (4, 18, 27, 42),
    (4, "balanced"): (3, 7, 13, 19),
    (4, "socialite"): (1, 1, 1, 1),
    (4, "mixed"): (4, 9, 14, 27),
    (8, "scholar"): (2, 2, 4, 10),
    (8, "balanced"): (1, 4, 5, 6),
    (8, "socialite"): (1, 1, 1, 1),
    (8, "mixed"): (0, 1, 2, 4),
}


def test_the_model_still_gives_the_figures_the_note_was_recorded_with(
        rows: dict[tuple[int, str], BalanceRow]) -> None:
    """The note's figures come from a run of 2000 games a row (minutes); this run of 80 (the module's) was
    recorded with them, so a model that changed since says so here, in no extra time."""
    assert {key: tuple(round(share * GAMES) for share in row.defeated_by.values()) for key, row in rows.items()} \
        == RECORDED_SMALL_RUN, "the balance model changed: record data/jsmn/notes.toml's figures again (see above)"


def test_the_same_seed_gives_the_same_figures_in_every_process() -> None:
    """"same seed, same figures" (docs/games/jsmn.md), whatever a process's hash seed: a set of elements
    gone through in its own order picked among equal choices differently in each process."""
    runs = [subprocess.Popen([sys.executable, "-m", "cardgen.cli", "jsmn-balance", "--games", "12", "--seed", "1"],
                             stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONHASHSEED": str(hash_seed)})
            for hash_seed in (1, 2, 3)]  # (at once: each is a second or two of one core)
    outputs = {run.communicate(timeout=300)[0] for run in runs}
    assert [run.returncode for run in runs] == [0, 0, 0]
    assert len(outputs) == 1 and "seed 1" in next(iter(outputs))
