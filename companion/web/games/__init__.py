"""What each game adds to the phone pages: its new-game options, its table and seat parts, its seat forms.

The page blueprints (:mod:`companion.web.home`, :mod:`.table`, :mod:`.seats`, :mod:`.cards`, ...) own everything games share — the home page, joining,
the live-update frame around a table or seat page, the move log, invitations, card pages and search —
and asks a :class:`GamePages` for the rest. A game without its own entry gets :data:`GENERIC`: its
table and seats show names, scores and the log, and each seat its move forms (the rules' choices, the
shared :class:`~companion.web.seat_forms.SeatForms`).

To add a game's pages: write a module with a ``PAGES = GamePages(...)`` (this folder's ``<game>.py`` for the
games in this tree), its templates under ``templates/pages/<game>/``, and name the module in the game's
spec (``GameSpec.pages_module``). Nothing here lists games.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, Mapping

from werkzeug.datastructures import MultiDict

from companion.web.seat_forms import generic_headline


class NewGameFormError(ValueError):
    """A new-game form the player must correct; the message is a sentence shown above the form."""


def no_options(form: MultiDict[str, str], names: list[str]) -> dict[str, Any]:
    return {}


def no_seat_extras(context: Mapping[str, Any]) -> dict[str, Any]:
    return {}


def default_setup_steps(catalog: Any, players: int) -> list[Any] | None:
    from companion.web.setup_checklist import rule_steps

    return rule_steps(catalog, players)


def invite_while_seats_free(context: Mapping[str, Any]) -> bool:
    return not all(context["info"]["claimed"])


@dataclass(frozen=True)
class GamePages:
    #: the game's id: taken from the spec that names the pages module (given only to check it)
    game: str = ""
    #: one sentence on the home page under the game's name
    intro: str = ""
    #: the new-game form asks who goes first (sent as the ``first_seat`` option)
    asks_first_seat: bool = True
    #: the label of that question, e.g. "Who goes first? (the most magical player)"
    first_seat_label: str = "Who goes first?"
    #: extra fields inside the new-game form (a template under pages/<game>/), or None
    options_template: str | None = None
    #: (form, player names) -> the game's options besides first_seat; raises NewGameFormError
    parse_options: Callable[[MultiDict[str, str], list[str]], dict[str, Any]] = no_options
    #: the live part of the table page and of a seat page
    table_template: str = "pages/generic/_table_live.html"
    seat_template: str = "pages/generic/_seat_live.html"
    #: (seat context, the move types offered) -> what this seat should do now, in one sentence (``forms.headline``)
    headline: Callable[[Mapping[str, Any], set[str]], str] = generic_headline
    #: a move type the seat template shows apart as the seat's private note (``forms.note``), or None
    note_move: str | None = None
    #: long lists of picks are sent once per page as data (``forms.compact_lists``)
    compact_lists: bool = False
    #: (seat context) -> more names of the game's own for its seat template (the forms are shared: ``forms``)
    seat_extras: Callable[[Mapping[str, Any]], dict[str, Any]] = no_seat_extras
    #: (seat context) -> whether the seat page still shows the join QR code
    show_invite: Callable[[Mapping[str, Any]], bool] = invite_while_seats_free
    #: (catalog, player count) -> the setup checklist shown as the game starts (setup_checklist.SetupStep),
    #: or None where the game's own pages show one
    setup_steps: Callable[[Any, int], list[Any] | None] = default_setup_steps
    #: a stylesheet of the game's own under static/ (loaded by its pages and the home page), or None
    stylesheet: str | None = None
    #: (public view) -> the board picture (inline SVG) its table page shows, or None
    board: Callable[[dict[str, Any]], Any] | None = None
    #: offered in the home page's new-game form (its seat pages show the rules' choices as move forms)
    playable: bool = True
    #: its seat forms are the rules' choices rendered by templates/pages/_choices.html (loads js/choices.js)
    choice_forms: bool = True
    #: the new-game form's field-id prefix ("": none, kept by the first game for its old ids); None: "<game>-"
    form_prefix: str | None = None
    #: (catalog, card) -> the names templates/pages/card.html needs (the game's own card page), or None
    card_context: Callable[[Any, Any], dict[str, Any]] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


GENERIC = GamePages(game="")


class _Discovered(Mapping[str, GamePages]):
    """Game id -> its pages, for every game whose spec names a pages module (imported on first use)."""

    def __getitem__(self, game: str) -> GamePages:
        from companion.rules import SPECS

        spec = SPECS.get(game)
        if spec is None or spec.pages_module is None:
            raise KeyError(game)
        pages = importlib.import_module(spec.pages_module).PAGES
        if not isinstance(pages, GamePages) or pages.game not in ("", game):
            raise TypeError(f"{spec.pages_module}.PAGES must be a GamePages for '{game}'")
        return _named(pages, game)

    def __iter__(self) -> Iterator[str]:
        from companion.rules import SPECS

        return iter([game for game, spec in SPECS.items() if spec.pages_module is not None])

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: (id(declared pages), game) -> (the declaration, its copy named for the game): the spec gives the id, once
_NAMED: dict[tuple[int, str], tuple[GamePages, GamePages]] = {}


def _named(pages: GamePages, game: str) -> GamePages:
    if pages.game == game:
        return pages
    known = _NAMED.get((id(pages), game))
    if known is None or known[0] is not pages:
        known = _NAMED[(id(pages), game)] = (pages, replace(pages, game=game))
    return known[1]


PAGES: Mapping[str, GamePages] = _Discovered()


def pages_for(game: str) -> GamePages:
    """The game's pages: its pages module's, else the generic pages (:data:`GENERIC`), which show a private-note
    move of its spec (``MoveSpec.private_note``) apart on the seat page, as the seat's note."""
    found = PAGES.get(game)
    if found is not None:
        return found
    from companion.rules import SPECS

    spec = SPECS.get(game)
    note = next((m.type for m in spec.moves if m.private_note), None) if spec is not None else None
    return _named(GENERIC, game) if note is None else _named_generic(game, note)


def _named_generic(game: str, note: str) -> GamePages:
    found = _GENERIC_NOTES.get((game, note))
    if found is None:
        found = _GENERIC_NOTES[(game, note)] = replace(GENERIC, game=game, note_move=note)
    return found


_GENERIC_NOTES: dict[tuple[str, str], GamePages] = {}


__all__ = ["GENERIC", "GamePages", "NewGameFormError", "PAGES", "pages_for"]
