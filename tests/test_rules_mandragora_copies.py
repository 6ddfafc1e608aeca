"""Mandragora: identical copies are interchangeable (issue 12). A spell card's id stands for its spell and value,
a cursed scroll's id for any scroll with as many curses: naming a copy that was recorded already takes an identical
copy that is still there, and every later view, score, undo and correction replay agrees."""

from __future__ import annotations

from typing import Any

from companion.rules.mandragora import game as mandragora
from companion.rules.mandragora.state import Cast
from tests.test_rules_mandragora import apply, cast, items, position, refused, with_casts


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


# --- a tie the change did not touch (data note curse-tie-unchanged) ---------------------------------

def _untouched_tie() -> Any:
    """Ann and Ben tied on 2 with Ben holding; Cy's 1 curse leaves the marker with Ben (Cy's turn is over)."""
    state = position(scrolls=(("scroll-two-curses-1",), ("scroll-two-curses-2",), ()), curse_holder=1, turn_seat=2)
    after = apply(state, 2, {"type": "seek", "steps": 1, "scrolls": [1]})
    assert after.curse_holder == 1 and after.pending == ()
    return after


def test_the_holder_tied_for_most_may_pass_the_marker_even_when_the_tie_was_untouched() -> None:
    state = _untouched_tie()
    passed = apply(state, 1, {"type": "pass_curse_marker", "to": 0})
    assert passed.curse_holder == 0 and passed.turn_seat == state.turn_seat and passed.turn_number == state.turn_number
    assert mandragora.score(passed)[0]["total"] == mandragora.score(state)[0]["total"] - 2
    assert any(c.move == "pass_curse_marker" and c.id == "m-curse-tie" for c in mandragora.choices(state, 1))
    assert not any(c.move == "pass_curse_marker" for c in mandragora.choices(state, 0))


def test_passing_the_marker_is_refused_with_the_reason_that_applies() -> None:
    state = _untouched_tie()
    error = refused(state, 0, {"type": "pass_curse_marker", "to": 1})
    assert error.rule == "mandragora.curse.tie" and error.message.startswith("Only Ben, who holds the Curse marker")
    error = refused(state, 1, {"type": "pass_curse_marker", "to": 2})    # Cy has 1 curse: not tied
    assert error.rule == "mandragora.curse.tie" and "tied for the most curses: Ann" in error.message
    alone = position(scrolls=(("scroll-two-curses-1",), (), ()), curse_holder=0)
    error = refused(alone, 0, {"type": "pass_curse_marker", "to": 1})
    assert error.rule == "mandragora.curse.tie"
    assert "Ann has 2 and nobody else has as many" in error.message
    assert "Nobody holds the Curse marker" in refused(position(), 0, {"type": "pass_curse_marker", "to": 1}).message
    assert not any(c.move == "pass_curse_marker" for c in mandragora.choices(alone, 0))


def test_the_rule_entry_players_see_states_the_choice() -> None:
    from cardgen.catalog import content
    text = next(r.text for r in content("mandragora").rules if r.id == "mandragora.curse.tie")
    assert "tie untouched" in text and "may still choose to pass it" in text
