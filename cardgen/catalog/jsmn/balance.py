"""Balance figures for Jonathan Strange & Mr Norrell's authored numbers (issue 4).

The question: can good play reach the fairy's strength around 1811-1815, and less often when the fairy
starts at 4 or 8? :func:`run_balance` plays many seeded games of the model in
:mod:`cardgen.catalog.jsmn.balance_model` for each difficulty and strategy line-up and returns, per raven year, the
share of games in which the best player has reached the fairy by then (the year of the first defeat),
with the mean fairy strength and best magicianship. Pure and deterministic for a seed;
``cardgen jsmn-balance`` (:mod:`cardgen.catalog.jsmn.commands`) prints the table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from .balance_model import STRATEGIES, GameResult, move_table, play_game
from .content import JsmnContent

__all__ = ["STRATEGIES", "BalanceRow", "GameResult", "format_report", "lineups", "play_game", "run_balance"]


#: The line-ups the report compares: everyone playing one strategy, and a mixed table.
def lineups(players: int) -> dict[str, tuple[str, ...]]:
    mixed = tuple((list(STRATEGIES) * players)[:players])
    return {**{name: (name,) * players for name in STRATEGIES}, "mixed": mixed}


@dataclass(frozen=True)
class BalanceRow:
    difficulty: int
    lineup: str
    games: int
    defeated_by: dict[int, float]      # raven year -> share of games the fairy was defeated by then
    mean_fairy: dict[int, float]       # raven year -> mean fairy strength that year
    mean_best: dict[int, float]        # raven year -> mean best magicianship at that year's end


def run_balance(content: JsmnContent, games: int, seed: int, players: int = 3,
                difficulties: Sequence[int] | None = None) -> list[BalanceRow]:
    """Every line-up at every difficulty, ``games`` games each. Game ``g`` uses the same shuffles at every
    difficulty and line-up (seeded by ``seed`` and ``g``), so rows differ only by what they vary."""
    if not content.min_players <= players <= content.max_players:
        raise ValueError(f"{content.title} is for {content.min_players} to {content.max_players} players")
    if games < 1:
        raise ValueError("need at least one game")
    moves = move_table(content)
    ravens, years = content.tracks.raven_years, content.tracks.years
    rows: list[BalanceRow] = []
    for difficulty in difficulties if difficulties is not None else content.tracks.difficulties:
        for name, lineup in lineups(players).items():
            results = [play_game(content, random.Random(seed * 1_000_003 + g), lineup, difficulty, moves)
                       for g in range(games)]
            rows.append(BalanceRow(
                difficulty, name, games,
                {y: sum(r.defeated_in is not None and r.defeated_in <= y for r in results) / games for y in ravens},
                {y: sum(r.fairy[years.index(y)] for r in results) / games for y in ravens},
                {y: sum(r.best[years.index(y)] for r in results) / games for y in ravens}))
    return rows


def format_report(rows: Sequence[BalanceRow], players: int, seed: int) -> list[str]:
    """The figures as a plain-text table, one line per difficulty and line-up."""
    if not rows:
        return []
    ravens = list(rows[0].defeated_by)
    years = "  ".join(f"{y:>5}" for y in ravens)
    lines = [f"Jonathan Strange & Mr Norrell balance model: {rows[0].games} games per row, {players} players, "
             f"seed {seed}.",
             "Defeated by: share of games in which the best player has reached the fairy's strength by that raven",
             "year (the game ends then). Fairy and best: mean fairy strength and best magicianship that year.",
             "",
             f"{'start':>5}  {'line-up':<10} defeated by {years}   fairy {years}   best {years}"]
    for row in rows:
        share = "  ".join(f"{row.defeated_by[y]:>5.0%}" for y in ravens)
        fairy = "  ".join(f"{row.mean_fairy[y]:>5.1f}" for y in ravens)
        best = "  ".join(f"{row.mean_best[y]:>5.1f}" for y in ravens)
        lines.append(f"{row.difficulty:>5}  {row.lineup:<10}             {share}         {fairy}        {best}")
    return lines
