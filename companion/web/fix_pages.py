"""The corrections pages: the whole history of a game, a move corrected on the form that reported it, and
what a correction or a put-back changes for another seat (issue 21).

- ``/g/<id>/seat/<n>/fix``: every move of the game as it stands, newest first, paged, with filters ("my
  moves", one player's); each with *Change* (its form) and *Remove*; the recent take-backs and corrections this
  seat made or suffered, each with *Put it back* / *Undo this correction*; hand-over and rename.
- ``/g/<id>/seat/<n>/fix/<seq>``: move ``seq`` on the choice forms of the rules for that point of the game
  (the state before it, for the seat that made it), the form of its kind filled in with what was reported.
- ``/g/<id>/seat/<n>/fix/<seq>/misfit?change=<json>``: the part the page shows under the form when a correction
  is refused because a later move no longer fits: that move's own form to fix it (or the move the rules now need
  before it), and a button to remove it, all sent with the same correction.

A form is offered only where it reveals nothing the phone may not know: for this seat's own moves, and for
another seat's in a game without hidden information (a form for another seat would list that seat's hand).
Any seat may remove a move (any but another's private note); the seat whose move it was is told on its phone
and can put it back (``POST /api/games/<id>/revert``).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Mapping, Sequence

from flask import Response, request
from werkzeug.exceptions import BadRequest

from companion.rules import IllegalMove, rules_for
from companion.rules.choices import for_another
from companion.store import LiveMove, NotFound
from companion.store.timeline import HIDDEN_MISFIT, hidden_from, move_kind
from companion.store.words import described_stored, redacted_stored
from companion.web.helpers import (
    cards_by_id,
    holds_seat,
    page_blueprint,
    store,
    unstored_page,
)
from companion.web.limits import BadJson, parse_json
from companion.web.table_words import field_names, labels_for, table_words

bp = page_blueprint("fixes", __name__)

PAGE_SIZE = 20
#: take-backs and corrections of this seat's moves offered to put back: among the newest log entries
RECENT_CHANGES = 12


def _seat_or_refuse(game_id: str, seat: int) -> dict[str, Any]:
    info = store().info(game_id)
    if not 0 <= seat < len(info["players"]):
        raise NotFound(f"This game has no seat {seat}.")
    if not holds_seat(game_id, seat):
        raise PermissionError(f"This phone does not hold {info['players'][seat]}'s seat.")
    return info



def formable(rules: Any, seat: int, move: LiveMove) -> bool:
    """Whether ``seat`` may change ``move`` on its form: its own, or another's in a game that hides nothing."""
    if move.seat == seat:
        return True
    spec = rules.SPEC
    return not spec.hidden_information and move_kind(move.move) not in spec.private_moves \
        and redacted_stored(rules, move.move, move.seat, None) == move.move


def removable(rules: Any, seat: int, move: LiveMove) -> bool:
    return move.seat == seat or move_kind(move.move) not in rules.SPEC.private_moves


def move_words(rules: Any, names: Sequence[str], seat: int, move: LiveMove) -> str:
    """The move as this seat may read it: as the table reads it, and for its own move what only it sees too
    (the card it drew), so that it can tell which move to correct."""
    text = described_stored(rules, move.move, move.seat, list(names)).rstrip(".")
    if move.seat != seat:
        return text
    public = redacted_stored(rules, move.move, move.seat, None)
    secret = [_named_value(rules, v) for k, v in move.move.items() if public.get(k) != v]
    return f"{text} (only you see: {', '.join(s for s in secret if s)})" if any(secret) else text


def _named_value(rules: Any, value: Any) -> str:
    """A move's value in words: a card's name for a card id, list items joined."""
    if isinstance(value, list):
        return ", ".join(_named_value(rules, v) for v in value)
    if isinstance(value, str):
        card = cards_by_id(rules.GAME_ID).get(value)
        return str(getattr(card, "name", value)) if card is not None else value
    return "" if value is None or isinstance(value, (dict, bool)) else str(value)


