"""Mandragora: setup, view, score and outcome — the front's own code, re-exported by the package
(``companion.rules.mandragora``, whose docstring describes the game and its view)."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..base import (
    Outcome,
    SetupError,
    TeamTotal,
    as_read,
    check_options,
    check_players,
    check_viewer,
    first_seat_option,
    places_by,
    sentence,
)
from ..base import (
    never_stalled as stalled,  # the Rules hook's default: this game reaches no dead end
)
from ..base import (
    scored_totals as charted_totals,  # the Rules hook's default: the chart plots score's totals
)
from . import SPEC
from .cast import (  # score by photo's (companion/web/photo/mandragora.py)
    ALL_EFFECT_FIELDS,
    EFFECT_FIELDS,
)
from .choices import choices
from .moves import MOVE_TYPES, apply, available_colours, colour_conflict, pending_choice
from .play import acting_seats, advice, random_legal_move
from .scoring import (
    DecidedBy,  # the calculator's (companion/web/calc/mandragora.py)
    PlayerTally,
    Result,
    final_scores,
)
from .state import (
    GAME,
    GAME_ID,
    INGREDIENT_COLOURS,
    ITEMS,
    MANDRAKE,
    REMOVED,
    SHOP_COUNT,
    SPELL_CARDS,
    MandragoraState,
    state_from_json,
    state_to_json,
)
from .text import describe_move, plural, redact_move

TITLE: str = GAME.title
MIN_PLAYERS: int = GAME.min_players
MAX_PLAYERS: int = GAME.max_players
OPTIONS: dict[str, str] = dict(SPEC.options)

State = MandragoraState


def _circle(option: Any, rng: random.Random | None) -> tuple[str, ...]:
    start = GAME.start_shop.id
    if option is None:
        return GAME.circle_order
    if option == "random":
        rest = [s for s in GAME.circle_order if s != start]
        (rng or random.Random()).shuffle(rest)
        return (start, *rest)
    if not isinstance(option, (list, tuple)) or not all(isinstance(s, str) for s in option):
        raise SetupError("circle must be a list of the 10 shop ids clockwise from the start tile, or \"random\"")
    try:
        ids = tuple(GAME.shop(s.strip()).id for s in option)
    except KeyError as exc:
        raise SetupError(f"circle: {exc.args[0] if exc.args else 'unknown shop'}") from None
    if sorted(ids) != sorted(GAME.circle_order):
        raise SetupError(f"circle must name each of the {SHOP_COUNT} shops exactly once")
    if ids[0] != start:
        raise SetupError(f"circle must start with the start tile, {GAME.start_shop.name} ({start})")
    return ids


def setup(players: Sequence[str], options: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> MandragoraState:
    """A new game: cards removed for the player count, a mandrake in each hand, one card at every shop
    but the start tile (where the Assistant stands), the rest in the deck, full spell stacks."""
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    options = check_options(options, OPTIONS, TITLE, "{\"first_seat\": 0}")
    first = first_seat_option(options, len(names))
    teams = options.get("teams", False)
    if not isinstance(teams, bool):
        raise SetupError("teams must be true or false")
    if teams and len(names) != GAME.team_players:
        raise SetupError(f"the team variant is for exactly {GAME.team_players} sorcerers, not {len(names)}")
    circle = _circle(options.get("circle"), rng)
    seats = len(names)
    stocked = SHOP_COUNT - 1
    deck = len(ITEMS) - len(REMOVED[seats]) - seats * GAME.mandrakes_per_player - stocked
    return MandragoraState(
        players=names, first_seat=first, teams=teams, circle=circle, phase="play", assistant=0,
        shop_cards=(0,) + (1,) * stocked, deck_count=deck, hand_counts=(GAME.mandrakes_per_player,) * seats,
        scrolls=((),) * seats, casts=((),) * seats, dropped=(False,) * seats, turn_seat=first,
        hand_notes=(None,) * seats, reveals=(None,) * seats,
    )


def _spell_rows(state: MandragoraState, seat: int) -> list[dict[str, Any]]:
    rows = []
    for c in state.casts[seat]:
        card = GAME.card(c.spell)
        spell = GAME.spell_of(card)
        rows.append({"spell": c.spell, "name": spell.name, "value": card.value, "book": c.book,
                     "book_value": c.book_value, "ingredients": list(c.ingredients), "kind": spell.kind})
    return rows


def _pending_view(state: MandragoraState) -> dict[str, Any] | None:
    if not state.pending:
        return None
    first = state.pending[0]
    asked = pending_choice(state)
    title = asked["title"] if asked is not None else None
    if first.kind == "curse_marker":
        return {"kind": "curse_marker", "chooser": first.seat, "candidates": list(first.candidates), "title": title}
    return {"kind": "team_help", "seat": first.seat, "partner": first.partner, "title": title}


def view(state: MandragoraState, seat: int | None = None) -> dict[str, Any]:
    """The state as ``seat`` may see it (``None``: the table): only your own note and hand colours."""
    check_viewer(state, seat)
    result = outcome(state)
    everyone_revealed = state.all_revealed()
    players = []
    for s, name in enumerate(state.players):
        own = s == seat
        reveal = state.reveals[s]
        players.append({
            "seat": s, "name": name, "hand_count": state.hand_counts[s], "scrolls": list(state.scrolls[s]),
            "curses": state.curses(s), "spells": _spell_rows(state, s), "swiftness": state.swiftness(s),
            "dropped_out": state.dropped[s], "revealed": reveal is not None,
            "hand_note": list(state.hand_notes[s] or ()) if own and state.hand_notes[s] is not None else None,
            "hand_colours": list(reveal) if reveal is not None and (own or everyone_revealed) else None,
        })
    turn = state.turn_seat
    return {
        "game": GAME_ID, "phase": state.phase,
        "turn": {"seat": turn, "number": state.turn_number, "extra_turn": state.extra_turn},
        "pending": _pending_view(state), "assistant": state.assistant,
        "move_range": state.move_range(turn) if turn is not None else GAME.move_range,
        "shops": [{"index": i, "id": shop_id, "name": GAME.shop(shop_id).name, "time": GAME.shop(shop_id).time,
                   "start": GAME.shop(shop_id).start, "cards": state.shop_cards[i], "assistant": i == state.assistant}
                  for i, shop_id in enumerate(state.circle)],
        "deck_count": state.deck_count,
        "spell_stacks": [{"value": value, "cards": state.spells_left(value)}
                         for value in range(GAME.spell_values[0], GAME.spell_values[1] + 1)],
        "curse_holder": state.curse_holder,
        "countdown": None if state.countdown_seat is None else {"seat": state.countdown_seat,
                                                                "marker": state.countdown_marker},
        "teams": [[0, 2], [1, 3]] if state.teams else None,
        "players": players, "you": seat, "over": result.over, "winner": result.winner, "winners": list(result.winners),
        # every hand shown, but they do not add up (mandragora.end.colour-count): why, for every phone
        "conflict": None if result.over else (result.reason or None),
    }


def tallies(state: MandragoraState) -> list[PlayerTally]:
    """Each seat's score-pad line; hand colours stay None until every seat has revealed."""
    revealed = state.all_revealed()
    found = []
    for s, name in enumerate(state.players):
        spells = [GAME.spell_of(GAME.card(c.spell)).id for c in state.casts[s]]
        reveal = state.reveals[s]
        found.append(PlayerTally(
            name=name, spells=tuple((GAME.card(c.spell).value or 0, c.book_value) for c in state.casts[s]),
            hand_colours=len(reveal) if revealed and reveal is not None else None,
            disappearance=spells.count("disappearance"), purification="purification" in spells,
            curse_marker=state.curse_holder == s, spell_labels=tuple(c.label() for c in state.casts[s]),
            colour_names=tuple(reveal) if revealed and reveal is not None else ()))
    return found


