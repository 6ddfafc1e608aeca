"""Jonathan Strange & Mr Norrell's pages: the year, the fairy, the prestige track and the magicians on the
table; on each seat the move forms the rules allow now and that seat's own secret magicianship ledger.

Everything shown comes from ``rules.view(state, seat)``: another seat's ledger is None there until the
game is over, so no page can show it. Pickers never depend on another seat's secrets either: a feat of
magic to take lists every feat but your own (which feats other magicians hold is secret; the rules
refuse one that is taken), a spell to cast lists every spell. Elements always show as word and glyph,
the Card of Marseilles also with the symbol's name, never as colour alone.

A long list of cards (the invitations and introductions a discard may name) is sent once per page in a
``<template id="jsmn-cards">``; each card select names it in ``data-options`` and keeps the element
groups listed in ``data-only`` (live.js fills it), so five forms do not carry five copies.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from werkzeug.datastructures import MultiDict

from cardgen.catalog import content
from cardgen.catalog.jsmn import JsmnContent
from companion.rules.jsmn.magic import hand_discards, has_connexion
from companion.web.games import last_live_move

from . import GamePages, NewGameFormError
from .jsmn_board import board

GAME: JsmnContent = content("jsmn")
#: A glyph per element, shown beside its word (never alone).
GLYPHS: dict[str, str] = {"birds": "ᐯ", "hills": "⋀", "rain": "☂", "stones": "▮", "trees": "♣", "wind": "≋"}
ELEMENTS: dict[str, dict[str, str]] = {e.id: {"id": e.id, "name": e.name, "symbol": e.symbol_name,
                                              "glyph": GLYPHS.get(e.id, "•")} for e in GAME.elements}
MAGICIANS: dict[str, str] = {m.id: m.name for m in GAME.magicians}
ACTIONS: dict[str, str] = {a.id: a.name for a in GAME.actions}
CONNEXIONS: dict[str, str] = {c.id: c.name for c in GAME.connexion_types}
LOCATIONS: dict[str, str] = {loc.id: loc.name for loc in GAME.map.occupiable}
FEATS = {f.id: f for f in GAME.feats}
SPELLS = {s.id: s for s in GAME.spells}
BOOKS = {b.id: b for b in GAME.books}
NAMED = {n.id: n for n in GAME.named_connexions}
MARSEILLES = {c.id: c for c in GAME.marseilles}
INVITATIONS = {c.id: c for c in GAME.invitations}
INTRODUCTIONS = {c.id: c for c in GAME.introductions}
DIFFICULTIES: tuple[int, ...] = (GAME.tracks.fairy_start, *GAME.tracks.fairy_advanced)
#: Spells whose cast needs more than the spell: the field groups the cast form shows for them.
SPELL_FIELDS: dict[str, str] = {"move_anywhere": "to", "take_feat": "feat", "reuse_book": "book",
                                "uncover_action": "action", "study_any": "elements", "swap_engagement": "card"}
STEPS: dict[str, str] = {"action": "choosing an action", "visits": "visits", "magic": "doing magic"}


def action_name(action: str | None, magician: str | None = None) -> str:
    if action == "unique":
        return next((m.unique_action for m in GAME.magicians if m.id == magician), "unique action")
    if action == "still":
        return "Still the waters"
    return ACTIONS.get(action or "", action or "")


def feat_needs(requires: Mapping[str, int] | tuple[tuple[str, int], ...]) -> list[tuple[dict[str, str], int]]:
    pairs = requires.items() if isinstance(requires, Mapping) else requires
    return [(ELEMENTS[e], n) for e, n in pairs]


def place_text(stack: int) -> str:
    return "on top" if stack == 0 else f"{stack} below the top"


# -- new game -------------------------------------------------------------------------------------

def parse_options(form: MultiDict[str, str], names: list[str]) -> dict[str, Any]:
    """Each seat's magician (by its row on the form) and the difficulty (where the fairy starts)."""
    magicians = []
    for row, name in enumerate(form.getlist("player")[:GAME.max_players], 1):
        if not name.strip():
            continue
        chosen = form.get(f"jsmn-magician-{row}") or GAME.magicians[row - 1].id   # the board order by default
        if chosen not in MAGICIANS:
            raise NewGameFormError(f"Pick a magician for {name.strip()} (player {row}).")
        if chosen in magicians:
            raise NewGameFormError(f"{MAGICIANS[chosen]} is picked twice: each player needs a different magician.")
        magicians.append(chosen)
    try:
        difficulty = int(form.get("jsmn-difficulty", str(GAME.tracks.fairy_start)))
    except ValueError:
        difficulty = -1
    if difficulty not in DIFFICULTIES:
        raise NewGameFormError("Pick where the fairy starts: 0 (usual), 4 (experienced) or 8 (foolhardy).")
    options: dict[str, Any] = {"difficulty": difficulty}
    if magicians and len(magicians) == len(names):
        options["magicians"] = magicians
    return options


