"""Mandragora: identical copies are interchangeable (issue 12). A spell card's id stands for its spell and value,
a cursed scroll's id for any scroll with as many curses: naming a copy that was recorded already takes an identical
copy that is still there, and every later view, score, undo and correction replay agrees."""

from __future__ import annotations

from dataclasses import replace

from companion.rules.mandragora import game as mandragora
from companion.rules.mandragora.state import Cast, Pending
from tests.test_rules_mandragora import (
    apply,
    cast,
    items,
    position,
    refused,
    with_casts,
)


def test_a_second_value_1_banishment_named_banishment_1_takes_the_other_copy() -> None:
    state = with_casts(position(hand_counts=(4, 4, 1)), 1,
                       Cast("banishment-1", "spellbook-purple-1", ("purple",), 1))
    after = apply(state, 0, cast("spellbook-yellow-2", ["yellow"], 1, "banishment-1"))
    assert [c.spell for c in after.casts[0]] == ["banishment-2"]
    assert mandragora.view(after)["players"][0]["spells"][0]["spell"] == "banishment-2"
    assert "banishment-1" not in after.spells_left() and "banishment-2" not in after.spells_left()
    assert items(after) == 82
    # both value-1 copies are cast: a third is refused with the rule, and a value-2 copy is not "identical"
    error = refused(after, 1, cast("spellbook-red-1", ["red"], 1, "banishment-2"))
    assert error.rule == "mandragora.spell.no-such-copy"
    assert [c.spell for c in apply(after, 1, cast("spellbook-red-1", ["red", "red"], 2, "banishment-4")).casts[1]] \
        == ["banishment-1", "banishment-4"]


def test_naming_the_copy_still_in_the_stack_takes_that_very_copy() -> None:
    state = position(hand_counts=(4, 2, 1))
    after = apply(state, 0, cast("spellbook-yellow-2", ["yellow"], 1, "banishment-2"))
    assert [c.spell for c in after.casts[0]] == ["banishment-2"]


def test_a_cursed_scroll_id_stands_for_any_scroll_with_as_many_curses() -> None:
    state = position(scrolls=(("scroll-one-curse-1",), (), ()), curse_holder=0)
    after = apply(state, 0, {"type": "seek", "steps": 1, "scrolls": ["scroll-one-curse-1"]})
    assert after.scrolls[0] == ("scroll-one-curse-1", "scroll-one-curse-2")   # the lowest-numbered one still free
    # with 3 players the seventh one-curse scroll is in the box: its id still names a one-curse scroll
    boxed = apply(position(), 0, {"type": "seek", "steps": 1, "scrolls": ["scroll-one-curse-7"]})
    assert boxed.scrolls[0] == ("scroll-one-curse-1",)


def test_the_only_three_curse_scroll_in_front_of_someone_is_still_refused() -> None:
    state = position(scrolls=(("scroll-three-curses",), (), ()), curse_holder=0)
    error = refused(state, 0, {"type": "seek", "steps": 1, "scrolls": ["scroll-three-curses"]})
    assert error.rule == "mandragora.seek.scrolls" and "not still in the deck" in error.message


def test_banishment_of_a_scroll_named_by_an_identical_id() -> None:
    state = position(hand_counts=(4, 2, 1), scrolls=(("scroll-one-curse-3",), (), ()), curse_holder=0)
    after = apply(state, 0, cast("spellbook-yellow-2", ["yellow"], 1, "Banishment", scroll="scroll-one-curse-1"))
    assert after.scrolls[0] == () and after.banished == ("scroll-one-curse-3",)


