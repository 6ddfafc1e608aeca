"""Jonathan Strange & Mr Norrell: setup, view, score and outcome — the front's own code, re-exported by the package
(``companion.rules.jsmn``, whose docstring describes the game and its view)."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..base import (
    Outcome,
    SetupError,
    check_options,
    check_players,
    check_viewer,
)
from ..base import (
    never_stalled as stalled,  # the Rules hook's default: this game reaches no dead end
)
from ..base import (
    scored_totals as charted_totals,  # the Rules hook's default: the chart plots score's totals
)
from . import SPEC
from .choices import ELEMENT_TEXT, GLYPHS, action_name, choices
from .moves import MOVE_TYPES, apply
from .play import acting_seats, advice, random_legal_move
from .scoring import Pad, Ranking, Standing, calculate, compared_after_reign, rank
from .state import (
    BOOK_VALUE,
    BOOKS,
    ELEMENTS,
    FEAT_NEEDS,
    FEATS,
    GAME,
    GAME_ID,
    LIMITS,
    MAGICIAN_ORDER,
    MAGICIANS,
    MARSEILLES,
    NAMED,
    PUPIL,
    SPELLS,
    STUDY,
    TRACKS,
    JsmnState,
    Seat,
    ledger,
    magicianship,
    state_from_json,
    state_to_json,
)
from .text import describe_move, redact_move

TITLE: str = GAME.title
MIN_PLAYERS: int = GAME.min_players
MAX_PLAYERS: int = GAME.max_players
OPTIONS: dict[str, str] = dict(SPEC.options)

State = JsmnState


def _stack(options: Mapping[str, Any], players: int) -> list[int]:
    """The discs on the wax seal from the top down: option ``stack``, else ``first_seat`` (default 0) on top
    and the others below it in seat order. Both given must agree on the seat on top (a first seat the stack
    contradicts was passed over without a word)."""
    if "stack" in options:
        stack = options["stack"]
        if not isinstance(stack, list) or sorted(stack) != list(range(players)) or \
                any(isinstance(s, bool) for s in stack):
            raise SetupError(f"option 'stack' must list every seat number from 0 to {players - 1} once, top first")
        first = options.get("first_seat", stack[0])
        if isinstance(first, bool) or first != stack[0]:
            raise SetupError(f"option 'first_seat' ({first!r}) and option 'stack' (seat {stack[0]} on top) disagree: "
                             "give the stack alone, or a first seat that is its top")
        return list(stack)
    first = options.get("first_seat", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise SetupError(f"option 'first_seat' must be a seat number from 0 to {players - 1}")
    return [first] + [s for s in range(players) if s != first]


def _pick(option: Any, count: int, known: Mapping[str, Any], what: str) -> tuple[str, ...]:
    if option is None:
        return ()
    if not isinstance(option, list) or not all(isinstance(x, str) and x in known for x in option):
        raise SetupError(f"{what} must be a list of {count} ids from: {', '.join(known)}")
    if len(option) != count or len(set(option)) != count:
        raise SetupError(f"{what} must name {count} different cards")
    return tuple(option)


def setup(players: Sequence[str], options: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> JsmnState:
    """A new game in 1806 (rules jsmn.setup.*): discs stacked on the wax seal, two invitations and two
    introductions in every hand, the fairy at the difficulty's start, rows of books and named connexions."""
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    options = check_options(options, OPTIONS, TITLE, "{\"difficulty\": 4}")
    magicians = options.get("magicians", list(MAGICIAN_ORDER[:len(names)]))
    if not isinstance(magicians, list) or len(magicians) != len(names) or len(set(map(str, magicians))) != len(names) \
            or not all(m in MAGICIANS for m in magicians):
        raise SetupError(f"option 'magicians' must name a different magician for each of the {len(names)} seats "
                         f"({', '.join(MAGICIAN_ORDER)})")
    difficulty = options.get("difficulty", TRACKS.fairy_start)
    if isinstance(difficulty, bool) or difficulty not in TRACKS.difficulties:
        raise SetupError(f"option 'difficulty' must be one of {', '.join(map(str, TRACKS.difficulties))}")
    top_down = _stack(options, len(names))
    arrival = {seat: len(names) - i for i, seat in enumerate(top_down)}
    books = _pick(options.get("books"), LIMITS.available_books, BOOKS, "books")
    named = _pick(options.get("named"), LIMITS.available_named_connexions, NAMED, "named")
    seats = tuple(Seat(magician=str(m), arrival=arrival[s], invitations=LIMITS.start_invitations,
                       introductions=LIMITS.start_introductions) for s, m in enumerate(magicians))
    return JsmnState(players=names, seats=seats, difficulty=int(difficulty), fairy=int(difficulty),
                     book_row=books, named_row=named, clock=len(names))


