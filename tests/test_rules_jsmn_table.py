"""Jonathan Strange & Mr Norrell: rulebook cases the table found (issue 12) — a borrowed Confidant, Canute's
Tide and the connexion it takes away, the 24 spells, and cards the game has one copy of."""

from __future__ import annotations

import random

from companion.rules.jsmn import game as jsmn
from companion.rules.jsmn.state import (
    FEAT_NEEDS,
    INVITATIONS,
    SPELLS,
    JsmnState,
    state_from_json,
    state_to_json,
)
from tests.test_rules_jsmn import play, refused, started


def test_a_borrowed_confidant_draws_nothing_it_acts_before_the_action() -> None:
    state = started(first_seat=2)                    # John Segundus, without a confidant
    before = state.seats[2].introductions
    state = play(state, 2, {"type": "choose_action", "action": "unique", "connexion": "confidant"})
    assert state.seats[2].introductions == before
    assert state.turn is not None and state.turn.borrowed == "confidant"
    # his own confidant would have drawn before the action
    own = play(started(first_seat=2).with_seat(2, connexions=("confidant",)), 2, {"type": "still_waters"})
    assert own.seats[2].introductions == before + 1


def _flora(state: JsmnState) -> JsmnState:
    """Seat 0 in Padua fulfils Flora Greysteel (2 prestige: onto or past the first connexion space, 2)."""
    state = play(state.with_seat(0, location="padua").with_seat(1, spells=1), 0, {"type": "still_waters"},
                 {"type": "engage", "card": "flora-greysteel"})
    assert state.turn is not None and state.turn.pending == 1
    return state


def test_canutes_tide_takes_away_the_connexion_whose_space_it_took_away() -> None:
    state = _flora(started())
    assert state.seats[0].prestige == 2
    state = play(state, 1, {"type": "cast_spell", "spell": "canutes-tide"})
    assert state.seats[0].prestige == 1
    assert state.turn is not None and state.turn.pending == 0
    refused(state, 0, {"type": "connexion", "connexion": "pupil"}, "jsmn.connexion.gain")
    state = play(state, 0, {"type": "move", "to": "venice"})       # the turn goes on without a connexion to choose


def test_canutes_tide_keeps_a_connexion_the_lower_prestige_still_reaches() -> None:
    state = _flora(started().with_seat(0, prestige=1, arrival=9))
    assert state.seats[0].prestige == 3
    state = play(state, 1, {"type": "cast_spell", "spell": "canutes-tide"})
    assert state.seats[0].prestige == 2 and state.turn is not None and state.turn.pending == 1


def test_canutes_tide_on_a_one_prestige_introduction_puts_the_disc_back_on_top_of_its_old_space() -> None:
    """Our reading, said in jsmn.spell.canutes-tide (an audit asked which): the disc rose one space and comes
    back down onto the space it left, on top of the stack there, as a table moves it by hand."""
    state = started().with_seat(0, prestige=3, arrival=1, location="hanover-square", introductions=3)
    state = state.with_seat(1, prestige=3, arrival=2, spells=1)  # (arrivals before the game's clock, 3)
    assert jsmn.stack_place(state, 1) < jsmn.stack_place(state, 0)  # Ben's disc on top of Ann's
    state = play(state, 0, {"type": "still_waters"}, {"type": "engage", "card": "a-lady-of-fashion"})
    assert state.seats[0].prestige == 4
    state = play(state, 1, {"type": "cast_spell", "spell": "canutes-tide"})
    assert state.seats[0].prestige == 3 and jsmn.stack_place(state, 0) < jsmn.stack_place(state, 1)
    assert "back where it was, but now on top" in jsmn.GAME.rule("jsmn.spell.canutes-tide").text


def test_canutes_tide_after_the_connexion_is_chosen_is_refused_and_changes_nothing() -> None:
    state = play(_flora(started()), 0, {"type": "connexion", "connexion": "pupil"})
    refused(state, 1, {"type": "cast_spell", "spell": "canutes-tide"}, "jsmn.spell.timing")
    assert state.seats[1].spells == 1 and state.seats[0].connexions == ("pupil",)


