"""Wychwood: the test game, a whole tiny game in one module and its data, added as a newcomer adds one.

Two players take turns taking a card from nine laid out in a 3×3 grid; whoever holds three of one row,
column or diagonal wins, and an empty grid with no line is a draw. Each seat may note privately which
card it means to take next (a secret the other phone never sees), so the game has hidden information.

Everything the game is lives here and in ``data/`` beside this file (``game.toml`` says its title and
player counts, ``cards.toml`` its nine cards, ``rules.toml`` its rules; no ``notes.toml``: no rulebook
slips): its card-data declaration (``CATALOG``), its print kit (``KIT``: one deck), its companion
declaration (``SPEC``: the generic pages, whose seat page renders :func:`choices`), its rules front and
what the shared tests need to know (``TEST_TRAITS``). It is found as an extra game: ``create_app({"EXTRA_GAMES":
["toygame"]})`` or ``COMPANION_EXTRA_GAMES=toygame`` (``tests/`` is on the path while the tests run).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from game_traits import (  # the shared tests' declaration (tests/ is on the path wherever this game is)
    GameTraits,
    Moves,
    SecretModel,
)
from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog import GameCatalog, content
from cardgen.catalog.base import (
    CardAndRuleLookups,
    DataError,
    DataNote,
    Provenance,
    Reader,
    RuleEntry,
    load_notes,
    load_rules,
    player_range,
)
from cardgen.catalog.versions import card_version
from cardgen.render.imposition import ImpositionSettings, impose, sheet_label
from cardgen.render.options import ResolvedOptions
from cardgen.render.pdf import new_canvas, pt
from cardgen.render.print_specs import CardSize
from cardgen.render.qr import QrMatrix, card_url, draw_qr, qr_matrix
from cardgen.render.registry import Document, PrintKit, Progress
from companion.rules.base import (
    IllegalMove,
    Outcome,
    SetupError,
    check_options,
    check_players,
    check_viewer,
    referee,
)
from companion.rules.base import never_stalled as stalled  # noqa: F401  (the Rules hooks' typed defaults)
from companion.rules.base import scored_totals as charted_totals  # noqa: F401
from companion.rules.choices import Choice, Field, Option
from companion.rules.spec import TEXT, GameSpec, MoveSpec

GAME_ID = "wych-wood"  # an id with a hyphen: URLs and rule ids keep it, module names cannot
DATA = Path(__file__).parent / "data"


# -- the card-data layer: the cards and rules from data/ ---------------------------------------------------

@dataclass(frozen=True)
class Card:
    id: str
    number: int
    name: str
    row: int
    column: int
    provenance: Provenance = "authored"
    notes: tuple[DataNote, ...] = ()


@dataclass(frozen=True)
class GridContent(CardAndRuleLookups[Card]):
    game: str
    title: str
    min_players: int
    max_players: int
    cards: tuple[Card, ...]
    rules: tuple[RuleEntry, ...]
    notes: tuple[DataNote, ...]

    def __post_init__(self) -> None:
        self._index_lookups({key: card for card in self.cards for key in (card.id, card.name.casefold())})

    def card_facts(self, card: Card) -> list[tuple[str, str]]:
        return [("Place in the grid", f"row {card.row}, column {card.column}")]

    def card_rules(self, card: Card) -> list[RuleEntry]:
        return [rule for rule in self.rules if rule.id in (f"{GAME_ID}.claim.free", f"{GAME_ID}.end.over")]


def load(root: Path) -> GridContent:
    """Read and check ``root``'s game.toml, cards.toml, rules.toml (and notes.toml, if there is one)."""
    game_r, card_r, rules_r, note_r = (Reader(root, name) for name in ("game.toml", "cards.toml", "rules.toml",
                                                                          "notes.toml"))
    game = game_r.load()
    min_p, max_p = player_range(game_r, game, default_max=2)
    cards: list[Card] = []
    places: set[tuple[int, int]] = set()
    for i, rec in enumerate(card_r.records(card_r.load(), "card"), 1):
        label = f"card #{i}"
        card_r.unknown_fields(rec, label, ("id", "number", "name", "row", "column", "provenance"))
        card = Card(id=card_r.text(rec, label, "id"), number=card_r.integer(rec, label, "number", minimum=1),
                    name=card_r.text(rec, label, "name"), row=card_r.integer(rec, label, "row", minimum=1, maximum=3),
                    column=card_r.integer(rec, label, "column", minimum=1, maximum=3),
                    provenance=card_r.provenance(rec, label))
        if (card.row, card.column) in places:
            card_r.problem(label, "row", f"a second card at row {card.row}, column {card.column}")
        places.add((card.row, card.column))
        cards.append(card)
    if not card_r.problems and len(cards) != 9:
        card_r.problem("", "card", f"the grid takes 9 cards, not {len(cards)}")
    rules, notes = load_rules(rules_r, GAME_ID), load_notes(note_r)
    problems = [p for reader in (game_r, card_r, rules_r, note_r) for p in reader.problems]
    if problems:
        raise DataError(problems)
    return GridContent(game=GAME_ID, title=game_r.text(game, "game", "title"), min_players=min_p,
                       max_players=max_p, cards=tuple(cards), rules=rules, notes=notes)


