"""Mandragora's pages: the shop circle, spell stacks and sorcerers on the table; move forms on each seat.

The forms are built from ``rules.view(state, seat)`` — what that phone may know — plus the seat's
own advice (:func:`companion.rules.mandragora.advice`, from its private hand note) and the public
count of cursed scrolls still in play. A form is offered only when the rules allow that move now;
the rules module stays the judge of every detail and answers with a rule id.

Colour is never the only cue: every colour is shown as its word, the symbol the print kit draws
(crystal, flame, …) and a glyph; mandrakes count as white.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from werkzeug.datastructures import MultiDict

from cardgen.catalog import content
from cardgen.catalog.mandragora import WHITE, MandragoraContent
from companion.rules.mandragora.score import PlayerTally, final_scores
from companion.web.seat_forms import last_own_move

from companion.web.setup_checklist import SetupCard, SetupStep, rule_steps, with_cards

from . import GamePages, NewGameFormError

GAME: MandragoraContent = content("mandragora")
MANDRAKE = "mandrake"
#: A glyph per print-kit symbol (shown next to the colour's word and symbol name, never alone).
GLYPHS: dict[str, str] = {"crystal": "◆", "flame": "▲", "leaf": "♣", "flower": "✿", "drop": "●",
                          "pentagram": "★"}
WHITE_GLYPH = "○"
MARKER_TEXT: dict[str, str] = {
    "pending": "The deck is empty: the countdown starts when {who}'s turn comes.",
    "III": "Countdown III: three rounds left, starting with {who}.",
    "II": "Countdown II: two rounds left (the marker is in front of {who}).",
    "final": "Final round: it ends when play comes back to {who}.",
}
TEAM_KINDS: tuple[tuple[str, str], ...] = (
    ("give", "Give {partner} a card of my choice"), ("receive", "Take a card {partner} chooses"),
    ("exchange", "Swap one card each with {partner}"), ("none", "No help this time"))
CIRCLE_CHOICES = ("suggested", "random")
#: What a spell without effect fields does, in a few words, on its choice in the cast form.
EFFECT_NOTES: dict[str, str] = {
    "replication": "play again right away (or give it up)", "swiftness": "the Assistant goes 1 shop further for you",
    "disappearance": "at the end, 1 colour fewer counts", "purification": "at the end, your hand is discarded"}


@dataclass(frozen=True)
class ColourLabel:
    id: str
    name: str
    symbol: str
    glyph: str

    @property
    def text(self) -> str:
        return f"{self.name} ({self.symbol})"


COLOURS: dict[str, ColourLabel] = {
    **{c.id: ColourLabel(c.id, c.name, c.symbol_name, GLYPHS.get(c.symbol, "■")) for c in GAME.colours},
    WHITE: ColourLabel(WHITE, GAME.mandrake_hand_colour, "mandrakes", WHITE_GLYPH),
}
INGREDIENT_COLOURS: tuple[str, ...] = tuple(c.id for c in GAME.colours if c.ingredients)


def scroll_label(card_id: str) -> str:
    curses = GAME.card(card_id).curses
    return f"Cursed scroll ({curses} curse{'s' * (curses != 1)})"


def book_label(book: str) -> str:
    return "Mandrake (as spellbook, 0)" if book == MANDRAKE else GAME.label(GAME.card(book))


def colour_of(book: str) -> ColourLabel:
    return COLOURS[WHITE if book == MANDRAKE else (GAME.card(book).colour or WHITE)]


# -- new game -------------------------------------------------------------------------------------

def parse_options(form: MultiDict[str, str], names: list[str]) -> dict[str, Any]:
    """The team variant (the rules refuse it unless there are 4 sorcerers) and the shop circle."""
    options: dict[str, Any] = {}
    if form.get("teams"):
        options["teams"] = True
    circle = form.get("circle", "suggested")
    if circle not in CIRCLE_CHOICES:
        raise NewGameFormError("Pick the suggested shop circle or let the companion shuffle it.")
    if circle == "random":
        options["circle"] = "random"
    return options


# -- the seat's forms -----------------------------------------------------------------------------

@dataclass
class SeatForms:
    headline: str
    my_turn: bool = False
    seek: list[dict[str, Any]] = field(default_factory=list)
    scroll_max: dict[int, int] = field(default_factory=dict)
    cast: dict[str, Any] | None = None
    decline: bool = False
    drop_out: bool = False
    curse_candidates: list[tuple[int, str]] = field(default_factory=list)
    team_help: list[tuple[str, str]] = field(default_factory=list)
    note: dict[str, Any] | None = None
    reveal: list[ColourLabel] = field(default_factory=list)
    advice: list[dict[str, Any]] = field(default_factory=list)
    undo_text: str | None = None

    @property
    def has_forms(self) -> bool:
        return bool(self.seek or self.cast or self.decline or self.drop_out or self.curse_candidates
                    or self.team_help or self.reveal)


def free_scrolls(state: Any) -> Counter[int]:
    """Cursed scrolls still in the deck or at a shop, per curse value (public: scrolls lie face up)."""
    found: Counter[int] = Counter()
    for card in state.free_scrolls():
        found[card.curses] += 1
    return found


def _cast_form(view: Mapping[str, Any], me: Mapping[str, Any]) -> dict[str, Any] | None:
    hand = me["hand_count"]
    if hand < 2:
        return None   # a spell needs a spellbook and at least one ingredient
    seats = len(view["players"])
    removed = {c.id for c in GAME.removed_for(seats)}
    used_books = {s["book"] for p in view["players"] for s in p["spells"]}
    used: Counter[str] = Counter()
    for p in view["players"]:
        for s in p["spells"]:
            used.update(s["ingredients"])
            used[MANDRAKE] += s["book"] == MANDRAKE
    note = Counter(me["hand_note"] or ())
    books = [{"id": c.id, "label": GAME.label(c), "colour": COLOURS[c.colour or WHITE], "noted": c.id in note}
             for c in GAME.cards_of("spellbook") if c.id not in used_books and c.id not in removed]
    books.sort(key=lambda b: not b["noted"])
    copies = Counter(c.colour for c in GAME.cards_of("ingredient") if c.id not in removed)
    ingredients = [{"colour": COLOURS[colour], "max": min(hand - 1, copies[colour] - used[colour])}
                   for colour in INGREDIENT_COLOURS if copies[colour] - used[colour] > 0]
    mandrakes_left = len(GAME.cards_of("mandrake")) - used[MANDRAKE]
    stacks = {stack["value"]: stack["cards"] for stack in view["spell_stacks"]}
    spells = []
    for spell in GAME.spells:
        values = sorted({GAME.card(c).value or 0 for cards in stacks.values() for c in cards
                         if GAME.card(c).spell == spell.id})
        if values:
            spells.append({"id": spell.id, "name": spell.name, "kind": spell.kind_label,
                           "values_left": values, "note": EFFECT_NOTES.get(spell.id, "")})
    partner = (me["seat"] + 2) % 4 if view["teams"] else None
    opponents = [(p["seat"], p["name"], p["hand_count"]) for p in view["players"]
                 if p["seat"] not in (me["seat"], partner)]
    return {
        "texts": {spell.id: spell.text for spell in GAME.spells},
        "books": books, "ingredients": ingredients, "mandrake": mandrakes_left > 0, "spells": spells,
        "powers": [(value, len(stacks.get(value, []))) for value in sorted(stacks)],
        "own_scrolls": [(s, scroll_label(s)) for s in me["scrolls"]],
        "opponents": [(s, name) for s, name, _ in opponents],
        "opponents_with_cards": [(s, f"{name} ({count} in hand)") for s, name, count in opponents if count],
        "shops_with_cards": [(shop["index"], f"{shop['name']} ({shop['time']}, {shop['cards']} "
                              f"card{'s' * (shop['cards'] != 1)})") for shop in view["shops"] if shop["cards"]],
    }


def _note_form(view: Mapping[str, Any], me: Mapping[str, Any]) -> dict[str, Any]:
    note = list(me["hand_note"] or [])
    counts: Counter[str] = Counter()
    for token in note:
        if token == MANDRAKE or token.startswith("mandrake-"):
            counts[MANDRAKE] += 1
        elif token in INGREDIENT_COLOURS:
            counts[token] += 1
        elif token.startswith("ingredient-"):
            counts[GAME.card(token).colour or ""] += 1
    removed = {c.id for c in GAME.removed_for(len(view["players"]))}
    used_books = {s["book"] for p in view["players"] for s in p["spells"]}
    hand = me["hand_count"]
    groups: dict[str, list[dict[str, Any]]] = {}   # spellbooks still possible in a hand, by colour
    for card in GAME.cards_of("spellbook"):
        if card.id not in removed and card.id not in used_books:
            groups.setdefault(card.colour or WHITE, []).append(
                {"id": card.id, "value": card.value, "checked": card.id in note})
    copies = Counter(c.colour for c in GAME.cards_of("ingredient") if c.id not in removed)
    rows = [{"colour": COLOURS[colour], "count": counts[colour], "max": min(hand, copies[colour])}
            for colour in INGREDIENT_COLOURS if copies[colour]]
    mandrakes_left = len(GAME.cards_of("mandrake")) - sum(
        (s["book"] == MANDRAKE) + s["ingredients"].count(MANDRAKE) for p in view["players"] for s in p["spells"])
    return {"books": [(COLOURS[colour], group) for colour, group in groups.items()], "ingredients": rows,
            "mandrakes": counts[MANDRAKE], "mandrake_max": min(hand, mandrakes_left), "hand": hand,
            "noted": len(note), "text": ", ".join(_note_word(token) for token in note)}


def _note_word(token: str) -> str:
    if token == MANDRAKE or token.startswith("mandrake-"):
        return "mandrake"
    if token in COLOURS:
        return f"{COLOURS[token].name} ingredient"
    card = GAME.find_card(token)
    return GAME.label(card) if card is not None else token


def build_forms(context: Mapping[str, Any]) -> SeatForms:
    view, seat, rules, names = context["view"], context["seat"], context["rules"], context["names"]
    me = view["players"][seat]
    state = context["state"]
    undo = last_own_move(context["log"], seat)
    note = _note_form(view, me) if not view["over"] else None
    if view["over"]:
        return SeatForms(headline="The game is over: see the final scores on the table.", undo_text=undo)
    if view["phase"] == "reckoning":
        if me["revealed"]:
            waiting = [p["name"] for p in view["players"] if not p["revealed"]]
            return SeatForms(headline=f"Hand revealed. Waiting for {', '.join(waiting)} to reveal.",
                             note=note, undo_text=undo)
        colours = rules.available_colours(state)
        return SeatForms(headline="The game has ended: tick the colours left in your hand.", note=note,
                         reveal=[COLOURS[c] for c in colours], undo_text=undo)
    pending = view["pending"]
    if pending and pending["kind"] == "curse_marker":
        chooser = pending["chooser"]
        if chooser != seat:
            return SeatForms(headline=f"Waiting for {names[chooser]} to pass the Curse marker.", note=note,
                             undo_text=undo)
        return SeatForms(headline="A tie for the most curses: pass the Curse marker to one of the tied sorcerers.",
                         curse_candidates=[(s, names[s]) for s in pending["candidates"]], note=note, undo_text=undo)
    if pending and pending["kind"] == "team_help":
        helper, partner = pending["seat"], pending["partner"]
        if helper != seat:
            return SeatForms(headline=f"Waiting for {names[helper]} to choose how to help {names[partner]}.",
                             note=note, undo_text=undo)
        return SeatForms(headline=f"You received cursed scrolls: you may help your partner {names[partner]}.",
                         team_help=[(kind, text.format(partner=names[partner])) for kind, text in TEAM_KINDS],
                         note=note, undo_text=undo)
    turn = view["turn"]
    if me["dropped_out"]:
        return SeatForms(headline="You have dropped out: you take no more turns.", note=note, undo_text=undo)
    if turn["seat"] != seat:
        return SeatForms(headline=f"{names.get(turn['seat'], 'Nobody')}'s turn. Your turn comes later.", note=note,
                         undo_text=undo)
    reach = view["move_range"]
    circle = view["shops"]
    seek = []
    for steps in range(1, reach + 1):
        shop = circle[(view["assistant"] + steps) % len(circle)]
        seek.append({"steps": steps, "shop": shop})
    most_cards = max(s["shop"]["cards"] for s in seek)
    free = free_scrolls(state)
    headline = "Your turn: send the Assistant to seek, or cast a spell."
    if turn["extra_turn"]:
        headline = "Extra turn from Replication: seek, cast, or give it up."
    countdown = view["countdown"]
    can_drop = bool(countdown and countdown["marker"] in ("III", "II", "final"))
    if can_drop:
        headline += " You may also drop out now."
    advice = rules.advice(state, seat)
    return SeatForms(headline=headline, my_turn=True, seek=seek,
                     scroll_max={value: min(free[value], most_cards) for value in (1, 2, 3) if free[value]},
                     cast=_cast_form(view, me), decline=turn["extra_turn"], drop_out=can_drop,
                     note=note, advice=advice, undo_text=undo)


def seat_extras(context: Mapping[str, Any]) -> dict[str, Any]:
    return {"forms": build_forms(context), "colours": COLOURS}


# -- the table ------------------------------------------------------------------------------------

def _tally(player: Mapping[str, Any], holder: int | None) -> PlayerTally:
    names = [spell["name"] for spell in player["spells"]]
    colours = player["hand_colours"]
    return PlayerTally(name=player["name"], spells=tuple((s["value"], s["book_value"]) for s in player["spells"]),
                       hand_colours=None if colours is None else len(colours),
                       disappearance=names.count(GAME.spell("disappearance").name),
                       purification=GAME.spell("purification").name in names, curse_marker=holder == player["seat"])


def spell_stacks(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each spell value's stack: how many cards are left and which spells, e.g. "Transfer, Substitution ×2"."""
    stacks = []
    for stack in view["spell_stacks"]:
        names = Counter(GAME.spell_of(GAME.card(c)).name for c in stack["cards"])
        spells = ", ".join(name if count == 1 else f"{name} ×{count}" for name, count in names.items())
        stacks.append({"value": stack["value"], "left": len(stack["cards"]), "spells": spells})
    return stacks