def stack_place(state: JsmnState, seat: int) -> int:
    """How many discs lie above ``seat``'s on its prestige space (0: on top)."""
    here = state.seats[seat]
    return sum(1 for other in state.seats if other.prestige == here.prestige and other.arrival > here.arrival)


def _ledger_view(seat: Seat) -> dict[str, Any]:
    return {"magicianship": magicianship(seat), "breakdown": ledger(seat),
            "feats": [{"id": fid, "name": FEATS[fid].name, "magicianship": FEATS[fid].magicianship,
                       "requires": dict(FEAT_NEEDS[fid]), "tokens": list(tokens)} for fid, tokens in seat.feats],
            "completed": [{"id": fid, "name": FEATS[fid].name, "magicianship": FEATS[fid].magicianship}
                          for fid in seat.completed],
            "spells_played": [{"id": s, "name": SPELLS[s].name, "magicianship": SPELLS[s].magicianship}
                              for s in seat.spells_played]}


def _player_view(state: JsmnState, s: int, viewer: int | None, over: bool) -> dict[str, Any]:
    seat = state.seats[s]
    magician = MAGICIANS[seat.magician]
    return {"seat": s, "name": state.players[s], "magician": seat.magician, "magician_name": magician.name,
            "unique_action": magician.unique_action, "unique_text": magician.unique_text,
            "prestige": seat.prestige, "stack": stack_place(state, s), "location": seat.location,
            "location_name": GAME.map.location(seat.location).name if seat.location else None,
            "covered": list(seat.covered), "connexions": list(seat.connexions), "named": list(seat.named),
            "books": list(seat.books), "invitations": seat.invitations, "introductions": seat.introductions,
            "hand_size": seat.hand, "spells": seat.spells, "spells_cast": len(seat.spells_played),
            "feats_in_front": len(seat.feats), "feats_completed": len(seat.completed), "started": seat.started,
            "ledger": _ledger_view(seat) if over or viewer == s else None}


TURN_KEYS: tuple[str, ...] = ("seat", "step", "action", "moves", "max_moves", "engagements", "max_engagements",
                              "kings_roads", "coachman", "long_move", "borrowed", "books_used", "advisor_used",
                              "free_tokens", "teilo", "pending_connexions")


def _turn_view(state: JsmnState) -> dict[str, Any]:
    t = state.turn
    if t is None:
        return dict.fromkeys(TURN_KEYS)
    return {"seat": t.seat, "step": t.step, "action": t.action, "moves": t.moves, "max_moves": t.max_moves,
            "engagements": t.engagements, "max_engagements": t.max_engagements, "kings_roads": t.kings_roads,
            "coachman": t.coachman and (state.seats[t.seat].has("coachman") or t.borrowed == "coachman"),
            "long_move": t.long_move, "borrowed": t.borrowed, "books_used": list(t.books_used),
            "advisor_used": t.advisor_used, "free_tokens": list(t.free_tokens), "teilo": t.teilo,
            "pending_connexions": t.pending}


def _element_sources(state: JsmnState) -> dict[str, str]:
    """Why each element may be placed now: the card of Marseilles, the study action, the unique action, a spell."""
    card, turn = state.card, state.turn
    sources: dict[str, str] = {}
    for element in state.available_elements():
        if card is not None and element in card.elements:
            sources[element] = "marseilles"
        elif turn is not None and turn.action in STUDY and element in STUDY[turn.action]:
            sources[element] = "study"
        elif turn is not None and turn.action == "unique" and element == turn.elements[0]:
            sources[element] = "unique"
        else:
            sources[element] = "spell"
    return sources