def _one_token_to_go(state: JsmnState) -> tuple[JsmnState, str, str]:
    """Seat 0 doing magic with one wind token to go on a feat, and a wind invitation to discard."""
    state = play(state, 0, {"type": "still_waters"})
    fid = next(f for f, need in FEAT_NEEDS.items() if set(need) == {"wind"})
    state = state.with_seat(0, feats=((fid, ("wind",) * (FEAT_NEEDS[fid]["wind"] - 1)),), invitations=4)
    assert "wind" in state.available_elements()
    card = next(c for c, i in INVITATIONS.items() if i.element == "wind")
    return state, fid, card


def test_a_completed_feat_draws_a_spell_only_while_one_of_the_24_is_left() -> None:
    state, fid, card = _one_token_to_go(started())
    magic = {"type": "magic", "card": card, "feat": fid}
    drawn = play(state, 0, magic)
    assert fid in drawn.seats[0].completed and drawn.seats[0].spells == 1
    full = state.with_seat(1, spells=14).with_seat(2, spells=10)          # all 24 in hands
    assert full.spells_left() == 0
    done = play(full, 0, magic)
    assert fid in done.seats[0].completed and done.seats[0].spells == 0
    # a magicianship spell stays in front of its caster; any other cast spell is in the discard pile
    kept_spell = next(s for s, spell in SPELLS.items() if spell.magicianship)
    cast_spell = next(s for s, spell in SPELLS.items() if not spell.magicianship)
    kept = state.with_seat(1, spells=13, spells_played=(kept_spell,)).with_seat(2, spells=10)
    assert play(kept, 0, magic).seats[0].spells == 0
    cast = state.with_seat(1, spells=13, spells_played=(cast_spell,)).with_seat(2, spells=10)
    assert play(cast, 0, magic).seats[0].spells == 1


def test_a_one_copy_card_cannot_be_played_twice_in_a_turn() -> None:
    state = play(started().with_seat(0, location="madrid", invitations=3), 0, {"type": "still_waters"})
    state = play(state, 0, {"type": "engage", "card": "private-ball"})
    error = refused(state, 0, {"type": "engage", "card": "private-ball"}, "jsmn.cards.one-copy")
    assert "Private Ball" in str(error)
    state = play(state, 0, {"type": "engage", "card": "court-reception"})      # another card is fine
    assert state.turn is not None and state.turn.cards_played == ("private-ball", "court-reception")


def test_a_draw_during_the_turn_forgets_the_played_cards() -> None:
    state = play(started().with_seat(0, location="madrid", invitations=3, connexions=("advisor",)), 0,
                 {"type": "still_waters"}, {"type": "engage", "card": "private-ball"},
                 {"type": "advisor", "card": "masquerade"})
    assert state.turn is not None and state.turn.cards_played == ()
    state = play(state, 0, {"type": "engage", "card": "private-ball"})    # a reshuffle may have brought it back


def test_states_stored_before_the_new_turn_fields_still_load() -> None:
    state = play(_flora(started()), 0)
    data = state_to_json(state)
    for key in ("cards_played", "intro_from", "intro_gained"):
        del data["turn"][key]
    loaded = state_from_json(data)
    assert loaded.turn is not None and loaded.turn.cards_played == () and loaded.turn.pending == 1
    assert state_from_json(state_to_json(state)) == state


def test_random_games_stay_legal_and_never_hold_more_than_the_24_spells() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = jsmn.setup(["Ann", "Ben", "Cy"], {})
        for _ in range(5000):
            seats = [s for s in jsmn.acting_seats(state) if jsmn.random_legal_move(state, s, random.Random(0))]
            if state.phase == "over" or not seats:
                break
            seat = seats[0]
            move = jsmn.random_legal_move(state, seat, rng)
            assert move is not None
            state = jsmn.apply(state, seat, move)              # an illegal move raises: the test fails
            assert state.spells_left() >= 0
        assert state.phase == "over"


# -- Canute's Tide: only that introduction, only at its moment, only what it gave (issue 21) -----------
# Spell text (authored, data/jsmn/spells.toml): "Play when another player fulfils an introduction: they gain
# 1 prestige less from it." The moment is the introduction's: once its player does anything else, it is gone.