def table_facts(view: Mapping[str, Any], scores: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """Team totals and, once the game is over, who won and what decided it (the shared final_scores)."""
    players = view["players"]
    teams = view["teams"]
    team_rows = [{"members": team, "names": " & ".join(players[s]["name"] for s in team),
                  "total": sum(scores[s]["total"] for s in team if s in scores)} for team in teams or []]
    facts: dict[str, Any] = {"teams": team_rows, "verdict": None, "decided_by": None, "winning_seats": [],
                             "stacks": spell_stacks(view)}
    if not view["over"]:
        return facts
    result = final_scores([_tally(p, view["curse_holder"]) for p in players], teams)
    facts["decided_by"] = result.decided_by
    if result.teams is not None:
        sides = [(row["names"], team.total, team.spells_cast) for row, team in zip(team_rows, result.teams)]
        facts["winning_seats"] = sorted(s for index in result.winners for s in result.teams[index].members)
    else:
        sides = [(p.name, p.total, p.spells_cast) for p in result.players]
        facts["winning_seats"] = list(result.winners)
    winners = [sides[index] for index in result.winners]
    verb = "wins" if len(winners) == 1 and result.teams is None else "win"
    who = " and ".join(name for name, _, _ in winners)
    points = winners[0][1]
    if result.decided_by == "score":
        facts["verdict"] = f"{who} {verb} with {points} point{'s' * (points != 1)}!"
    elif result.decided_by == "spells cast":
        facts["verdict"] = (f"{who} {verb} the tie on {points} points by casting more spells "
                            f"({winners[0][2]}).")
    else:
        facts["verdict"] = f"{who} share the win: {points} points and {winners[0][2]} spells each."
    return facts


def colour_chips(colours: Sequence[str]) -> list[ColourLabel]:
    return [COLOURS[c] for c in colours if c in COLOURS]


def setup_steps(catalog: MandragoraContent, players: int) -> list[SetupStep]:
    """The rule book's setup; for fewer than 4 sorcerers, the item cards this table returns to the box (how
    many is the rulebook's, which ones the data's own list, marked as it is)."""
    steps = rule_steps(catalog, players)
    removal = catalog.removal_for(players)
    title = f"Item cards for {players} sorcerers"
    if removal is None:
        return with_cards(steps, "mandragora.setup.players", (), title=title,
                          text=f"With {players} sorcerers every item card is used: return nothing to the box.")
    listed = tuple(SetupCard("mandragora", card.id, f"{catalog.label(card)} · {card.id}")
                   for card in catalog.items if card.id in removal.cards)
    colours = " and ".join(catalog.colour(c).name.lower() for c in removal.colours)
    whole = f"every {colours} card ({removal.colour_cards}: ingredients and spellbooks) and " if colours else ""
    return with_cards(steps, "mandragora.setup.players", listed, removal.provenance, title=title,
                      text=f"With {players} sorcerers, return {whole}these {len(listed)} item cards to the box "
                           "(this print kit marks each on its face):")


PAGES = GamePages(
    game="mandragora",
    stylesheet="css/mandragora.css",
    intro="Each sorcerer reports where the Assistant went and which spells they cast; the companion keeps "
          "the shops, the curses, the countdown and every point.",
    first_seat_label="Who goes first? (whoever most resembles a sorcerer)",
    options_template="pages/mandragora/_options.html",
    parse_options=parse_options,
    table_template="pages/mandragora/_table_live.html",
    seat_template="pages/mandragora/_seat_live.html",
    seat_extras=seat_extras,
    playable=True,
    extra={"table_facts": table_facts, "colours": COLOURS, "marker_text": MARKER_TEXT, "scroll_label": scroll_label,
           "book_label": book_label, "colour_of": colour_of, "colour_chips": colour_chips, "game": GAME},
    setup_steps=setup_steps,
)