CATALOG = GameCatalog(id=GAME_ID, load=load, counted=("cards", "rules"), data=DATA)


# -- the print kit: one deck ------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardFront:
    card: Card
    size: CardSize
    qr: QrMatrix

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        w, h = pt(self.size.width), pt(self.size.height)
        canvas.setFont("Helvetica-Bold", 16)
        canvas.drawCentredString(w / 2, h - pt(14), self.card.name)
        canvas.setFont("Helvetica", 9)
        canvas.drawCentredString(w / 2, h - pt(22), f"row {self.card.row} · column {self.card.column}")
        draw_qr(canvas, self.qr, (w - pt(24)) / 2, pt(6), pt(24))


@dataclass(frozen=True)
class CardBack:
    size: CardSize

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        canvas.setFont("Helvetica-Bold", 20)
        canvas.drawCentredString(pt(self.size.width) / 2, pt(self.size.height) / 2, "9")


def render_deck(grid: GridContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    fronts = [CardFront(card, resolved.card_size, qr_matrix(card_url(resolved.base_url, grid.game, card.id,
                                                                      card_version(card))))
              for card in sorted(grid.cards, key=lambda c: c.number)]
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height, title=f"{grid.title}: deck",
                        subject=f"{len(fronts)} cards")
    impose(canvas, resolved.card_layout(), resolved.specs.sheet, fronts, [CardBack(resolved.card_size)] * len(fronts),
           ImpositionSettings.from_options(resolved.options), sheet_label(grid.title), on_card=progress)
    canvas.save()


KIT = PrintKit(GAME_ID, (Document("deck", "deck.pdf", "the nine cards, with backs",
                                  work=lambda grid: len(grid.cards), render=render_deck),))


# -- the companion's declaration and the rules front -----------------------------------------------------

SPEC = GameSpec(
    id=GAME_ID,
    moves=(MoveSpec("claim", "Take a card from the grid.", {"card": TEXT}),
           MoveSpec("plan", "Note privately which card you mean to take next.", {"card": TEXT}, any_seat=True,
                    private_note=True)),
    rules_module=__name__, options={"first_seat": "Who takes first (a seat number)."}, print_kit=GAME_ID,
    hidden_information=True, over_rule=f"{GAME_ID}.end.over", turn_rule=f"{GAME_ID}.turn.order",
)
# (the generic pages: no pages module; its seat page renders choices(), its card pages the catalog's facts)

MOVE_TYPES = SPEC.move_types
OPTIONS = dict(SPEC.options)


@cache
def _grid() -> GridContent:
    return content(GAME_ID)  # from the data folder the companion serves, on first use