def view(state: JsmnState, seat: int | None = None) -> dict[str, Any]:
    """The state as ``seat`` may see it (``None``: the table); the keys are listed in the module docstring."""
    check_viewer(state, seat)
    result = outcome(state)
    card = state.card
    return {
        "game": GAME_ID, "title": TITLE, "phase": state.phase, "you": seat, "over": result.over,
        "winner": result.winner, "winners": list(result.winners), "result": result.reason if result.over else None,
        "year": state.year, "first_year": TRACKS.first_year, "last_year": TRACKS.last_year,
        "raven_years": list(TRACKS.raven_years), "raven": state.year in TRACKS.raven_years,
        "prepared": state.prepared, "fairy": state.fairy, "difficulty": state.difficulty,
        "defeated_by": state.defeated_by, "reign": state.phase == "over" and state.defeated_by is None,
        "marseilles": None if card is None else {"id": card.id, "name": card.name, "english": card.english,
                                                 "strength": card.strength, "invitations": card.invitations,
                                                 "elements": list(card.elements)},
        "marseilles_revealed": list(state.marseilles),
        "marseilles_left": [c for c in MARSEILLES if c not in state.marseilles],
        "available_elements": list(state.available_elements()), "element_sources": _element_sources(state),
        # the supply moves back when a (hidden) feat is completed: shown only once every ledger is revealed
        # (rule jsmn.companion.feat-refusals)
        "supply": state.supply() if result.over else None,
        "book_row": [{"id": b, "name": BOOKS[b].name, "form": BOOKS[b].form, "element": BOOKS[b].element,
                      "text": BOOKS[b].text} for b in state.book_row],
        "named_row": [{"id": n, "name": NAMED[n].name, "connexion_type": NAMED[n].connexion_type,
                       "text": NAMED[n].text} for n in state.named_row],
        "order": state.order(), "still_to_play": state.still_to_play() if state.phase == "turn" else [],
        "turn": _turn_view(state),
        "players": [_player_view(state, s, seat, result.over) for s in range(len(state.players))],
    }


def standings(state: JsmnState) -> list[Standing]:
    return [Standing(name, magicianship(state.seats[s]), state.seats[s].prestige, stack_place(state, s))
            for s, name in enumerate(state.players)]


def score(state: JsmnState) -> list[dict[str, Any]]:
    """Before the end only prestige (magicianship is secret); once over, magicianship with its breakdown."""
    if state.phase != "over":
        return [{"seat": s, "name": name, "total": state.seats[s].prestige,
                 "breakdown": [{"cause": "Prestige (magicianship stays secret until the end)",
                                "points": state.seats[s].prestige}]}
                for s, name in enumerate(state.players)]
    return [{"seat": s, "name": name, "total": magicianship(state.seats[s]),
             "breakdown": [{"cause": row["cause"], "points": row["points"]} for row in ledger(state.seats[s])]}
            for s, name in enumerate(state.players)]


def outcome(state: JsmnState) -> Outcome:
    """Over at a defeat or once 1817 ends: highest magicianship, then prestige, then the disc on top.
    Undefeated after 1817 the fairy reigns: nobody wins (the reason still compares magicianship; at advanced
    difficulty everyone loses), as the quick calculator says too."""
    if state.phase != "over":
        return Outcome(over=False)
    ranking: Ranking = rank(standings(state))
    places = ranking.places  # every place below the first is set as the first is (after a reign too)
    if state.defeated_by is not None:
        who = state.players[state.defeated_by]
        reason = f"{who} defeated the fairy ({state.fairy}); {ranking.reason}"
    else:  # nobody wins, but the table may still compare (the reason names the best magician)
        compared, rule = compared_after_reign(ranking)
        if state.difficulty:
            reason = (f"The fairy reigns over England after {TRACKS.last_year}: with advanced difficulty everyone "
                      f"loses; compared: {compared}")
        else:
            reason = (f"The fairy reigns over England after {TRACKS.last_year}: nobody is the greatest magician of "
                      f"the age; compared: {compared}")
        return Outcome(over=True, winner=None, winners=(), reason=reason, rule=rule, places=places)
    winners = ranking.winners
    rule = "jsmn.end.tie" if ranking.decided_by in ("prestige", "stack") else None  # (the rulebook's tie-break)
    return Outcome(over=True, winner=winners[0] if len(winners) == 1 else None, winners=winners, reason=reason,
                   rule=rule, places=places)


__all__ = [
    "GAME_ID", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "MOVE_TYPES", "OPTIONS", "State", "JsmnState",
    "setup", "apply", "view", "score", "outcome", "advice", "redact_move", "describe_move", "state_to_json",
    "state_from_json", "random_legal_move", "choices", "acting_seats", "standings", "stack_place", "rank", "Standing",
    "ELEMENTS", "ELEMENT_TEXT", "GLYPHS", "action_name",
    # the calculator's (companion/web/calc/jsmn.py): the scoring pad and what counts on it
    "Pad", "calculate", "compared_after_reign", "BOOK_VALUE", "PUPIL", "SPELLS", "GAME", "stalled", "charted_totals",
]
