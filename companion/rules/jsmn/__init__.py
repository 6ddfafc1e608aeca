"""Jonathan Strange & Mr Norrell rules: the companion's referee for the year loop, the tracks and the
secret magicianship of a physical game.

The players report what happens at the table (cards drawn and played by id, the card of Marseilles
revealed, the rows laid out at setup), so neither setup nor any move needs randomness: the stack on the
wax seal is given by the options (``stack`` or ``first_seat``), the rows of books and named connexions by
the options or the first ``new_year``. Hands are counts.
Magicianship is secret (rule jsmn.magicianship.secret): each seat's ledger — its feats of magic with
their tokens, completed feats, the spells it has played — shows only in its own view until the game
ends; logs and other views leave those ids out. Confronting the fairy happens inside ``end_turn`` in
raven years: only a defeat is announced (the game ends at once, every ledger is revealed). Refusals
carry a sentence and a rule id from ``data/jsmn/rules.toml``. The work is split over ``companion.rules.jsmn.*``:
:mod:`.state` (state, magicianship, JSON), :mod:`.moves` (apply: preparation, actions,
visits, connexions), :mod:`.magic` (magic, books, the end of a turn), :mod:`.spells`,
:mod:`.scoring` (the ranking, shared with the calculator), :mod:`.play` (advice, random moves),
:mod:`.text` (the move log).

Phases: ``"setup"`` (each seat reports its 3 starting feats) → ``"preparation"`` (``new_year``) →
``"turn"`` (each seat in prestige order) → ``"preparation"`` … → ``"over"`` (a defeat, or 1817 ended).

``view(state, seat)`` returns a JSON object with these keys (pages are built from it):

- ``game`` ("jsmn"), ``title``, ``phase`` ("setup" | "preparation" | "turn" | "over"), ``you`` (the
  viewing seat or None), ``over`` (bool), ``winner`` (a seat or None), ``winners`` (seats; empty when
  nobody wins), ``result`` (the reason once over, else None)
- ``year`` (1806..1817), ``first_year``, ``last_year``, ``raven_years`` (list), ``raven`` (whether this
  year's turns end with a confrontation), ``prepared`` (this year's card is revealed)
- ``fairy`` (his strength now), ``difficulty`` (0, 4 or 8: where he started), ``defeated_by`` (a seat or
  None), ``reign`` (true once 1817 has ended without a defeat)
- ``marseilles``: this year's card ``{"id", "name", "english", "strength", "invitations", "elements"}``
  or None; ``marseilles_revealed`` (ids, oldest first); ``marseilles_left`` (ids still to be revealed)
- ``available_elements``: the elements that may be placed now (the card plus the turn's study action,
  Strange's unique action or a spell); ``element_sources``: ``{element: "marseilles" | "study" | "unique" |
  "spell"}`` (why each may be placed); ``supply``: ``{element: tokens left}`` once the game is over, else None
  (tokens return to it when a hidden feat is completed, rule jsmn.companion.feat-refusals)
- ``book_row``: the three available books, nearest the prestige track first, each ``{"id", "name",
  "form", "element", "text"}``; ``named_row``: face-up named connexions ``{"id", "name",
  "connexion_type", "text"}``
- ``order``: seats in turn order (prestige, then the stack); ``still_to_play``: seats yet to play this year
- ``turn``: ``{"seat", "step" ("action" | "visits" | "magic"), "action" (an action id, "unique",
  "still" or None), "moves", "max_moves", "engagements", "max_engagements", "kings_roads" (unused),
  "coachman" (a two-location move unused), "long_move", "borrowed" (Segundus's borrowed connexion),
  "books_used", "advisor_used", "free_tokens" (tokens to place without a discard), "teilo",
  "pending_connexions"}``; between turns (setup, preparation, the end) every one of these is None
- ``players``: per seat ``{"seat", "name", "magician", "magician_name", "unique_action", "unique_text",
  "prestige", "stack" (place in its space's stack from the top, 0 on top), "location" (id or None),
  "location_name", "covered" (action ids), "connexions" (types), "named" (ids), "books" (ids),
  "invitations", "introductions", "hand_size" (their sum), "spells" (in hand), "spells_cast" (a count),
  "feats_in_front" (a count), "feats_completed" (a count), "started" (starting feats reported),
  "ledger"}``. ``ledger`` is None for another seat until the game is over; for yourself (and for
  everyone once over) it is ``{"magicianship", "breakdown": [{"cause", "points", "card"}], "feats":
  [{"id", "name", "magicianship", "requires": {element: n}, "tokens": [elements]}], "completed": [{"id",
  "name", "magicianship"}], "spells_played": [{"id", "name", "magicianship"}]}``

``score(state)`` before the end shows only prestige (magicianship is secret); once over, each seat's
magicianship with its breakdown.

The package declares the game (``SPEC``, a :class:`~companion.rules.spec.GameSpec`); its public
front is :mod:`.game` (a :class:`~companion.rules.front.Rules`), imported on first use, so listing the games loads no game's content.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..spec import COUNTS, NUMBER, TEXT, TEXTS, GameSpec, MoveSpec

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec("starting_feats", "Report the three feats of magic you were dealt at setup (ids; kept private).",
             {"feats": TEXTS}, any_seat=True),
    MoveSpec("new_year", "The year's preparation: the card of Marseilles revealed and, after 1806, the book revealed.",
             {"marseilles": TEXT, "book": TEXT, "books": TEXTS, "named": TEXTS}, any_seat=True),
    MoveSpec("choose_action", "Choose an uncovered action (kings-roads, acquire-book, a study action or unique).",
             {"action": TEXT, "book": TEXT, "reveal": TEXT, "element": TEXT, "connexion": TEXT}),
    MoveSpec("still_waters", "Still the waters: every action disc returns to the basin; no action this turn.",
             ()),
    MoveSpec("move", "Move your magician to a location (one of at most two moves a turn).",
             {"to": TEXT}),
    MoveSpec("engage", "Fulfil an invitation or introduction where your magician stands.",
             {"card": TEXT, "introductions": NUMBER, "feats": TEXTS}),
    MoveSpec("connexion", "Choose the connexion just gained: a free connexion type or one of the two named connexions.",
             {"connexion": TEXT, "named": TEXT, "reveal": TEXT, "to": TEXT, "book": TEXT, "book_reveal": TEXT}),
    MoveSpec("magic", "Discard an invitation or introduction to place a token of its element on one of your feats.",
             {"card": TEXT, "feat": TEXT}),
    MoveSpec("use_book", "Use one of your books of magic: discard a card and place the tokens the book gives.",
             {"book": TEXT, "card": TEXT, "feats": TEXTS, "element": TEXT}),
    MoveSpec("street_magic", "Street Magician: discard two cards of one element to place a token of any allowed element.",
             {"cards": TEXTS, "element": TEXT, "feat": TEXT}),
    MoveSpec("place_token", "Place a token a spell or Vinculus gave you, without a discard.",
             {"element": TEXT, "feat": TEXT}),
    MoveSpec("advisor", "Advisor: discard an invitation or introduction and draw one of the same kind (once a turn).",
             {"card": TEXT}),
    MoveSpec("cast_spell", "Cast a spell from your hand for its effect.",
             {"spell": TEXT, "to": TEXT, "feat": TEXT, "book": TEXT, "action": TEXT, "elements": TEXTS, "card": TEXT}, any_seat=True),
    MoveSpec("discard_spell", "Discard a spell from your hand for 1 prestige.",
             ()),
    MoveSpec("end_turn", "End your turn: confront the fairy in raven years, draw invitations, discard down to five, tidy.",
             {"discard": COUNTS}),
)

OPTIONS: dict[str, str] = {
    "magicians": "Each seat's magician, in seat order (ids: norrell, strange, segundus, redruth); default in that order.",
    "difficulty": "Where the fairy starts: 0 (default), 4 (experienced) or 8 (foolhardy); with 4 or 8 everyone loses if he is undefeated after 1817.",
    "first_seat": "The seat whose disc lies on top of the shuffled stack on the wax seal (plays first in 1806); the others lie below it in seat order. Default 0.",
    "stack": "The whole stack on the wax seal as seat numbers, top first (instead of first_seat).",
    "books": "The three books of magic laid out at setup (ids), nearest the prestige track first; default: reported with the first new_year.",
    "named": "The two named connexions laid out at setup (ids); default: reported with the first new_year.",
}

def _upgrade_1(data: dict) -> dict:
    from .state import upgrade_format_1
    return upgrade_format_1(data)


def _upgrade_2(data: dict) -> dict:
    from .state import upgrade_format_2
    return upgrade_format_2(data)


def _confronts(state: Any, seat: int, move: Mapping[str, Any]) -> bool:
    """The end of a turn in a raven year: its confrontation is decided by the seat's hidden magicianship."""
    from .state import TRACKS
    return move.get("type") == "end_turn" and state.year in TRACKS.raven_years


SPEC = GameSpec(
    id="jsmn", moves=MOVES, options=OPTIONS,
    rules_module=f"{__name__}.game",
    pages_module="companion.web.games.jsmn",
    calculator_module="companion.web.calc.jsmn", photo_module="companion.web.photo.jsmn", print_kit="jsmn",
    order=4, hidden_information=True, sooner_end="secret", may_end_in_secret=_confronts, redacted_moves_are_secret=False, state_version=3, state_upgrades={1: _upgrade_1, 2: _upgrade_2}, over_rule="jsmn.end.reign", turn_rule="jsmn.turn.order", seat_rule="jsmn.players",
    points="prestige", final_points="magicianship",
)