def test_a_replay_on_a_corrected_history_takes_whichever_identical_copy_is_left() -> None:
    """What the store does for an undo or a correction: the same stored moves replayed on another history."""
    state = position(hand_counts=(4, 4, 1))
    first = cast("spellbook-yellow-2", ["yellow"], 1, "banishment-1")
    second = cast("spellbook-red-1", ["red"], 1, "banishment-1")
    played = apply(apply(state, 0, first), 1, second)
    assert [c.spell for c in played.casts[0] + played.casts[1]] == ["banishment-1", "banishment-2"]
    corrected = apply(apply(state, 0, cast("spellbook-yellow-2", ["yellow"], 1, "Transfer")), 1, second)
    assert [c.spell for c in corrected.casts[0] + corrected.casts[1]] == ["transfer-1", "banishment-1"]
    assert mandragora.score(corrected)[1]["breakdown"][0]["points"] == mandragora.score(played)[1]["breakdown"][0][
        "points"]


# --- the tie rule at every change (rulebook: "Each time a sorcerer gains or loses cursed scrolls") -----

TIED = (("scroll-two-curses-1",), ("scroll-two-curses-2",), ())


def test_a_tie_a_change_did_not_reach_still_passes_the_marker() -> None:
    """Ann and Ben tied on 2 with Ben holding: Cy's 1 curse is a change, the check finds the tie, Ben gives the
    marker to the other tied sorcerer (Ann) — in the old reading it stayed with Ben."""
    state = position(scrolls=TIED, curse_holder=1, turn_seat=2)
    after = apply(state, 2, {"type": "seek", "steps": 1, "scrolls": [1]})
    assert after.curse_holder == 0 and after.pending == ()
    assert mandragora.score(after)[0]["total"] == mandragora.score(state)[0]["total"] - 2


def test_passing_the_marker_without_a_check_is_refused() -> None:
    """The marker moves only at a check; a tie at rest is no invitation to pass it."""
    state = position(scrolls=TIED, curse_holder=1)
    error = refused(state, 1, {"type": "pass_curse_marker", "to": 0})
    assert error.rule == "mandragora.curse.tie" and error.message.startswith("Ben keeps the Curse marker until")
    assert error.pending is None
    assert "Nobody holds the Curse marker" in refused(position(), 0, {"type": "pass_curse_marker", "to": 1}).message
    assert not any(c.move == "pass_curse_marker" for s in range(3) for c in mandragora.choices(state, s))


def test_a_tie_made_by_the_last_move_of_play_is_passed_before_the_game_ends() -> None:
    """Cy's seek is the last turn of the final round and ties all three on 2: the game waits for Ben's pass
    (Ann or Cy), and only then do the hands get revealed; the −2 ends where Ben puts it."""
    state = position(scrolls=TIED, curse_holder=1, turn_seat=2, countdown_seat=0, countdown_marker="final")
    last = apply(state, 2, {"type": "seek", "steps": 1, "scrolls": [2]})
    assert last.phase == "play" and last.pending == (Pending("curse_marker", 1, (0, 2)),)
    assert not mandragora.outcome(last).over and mandragora.acting_seats(last) == [1]
    refusal = refused(last, 0, {"type": "reveal_hand", "colours": ["white"]})
    assert refusal.rule == "mandragora.end.reveal"
    assert [c.id for c in mandragora.choices(last, 1)][0] == "m-curse"
    passed = apply(last, 1, {"type": "pass_curse_marker", "to": 2})
    assert passed.phase == "reckoning" and passed.curse_holder == 2 and passed.pending == ()


def test_a_later_move_refused_by_a_pending_choice_names_that_choice() -> None:
    """A three-way tie (a correction can open one): any other move is refused in table words, and the refusal
    carries the pending choice — the same one ``choices`` offers the seat that must make it."""
    state = position(scrolls=TIED, curse_holder=1, turn_seat=2)
    tie = apply(state, 2, {"type": "seek", "steps": 1, "scrolls": [2]})
    error = refused(tie, 0, {"type": "seek", "steps": 1})
    assert error.message == "First Ben, who holds the Curse marker, gives it to Ann or Cy: they are tied for the " \
                            "most curses."
    assert error.pending == {"seat": 1, "move": "pass_curse_marker", "choice": "m-curse",
                             "rule": "mandragora.curse.tie", "title": "Ben gives the Curse marker to Ann or Cy"}
    offered = mandragora.choices(tie, error.pending["seat"])
    assert offered[0].id == error.pending["choice"] and offered[0].move == error.pending["move"]
    assert [o.value for o in offered[0].fields[0].options] == [0, 2]
    assert all(c.move == "note_hand" for s in (0, 2) for c in mandragora.choices(tie, s))