# -- the seat's forms -----------------------------------------------------------------------------

@dataclass
class SeatForms:
    headline: str
    my_turn: bool = False
    starting_feats: list[Any] = field(default_factory=list)
    new_year: dict[str, Any] | None = None
    connexion: dict[str, Any] | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    still: bool = False
    moves: list[tuple[str, str]] = field(default_factory=list)
    engagements: list[dict[str, Any]] = field(default_factory=list)
    magic_elements: list[str] = field(default_factory=list)
    books: list[dict[str, Any]] = field(default_factory=list)
    street: bool = False
    free_tokens: list[str] = field(default_factory=list)
    advisor: bool = False
    cast: list[Any] = field(default_factory=list)
    discard_spell: bool = False
    end_turn: dict[str, Any] | None = None
    advice: list[dict[str, Any]] = field(default_factory=list)
    undo_text: str | None = None

    @property
    def needs_cards(self) -> bool:
        return bool(self.magic_elements or self.books or self.street or self.advisor or self.cast)

    @property
    def has_forms(self) -> bool:
        return bool(self.starting_feats or self.new_year or self.connexion or self.actions or self.still
                    or self.moves or self.engagements or self.magic_elements or self.books or self.street
                    or self.free_tokens or self.advisor or self.cast or self.discard_spell or self.end_turn)


def _reachable(state: Any, seat: int) -> list[tuple[str, str]]:
    """(location id, label) the magician's next move may reach, nearest first."""
    here = state.seats[seat].location
    turn = state.turn
    if here is None:
        return [(loc, f"{name} (first move: anywhere)") for loc, name in LOCATIONS.items()]
    steps = GAME.map.steps_from(here)
    coach = turn.coachman and has_connexion(state, seat, "coachman")
    reach = 3 if turn.long_move else 2 if coach else 1
    found = []
    for loc, name in sorted(LOCATIONS.items(), key=lambda item: (steps.get(item[0], 99), item[1])):
        far = steps.get(loc, 99)
        if loc == here:
            continue
        if far <= reach:
            found.append((loc, f"{name} ({far} away)" if far > 1 else name))
        elif turn.kings_roads:   # the form says once that King's Roads reach every place
            found.append((loc, name))
    return found


def _engagements(state: Any, seat: int) -> list[dict[str, Any]]:
    here = state.seats[seat]
    turn = state.turn
    found: list[dict[str, Any]] = []
    if here.invitations:
        found += [{"id": c.id, "kind": "invitation", "name": c.name, "element": ELEMENTS[c.element],
                   "meta": "invitation"}
                  for c in INVITATIONS.values() if c.location == here.location]
    if here.introductions:
        found += [{"id": c.id, "kind": "introduction", "name": c.name, "element": ELEMENTS[c.element],
                   "meta": f"introduction · +{c.prestige} prestige"
                   + ("" if c.location == here.location else f" · {LOCATIONS[c.location]}")}
                  for c in INTRODUCTIONS.values() if turn.teilo or c.location == here.location]
    return found


