"""Barony: Sorcery's pages: spells, Mysterious locations, Magic and Control tokens on the table; move forms
on each seat (explore, cast, end of the base game, base-game points).

The companion does not referee Barony's turn order (rule ``barony-sorcery.companion.turns``), so the
new-game form asks nobody to go first and every seat may report at any time while the game is in
play. The seat's forms are the rules module's ``choices(state, seat)``, rendered by the shared
templates (``templates/pages/_choices.html``): the locations it may still explore with the Magic
tokens they pay, the spells its tokens pay for (the server judges a combination and names the rule),
the end, the base-game points and the review of every total. Colour is never the only cue: a
category shows as its word, its symbol's name and a glyph, besides the card colour.
"""

from __future__ import annotations

from typing import Any, Mapping

from werkzeug.datastructures import MultiDict

from cardgen.catalog import content
from cardgen.catalog.barony_sorcery import BaronySorceryContent, SetupCounts
from companion.rules.barony_sorcery.game import MYSTERIOUS_BY_PLAYERS

from . import GamePages, NewGameFormError

GAME: BaronySorceryContent = content("barony-sorcery")
#: A glyph per print-kit symbol, shown beside the category's word and symbol name (never alone).
GLYPHS: dict[str, str] = {"boot": "➶", "banner": "⚑", "tower": "♜"}
ORDINALS: tuple[str, ...] = ("1st", "2nd", "3rd", "4th", "5th")
CHOICES = ("random", "chosen")
SPELLS_FIELD = "bs-spell"
LOCATIONS_FIELD = "bs-location"
TILE_NUMBER: dict[str, int] = {tile.id: tile.number for tile in GAME.tiles}


# -- new game -------------------------------------------------------------------------------------

def _choice(form: MultiDict[str, str], name: str, what: str) -> str:
    choice = form.get(name, "random")
    if choice not in CHOICES:
        raise NewGameFormError(f"Pick whether the companion draws the {what} or you tick the ones your table has.")
    return choice


def parse_options(form: MultiDict[str, str], names: list[str]) -> dict[str, Any]:
    """The spells and the Mysterious locations: drawn by the companion, or the ones the table ticked."""
    options: dict[str, Any] = {}
    if _choice(form, "bs-spells", "spells") == "chosen":
        known = {spell.id for spell in GAME.spells}
        ticked = [ref for ref in dict.fromkeys(form.getlist(SPELLS_FIELD)) if ref in known]
        if len(ticked) != GAME.spells_in_play:
            raise NewGameFormError(f"Tick the {GAME.spells_in_play} spells your table drew: you ticked "
                                   f"{len(ticked)}. Or let the companion draw them at random.")
        options["spells"] = ticked
    if _choice(form, "bs-locations", "Mysterious locations") == "chosen":
        known = {loc.id for loc in GAME.locations}
        ticked = [ref for ref in dict.fromkeys(form.getlist(LOCATIONS_FIELD)) if ref in known]
        wanted = MYSTERIOUS_BY_PLAYERS.get(len(names))
        if wanted is None:  # the player count is wrong: the rules module says so
            return options
        if len(ticked) != wanted:
            raise NewGameFormError(f"With {len(names)} players the board holds {wanted} tiles with a Mysterious "
                                   f"location: you ticked {len(ticked)}. Or let the companion pick them.")
        options["locations"] = ticked
    return options


def setup_rows() -> list[SetupCounts]:
    """The board for every player count (tiles in all, with a Mysterious location, from the base game)."""
    return [GAME.setup_for(players) for players in range(GAME.min_players, GAME.max_players + 1)]


# -- the seat's forms -----------------------------------------------------------------------------

def category_label(category_id: str) -> dict[str, str]:
    """A category as people see it: word, card colour, symbol name and glyph."""
    category = GAME.category(category_id)
    return {"id": category.id, "name": category.name, "colour": category.colour, "symbol": category.symbol_name,
            "glyph": GLYPHS.get(category.symbol, "■")}


def headline(context: Mapping[str, Any], moves: set[str]) -> str:
    """What this seat should do now, in one sentence (the moves come from the rules' choices)."""
    view, seat, names = context["view"], context["seat"], context["names"]
    me = view["players"][seat]
    waiting = ", ".join(names[s] for s in view["waiting_for"] if s != seat)
    if view["over"]:
        return "The game is over: see the totals and the winner on the table."
    if view["phase"] == "review":
        if "confirm_totals" in moves:
            return "Every player's points are in: check every total below, then confirm them (or send one back)."
        return f"You confirmed the totals. Waiting for {waiting} to confirm."
    if view["phase"] == "scoring":
        if me["base_points"] is None:
            return "The base game has ended: enter your base-game points."
        return (f"You entered {me['base_points']} base-game points. Waiting for {waiting}; you may correct "
                "yours until then.")
    headline = "Report an exploration or a cast when it happens at the table."
    if "explore" not in moves:
        headline += " No location is left for you to explore: each holds your Control token or is full."
    return headline


# -- the table ------------------------------------------------------------------------------------

def board_setup(view: Mapping[str, Any]) -> dict[str, Any]:
    """This game's setup checklist: the tile counts for its players and the tiles of its locations."""
    counts = GAME.setup_for(len(view["players"]))
    tiles = [f"tile {TILE_NUMBER.get(loc['tile'], '?')} ({loc['name']})" for loc in view["locations"]]
    return {"counts": counts, "tiles": tiles}


def verdict(view: Mapping[str, Any]) -> str | None:
    """'Ann wins with 52 points!' or 'Ann and Ben share the win with 40 points each.' once the game is over."""
    if not view["over"] or not view["winners"]:
        return None
    players = view["players"]
    names = [players[s]["name"] for s in view["winners"]]
    best = players[view["winners"][0]]["total"]
    if len(names) == 1:
        return f"{names[0]} wins with {best} points!"
    return f"{', '.join(names[:-1])} and {names[-1]} share the win with {best} points each."


PAGES = GamePages(
    setup_steps=lambda catalog, players: None,  # its table page has its own checklist (board_setup)
    stylesheet="css/barony_sorcery.css",
    intro="For tables playing Barony with this expansion. Each player reports explorations and casts; the "
          "companion keeps the spells, Magic and Control tokens, then adds them to your base-game points.",
    asks_first_seat=False,
    options_template="pages/barony_sorcery/_options.html",
    parse_options=parse_options,
    table_template="pages/barony_sorcery/_table_live.html",
    seat_template="pages/barony_sorcery/_seat_live.html",
    headline=headline,
    extra={"game": GAME, "setup_rows": setup_rows, "category_label": category_label, "board_setup": board_setup,
           "verdict": verdict, "tile_number": TILE_NUMBER, "ordinals": ORDINALS},
)