def __getattr__(name: str) -> Any:  # TITLE, MIN_PLAYERS, MAX_PLAYERS: the data's, read on first use
    facts = {"TITLE": "title", "MIN_PLAYERS": "min_players", "MAX_PLAYERS": "max_players"}
    if name in facts:
        return getattr(SPEC, facts[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    held: tuple[tuple[str, ...], ...]      # per seat: the cards taken, in order
    turn: int = 0
    plans: tuple[str, ...] = ()             # per seat: its private plan ("" for none)
    winner: int | None = None
    line: tuple[str, ...] = field(default=())


def _lines() -> list[frozenset[str]]:
    at = {(card.row, card.column): card.id for card in _grid().cards}
    rows = [[(r, c) for c in (1, 2, 3)] for r in (1, 2, 3)]
    columns = [[(r, c) for r in (1, 2, 3)] for c in (1, 2, 3)]
    diagonals = [[(i, i) for i in (1, 2, 3)], [(i, 4 - i) for i in (1, 2, 3)]]
    return [frozenset(at[p] for p in line) for line in (*rows, *columns, *diagonals)]


def _free(state: State) -> list[str]:
    taken = {card for cards in state.held for card in cards}
    return [card.id for card in _grid().cards if card.id not in taken]


def setup(players: Sequence[str], options: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> State:
    names = check_players(players, SPEC.min_players, SPEC.max_players)
    first = check_options(options, OPTIONS, SPEC.title, '{"first_seat": 0}').get("first_seat", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(names):
        raise SetupError(f"The first seat (first_seat) must be a seat number from 0 to {len(names) - 1}")
    return State(players=names, held=((),) * len(names), turn=first, plans=("",) * len(names))


def _card_id(ref: Any) -> str:
    if ref is not None and not isinstance(ref, str):  # not a name: the referee refuses the field by its kind
        raise TypeError(f"a card is named by text, not {type(ref).__name__}")
    card = _grid().find_card(ref) if ref is not None else None
    if card is None:
        raise IllegalMove(f"there is no card {ref!r} in the grid", f"{GAME_ID}.claim.free")
    return card.id


def _apply(state: State, seat: int, move: Mapping[str, Any]) -> State:
    card = _card_id(move.get("card"))
    if card not in _free(state):
        raise IllegalMove(f"the {_grid().card(card).name} card has been taken already", f"{GAME_ID}.claim.free")
    if move["type"] == "plan":
        return replace(state, plans=tuple(card if s == seat else p for s, p in enumerate(state.plans)))
    held = tuple((*cards, card) if s == seat else cards for s, cards in enumerate(state.held))
    line = next((tuple(sorted(line)) for line in _lines() if line <= set(held[seat])), ())
    plans = tuple("" if p == card else p for p in state.plans)  # a plan for a taken card lapses
    return replace(state, held=held, plans=plans, turn=(seat + 1) % len(state.players),
                   winner=seat if line else None, line=line)


def _over(state: State) -> str | None:
    if state.winner is not None:
        return f"{state.players[state.winner]} holds a line"
    return None if _free(state) else "the grid is empty"


apply = referee(SPEC, _apply, over=_over, turn=lambda state: state.turn)


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    check_viewer(state, seat)
    return {"game": GAME_ID, "title": SPEC.title, "free": _free(state), "you": seat,
            "turn": {"seat": state.turn},  # whose turn it is, as every view names it (a result's start player)
            "over": _over(state) is not None, "winner": state.winner, "line": list(state.line),
            "plan": state.plans[seat] or None if seat is not None else None,
            "players": [{"seat": s, "name": name, "held": list(state.held[s])} for s, name in enumerate(state.players)]}


def score(state: State) -> list[dict[str, Any]]:
    return [{"seat": s, "name": name, "total": int(s == state.winner),
             "breakdown": [{"cause": "three in a line", "points": 1}] if s == state.winner else []}
            for s, name in enumerate(state.players)]


def outcome(state: State) -> Outcome:
    reason = _over(state)
    if reason is None:
        return Outcome(over=False)
    if state.winner is None:
        return Outcome(over=True, reason=f"{reason}: a draw")
    return Outcome(over=True, winner=state.winner, winners=(state.winner,), reason=reason)


def choices(state: State, seat: int) -> list[Choice]:
    """Take a free card (on this seat's turn), and note a plan (any time before the end)."""
    if _over(state) is not None or not 0 <= seat < len(state.players):
        return []
    free = [Option(card, _grid().card(card).name, card=(GAME_ID, card)) for card in _free(state)]
    offered = [Choice("plan", "Note it", (Field("card", "The card you mean to take next", options=tuple(free)),),
                      title="Your plan (only this phone sees it)", rule=f"{GAME_ID}.plan.private", id="plan",
                      awaited=False)]  # noted at any time: the game waits for no plan
    if seat == state.turn:
        offered.insert(0, Choice("claim", "Take it", (Field("card", "The card you take", options=tuple(free)),),
                                 title="Take a card from the grid", rule=f"{GAME_ID}.turn.order", id="claim"))
    return offered


def advice(state: State, seat: int) -> list[dict[str, Any]]:
    if _over(state) is not None or seat != state.turn:
        return []
    free = _free(state)
    for owner in (seat, 1 - seat):  # complete a line of one's own, else block the other's
        for line in _lines():
            missing = [card for card in line if card not in state.held[owner]]
            if len(missing) == 1 and missing[0] in free:
                return [{"type": "claim", "text": f"Take the {_grid().card(missing[0]).name} card.",
                         "move": {"type": "claim", "card": missing[0]}}]
    return []


def random_legal_move(state: State, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A seat on turn takes a free card two times in five, else notes a plan; a waiting seat notes a plan (of
    a card it does not plan yet): a game of a few dozen moves, secrets and all (tests/game_traits.py)."""
    if _over(state) is not None or not 0 <= seat < len(state.players):
        return None
    free = _free(state)
    if seat == state.turn and rng.random() < 0.4:
        return {"type": "claim", "card": rng.choice(free)}
    other = [card for card in free if card != state.plans[seat]]
    if not other:
        return {"type": "claim", "card": rng.choice(free)} if seat == state.turn else None
    return {"type": "plan", "card": rng.choice(other)}


def redact_move(move: Mapping[str, Any], actor: int, viewer: int | None) -> dict[str, Any]:
    if move.get("type") == "plan" and viewer != actor:
        return {"type": "plan"}
    return dict(move)


def describe_move(move: Mapping[str, Any], actor: int, names: Sequence[str]) -> str:
    who = names[actor] if 0 <= actor < len(names) else f"seat {actor}"
    card = _grid().find_card(str(move.get("card", "")))
    if move.get("type") == "plan":
        return f"{who} noted a plan." if card is None else f"{who} plans to take the {card.name} card."
    return f"{who} took the {card.name if card else '?'} card."


def state_to_json(state: State) -> dict[str, Any]:
    return {"players": list(state.players), "held": [list(cards) for cards in state.held], "turn": state.turn,
            "plans": list(state.plans), "winner": state.winner, "line": list(state.line)}


def state_from_json(data: Mapping[str, Any]) -> State:
    try:
        return State(players=tuple(data["players"]), held=tuple(tuple(cards) for cards in data["held"]),
                     turn=int(data["turn"]), plans=tuple(data["plans"]), winner=data["winner"],
                     line=tuple(data["line"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed {GAME_ID} state: {exc!r}") from None


__all__ = ["CATALOG", "KIT", "SPEC", "GAME_ID", "MOVE_TYPES", "OPTIONS", "State", "setup", "apply", "view",
           "score", "outcome", "advice", "random_legal_move", "redact_move", "describe_move", "state_to_json",
           "state_from_json", "choices", "stalled"]


# -- what the shared tests need to know (tests/game_traits.py) ---------------------------------------------

def _rearrange_hidden(state: State, viewer: int | None, rng: random.Random) -> State | None:
    """Another seat's private plan changed (what ``viewer`` may not see), or None when no free card is left."""
    free = _free(state)
    if not free:
        return None
    seat = rng.choice([s for s in range(len(state.players)) if s != viewer])
    return replace(state, plans=tuple(rng.choice(free) if s == seat else p for s, p in enumerate(state.plans)))


def _plan_sentences(history: list[Any], moves: Moves, viewer: int | None) -> set[str]:
    """What another seat's plans would say if told: "Player 2 plans to take the Ivy card." (the card alone is no
    secret: every free card is on the table)."""
    names = list(history[-1].players)
    return {describe_move(move, actor, names) for actor, move in moves if move["type"] == "plan" and actor != viewer}


def _twin_swap(history: list[Any], moves: Moves, seat: int) -> dict[str, str] | None:
    """The card ``seat`` plans now, exchanged with a free card no move names: both named only in ``seat``'s own
    plans, so the twin game differs in what that seat hides and nothing else."""
    state = history[-1]
    planned = state.plans[seat]
    named = {str(move.get("card")) for actor, move in moves if actor != seat or move["type"] != "plan"}
    unnamed = [card for card in _free(state) if card != planned and card not in named]
    if not planned or planned in named or not unnamed:
        return None
    return {planned: unnamed[0], unnamed[0]: planned}


#: the plan shows on its own seat's phone in the API only (the generic seat page renders the plan form, not the
#: plan); any seat may plan any free card, so a move naming another seat's plan is taken, never refused
TEST_TRAITS = GameTraits(rearrange_hidden=_rearrange_hidden, min_moves_per_game=4, crash_acks_per_round=1,
                         race_min_acknowledged=5, race_min_stale_refusals=1, secret_checkpoints=(6, 12, 16),
                         secret_model=SecretModel(_plan_sentences, _twin_swap, lambda secrets: set(secrets),
                                                  owner_sees_on=("api game",), others_refused=False))