def _end_turn(state: Any, view: Mapping[str, Any], me: Mapping[str, Any]) -> dict[str, Any]:
    ledger = me["ledger"] or {}
    total = ledger.get("magicianship", 0)
    defeats = view["raven"] and total >= view["fairy"]
    excess = 0 if defeats else hand_discards(state, me["seat"])
    drawn = view["marseilles"]["invitations"] if view["marseilles"] else 0
    return {"raven": view["raven"], "total": total, "defeats": defeats, "excess": excess, "drawn": drawn,
            "invitations": me["invitations"] + drawn, "introductions": me["introductions"]}


def _new_year(state: Any, view: Mapping[str, Any]) -> dict[str, Any]:
    first = not view["marseilles_revealed"]
    unseen: list[str] = []
    if not first:
        unseen = replace(state, book_row=state.book_row[1:],
                         book_discard=state.book_discard + state.book_row[:1]).books_unseen()
    return {"first": first, "cards": [MARSEILLES[c] for c in view["marseilles_left"]],
            "books": [BOOKS[b] for b in unseen], "ask_rows": first and not view["book_row"],
            "ask_named": first and not view["named_row"], "all_books": list(BOOKS.values()),
            "all_named": list(NAMED.values())}


def _connexion(state: Any, view: Mapping[str, Any], me: Mapping[str, Any]) -> dict[str, Any]:
    filled = set(me["connexions"])
    named = [NAMED[n["id"]] for n in view["named_row"] if n["connexion_type"] not in filled]
    return {"types": [(c, name) for c, name in CONNEXIONS.items() if c not in filled], "named": named,
            "reveal": [NAMED[n] for n in state.named_unseen()], "books": view["book_row"],
            "book_reveal": [BOOKS[b] for b in state.books_unseen()]}


def _turn_forms(context: Mapping[str, Any], forms: SeatForms) -> None:
    view, seat, state = context["view"], context["seat"], context["state"]
    me = view["players"][seat]
    turn = view["turn"]
    step = turn["step"]
    forms.headline = f"Your turn in {view['year']}: {STEPS[step]}."
    if turn["pending_connexions"]:
        forms.headline = "You reached a connexion space: choose your connexion first."
        forms.connexion = _connexion(state, view, me)
        return
    if step == "action":
        forms.actions = [{"id": a, "name": action_name(a, me["magician"]),
                          "text": me["unique_text"] if a == "unique" else next(x.text for x in GAME.actions
                                                                              if x.id == a)}
                         for a in (*ACTIONS, "unique") if a not in me["covered"]
                         and (a != "acquire-book" or view["book_row"])]
        forms.still = True
        return
    if step == "visits":
        if turn["moves"] < turn["max_moves"]:
            forms.moves = _reachable(state, seat)
        if turn["engagements"] < turn["max_engagements"] and me["location"]:
            forms.engagements = _engagements(state, seat)
    forms.magic_elements = list(view["available_elements"]) if me["hand_size"] else []
    used = turn["books_used"]
    forms.books = [{"book": BOOKS[b], "element": ELEMENTS[BOOKS[b].element]} for b in me["books"]
                   if used.count(b) < (2 if turn["action"] == "unique" and me["magician"] == "norrell" else 1)] \
        if me["hand_size"] else []
    forms.street = has_connexion(state, seat, "street-magician") and me["hand_size"] >= 2
    forms.free_tokens = list(turn["free_tokens"])
    forms.advisor = has_connexion(state, seat, "advisor") and not turn["advisor_used"] and me["hand_size"] > 0
    forms.discard_spell = me["spells"] > 0
    forms.end_turn = _end_turn(state, view, me)