def test_a_team_help_pending_after_a_scroll_is_named_by_the_refusal() -> None:
    """Team variant: a scroll reported late (a correction) opens the give/receive choice; the next seat's
    move is refused naming it, and choices offer it to the seat that received the scroll."""
    state = position(("Ann", "Ben", "Cid", "Dee"), {"teams": True}, hand_counts=(1, 1, 2, 1),
                     shop_cards=(0, 1) + (1,) * 8)
    got = apply(state, 0, {"type": "seek", "steps": 1, "scrolls": [1]})
    error = refused(got, 1, {"type": "seek", "steps": 2})
    assert error.rule == "mandragora.team.exchange" and error.pending is not None
    assert error.pending["seat"] == 0 and error.pending["move"] == "team_help"
    assert "Ann, who just received cursed scrolls, chooses whether to give a card to Cid" in error.message
    assert mandragora.choices(got, 0)[0].id == error.pending["choice"] == "m-team"


def test_the_rule_entry_players_see_follows_the_rulebook() -> None:
    from cardgen.catalog import content
    text = next(r.text for r in content("mandragora").rules if r.id == "mandragora.curse.tie")
    assert "every time" in text.casefold() and "may still choose to pass it" not in text


# --- the single black spellbook (rulebook colour table: black spellbooks 1) ------------------------

def test_only_one_hand_can_show_the_single_black_spellbook() -> None:
    """Two hands cannot both show black. The hands are counted once the last is shown, and that reveal is
    taken, as at the table where the hands are laid down at once: every hand is then shown on every phone, and
    the game ends only once they add up. (The last reveal was refused naming the colour: that told the last
    sorcerer, before their own hand was shown, what the others had revealed, one refused tap a colour.)"""
    state = replace(position(hand_counts=(3, 2, 2)), phase="reckoning", turn_seat=None)
    first = apply(state, 0, {"type": "reveal_hand", "colours": ["black", "red"]})
    second = apply(first, 1, {"type": "reveal_hand", "colours": ["white", "black"]})  # taken: nothing told yet
    assert second.reveals[1] == ("white", "black") and second.phase == "reckoning"
    shown = apply(second, 2, {"type": "reveal_hand", "colours": ["red"]})
    assert shown.phase == "reckoning" and shown.reveals[2] == ("red",)
    ended = mandragora.outcome(shown)
    assert not ended.over and ended.rule == "mandragora.end.colour-count"
    assert ended.reason == ("The hands revealed show black 2 times, but only 1 black card can still be in a hand: "
                            "whoever revealed black wrongly corrects their reveal (on their own phone); the game "
                            "ends once the hands add up.")
    assert "Ann" not in ended.reason and "Ben" not in ended.reason   # it names nobody
    for seat in (None, 0, 1, 2):   # every hand is shown, and why the game goes on, on every phone alike
        view = mandragora.view(shown, seat)
        assert view["conflict"] == ended.reason and view["players"][1]["hand_colours"] == ["white", "black"]
    # the same last reveal after hands that add up: the same answer (a reveal), and the game is over
    mended = apply(first, 1, {"type": "reveal_hand", "colours": ["white", "red"]})
    assert apply(mended, 2, {"type": "reveal_hand", "colours": ["red"]}).phase == "over"
    reckoning = [c for c in mandragora.choices(first, 1) if c.move == "reveal_hand"]
    assert reckoning                                     # the form still offers every colour left in the game


