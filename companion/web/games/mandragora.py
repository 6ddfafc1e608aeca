"""Mandragora's pages: the shop circle, spell stacks and sorcerers on the table; move forms on each seat.

The forms are built from ``rules.view(state, seat)`` — what that phone may know — plus the seat's
own advice (:func:`companion.rules.mandragora.game.advice`, from its private hand note) and the public
count of cursed scrolls still in play. A form is offered only when the rules allow that move now;
the rules module stays the judge of every detail and answers with a rule id.

Colour is never the only cue: every colour is shown as its word, the symbol the print kit draws
(crystal, flame, …) and a glyph; mandrakes count as white.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from werkzeug.datastructures import MultiDict

from cardgen.catalog import content
from cardgen.catalog.mandragora import WHITE, MandragoraContent
from companion.rules.mandragora.game import PlayerTally, final_scores
from companion.web.games.mandragora_board import mandragora_circle, seek_options
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
CIRCLE_CHOICES = ("suggested", "random")


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

def _note_word(token: str) -> str:
    if token == MANDRAKE or token.startswith("mandrake-"):
        return "mandrake"
    if token in COLOURS:
        return f"{COLOURS[token].name} ingredient"
    card = GAME.find_card(token)
    return GAME.label(card) if card is not None else token


def headline(context: Mapping[str, Any], moves: set[str]) -> str:
    """What this seat should do now, in one sentence (the moves come from the rules' choices)."""
    view, seat, names = context["view"], context["seat"], context["names"]
    me = view["players"][seat]
    if view["over"]:  # who won, as the table says it (every hand is revealed by then)
        verdict = table_facts(view, {})["verdict"]
        return f"{verdict} The final scores are on the table." if verdict else \
            "The game is over: see the final scores on the table."
    if view["phase"] == "reckoning":
        if "reveal_hand" in moves:
            return "The game has ended: tick the colours left in your hand."
        waiting = [p["name"] for p in view["players"] if not p["revealed"]]
        if not waiting:  # every hand is shown but they do not add up (the banner says which colour)
            return "Every hand is shown, but they do not add up: whoever revealed wrongly corrects their reveal."
        return f"Hand revealed. Waiting for {', '.join(waiting)} to reveal."
    pending = view["pending"]
    if pending and pending["kind"] == "curse_marker":
        if "pass_curse_marker" in moves:
            return "A tie for the most curses: pass the Curse marker to one of the tied sorcerers."
        return f"Waiting for {names[pending['chooser']]} to pass the Curse marker."
    if pending:
        if "team_help" in moves:
            return f"You received cursed scrolls: you may help your partner {names[pending['partner']]}."
        return f"Waiting for {names[pending['seat']]} to choose how to help {names[pending['partner']]}."
    if me["dropped_out"]:
        return "You have dropped out: you take no more turns."
    if "seek" not in moves:
        return f"{names.get(view['turn']['seat'], 'Nobody')}'s turn. Your turn comes later."
    headline = "Your turn: send the Assistant to seek, or cast a spell."
    if "decline_extra_turn" in moves:
        headline = "Extra turn from Replication: seek, cast, or give it up."
    if "drop_out" in moves:
        headline += " You may also drop out now."
    return headline


def seat_extras(context: Mapping[str, Any]) -> dict[str, Any]:
    """The seat's own private hand note in words (its form is ``forms.note``: ``note_move``)."""
    mine = context["view"]["players"][context["seat"]]["hand_note"] or []
    return {"note_text": ", ".join(_note_word(token) for token in mine), "colours": COLOURS}


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
        sides = [(row["names"], team.total, team.spells_cast) for row, team in zip(team_rows, result.teams, strict=True)]
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
    # the rulebook shuffles the tiles into a random circle; the companion has already drawn it (or suggests one)
    # and tracks the shops by it, so the table lays out that circle, not one of its own
    steps = [dataclasses.replace(step, provenance="authored", text=(
        "Lay the 10 shop tiles in a circle in the order listed under \u201cShop circle\u201d (the circle the "
        "companion follows), clockwise from the starting tile, the one with the curve along its bottom edge. Put the "
        "Assistant on it."))
        if step.rule == "mandragora.setup.shops" else step for step in rule_steps(catalog, players)]
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
    stylesheet="css/mandragora.css",
    intro="Each sorcerer reports where the Assistant went and which spells they cast; the companion keeps "
          "the shops, the curses, the countdown and every point.",
    first_seat_label="Who goes first? (whoever most resembles a sorcerer)",
    options_template="pages/mandragora/_options.html",
    parse_options=parse_options,
    table_template="pages/mandragora/_table_live.html",
    seat_template="pages/mandragora/_seat_live.html",
    headline=headline,
    note_move="note_hand",
    seat_extras=seat_extras,
    board=mandragora_circle,
    extra={"seek_options": seek_options, "table_facts": table_facts, "colours": COLOURS, "marker_text": MARKER_TEXT, "scroll_label": scroll_label,
           "book_label": book_label, "colour_of": colour_of, "colour_chips": colour_chips, "game": GAME},
    setup_steps=setup_steps,
)
