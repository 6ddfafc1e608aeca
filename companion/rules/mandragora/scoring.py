"""Mandragora: the final score as a pure function, shared by the rules module and the score calculator.

:func:`final_scores` takes one :class:`PlayerTally` per sorcerer (what a score pad would hold) and
returns every total with its breakdown, the team totals in the team variant, and who won:

- each spell scores its spell card's value plus its spellbook's value (a mandrake spellbook is 0)
  (rules mandragora.score.spells, mandragora.score.mandrake-book);
- each colour still in hand costs 1 point, mandrakes counting as white; Disappearance removes one
  colour per spell first and Purification empties the hand (mandragora.score.colours,
  mandragora.effect.disappearance, mandragora.effect.purification);
- the Curse marker costs 2 (mandragora.score.curse);
- most points wins; a tie goes to the tied sorcerer (or team) with more spells cast; still tied,
  the win is shared (mandragora.score.winner, mandragora.team.score, mandragora.team.tie).

:func:`tallies_from_json` and :meth:`Result.to_json` turn a calculator request into tallies and a
result into plain JSON; every malformed value raises ``ValueError`` with a sentence saying which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping, Sequence

from cardgen.catalog import content
from cardgen.catalog.mandragora import MandragoraContent

GAME: MandragoraContent = content("mandragora")
#: Colours a hand can show at the end: the six card colours and white (mandrakes).
HAND_COLOURS: int = len(GAME.colours) + 1
MAX_DISAPPEARANCE: int = GAME.spell("disappearance").count

DecidedBy = Literal["score", "spells cast", "shared"]


@dataclass(frozen=True)
class PlayerTally:
    """What counts for one sorcerer at the end.

    ``spells`` holds ``(spell_value, book_value)`` per cast spell (book value 0 for a mandrake);
    ``spell_labels`` optionally names them (same order) for the breakdown, e.g.
    ``"Banishment 2 + Yellow Spellbook 1"``. ``hand_colours`` is the number of different colours
    in hand before end-of-game spells, or None while the hand is not yet revealed.
    """

    name: str
    spells: tuple[tuple[int, int], ...] = ()
    hand_colours: int | None = 0
    disappearance: int = 0
    purification: bool = False
    curse_marker: bool = False
    spell_labels: tuple[str, ...] = ()
    colour_names: tuple[str, ...] = ()      # optional: the colours left, in the order the player gave them

    def __post_init__(self) -> None:
        low_spell, high_spell = GAME.spell_values
        low_book, high_book = GAME.spellbook_values
        for number, pair in enumerate(self.spells, 1):
            if len(pair) != 2 or not all(_whole(v) for v in pair):
                raise ValueError(f"{self.name}: spell {number} must be a pair of whole numbers (spell, spellbook)")
            spell, book = pair
            if not low_spell <= spell <= high_spell:
                raise ValueError(f"{self.name}: spell {number} has value {spell}; spell cards are worth "
                                 f"{low_spell} to {high_spell}")
            if not low_book <= book <= high_book:
                raise ValueError(f"{self.name}: spell {number} has a spellbook worth {book}; spellbooks are "
                                 f"worth {low_book} to {high_book} (a mandrake counts 0)")
        if self.spell_labels and len(self.spell_labels) != len(self.spells):
            raise ValueError(f"{self.name}: give one label per spell or none")
        if self.colour_names and len(self.colour_names) != self.hand_colours:
            raise ValueError(f"{self.name}: give one name per colour left in hand or none")
        if self.hand_colours is not None and not (_whole(self.hand_colours) and 0 <= self.hand_colours <= HAND_COLOURS):
            raise ValueError(f"{self.name}: colours left in hand must be 0 to {HAND_COLOURS}, "
                             f"got {self.hand_colours!r}")
        if not (_whole(self.disappearance) and 0 <= self.disappearance <= MAX_DISAPPEARANCE):
            raise ValueError(f"{self.name}: Disappearance spells must be 0 to {MAX_DISAPPEARANCE}, "
                             f"got {self.disappearance!r}")

    @property
    def spells_cast(self) -> int:
        return len(self.spells)


@dataclass(frozen=True)
class PlayerResult:
    name: str
    total: int
    breakdown: tuple[tuple[str, int], ...]   # (cause, points), spells first
    spells_cast: int


@dataclass(frozen=True)
class TeamResult:
    members: tuple[int, ...]
    total: int
    spells_cast: int


@dataclass(frozen=True)
class Result:
    players: tuple[PlayerResult, ...]
    teams: tuple[TeamResult, ...] | None
    winners: tuple[int, ...]      # player indexes, or team indexes in the team game
    decided_by: DecidedBy

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [{"name": p.name, "total": p.total, "spells_cast": p.spells_cast,
                         "breakdown": [{"cause": cause, "points": points} for cause, points in p.breakdown]}
                        for p in self.players],
            "teams": None if self.teams is None else [
                {"members": list(t.members), "total": t.total, "spells_cast": t.spells_cast} for t in self.teams],
            "winners": list(self.winners),
            "decided_by": self.decided_by,
        }


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: small counts in words ("two of them discarded"); a larger one as its figure
_WORDS = {1: "one", 2: "two", 3: "three"}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def breakdown(tally: PlayerTally) -> tuple[tuple[str, int], ...]:
    """The scoring rows of one sorcerer: one per spell, then the curse, then the colours left."""
    rows: list[tuple[str, int]] = []
    for number, (spell, book) in enumerate(tally.spells):
        label = tally.spell_labels[number] if tally.spell_labels else f"Spell {spell} + spellbook {book}"
        rows.append((label, spell + book))
    if tally.curse_marker:
        rows.append(("Curse marker", -GAME.curse_penalty))
    if tally.hand_colours is None:
        return tuple(rows)
    if tally.purification:
        rows.append(("Purification: hand discarded", 0))
        return tuple(rows)
    left = max(0, tally.hand_colours - tally.disappearance)
    cause = f"{_plural(tally.hand_colours, 'colour')} left in hand"
    if tally.colour_names:
        cause += ": " + ", ".join(tally.colour_names)
    if tally.disappearance and tally.hand_colours:
        # which colours Disappearance discards is the player's choice, not reported (it does not change the
        # score): how many, not which
        gone = min(tally.disappearance, tally.hand_colours)
        cause += f" (after Disappearance: {left}" + (f"; {_WORDS.get(gone, str(gone))} of them discarded)"
                                                     if tally.colour_names else ")")
    rows.append((cause, -GAME.colour_penalty * left))
    return tuple(rows)


def _winners(totals: Sequence[int], spells: Sequence[int]) -> tuple[tuple[int, ...], DecidedBy]:
    best = max(totals)
    leaders = [i for i, total in enumerate(totals) if total == best]
    if len(leaders) == 1:
        return tuple(leaders), "score"
    most = max(spells[i] for i in leaders)
    by_spells = [i for i in leaders if spells[i] == most]
    if len(by_spells) == 1:
        return tuple(by_spells), "spells cast"
    return tuple(by_spells), "shared"


def final_scores(players: Sequence[PlayerTally], teams: Sequence[Sequence[int]] | None = None) -> Result:
    """Every sorcerer's total and breakdown, team totals if ``teams`` (lists of player indexes), winners."""
    if not players:
        raise ValueError("score at least one sorcerer")
    results = []
    for tally in players:
        rows = breakdown(tally)
        results.append(PlayerResult(tally.name, sum(points for _, points in rows), rows, tally.spells_cast))
    if teams is None:
        winners, decided = _winners([p.total for p in results], [p.spells_cast for p in results])
        return Result(tuple(results), None, winners, decided)
    members = [tuple(team) for team in teams]
    flat = [seat for team in members for seat in team]
    if (len(members) < 2 or any(not team for team in members) or not all(_whole(seat) for seat in flat)
            or sorted(flat) != list(range(len(players)))):
        raise ValueError("teams must split the sorcerers into two or more teams, each sorcerer in exactly one")
    team_results = tuple(TeamResult(team, sum(results[i].total for i in team),
                                    sum(results[i].spells_cast for i in team)) for team in members)
    winners, decided = _winners([t.total for t in team_results], [t.spells_cast for t in team_results])
    return Result(tuple(results), team_results, winners, decided)