def build_forms(context: Mapping[str, Any]) -> SeatForms:
    view, seat, rules, names = context["view"], context["seat"], context["rules"], context["names"]
    state = context["state"]
    me = view["players"][seat]
    undo = last_live_move(context["log"], seat)
    if view["over"]:
        return SeatForms(headline="The game is over: every ledger is revealed on the table.", undo_text=undo)
    forms = SeatForms(headline="", advice=rules.advice(state, seat), undo_text=undo)
    if view["phase"] == "setup":
        if me["started"]:
            waiting = [p["name"] for p in view["players"] if not p["started"]]
            forms.headline = f"Waiting for {', '.join(waiting)} to report their starting feats."
        else:
            forms.headline = "Report the three feats of magic you were dealt (only this phone sees them)."
            forms.starting_feats = list(FEATS.values())
        return forms
    if view["phase"] == "preparation":
        forms.headline = f"Preparation for {view['year'] + (1 if view['marseilles_revealed'] else 0)}: " \
                         "reveal the next Card of Marseilles."
        forms.new_year = _new_year(state, view)
    elif view["turn"]["seat"] == seat:
        forms.my_turn = True
        _turn_forms(context, forms)
    else:
        who = view["turn"]["seat"]
        forms.headline = f"{names[who]} is playing ({STEPS[view['turn']['step']]})."
    if me["spells"] and not view["turn"]["pending_connexions"]:
        timing_ok = forms.my_turn and view["turn"]["step"] != "action"
        forms.cast = [s for s in SPELLS.values() if timing_ok or s.timing == "any-time"]
    return forms


def seat_extras(context: Mapping[str, Any]) -> dict[str, Any]:
    forms = build_forms(context)
    view, seat = context["view"], context["seat"]
    own = view["players"][seat]["ledger"] or {}
    mine = {f["id"] for f in own.get("feats", [])} | {f["id"] for f in own.get("completed", [])}
    takeable = [f for f in FEATS.values() if f.id not in mine]
    return {"forms": forms, "takeable_feats": takeable}


def show_invite(context: Mapping[str, Any]) -> bool:
    """The join QR code on a seat page while seats are free and the years have not begun (the table page
    always has it): mid-game the seat page needs the room for its forms."""
    return not all(context["info"]["claimed"]) and not context["view"]["marseilles_revealed"]


# -- the table ------------------------------------------------------------------------------------

def verdict(view: Mapping[str, Any]) -> str | None:
    """The winner in one sentence once the game is over (None before)."""
    if not view["over"]:
        return None
    names = {p["seat"]: p["name"] for p in view["players"]}
    winners = [names[s] for s in view["winners"]]
    if view["reign"] and not winners:
        return "The fairy reigns over England: everyone loses."
    if view["reign"]:
        return f"The fairy reigns; best among you: {' and '.join(winners)}."
    if len(winners) == 1:
        return f"{winners[0]} is the greatest magician of the age!"
    return f"{' and '.join(winners)} share the title of greatest magician of the age."


PAGES = GamePages(
    game="jsmn",
    stylesheet="css/jsmn.css",
    intro="Each magician reports actions, visits and magic; the companion keeps the year, the fairy, the "
          "prestige track and each magician's secret magicianship, on that magician's phone only.",
    first_seat_label="Whose disc is on top of the stack on the wax seal? (plays first in 1806)",
    options_template="pages/jsmn/_options.html",
    parse_options=parse_options,
    table_template="pages/jsmn/_table_live.html",
    seat_template="pages/jsmn/_seat_live.html",
    seat_extras=seat_extras,
    show_invite=show_invite,
    playable=True,
    board=board,
    extra={"elements": ELEMENTS, "magicians": MAGICIANS, "actions": ACTIONS, "connexions": CONNEXIONS,
           "locations": LOCATIONS, "feats": FEATS, "spells": SPELLS, "books": BOOKS, "named": NAMED,
           "invitations": INVITATIONS, "introductions": INTRODUCTIONS, "marseilles": MARSEILLES,
           "action_name": action_name,
           "feat_needs": feat_needs, "place_text": place_text, "verdict": verdict, "difficulties": DIFFICULTIES,
           "spell_fields": SPELL_FIELDS, "steps": STEPS, "game": GAME}
)