def final_result(state: MandragoraState) -> Result:
    return final_scores(tallies(state), [[0, 2], [1, 3]] if state.teams else None)


def score(state: MandragoraState) -> list[dict[str, Any]]:
    """Every seat's total with its breakdown: spells, the Curse marker, and (once revealed) colours in hand."""
    result = final_result(state)
    return [{"seat": s, "name": p.name, "total": p.total,
             "breakdown": [{"cause": cause, "points": points} for cause, points in p.breakdown]}
            for s, p in enumerate(result.players)]


def _reason(names: list[str], totals: list[int], spells: list[int], winners: tuple[int, ...], decided_by: str) -> str:
    """Why these won, e.g. 'Ann wins with 14 points' or 'Ann and Ben tie on 11 points; Ann cast more spells'."""
    who = " and ".join(names[i] for i in winners)
    best = totals[winners[0]]
    if decided_by == "score":
        return f"{who} win{'s' * (len(winners) == 1)} with {plural(best, 'point')}"
    tied = " and ".join(names[i] for i, total in enumerate(totals) if total == best)
    if decided_by == "spells cast":
        return f"{tied} tie on {plural(best, 'point')}; {who} cast more spells ({spells[winners[0]]})"
    return f"{who} share the win: {plural(best, 'point')} and {plural(spells[winners[0]], 'spell')} each"