# --- the calculator's JSON -----------------------------------------------------------------------

def _tally_from_json(number: int, raw: Any) -> PlayerTally:
    if not isinstance(raw, Mapping):
        raise ValueError(f"player {number} must be an object")
    unknown = sorted(set(raw) - {"name", "spells", "hand_colours", "disappearance", "purification",
                                 "curse_marker", "spell_labels"})
    if unknown:
        raise ValueError(f"player {number}: unknown field {unknown[0]!r}")
    name = raw.get("name", f"Sorcerer {number}")
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        raise ValueError(f"player {number}: the name must be 1 to 40 characters")
    spells = raw.get("spells", [])
    if not isinstance(spells, list) or len(spells) > GAME.components.spells:
        raise ValueError(f"{name}: 'spells' must be a list of at most {GAME.components.spells} "
                         "[spell value, spellbook value] pairs")
    pairs: list[tuple[int, int]] = []
    for index, pair in enumerate(spells, 1):
        if isinstance(pair, Mapping):
            pair = [pair.get("spell"), pair.get("book")]
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"{name}: spell {index} must be [spell value, spellbook value]")
        pairs.append((pair[0], pair[1]))
    labels = raw.get("spell_labels", [])
    if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
        raise ValueError(f"{name}: 'spell_labels' must be a list of strings")
    for key in ("purification", "curse_marker"):
        if not isinstance(raw.get(key, False), bool):
            raise ValueError(f"{name}: '{key}' must be true or false")
    return PlayerTally(name=name.strip(), spells=tuple(pairs), hand_colours=raw.get("hand_colours", 0),
                       disappearance=raw.get("disappearance", 0), purification=raw.get("purification", False),
                       curse_marker=raw.get("curse_marker", False), spell_labels=tuple(labels))


def tallies_from_json(data: Any) -> tuple[list[PlayerTally], list[list[int]] | None]:
    """A calculator request ``{"players": [...], "teams": [[0, 2], [1, 3]] | null}`` as tallies and teams.

    Each player: ``{"name", "spells": [[spell, book], ...], "hand_colours", "disappearance",
    "purification", "curse_marker"}`` (all but the name optional). At most one player may hold the
    Curse marker. ValueError says what is wrong.
    """
    if not isinstance(data, Mapping):
        raise ValueError("send an object with a 'players' list")
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not 1 <= len(raw_players) <= GAME.max_players:
        raise ValueError(f"'players' must list 1 to {GAME.max_players} sorcerers")
    tallies = [_tally_from_json(number, raw) for number, raw in enumerate(raw_players, 1)]
    if sum(t.curse_marker for t in tallies) > 1:
        raise ValueError("only one sorcerer can hold the Curse marker")
    teams = data.get("teams")
    if teams is not None and not (isinstance(teams, list) and all(isinstance(team, list) for team in teams)):
        raise ValueError("'teams' must be a list of lists of player numbers (from 0), or null")
    return tallies, teams