def _professor(state: JsmnState) -> JsmnState:
    """Seat 0 in Padua fulfils A Professor of Padua (1 prestige); seat 1 holds a spell."""
    return play(state.with_seat(0, location="padua").with_seat(1, spells=1), 0, {"type": "still_waters"},
                {"type": "engage", "card": "a-professor-of-padua"})


def _spells_offered(state: JsmnState, seat: int) -> set[object]:
    return {o.value for c in jsmn.choices(state, seat) if c.move == "cast_spell" for f in c.fields
            if f.name == "spell" for o in f.options}


def test_canutes_tide_is_refused_once_the_introducer_has_moved_on() -> None:
    state = _professor(started())
    later = play(state, 0, {"type": "move", "to": "venice"})
    error = refused(later, 1, {"type": "cast_spell", "spell": "canutes-tide"}, "jsmn.spell.timing")
    assert "before that player does anything else" in error.message
    assert later.seats[0].prestige == 1 and later.seats[1].spells == 1
    assert "canutes-tide" not in _spells_offered(later, 1)
    # the moment is open right after the introduction, and the form offers the spell then
    assert "canutes-tide" in _spells_offered(state, 1)
    assert play(state, 1, {"type": "cast_spell", "spell": "canutes-tide"}).seats[0].prestige == 0


def test_canutes_tide_answers_only_the_latest_introduction_once() -> None:
    state = _professor(started()).with_seat(1, spells=2)
    state = play(state, 1, {"type": "cast_spell", "spell": "canutes-tide"})
    refused(state, 1, {"type": "cast_spell", "spell": "canutes-tide"}, "jsmn.spell.timing")


def test_canutes_tide_at_the_top_of_the_track_takes_back_only_what_was_given() -> None:
    top = 40
    near = _professor(started().with_seat(0, prestige=top - 1, arrival=9))
    assert near.seats[0].prestige == top
    assert play(near, 1, {"type": "cast_spell", "spell": "canutes-tide"}).seats[0].prestige == top - 1
    # already at the top, the introduction gives nothing: there is nothing to take back
    at_top = _professor(started().with_seat(0, prestige=top, arrival=9))
    assert at_top.seats[0].prestige == top
    refused(at_top, 1, {"type": "cast_spell", "spell": "canutes-tide"}, "jsmn.spell.timing")
    assert at_top.seats[0].prestige == top and at_top.seats[1].spells == 1


def test_a_move_behind_a_connexion_to_choose_names_that_choice() -> None:
    """A correction can open a connexion (more prestige earlier): the magician's later move is refused naming
    the choice that comes first, the one choices() offers."""
    state = _flora(started())
    error = refused(state, 0, {"type": "move", "to": "venice"}, "jsmn.connexion.gain")
    assert error.pending == {"seat": 0, "move": "connexion", "choice": "j-conn", "rule": "jsmn.connexion.gain",
                             "title": f"{state.players[0]} chooses the connexion just gained"}
    assert jsmn.choices(state, 0)[0].id == "j-conn"
    assert refused(state.with_seat(0, spells=1), 0, {"type": "cast_spell", "spell": "agrippas-ring"},
                   "jsmn.connexion.gain").pending == error.pending


def test_a_game_stored_before_the_change_keeps_its_canutes_tide() -> None:
    """A state stored in format 1 replays as it was played: the spell stays open after the introducer moves
    on and takes 1 prestige at the top of the track; a game set up now follows the new reading."""
    from companion.rules import SPECS
    fresh = started()
    data = {k: v for k, v in state_to_json(fresh).items() if k != "legacy_canute"}
    old = state_from_json(SPECS["jsmn"].upgraded_state({**data, "format_version": 1}))
    assert old.legacy_canute and not fresh.legacy_canute
    late = play(_professor(old), 0, {"type": "move", "to": "venice"})
    assert play(late, 1, {"type": "cast_spell", "spell": "canutes-tide"}).seats[0].prestige == 0
    at_top = _professor(old.with_seat(0, prestige=40, arrival=9))
    assert play(at_top, 1, {"type": "cast_spell", "spell": "canutes-tide"}).seats[0].prestige == 39
    assert state_from_json(state_to_json(late)) == late