def outcome(state: MandragoraState) -> Outcome:
    """Over once every seat has revealed its hand and the hands add up: most points, then more spells cast, else
    shared. Every hand shown but a colour shown more often than it has cards left: not over, and the reason
    says which colour (every hand is public then), until whoever revealed wrongly corrects it."""
    if state.phase != "over":
        conflict = colour_conflict(state)
        if conflict is not None:
            return Outcome(over=False, reason=sentence(conflict), rule="mandragora.end.colour-count")
        return Outcome(over=False)
    result = final_result(state)
    teams: tuple[TeamTotal, ...] = ()
    if result.teams is not None:
        seats = tuple(sorted(s for team in result.winners for s in result.teams[team].members))
        names = ["team " + " & ".join(state.players[s] for s in team.members) for team in result.teams]
        reason = _reason(names, [t.total for t in result.teams], [t.spells_cast for t in result.teams],
                         result.winners, result.decided_by)
        teams = tuple(TeamTotal(tuple(team.members), team.total) for team in result.teams)
        team_of = {s: team for team in result.teams for s in team.members}
        places = places_by([(-team_of[s].total, -team_of[s].spells_cast) for s in range(len(state.players))])
        # (partners share their team's place, as do teams tied on both)
    else:
        seats = result.winners
        reason = _reason(list(state.players), [p.total for p in result.players],
                         [p.spells_cast for p in result.players], seats, result.decided_by)
        places = places_by([(-p.total, -p.spells_cast) for p in result.players])  # below the first as for it
    rule = settled_by(result.teams is not None, result.decided_by)
    if rule is not None:
        reason = as_read(reason, GAME.rule(rule))
    return Outcome(over=True, winner=seats[0] if len(seats) == 1 else None, winners=seats, reason=reason, rule=rule,
                   teams=teams, places=places)


def settled_by(teams: bool, decided_by: str) -> str | None:
    """The rule that settled a tie (None: the most points won): the rulebook's spells tie-break; a shared win
    where spells tie too, or any team tie, is the project's own reading (mandragora.score.shared, .team.tie)."""
    if decided_by == "score":
        return None
    if teams:
        return "mandragora.team.tie"
    return "mandragora.score.winner" if decided_by == "spells cast" else "mandragora.score.shared"


__all__ = [
    "GAME_ID", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "MOVE_TYPES", "OPTIONS", "State", "MandragoraState",
    "setup", "apply", "view", "score", "outcome", "advice", "redact_move", "describe_move", "state_to_json",
    "state_from_json", "random_legal_move", "choices", "acting_seats", "tallies", "final_result",
    "available_colours", "pending_choice", "INGREDIENT_COLOURS", "MANDRAKE", "SPELL_CARDS", "PlayerTally", "Result", "final_scores", "stalled", "charted_totals",
]
__all__ += ["DecidedBy", "settled_by"]  # the calculator's, on the front
__all__ += ["ALL_EFFECT_FIELDS", "EFFECT_FIELDS"]  # score by photo's, on the front
