"""Jonathan Strange & Mr Norrell's own ``cardgen`` commands, declared in its :data:`CATALOG`
(``GameCatalog.commands``): ``cardgen`` adds every game's commands, and names no game itself."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command("jsmn-balance")
@click.option("--games", type=click.IntRange(1, 100_000), default=500, show_default=True,
              help="Games played per difficulty and line-up (the figures in data/jsmn/notes.toml use 2000).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the shuffles: the same seed always gives the same figures.")
@click.option("--players", type=click.IntRange(2, 4), default=3, show_default=True,
              help="Players at each simulated table.")
@click.option("--data", "data_folder", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Data folder to read (default: the project's data/, or $SPELLBOOK_DATA).")
def balance(games: int, seed: int, players: int, data_folder: Path | None) -> None:
    """Jonathan Strange & Mr Norrell: check the authored numbers with simple strategies.

    Plays seeded games of a compact model of the year loop (the fairy rising by the cards of Marseilles,
    players gaining magicianship from feats, books, the pupil and spells) for each difficulty (fairy
    start 0, 4, 8) and strategy line-up, and prints by raven year the share of games in which the best
    player has reached the fairy's strength, with the mean fairy and best magicianship.
    """
    from cardgen.catalog import DataError, data_dir, load_game
    from cardgen.cli import fail_with_problems

    from .balance import format_report, run_balance
    from .types import GAME_ID

    try:
        content = load_game(GAME_ID, data_folder if data_folder is not None else data_dir())
    except DataError as exc:
        fail_with_problems(GAME_ID, exc.problems)
        sys.exit(1)
    for line in format_report(run_balance(content, games, seed, players), players, seed):
        click.echo(line)


COMMANDS = (balance,)