def test_a_seek_with_too_few_scrolls_says_how_many_must_be_scrolls() -> None:
    """13 cards at the shops, none in the deck, 11 of them cursed scrolls: 4 cards taken hold at least 2."""
    state = position(hand_counts=(30, 30, 4), shop_cards=(0, 4, 2, 1, 1, 1, 1, 1, 1, 1))
    assert state.deck_count == 0 and state.pool() == 13 and len(state.free_scrolls()) == 11
    error = refused(state, 0, {"type": "seek", "steps": 1, "scrolls": [1]})
    assert error.rule == "mandragora.seek.scrolls"
    assert error.message == ("Only 2 of the 13 cards at the shops and in the deck are not cursed scrolls, so at "
                             "least 2 of the 4 cards taken here must be cursed scrolls, not 1.")
    assert apply(state, 0, {"type": "seek", "steps": 1, "scrolls": [1, 1]}).hand_counts[0] == 32


# --- games stored before the change keep the reading they began with (state format 1) ---------------

def _stored_in_format_1(state: mandragora.MandragoraState) -> mandragora.MandragoraState:
    from companion.rules import SPECS
    data = {k: v for k, v in mandragora.state_to_json(state).items() if k != "legacy_tie"}
    return mandragora.state_from_json(SPECS["mandragora"].upgraded_state({**data, "format_version": 1}))


def test_a_game_stored_before_the_change_finishes_under_its_old_reading() -> None:
    """Its stored log must replay as it was played: an untouched tie keeps the marker and its holder may pass
    it at will; a game set up now follows the rulebook at every change."""
    old = _stored_in_format_1(position(scrolls=TIED, curse_holder=1, turn_seat=2))
    assert old.legacy_tie and not position().legacy_tie
    kept = apply(old, 2, {"type": "seek", "steps": 1, "scrolls": [1]})
    assert kept.curse_holder == 1 and kept.pending == ()
    assert any(c.id == "m-curse-tie" for c in mandragora.choices(kept, 1))
    passed = apply(kept, 1, {"type": "pass_curse_marker", "to": 0})
    assert passed.curse_holder == 0 and passed.legacy_tie
    assert refused(kept, 0, {"type": "pass_curse_marker", "to": 1}).rule == "mandragora.curse.tie"
    assert mandragora.state_from_json(mandragora.state_to_json(passed)) == passed


def test_a_reveal_before_the_last_gets_the_same_answer_whatever_the_hidden_hands_show() -> None:
    """Same public moves, different secrets, identical answers: Ben's reveal of black is taken, and Ben's view is
    the same, whether Ann's hidden reveal showed black or red (a refusal told Ben that Ann's hand shows black)."""
    state = replace(position(hand_counts=(2, 2, 2)), phase="reckoning", turn_seat=None)
    views = []
    for ann in (["black"], ["red"]):
        after = apply(apply(state, 0, {"type": "reveal_hand", "colours": ann}), 1,
                      {"type": "reveal_hand", "colours": ["black"]})
        views.append(mandragora.view(after, 1))
    assert views[0] == views[1]


def test_a_seat_page_whose_hands_do_not_add_up_says_whoever_revealed_wrongly_corrects_it() -> None:
    """Every hand shown, black twice: both phones read "Hand revealed. Waiting for  to reveal." (nobody named),
    as if the game waited for a reveal, when it waits for one to be corrected."""
    from companion.web.games.mandragora import headline

    state = replace(position(hand_counts=(3, 2, 2)), phase="reckoning", turn_seat=None)
    for seat, colours in ((0, ["black", "red"]), (1, ["white", "black"]), (2, ["red"])):
        state = apply(state, seat, {"type": "reveal_hand", "colours": colours})
    for seat in range(3):
        said = headline({"view": mandragora.view(state, seat), "seat": seat, "names": list(state.players)}, set())
        assert said == "Every hand is shown, but they do not add up: whoever revealed wrongly corrects their reveal."