def changes_to_put_back(log: Sequence[Mapping[str, Any]], seat: int, names: Sequence[str]) -> list[dict[str, Any]]:
    """The newest take-backs and corrections this seat made, or another seat made to this seat's moves, that
    still stand (newest first): each can be put back by this seat (the store's rule for a revert)."""
    out = []
    for entry in reversed(log[-RECENT_CHANGES:]):
        if entry["kind"] not in ("undo", "correct") or entry.get("put_back"):
            continue
        author, actor = entry.get("author", entry["seat"]), entry["seat"]
        if seat != actor and seat not in entry.get("touched", (author,)):  # (its moves changed with it too)
            continue
        body = entry["move"]
        moved = body.get("seq")
        undoing = entry["kind"] == "correct" and body.get("move") is not None
        out.append({"entry": entry["seq"], "text": told_text(entry, seat, names), "by_other": actor != seat,
                    "button": "Undo this correction" if undoing else "Put it back", "seq": moved})
    return out


def told_changes(log: Sequence[Mapping[str, Any]], seat: int, names: Sequence[str]) -> list[dict[str, Any]]:
    """What another phone did to this seat's moves among the log lines a seat page shows, still standing:
    the seat page tells its player at once, with one tap to put it back."""
    return [{**c, "button": "Put it back"} for c in changes_to_put_back(list(reversed(log)), seat, names)
            if c["by_other"]]


def told_text(entry: Mapping[str, Any], seat: int, names: Sequence[str]) -> str:
    """A log line as the phone of the seat it touched reads it: "your move" for "Ann's move"."""
    text = str(entry["text"])
    author = entry.get("author")
    if author == seat and entry["seat"] != seat:
        text = text.replace(f"{names[seat]}'s move", "your move", 1)
    return text


