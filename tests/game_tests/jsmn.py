"""Jonathan Strange & Mr Norrell: what the shared tests need to know (tests/game_traits.py)."""

from __future__ import annotations

import random
from typing import Any, Mapping

from game_traits import GameTraits, Moves, SecretModel, strings_in

from cardgen.catalog import content
from companion.rules import GAMES


def rearrange_hidden(state: Any, viewer: int | None, rng: random.Random) -> Any:
    """Before the end, change another seat's private ledger: a feat in front of it (or a completed one) for a
    feat nobody holds: its magicianship changes, its view must not. (The spells it has cast are public: every
    log names them.)"""
    from companion.rules.jsmn.state import FEATS

    if state.phase == "over":
        return None
    others = [s for s in range(len(state.players)) if s != viewer and (state.seats[s].feats or state.seats[s].completed)]
    if not others:
        return None
    seat = rng.choice(others)
    here = state.seats[seat]
    free = [f for f in FEATS if f not in state.feats_out()]
    if not free:
        return None
    if here.completed and rng.random() < 0.5:
        completed = (rng.choice(free),) + here.completed[1:]
        changed = state.with_seat(seat, completed=completed)
    else:
        changed = state.with_seat(seat, feats=((rng.choice(free), here.feats[0][1]),) + here.feats[1:]) \
            if here.feats else state.with_seat(seat, completed=(rng.choice(free),) + here.completed[1:])
    return None if changed == state else changed


def form_move(state: Any, seat: int, move: Mapping[str, Any]) -> dict[str, Any] | None:
    """A legal move as the seat's form writes it: the picks of a list in the form's order (feats as the catalog
    lists them, the named connexions too); the books laid out keep their order (one pick per place in the row)."""
    from companion.rules.jsmn.state import FEATS, NAMED

    out = dict(move)
    if move["type"] == "new_year" and state.marseilles:   # the rows are asked in the first year only
        out.pop("books", None)
        out.pop("named", None)
    order = {**{f: i for i, f in enumerate(FEATS)}, **{n: i for i, n in enumerate(NAMED)}}
    for name in ("feats", "named"):
        if isinstance(out.get(name), list) and not (move["type"] == "use_book"):
            out[name] = sorted(out[name], key=order.__getitem__)
    return out



# -- secrets (tests/test_reliability_secrets.py) --

# Jonathan Strange & Mr Norrell: magicianship is secret until the end. A seat's ledger — the feats of magic
# in front of it, its completed feats and the spells it has played — is in its own view only; other seats'
# logs leave those ids out (starting feats, the feats an invitation gave, magic's target feat, a cast).
# The twin game swaps a feat lying untouched in front of one seat for a feat no move ever named, of
# another magicianship value where there is one: everyone else must be shown exactly the same game.

def _jsmn_ledger_ids(state: Any, seat: int) -> set[str]:
    here = state.seats[seat]
    return {fid for fid, _ in here.feats} | set(here.completed) | set(here.spells_played)


def jsmn_secrets(history: list[Any], moves: Moves, viewer: int | None) -> set[str]:
    rules, state = GAMES["jsmn"], history[-1]
    seen = set().union(*(strings_in(rules.redact_move(move, actor, viewer)) for actor, move in moves)) \
        if moves else set()
    own = _jsmn_ledger_ids(state, viewer) if viewer is not None else set()
    found: set[str] = set()
    for seat in range(len(state.players)):
        if seat != viewer:
            found |= _jsmn_ledger_ids(state, seat) - own - seen
    return found


def jsmn_twin_swap(history: list[Any], moves: Moves, seat: int) -> dict[str, str] | None:
    from companion.rules.jsmn.state import FEATS

    state = history[-1]
    mentioned = set().union(*(strings_in(move) for _, move in moves)) if moves else set()
    untouched = [fid for fid, tokens in state.seats[seat].feats if not tokens]
    unused = [fid for fid in FEATS if fid not in mentioned and fid not in state.feats_out()]
    if not untouched or not unused:
        return None
    mine = untouched[0]
    other_value = [fid for fid in unused if FEATS[fid].magicianship != FEATS[mine].magicianship]
    swap = (other_value or unused)[0]
    return {mine: swap, swap: mine}


def jsmn_names(secrets: set[str]) -> set[str]:
    catalog = content("jsmn")
    return {card.name for card in map(catalog.find_card, secrets) if card is not None}


#: a 3-player game of random moves ends after 107 to 241 (median 211, 60 seeded games): 3 x 25 fit. The owner's
#: seat page shows its ledger (the swapped feat), like its API view. Secrets are read early too: feats fill
#: with tokens, and a feat nobody touched yet is likelier early (the twin swaps one).
TRAITS = GameTraits(label_sentences={"discard_for": "Ansehen abwerfen", "number_line": "· Karte ", "tokens_one": "-Marke",
                                     "feat_needs": "Braucht genau", "magicianship_played": "ZAUBERKUNST",
                                     "person_historical": "eine Person der Geschichte"},
                    secret_model=SecretModel(jsmn_secrets, jsmn_twin_swap, jsmn_names),
                    secret_checkpoints=(8, 20, 45, 70, 150),
                    form_move=form_move, rearrange_hidden=rearrange_hidden, min_moves_per_game=80,
                    crash_acks_per_round=25)
