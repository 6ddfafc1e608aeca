"""Jonathan Strange & Mr Norrell: who wins. One pure function ranks magicians by magicianship, then
prestige, then the disc on top of the stack (rules jsmn.end.total, jsmn.end.tie); the tracked game's
``outcome`` and the calculator (``POST /api/calc/jsmn``) both use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


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
        decided, why = "shared", (f"{_names(players, winners)} tie on {best.magicianship} magicianship, "
                                  f"{best.prestige} prestige and their place in the stack")
    elif len(tied_magic) == 1:
        decided, why = "magicianship", f"{best.name} has the most magicianship: {best.magicianship}"
    elif len(tied_prestige) == 1:
        decided, why = "prestige", (f"{_names(players, tied_magic)} tie on {best.magicianship} magicianship; "
                                    f"{best.name} is higher on the prestige track ({best.prestige})")
    else:
        decided, why = "stack", (f"{_names(players, tied_prestige)} tie on {best.magicianship} magicianship and "
                                 f"{best.prestige} prestige; {best.name}'s disc is on top")
    return Ranking(order=order, winners=winners, decided_by=decided, reason=why)


def _names(players: Sequence[Standing], seats: Sequence[int]) -> str:
    names = [players[i].name for i in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


__all__ = ["Ranking", "Standing", "rank"]
