"""Jonathan Strange & Mr Norrell: who wins. One pure function ranks magicians by magicianship, then
prestige, then the disc on top of the stack (rules jsmn.end.total, jsmn.end.tie); the tracked game's
``outcome`` and the calculator (``POST /api/calc/jsmn``) both use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..base import as_read, places_by
from .state import GAME
from .state import rule as known_rule


@dataclass(frozen=True)
class Standing:
    name: str
    magicianship: int
    prestige: int
    stack: int          # the disc's place in its prestige space's stack, from the top (0: on top)


@dataclass(frozen=True)
class Ranking:
    order: tuple[int, ...]          # indices, best first
    winners: tuple[int, ...]        # several only if magicianship, prestige and stack place all tie
    decided_by: str                 # "magicianship", "prestige", "stack" or "shared"
    reason: str
    places: tuple[tuple[int, ...], ...] = ()  # every place, set as the first is (seats tied on all three share one)


def rank(players: Sequence[Standing]) -> Ranking:
    """Highest magicianship first; a tie goes to the higher prestige, then to the disc nearer the top."""
    def key(i: int) -> tuple[int, int, int]:
        p = players[i]
        return (-p.magicianship, -p.prestige, p.stack)

    order = tuple(sorted(range(len(players)), key=key))
    best = players[order[0]]
    winners = tuple(i for i in order if key(i) == key(order[0]))
    tied_magic = [i for i in order if players[i].magicianship == best.magicianship]
    tied_prestige = [i for i in tied_magic if players[i].prestige == best.prestige]
    if len(winners) > 1:
        decided, why = "shared", (f"{_names(players, sorted(winners))} tie on {best.magicianship} magicianship, "
                                  f"{best.prestige} prestige and their place in the stack")
    elif len(tied_magic) == 1:
        decided, why = "magicianship", f"{best.name} has the most magicianship: {best.magicianship}"
    elif len(tied_prestige) == 1:
        decided, why = "prestige", (f"{_names(players, sorted(tied_magic))} tie on {best.magicianship} magicianship; "
                                    f"{best.name} is higher on the prestige track ({best.prestige})")
    else:
        decided, why = "stack", (f"{_names(players, sorted(tied_prestige))} tie on {best.magicianship} "
                                 f"magicianship and {best.prestige} prestige; {best.name}'s disc is on top")
    return Ranking(order=order, winners=winners, decided_by=decided, reason=why,
                   places=places_by([key(i) for i in range(len(players))]))


@dataclass(frozen=True)
class Pad:
    """One player's private tally sheet (what the calculator is sent)."""

    name: str
    feats: tuple[int, ...]      # the magicianship of each completed feat
    books: int
    pupil: bool
    spell_magicianship: int
    prestige: int
    stack: int


def tally(pad: Pad, book: int = 1, pupil: int = 3) -> list[dict[str, object]]:
    """A pad's magicianship, one row per source (rule jsmn.magicianship.total)."""
    rows: list[dict[str, object]] = []
    if pad.feats:
        rows.append({"cause": f"Completed feats of magic: {' + '.join(map(str, pad.feats))}", "points": sum(pad.feats),
                     "rule": "jsmn.feat.complete"})
    if pad.books:
        rows.append({"cause": f"Books of magic: {pad.books} × {book}", "points": pad.books * book,
                     "rule": "jsmn.magicianship.total"})
    if pad.pupil:
        rows.append({"cause": "Pupil", "points": pupil, "rule": "jsmn.connexion.pupil"})
    if pad.spell_magicianship:
        rows.append({"cause": "Played spells that grant magicianship", "points": pad.spell_magicianship,
                     "rule": "jsmn.spell.magicianship"})
    return rows


def calculate(fairy: int, pads: Sequence[Pad], book: int = 1, pupil: int = 3, difficulty: int = 0,
              last_year: int = 1817) -> dict[str, object]:
    """The calculator's answer: each magicianship with its breakdown, whether the fairy is defeated, the winner.

    Nobody reaching the fairy means he reigns after the last year: nobody is the greatest magician of the
    age, so ``winners`` is empty; magicianship is still compared (``best``, rule jsmn.end.reign), and with
    advanced difficulty (the fairy started on 4 or 8) everyone loses (rule jsmn.difficulty.advanced)."""
    players: list[dict[str, object]] = []
    standings: list[Standing] = []
    for pad in pads:
        rows = tally(pad, book, pupil)
        total = sum(int(str(row["points"])) for row in rows)
        players.append({"name": pad.name, "magicianship": total, "breakdown": rows, "reaches_fairy": total >= fairy,
                        "prestige": pad.prestige, "stack": pad.stack})
        standings.append(Standing(pad.name, total, pad.prestige, pad.stack))
    ranking = rank(standings)
    defeated = any(p["reaches_fairy"] for p in players)
    best = list(ranking.winners)
    answer: dict[str, object] = {
        "fairy_strength": fairy, "difficulty": difficulty, "defeated": defeated, "players": players,
        "best": best, "best_names": [pads[i].name for i in best], "decided_by": ranking.decided_by,
        "compared": ranking.reason}
    if defeated:
        return answer | {"winners": best, "winner_names": answer["best_names"], "reason": ranking.reason,
                         "fairy": f"The fairy ({fairy}) is defeated.",
                         "rule": "jsmn.end.tie" if ranking.decided_by in ("prestige", "stack") else "jsmn.end.total"}
    reign = (f"Nobody reaches the fairy's strength ({fairy}): he is not defeated, and after {last_year} he reigns "
             "over England")
    compared, _ = compared_after_reign(ranking)
    if difficulty:
        reason = f"{reign}. With advanced difficulty everyone loses. Compared among you: {compared}."
        rule = "jsmn.difficulty.advanced"
    else:
        reason = f"{reign}: nobody is the greatest magician of the age. Compared among you: {compared}."
        rule = "jsmn.end.reign"
    return answer | {"winners": [], "winner_names": [], "reason": reason, "fairy": f"{reign}.", "rule": rule}


#: the project's reading: a tie in the comparison after a reign is settled by the winner's tie-break
REIGN_TIE = known_rule("jsmn.end.reign-tie")


def compared_after_reign(ranking: Ranking) -> tuple[str, str | None]:
    """How the players compare when the fairy reigns, and the rule that settled a tie in it: the winner's
    tie-break (prestige, then the disc on top), which the rulebook gives only for a winner, said as our reading."""
    if ranking.decided_by in ("prestige", "stack"):
        return as_read(ranking.reason, GAME.rule(REIGN_TIE)), REIGN_TIE
    return ranking.reason, None


def _names(players: Sequence[Standing], seats: Sequence[int]) -> str:
    names = [players[i].name for i in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


__all__ = ["Pad", "Ranking", "Standing", "calculate", "compared_after_reign", "rank", "tally"]
