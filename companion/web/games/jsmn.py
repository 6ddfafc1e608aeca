"""Jonathan Strange & Mr Norrell's pages: the year, the fairy, the prestige track and the magicians on the
table; on each seat the move forms the rules allow now and that seat's own secret magicianship ledger.

Everything shown comes from ``rules.view(state, seat)``: another seat's ledger is None there until the
game is over, so no page can show it. The seat's forms are the rules' own ``choices(state, seat)``
(rendered by templates/pages/_choices.html), which never depend on another seat's secrets. Elements
always show as word and glyph, the Card of Marseilles also with the symbol's name, never as colour alone.
"""

from __future__ import annotations

from typing import Any, Mapping

from werkzeug.datastructures import MultiDict

from cardgen.catalog import content
from cardgen.catalog.jsmn import JsmnContent
from companion.rules.jsmn.game import GLYPHS, action_name

from . import GamePages, NewGameFormError
from .jsmn_board import board

GAME: JsmnContent = content("jsmn")
ELEMENTS: dict[str, dict[str, str]] = {e.id: {"id": e.id, "name": e.name, "symbol": e.symbol_name,
                                              "glyph": GLYPHS.get(e.id, "•")} for e in GAME.elements}
MAGICIANS: dict[str, str] = {m.id: m.name for m in GAME.magicians}
CONNEXIONS: dict[str, str] = {c.id: c.name for c in GAME.connexion_types}
BOOKS = {b.id: b for b in GAME.books}
NAMED = {n.id: n for n in GAME.named_connexions}
MARSEILLES = {c.id: c for c in GAME.marseilles}
DIFFICULTIES: tuple[int, ...] = (GAME.tracks.fairy_start, *GAME.tracks.fairy_advanced)
STEPS: dict[str, str] = {"action": "choosing an action", "visits": "visits", "magic": "doing magic"}


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

def headline(context: Mapping[str, Any], moves: set[str]) -> str:
    """What this seat should do now, in one sentence (the moves come from the rules' choices)."""
    view, seat, names = context["view"], context["seat"], context["names"]
    me = view["players"][seat]
    if view["over"]:
        return "The game is over: every ledger is revealed on the table."
    if view["phase"] == "setup":
        if me["started"]:
            waiting = [p["name"] for p in view["players"] if not p["started"]]
            return f"Waiting for {', '.join(waiting)} to report their starting feats."
        return "Report the three feats of magic you were dealt (only this phone sees them)."
    if view["phase"] == "preparation":
        return f"Preparation for {view['year'] + (1 if view['marseilles_revealed'] else 0)}: " \
               "reveal the next Card of Marseilles."
    turn = view["turn"]
    if turn["seat"] != seat:
        return f"{names[turn['seat']]} is playing ({STEPS[turn['step']]})."
    if "connexion" in moves:
        return "You reached a connexion space: choose your connexion first."
    return f"Your turn in {view['year']}: {STEPS[turn['step']]}."


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
    if view["reign"] and view.get("difficulty"):  # advanced difficulty (rule jsmn.difficulty.advanced)
        return "The fairy reigns over England: with advanced difficulty everyone loses."
    if view["reign"]:  # rule jsmn.end.reign: nobody wins, and nobody loses either
        best = f" Best among you: {' and '.join(winners)}." if winners else ""
        return f"The fairy reigns over England: nobody is the greatest magician of the age.{best}"
    if len(winners) == 1:
        return f"{winners[0]} is the greatest magician of the age!"
    return f"{' and '.join(winners)} share the title of greatest magician of the age."


PAGES = GamePages(
    stylesheet="css/jsmn.css",
    intro="Each magician reports actions, visits and magic; the companion keeps the year, the fairy, the "
          "prestige track and each magician's secret magicianship, on that magician's phone only.",
    first_seat_label="Whose disc is on top of the stack on the wax seal? (plays first in 1806)",
    options_template="pages/jsmn/_options.html",
    parse_options=parse_options,
    table_template="pages/jsmn/_table_live.html",
    seat_template="pages/jsmn/_seat_live.html",
    headline=headline,
    compact_lists=True,  # long lists (96 cards, 33 feats) are sent once per page as data
    show_invite=show_invite,
    board=board,
    extra={"elements": ELEMENTS, "magicians": MAGICIANS, "connexions": CONNEXIONS, "books": BOOKS, "named": NAMED,
           "marseilles": MARSEILLES, "action_name": action_name, "feat_needs": feat_needs, "place_text": place_text,
           "verdict": verdict, "difficulties": DIFFICULTIES, "steps": STEPS, "game": GAME},
)