def _history(rules: Any, names: Sequence[str], seat: int, live: Sequence[LiveMove], who: str,
             page: int) -> tuple[list[dict[str, Any]], int]:
    rows = list(live)
    if who == "me":
        rows = [m for m in rows if m.seat == seat]
    elif who.isdecimal():
        rows = [m for m in rows if m.seat == int(who)]
    rows.reverse()
    pages = max(1, -(-len(rows) // PAGE_SIZE))
    chosen = rows[(page - 1) * PAGE_SIZE:page * PAGE_SIZE]
    return [{"seq": m.seq, "seat": m.seat, "who": names[m.seat], "mine": m.seat == seat,
             "text": move_words(rules, names, seat, m), "form": formable(rules, seat, m),
             "remove": removable(rules, seat, m)} for m in chosen], pages


@bp.get("/g/<game_id>/seat/<int:seat>/fix")
def seat_corrections(game_id: str, seat: int) -> Response:
    """The whole history to correct or remove, what can be put back, hand-over and rename."""
    info = _seat_or_refuse(game_id, seat)
    rules = rules_for(info["game"])
    names = info["players"]
    who = request.args.get("who", "all")
    if who not in ("all", "me") and not (who.isdecimal() and int(who) < len(names)):
        who = "all"
    page = request.args.get("page", "1")
    page_number = int(page) if page.isdecimal() and int(page) > 0 else 1
    version = store().version(game_id)
    live = store().live_moves(game_id)
    moves, pages = _history(rules, names, seat, live, who, page_number)
    log = store().log(game_id, seat)
    done = request.args.get("done", "")
    done_entry = next((e for e in log if str(e["seq"]) == done and e["kind"] in ("correct", "revert")), None)
    return unstored_page("pages/corrections.html", game_id=game_id, info=info, version=version, seat=seat,
                 me={"name": names[seat]}, title=rules.TITLE, moves=moves, who=who, page=min(page_number, pages),
                 pages=pages, names=names, changes=changes_to_put_back(log, seat, names), total=len(live),
                 done=done_entry, stale=request.args.get("stale") == "1")


def _choices_for(rules: Any, state: Any, author: int, move: Mapping[str, Any] | None, prefix: str, seat: int,
                 names: Sequence[str]) -> list[Any]:
    """The rules' choices for ``author`` at ``state``, each with its own form id (several moves' forms share
    a page); the one of ``move``'s kind first and open, the others folded ("it was another move"). On another
    seat's phone they speak of the author by name ("Ben arrives 2nd", not "you arrive 2nd")."""
    offered = list(rules.choices(state, author))
    if author != seat:
        offered = for_another(offered, names[author])
    if move is None:  # the move the rules wait for: its forms open, a private note is none of them
        offered = [c for c in offered if c.move not in rules.SPEC.private_moves]
        kind = offered[0].move if offered else None
    else:
        kind = move.get("type")
    mine = [c for c in offered if c.move == kind]
    others = [c for c in offered if c.move != kind]
    return [dataclasses.replace(c, id=f"{prefix}-{c.form_id}", folded=False, primary=True) for c in mine[:1]] + \
        [dataclasses.replace(c, id=f"{prefix}-{c.form_id}", folded=True, primary=False) for c in mine[1:] + others]


def _matched(options: Sequence[Any], value: Any) -> Any:
    """The option value a reported value stands for: the value itself, or an option's name or id in another
    case or spelling (a move reported through the API may name a card or place instead of giving its id)."""
    if any(o.value == value for o in options) or not isinstance(value, str):
        return value
    wanted = value.strip().casefold()
    plain = wanted.replace(" ", "-").replace("'", "")
    for o in options:
        if str(o.value).casefold() in (wanted, plain) or str(o.label).strip().casefold() == wanted:
            return o.value
    return value


def prefilled(choices: Sequence[Any], move: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The reported move with each value as its form's option values read it (for js/choices.js fill)."""
    if move is None:
        return None
    out = json.loads(json.dumps(move))
    form = next((c for c in choices if c.move == move.get("type")), None)
    for f in form.fields if form else ():
        if not f.options:
            continue
        path = f.name.split(".")
        holder: Any = out
        for part in path[:-1]:
            holder = holder.get(part) if isinstance(holder, dict) else (
                holder[int(part)] if isinstance(holder, list) and part.isdecimal() and int(part) < len(holder) else None)
        last = path[-1]
        if isinstance(holder, dict) and last in holder:
            value = holder[last]
            holder[last] = [_matched(f.options, v) for v in value] if isinstance(value, list) else \
                _matched(f.options, value)
        elif isinstance(holder, list) and last.isdecimal() and int(last) < len(holder):
            holder[int(last)] = _matched(f.options, holder[int(last)])
    return out


@bp.get("/g/<game_id>/seat/<int:seat>/fix/<int:seq>")
def fix_move(game_id: str, seat: int, seq: int) -> Response:
    """One move on the choice forms of its point of the game, filled in with what was reported."""
    info = _seat_or_refuse(game_id, seat)
    rules = rules_for(info["game"])
    names = info["players"]
    version = store().version(game_id)
    move, state = store().state_before(game_id, seq)
    can_form = formable(rules, seat, move)
    forms = _choices_for(rules, state, move.seat, move.move, f"fix{seq}", seat, names) if can_form else []
    return unstored_page("pages/fix_move.html", game_id=game_id, info=info, version=version, seat=seat, title=rules.TITLE,
                 me={"name": names[seat]}, move={"seq": seq, "seat": move.seat, "who": names[move.seat],
                                                 "mine": move.seat == seat,
                                                 "text": move_words(rules, names, seat, move),
                                                 "remove": removable(rules, seat, move)},
                 forms=forms, prefill=prefilled(forms, move.move) if can_form else None, can_form=can_form,
                 hidden=rules.SPEC.hidden_information)


def _change_arg() -> dict[str, Any]:
    try:  # read as a request body is (no NaN or Infinity, bounded depth, sizes and numbers)
        change = parse_json("application/json", request.args.get("change", "").encode())
    except BadJson as error:
        raise BadRequest("'change' must be the correction as JSON: "
                         + error.message.replace("the request body", "'change'")) from None
    if not isinstance(change, dict) or not isinstance(change.get("move"), (dict, type(None))):
        raise BadRequest("'change' must hold the corrected move")
    for key in ("drop", "also", "insert"):
        if not isinstance(change.get(key, []), list):
            raise BadRequest(f"'change' {key} must be a list")
    return change


@bp.get("/g/<game_id>/seat/<int:seat>/fix/<int:seq>/misfit")
def fix_misfit(game_id: str, seat: int, seq: int) -> Response:
    """Under a refused correction: the later move that no longer fits, its form to fix it (or the move the
    rules now need before it), and a button to remove it too."""
    info = _seat_or_refuse(game_id, seat)
    rules = rules_for(info["game"])
    names = info["players"]
    change = _change_arg()
    try:
        misfit, state = store().preview(game_id, seat, seq, change["move"], change.get("drop", []),
                                        change.get("also", []), change.get("insert", []))
    except (IllegalMove, KeyError, TypeError, ValueError) as error:
        message = table_words(error.message, {}, field_names(rules)) if isinstance(error, IllegalMove) else "This correction cannot be read."
        return unstored_page("pages/_fix_misfit.html", misfit=None, problem=message)
    if misfit is None:
        return unstored_page("pages/_fix_misfit.html", misfit=None, problem=None)
    ended = rules.outcome(state)
    if ended.over and rules.SPEC.sooner_end == "secret":
        # whether it ends there rests on what some seat hides: the page says what it says of a change that fits
        # (made, the change takes the moves after the end with it, and its log line says so)
        return unstored_page("pages/_fix_misfit.html", misfit=None, problem=None)
    if ended.over:  # the change ends the game sooner: the moves after its end are public, whoever made them
        dropped = {n for n in change.get("drop", []) if isinstance(n, int)}
        later = [live for live in store().live_moves(game_id) if live.seq >= misfit.seq
                 and live.seq not in dropped and move_kind(live.move) not in rules.SPEC.private_moves]
        return unstored_page("pages/_fix_misfit.html", misfit=None, problem=None,
                             after_end={"seq": misfit.seq,
                                        "reason": ended.reason if rules.SPEC.sooner_end == "reason" else "",
                                        "later": [m.seq for m in later],
                                        "others": any(m.seat != seat for m in later)})
    if hidden_from(rules, misfit, seat) and not _waits_for_a_choice(rules, state, misfit):
        # whose move fails, and which, would tell what it holds: the same words whoever holds what
        return unstored_page("pages/_fix_misfit.html", misfit=None, problem=HIDDEN_MISFIT)
    reason = None
    if misfit.seat == seat:  # the rules' reason rests on this seat's own move: it may read it
        try:
            rules.apply(state, misfit.seat, misfit.move)
        except IllegalMove as error:   # in table words: a field by its form's label
            reason = table_words(error.message, labels_for(rules, state, seat, misfit.move.get("type")),
                                 field_names(rules))
    awaited = _awaited(rules, state, misfit, seat)
    can_fix = formable(rules, seat, misfit)
    fix_forms = _choices_for(rules, state, misfit.seat, misfit.move, f"also{misfit.seq}", seat, names) \
        if can_fix else []
    need_forms = _choices_for(rules, state, awaited, None, f"put{misfit.seq}", seat, names) \
        if awaited is not None and (awaited == seat or not rules.SPEC.hidden_information) else []
    return unstored_page("pages/_fix_misfit.html", misfit={"seq": misfit.seq, "seat": misfit.seat, "who": names[misfit.seat],
                                                   "mine": misfit.seat == seat,
                                                   "text": move_words(rules, names, seat, misfit),
                                                   "remove": removable(rules, seat, misfit)},
                 reason=reason, fix_forms=fix_forms, prefill=prefilled(fix_forms, misfit.move) if can_fix else None,
                 awaited=None if awaited is None else {"seat": awaited, "who": names[awaited]},
                 need_forms=need_forms, problem=None, seat=seat)


def _waits_for_a_choice(rules: Any, state: Any, misfit: LiveMove) -> bool:
    """Whether ``misfit`` fails only because the rules now wait for a choice first (which the whole table sees
    asked for, as a correction's refusal says)."""
    try:
        rules.apply(state, misfit.seat, misfit.move)
    except IllegalMove as error:
        return error.pending is not None
    return False


def _awaited(rules: Any, state: Any, misfit: LiveMove, seat: int) -> int | None:
    """The seat the rules now wait for before ``misfit`` (a gift to give, a tie to settle), if its own author
    could not make a move of its kind there and another seat has a choice to make; None otherwise."""
    kind = misfit.move.get("type")
    own = rules.choices(state, misfit.seat)
    if any(c.move == kind for c in own):
        return None
    private = rules.SPEC.private_moves  # a private note is no choice the rules wait for
    waiting = [s for s in range(len(state.players))
               if any(c.move not in private for c in (own if s == misfit.seat else rules.choices(state, s)))]
    return next((s for s in (seat, misfit.seat) if s in waiting), waiting[0] if waiting else None)
