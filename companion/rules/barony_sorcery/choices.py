"""Barony: Sorcery: ``choices(state, seat)`` — what a seat may report now and the values each field may take.

Nothing in this game is secret, so every choice comes from the public table: the locations this seat
may still explore (with the Magic tokens they pay now, sent with the move as ``reward``), the spells in
play this seat's Magic tokens pay for (a combination must share one category and be paid in full:
the form leaves that relation to the server, rule ids in ``checks``), the end of the base game, the
seat's base-game points, and in the review every player's total to confirm or send back.
Spells are printed cards with a QR code: their options carry ``card``.
"""

from __future__ import annotations

from ..choices import Choice, Field, Option
from .cast import (
    CAST_PAY,
    CAST_SAME_CATEGORY,
    GAME,
    GAME_ID,
    SPELL_KEYS,
    legal_casts,
    tokens,
)
from .play import open_locations
from .state import LOCATION_BY_ID, MAX_BASE_POINTS, POINTS_PER_CONTROL, BaronyState

ORDINALS: tuple[str, ...] = ("1st", "2nd", "3rd")
TILE_NUMBER: dict[str, int] = {tile.id: tile.number for tile in GAME.tiles}


def _category_text(category_id: str) -> str:
    """A category as its word, card colour and symbol name (colour is never the only cue)."""
    category = GAME.category(category_id)
    return f"{category.name} ({category.colour}, {category.symbol_name})"


def _explore(state: BaronyState, seat: int) -> Choice | None:
    options = []
    for loc in open_locations(state, seat):
        due = state.next_reward(loc)
        reward = min(due, state.supply)
        place = LOCATION_BY_ID[loc]
        short = " (the supply is short)" if reward < due else ""
        options.append(Option(loc, place.name, f"+{tokens(reward)}{short} · you arrive "
                              f"{ORDINALS[len(state.controls_on(loc))]} · tile {TILE_NUMBER.get(place.tile, '?')} "
                              f"· +{POINTS_PER_CONTROL} points at the end", also={"reward": reward}))
    if not options:
        return None
    return Choice("explore", "Place my Control token",
                  (Field("location", "A knight of yours reached which Mysterious location?", options=tuple(options)),),
                  id="f-explore", rule="barony-sorcery.explore.reward", awaited=False)


def _cast(state: BaronyState, seat: int) -> Choice | None:
    magic = state.magic[seat]
    casts = legal_casts(state.spells, magic)
    if not casts:
        return None
    castable = {spell.id for cast in casts for spell in cast.spells}
    options = tuple(Option(spell_id, SPELL_KEYS[spell_id].name,
                           f"{tokens(SPELL_KEYS[spell_id].cost)} · {_category_text(SPELL_KEYS[spell_id].category)} · "
                           f"{SPELL_KEYS[spell_id].text}", card=(GAME_ID, spell_id))
                    for spell_id in state.spells if spell_id in castable)
    most = max(len(cast.spells) for cast in casts)
    return Choice("cast", "Cast",
                  (Field("spells", "Cast which spell or spells?", kind="many", options=options, min=1, max=most,
                         hint=f"One spell, or several of one category to combine them in one action. You have "
                              f"{tokens(magic)}; the total is paid first."),),
                  id="f-cast", rule="barony-sorcery.cast.combine", checks=(CAST_SAME_CATEGORY, CAST_PAY),
                  awaited=False)


def _points(state: BaronyState, seat: int) -> Choice:
    entered = state.base_points[seat]
    return Choice("base_points", "Correct my points" if entered is not None else "Enter my points",
                  (Field("points", "Your base-game points (Barony's own score)", kind="number", min=0,
                         max=MAX_BASE_POINTS, default=entered),),
                  id="f-points", rule="barony-sorcery.score.base", primary=entered is None,
                  folded=state.phase == "review", title="Correct my base-game points" if state.phase == "review" else "",
                  hint=f"The companion adds {POINTS_PER_CONTROL} points per Control token on a Mysterious location.")


def _review(state: BaronyState, seat: int) -> list[Choice]:
    found = []
    if not state.confirmed[seat]:
        found.append(Choice("confirm_totals", "These totals are right", id="f-confirm", irreversible=True,
                            rule="barony-sorcery.companion.review",
                            hint="The game ends once every player has confirmed."))
    found.append(Choice("send_back", "Send back",
                        (Field("seat", "Whose total is wrong?",
                               options=tuple(Option(s, name, f"base game {state.base_points[s]} + Control tokens "
                                                              f"{state.control_points(s)} = "
                                                              f"{(state.base_points[s] or 0) + state.control_points(s)}")
                                             for s, name in enumerate(state.players))),),
                        title="A total is wrong: send it back", id="f-send-back", folded=True, primary=False,
                        rule="barony-sorcery.companion.review",
                        hint="That player types their base-game points again; everyone confirms the new totals."))
    found.append(_points(state, seat))
    return found


def choices(state: BaronyState, seat: int) -> list[Choice]:
    """The moves ``seat`` may report now, each with the values its fields may take. Explorations and casts are
    reported when they happen at the table: the companion keeps no turn order, so it waits for nobody's
    (``awaited=False``) until the points are entered and confirmed."""
    if state.phase == "over" or not 0 <= seat < len(state.players):
        return []
    if state.phase == "scoring":
        return [_points(state, seat)]
    if state.phase == "review":
        return _review(state, seat)
    found = [c for c in (_explore(state, seat), _cast(state, seat)) if c is not None]
    found.append(Choice("end_game", "Report the end of the base game", id="f-end", title="The base game has ended",
                        folded=True, primary=False, irreversible=True, rule="barony-sorcery.companion.end",
                        hint="Once reported, nobody explores or casts any more and every player enters their "
                             "base-game points."))
    return found


__all__ = ["choices"]
