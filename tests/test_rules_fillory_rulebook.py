"""Magicians of Fillory, tested from the rulebook alone: an independent reading of every rule.

Each case below cites the rulebook passage it checks (/work/shared/rules/magicians-of-fillory.txt)
and uses only the data files (data/fillory/*.toml, typos as notes.toml explains them) and the public
rules interface (setup/apply/view/score/outcome and the JSON round trip to build positions).
Where the rulebook leaves a question open, the comment says which reading we took and why.
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any, Iterable, Mapping

import pytest
from flask.testing import FlaskClient

from cardgen.catalog import content
from companion.rules import IllegalMove, SetupError
from companion.rules.fillory import game as fillory

DATA = Path(__file__).resolve().parents[1] / "data" / "fillory"
RULE_IDS = {entry["id"] for entry in tomllib.loads((DATA / "rules.toml").read_text("utf-8"))["rule"]}
GAME = content("fillory")
PLAYERS = ("Ann", "Ben", "Cy")


# --- positions, built through the public JSON round trip ------------------------------------------

def cid(ref: str) -> str:
    return str(GAME.card(ref).id)


def ledger_entries(scored: Mapping[str, int]) -> list[dict[str, Any]]:
    """Ledger rows for traits already scored: {trait: number of cards} gives cards² points each."""
    return [{"kind": "score", "trait": trait, "cards": n, "points": n * n} for trait, n in scored.items()]


def position(*, hands: Mapping[int, Iterable[str]] | None = None, zones: Mapping[int, Iterable[str]] | None = None,
             neutral: Iterable[str] = (), discard: Iterable[str] = (), deck: Iterable[str] = (),
             rest: str | None = None, seat: int = 0, step: str = "action", pending: str | None = None,
             extra_action: bool = False, scored: Mapping[int, Mapping[str, int]] | None = None,
             players: tuple[str, ...] = PLAYERS, number: int = 7) -> Any:
    """A play-phase position. Cards start as set up (13 neutral, the rest in the deck); ``rest`` moves
    every card not named here to that place; the named cards are then put where the arguments say."""
    data = fillory.state_to_json(fillory.setup(list(players)))
    places: dict[str, str] = data["locations"]
    if rest is not None:
        places.update({card: rest for card in places})
    for place, refs in [("neutral", neutral), ("discard", discard), ("deck", deck)]:
        places.update({cid(ref): place for ref in refs})
    for s, refs in (zones or {}).items():
        places.update({cid(ref): f"zone:{s}" for ref in refs})
    for s, refs in (hands or {}).items():
        places.update({cid(ref): f"hand:{s}" for ref in refs})
    data["phase"] = "play"
    data["turn"] = {"seat": seat, "step": step, "number": number, "extra_action": extra_action,
                    "pending": cid(pending) if pending else None}
    data["ledger"] = [ledger_entries((scored or {}).get(s, {})) for s in range(len(players))]
    return fillory.state_from_json(data)


def at(state: Any, ref: str) -> str:
    return str(fillory.state_to_json(state)["locations"][cid(ref)])


def turn(state: Any) -> dict[str, Any]:
    return dict(fillory.view(state, None)["turn"])


def vp(state: Any, seat: int) -> int:
    return int(fillory.view(state, None)["players"][seat]["vp"])


def play(state: Any, seat: int, *moves: Mapping[str, Any]) -> Any:
    for move in moves:
        state = fillory.apply(state, seat, move)
    return state


def refused(state: Any, seat: int, move: Any) -> IllegalMove:
    """The move is refused, the state is unchanged and the refusal names a rule that exists."""
    before = fillory.state_to_json(state)
    with pytest.raises(IllegalMove) as caught:
        fillory.apply(state, seat, move)
    assert fillory.state_to_json(state) == before
    error = caught.value
    assert error.message.strip(), "a refusal needs a sentence"
    assert error.rule is None or error.rule in RULE_IDS, f"{error.rule!r} is not in rules.toml"
    return error


def moved_cards(before: Any, after: Any) -> dict[str, str]:
    """{card id: new place} for every card whose place changed."""
    old, new = fillory.state_to_json(before)["locations"], fillory.state_to_json(after)["locations"]
    return {card: new[card] for card in old if old[card] != new[card]}


#: 99 victory points already scored: Magic ×9 = 81, Plover ×3 = 9, Light ×2 = 4, Sex ×2 = 4, Drugs ×1 = 1.
NINETY_NINE = {"Magic": 9, "Plover": 3, "Light": 2, "Sex": 2, "Drugs": 1}


def test_the_position_builder_agrees_with_the_rulebook_setup() -> None:
    state = position()
    table = fillory.view(state, None)
    assert sorted(table["neutral"]) == sorted(cid(ref) for ref in GAME.setup_neutral)
    assert table["deck_count"] == 110 - 13 and table["discard"] == []
    assert RULE_IDS >= {"fillory.summon", "fillory.banish"}


# --- SPECIAL ABILITIES: "SA are activated when a card is played from a player's hand" -------------

def test_playing_a_card_from_hand_activates_its_ability() -> None:
    state = play(position(hands={0: ["Quentin"]}, neutral=[]), 0, {"type": "play", "card": "quentin"})
    assert at(state, "Quentin") == "zone:0"
    assert turn(state)["step"] == "ability"
    pending = fillory.view(state, 0)["pending"]
    assert pending["card"] == cid("Quentin")
    assert [(o["action"], o["target"]) for o in pending["options"]] == [
        ("summon", cid("Julia")), ("summon", cid("Alice")), ("summon", cid("Penny")), ("summon", cid("Elliot"))]


# "Summon Julia, Alice, Penny or Elliot": any one of the named cards, none other.
@pytest.mark.parametrize("target", ["Julia", "Alice", "Penny", "Elliot"])
def test_summon_x_y_or_z_takes_any_one_of_the_named_cards(target: str) -> None:
    state = position(hands={0: ["Quentin"]}, step="ability", pending="Quentin", zones={0: ["Quentin"]})
    after = fillory.apply(state, 0, {"type": "summon", "card": target, "to": "zone"})
    assert moved_cards(state, after) == {cid(target): "zone:0"}
    assert turn(after)["step"] == "trick" and fillory.view(after, 0)["pending"] is None


@pytest.mark.parametrize("target", ["Margo", "Kady", "Eliza", "Time Loop"])
def test_summon_x_y_or_z_refuses_cards_it_does_not_name(target: str) -> None:
    state = position(zones={0: ["Quentin"]}, step="ability", pending="Quentin")
    assert refused(state, 0, {"type": "summon", "card": target, "to": "hand"}).rule == "fillory.ability.target"


# "Summon Eliza, Student or Defense": a named card and two traits on one card.
@pytest.mark.parametrize("target, place", [("Eliza", "neutral"), ("Hammer Spell", "deck"),
                                           ("Binding Spell", "discard"), ("Alice", "neutral")])
def test_summon_a_named_card_or_any_card_with_a_named_trait(target: str, place: str) -> None:
    state = position(zones={0: ["Dean Fogg"]}, step="ability", pending="Dean Fogg", discard=["Binding Spell"])
    assert at(state, target) == place
    after = fillory.apply(state, 0, {"type": "summon", "card": target, "to": "hand"})
    assert moved_cards(state, after) == {cid(target): "hand:0"}


def test_summon_by_trait_refuses_a_card_without_that_trait() -> None:
    state = position(zones={0: ["Dean Fogg"]}, step="ability", pending="Dean Fogg")
    # Time Loop has Time, Plot and Knowledge: neither Eliza, nor a Student, nor a Defense.
    assert refused(state, 0, {"type": "summon", "card": "Time Loop", "to": "zone"}).rule == "fillory.ability.target"
    # Alice summons a Spell; Quentin is no Spell.
    alice = position(zones={0: ["Alice"]}, step="ability", pending="Alice")
    assert refused(alice, 0, {"type": "summon", "card": "Quentin", "to": "zone"}).rule == "fillory.ability.target"


# "Summon or Banish Plot" (Time Loop, Probability Magic): either verb, a Plot card either way.
@pytest.mark.parametrize("card", ["Time Loop", "Probability Magic"])
def test_summon_or_banish_plot(card: str) -> None:
    state = position(zones={0: [card], 1: ["Romance"], 2: ["Death"]}, step="ability", pending=card,
                     discard=["Infidelity"])
    summoned = fillory.apply(state, 0, {"type": "summon", "card": "Infidelity", "to": "hand"})
    assert moved_cards(state, summoned) == {cid("Infidelity"): "hand:0"}
    stolen = fillory.apply(state, 0, {"type": "summon", "card": "Death", "to": "zone"})
    assert moved_cards(state, stolen) == {cid("Death"): "zone:0"}
    banished = fillory.apply(state, 0, {"type": "banish", "card": "Romance"})
    assert moved_cards(state, banished) == {cid("Romance"): "discard"}
    neutral_beast = fillory.apply(state, 0, {"type": "banish", "card": "The Beast"})  # The Beast is a Plot
    assert moved_cards(state, neutral_beast) == {cid("The Beast"): "discard"}
    for after in (summoned, stolen, banished, neutral_beast):
        assert turn(after)["step"] == "trick"
    assert refused(state, 0, {"type": "banish", "card": "Quentin"}).rule == "fillory.ability.target"
    assert refused(state, 0, {"type": "summon", "card": "Alice", "to": "hand"}).rule == "fillory.ability.target"


# "Summon Julia or Banish Religion" (Trickster God): the card goes with summon, the trait with banish.
def test_summon_julia_or_banish_religion() -> None:
    state = position(zones={0: ["Trickster God"], 1: ["Richard"]}, step="ability", pending="Trickster God",
                     discard=["Persephone"])
    summoned = fillory.apply(state, 0, {"type": "summon", "card": "Julia", "to": "zone"})
    assert moved_cards(state, summoned) == {cid("Julia"): "zone:0"}
    banished = fillory.apply(state, 0, {"type": "banish", "card": "Richard"})
    assert moved_cards(state, banished) == {cid("Richard"): "discard"}
    # Julia herself has Religion, so she may also be banished from the neutral zone.
    assert moved_cards(state, fillory.apply(state, 0, {"type": "banish", "card": "Julia"})) == {cid("Julia"): "discard"}
    # Summon is for Julia only: another Religion card cannot be summoned.
    assert refused(state, 0, {"type": "summon", "card": "Persephone", "to": "hand"}).rule == "fillory.ability.target"
    # Banish is for Religion only: Quentin has none.
    assert refused(state, 0, {"type": "banish", "card": "Quentin"}).rule == "fillory.ability.target"


@pytest.mark.parametrize("card, summon, banish, wrong_banish", [
    ("Mike", "Elliot", "Eliza", "Elliot"),        # Summon Elliot or Banish Eliza
    ("Cocaine", "Penny", "Penny", "Quentin"),     # Summon or Banish Penny
    ("Marina", "Julia", "Kady", "Alice"),         # Summon or Banish Hedge
])
def test_other_summon_or_banish_cards(card: str, summon: str, banish: str, wrong_banish: str) -> None:
    state = position(zones={0: [card]}, step="ability", pending=card)
    assert moved_cards(state, fillory.apply(state, 0, {"type": "summon", "card": summon, "to": "hand"})) == {
        cid(summon): "hand:0"}
    assert moved_cards(state, fillory.apply(state, 0, {"type": "banish", "card": banish})) == {cid(banish): "discard"}
    assert refused(state, 0, {"type": "banish", "card": wrong_banish}).rule == "fillory.ability.target"


# "Banish Character" (The Beast, Death, Suicide).
@pytest.mark.parametrize("card", ["The Beast", "Death", "Suicide"])
def test_banish_character_from_the_neutral_zone_or_an_opponents_zone(card: str) -> None:
    state = position(zones={0: [card], 2: ["Pete"]}, step="ability", pending=card)
    from_neutral = fillory.apply(state, 0, {"type": "banish", "card": "Quentin"})
    assert moved_cards(state, from_neutral) == {cid("Quentin"): "discard"}
    from_zone = fillory.apply(state, 0, {"type": "banish", "card": "Pete"})
    assert moved_cards(state, from_zone) == {cid("Pete"): "discard"}
    assert turn(from_zone)["step"] == "trick"
    # Brakebills (neutral) is a Place, not a Character; Banish never summons.
    assert refused(state, 0, {"type": "banish", "card": "Brakebills"}).rule == "fillory.ability.target"
    assert refused(state, 0, {"type": "summon", "card": "Pete", "to": "zone"}).rule == "fillory.ability.target"


# BANISH: "removed from your Opponent's Control Zone or the Neutral Zone" — nowhere else.
@pytest.mark.parametrize("place", ["my zone", "my hand", "opponent's hand", "deck", "discard"])
def test_banish_never_takes_from_my_zone_a_hand_the_deck_or_the_discard(place: str) -> None:
    where = {"my zone": {"zones": {0: ["Death", "Pete"]}}, "my hand": {"hands": {0: ["Pete"]}, "zones": {0: ["Death"]}},
             "opponent's hand": {"hands": {1: ["Pete"]}, "zones": {0: ["Death"]}},
             "deck": {"zones": {0: ["Death"]}, "deck": ["Pete"]},
             "discard": {"zones": {0: ["Death"]}, "discard": ["Pete"]}}[place]
    state = position(step="ability", pending="Death", **where)  # type: ignore[arg-type]
    assert refused(state, 0, {"type": "banish", "card": "Pete"}).rule == "fillory.banish"


def test_a_banishing_card_cannot_banish_itself() -> None:
    # The Beast is a Character, but once played it sits in my own control zone.
    state = position(zones={0: ["The Beast"]}, step="ability", pending="The Beast", neutral=[])
    assert refused(state, 0, {"type": "banish", "card": "The Beast"}).rule == "fillory.banish"


# SUMMON: "removed from wherever it is (Deck, Discard, Neutral Zone, Opponent's Zone, or Hand) and
# placed in your hand or Control Zone. If placed in your control Zone, its SA does not activate."
SOURCES: dict[str, dict[str, Any]] = {
    "deck": {"deck": ["Pete"]},
    "discard": {"discard": ["Pete"]},
    "neutral": {"neutral": ["Pete"]},
    "opponent's zone": {"zones": {0: ["Safe House"], 2: ["Pete"]}},
    "opponent's hand": {"hands": {1: ["Pete"]}},
    "my own hand": {"hands": {0: ["Pete"]}},
}


@pytest.mark.parametrize("to", ["hand", "zone"])
@pytest.mark.parametrize("source", sorted(SOURCES))
def test_summon_from_every_source_the_rulebook_lists(source: str, to: str) -> None:
    setting: dict[str, Any] = {"zones": {0: ["Safe House"]}, **SOURCES[source]}  # Safe House: Summon Hedge
    state = position(step="ability", pending="Safe House", **setting)
    if source == "my own hand" and to == "hand":
        # Already in my hand: the summon changes nothing, which a careful player would call pointless
        # but not illegal; we only require that it is not an error and Pete stays in my hand.
        after = fillory.apply(state, 0, {"type": "summon", "card": "Pete", "to": "hand"})
        assert at(after, "Pete") == "hand:0"
        return
    after = fillory.apply(state, 0, {"type": "summon", "card": "Pete", "to": to})
    assert moved_cards(state, after) == {cid("Pete"): f"{to}:0"}
    # Pete's own ability (Summon Hedge) does not fire: nothing is pending, the turn moves on.
    assert fillory.view(after, 0)["pending"] is None and turn(after)["step"] == "trick"


def test_summon_never_takes_from_my_own_zone() -> None:
    # Julia: Summon Quentin or Hedge. Julia herself has Hedge but is already in my zone; so is Pete.
    state = position(zones={0: ["Julia", "Pete"]}, step="ability", pending="Julia")
    assert refused(state, 0, {"type": "summon", "card": "Julia", "to": "hand"}).rule == "fillory.summon"
    assert refused(state, 0, {"type": "summon", "card": "Pete", "to": "hand"}).rule == "fillory.summon"
    assert at(fillory.apply(state, 0, {"type": "summon", "card": "Kady", "to": "hand"}), "Kady") == "hand:0"


#: Either rule explains a summon/banish/decline with no ability waiting: the phase is over, or
#: abilities only work when a card is played from hand.
NO_ABILITY_NOW = {"fillory.turn.phase-order", "fillory.ability.when"}


def test_a_summoned_card_with_a_summon_of_its_own_does_nothing_even_from_an_opponent() -> None:
    # Quentin (in Ben's zone) summoned into my zone would "Summon Julia..." if played; summoned, he does not.
    state = position(zones={0: ["Arcane Sigil"], 1: ["Quentin"]}, step="ability", pending="Arcane Sigil")
    after = fillory.apply(state, 0, {"type": "summon", "card": "Quentin", "to": "zone"})
    assert at(after, "Quentin") == "zone:0" and fillory.view(after, 0)["pending"] is None
    assert refused(after, 0, {"type": "summon", "card": "Julia", "to": "hand"}).rule in NO_ABILITY_NOW


@pytest.mark.parametrize("to", ["table", "Hand", "", 3])
def test_summon_needs_hand_or_zone(to: Any) -> None:
    state = position(zones={0: ["Quentin"]}, step="ability", pending="Quentin")
    assert refused(state, 0, {"type": "summon", "card": "Alice", "to": to}).rule is None


# The data normalises names the rulebook misspelled in abilities (notes.toml); the player may type either.
@pytest.mark.parametrize("card, typed, target", [
    ("Flight of Geese", "Mayakowski", "Professor Mayakovsky"), ("Source of Magic", "Martin", "Martin Chatwin"),
    ("Arcane Sigil", "Jane", "Jane Chatwin"), ("Victoria", "Josh", "Josh Hoberman"),
    ("Stop Time", "the Beast", "The Beast"), ("Box of Memories", "marina", "Marina"),
])
def test_abilities_name_the_cards_the_rulebook_meant(card: str, typed: str, target: str) -> None:
    state = position(zones={0: [card]}, step="ability", pending=card, discard=[target])
    after = fillory.apply(state, 0, {"type": "summon", "card": typed, "to": "zone"})
    assert moved_cards(state, after) == {cid(target): "zone:0"}


def test_summon_character_cannot_pick_the_people_printed_without_the_character_trait() -> None:
    state = position(zones={0: ["Convalescence"]}, step="ability", pending="Convalescence", discard=["Victoria"])
    for person in ["Victoria", "Professor Mayakovsky"]:
        assert refused(state, 0, {"type": "summon", "card": person, "to": "hand"}).rule == "fillory.ability.target"
    assert at(fillory.apply(state, 0, {"type": "summon", "card": "Pete", "to": "hand"}), "Pete") == "hand:0"


# Ambiguity: "Its Special Ability is activated" does not say whether a player may pass up a possible
# target. The companion records what happened at the table, and a Summon can nearly always reach some
# card in the deck, so a strict reading would make declining all but impossible; we keep decline open.
def test_decline_gives_up_the_ability_and_moves_on() -> None:
    state = position(zones={0: ["Moonstone Knife"]}, step="ability", pending="Moonstone Knife")
    # The Beast is in the neutral zone, so the Knife could banish it; declining is still allowed.
    after = fillory.apply(state, 0, {"type": "decline"})
    assert moved_cards(state, after) == {} and turn(after)["step"] == "trick"
    assert fillory.view(after, 0)["pending"] is None


def test_the_ability_belongs_to_the_active_player_only() -> None:
    state = position(zones={0: ["Quentin"]}, step="ability", pending="Quentin")
    assert refused(state, 1, {"type": "summon", "card": "Alice", "to": "hand"}).rule == "fillory.turn.not-your-turn"
    assert refused(state, 1, {"type": "decline"}).rule == "fillory.turn.not-your-turn"


def test_no_ability_move_without_a_pending_ability() -> None:
    state = position(hands={0: ["Pete"]}, step="trick")
    assert refused(state, 0, {"type": "summon", "card": "Alice", "to": "hand"}).rule in NO_ABILITY_NOW
    assert refused(state, 0, {"type": "banish", "card": "Alice"}).rule in NO_ABILITY_NOW
    assert refused(state, 0, {"type": "decline"}).rule in NO_ABILITY_NOW


# --- ACTION PHASE ---------------------------------------------------------------------------------

def test_play_only_from_my_hand_during_my_action() -> None:
    state = position(hands={0: ["Pete"], 1: ["Joe"]}, discard=["Richard"])
    for card in ["Joe", "Richard", "Quentin", "Djinn"]:  # another hand, discard, neutral, deck
        assert refused(state, 0, {"type": "play", "card": card}).rule == "fillory.card.location"
    assert refused(state, 1, {"type": "play", "card": "Joe"}).rule == "fillory.turn.not-your-turn"
    drawn = position(hands={0: ["Pete"]}, step="draw", deck=["Joe"])
    assert refused(drawn, 0, {"type": "play", "card": "Pete"}).rule == "fillory.turn.phase-order"


def test_only_one_action_per_turn_without_time() -> None:
    state = position(hands={0: ["Pete", "Joe"]}, zones={0: ["Safe House"]})
    after = play(state, 0, {"type": "play", "card": "Pete"}, {"type": "decline"})
    assert refused(after, 0, {"type": "play", "card": "Joe"}).rule == "fillory.turn.phase-order"


def test_a_trick_cannot_replace_the_action() -> None:
    # The action phase comes before the card trick phase; with cards in hand it is not skipped.
    state = position(hands={0: ["Fillory & Further", "Pete"]})
    assert refused(state, 0, {"type": "trick", "card": "Fillory & Further", "trait": "Fillory"}).rule == \
        "fillory.turn.phase-order"


# --- CARD TRICK PHASE: discard 1 card from hand, use one of its traits ----------------------------

def trick_state(hand: Iterable[str], **kwargs: Any) -> Any:
    return position(hands={0: list(hand), **kwargs.pop("hands", {})}, step="trick", **kwargs)


def test_trick_card_must_be_in_my_hand_and_have_the_trait() -> None:
    state = trick_state(["Time Loop"], zones={0: ["Fillory & Further"]}, hands={1: ["Ember"]})
    for card in ["Fillory & Further", "Ember", "Quentin"]:  # my zone, another hand, the neutral zone
        assert refused(state, 0, {"type": "trick", "card": card, "trait": "Fillory"}).rule == "fillory.card.location"
    # Time Loop has Time, Plot, Knowledge: not Fillory.
    assert refused(state, 0, {"type": "trick", "card": "Time Loop", "trait": "Fillory"}).rule == "fillory.trick.discard"


@pytest.mark.parametrize("trait", ["Female", "Student", "Teacher", "Place", "Artifact", "God", "Magic", "Sex",
                                   "Creature", "Light", "Drugs", "Telekinetics", "Plover"])
def test_a_trait_without_an_effect_may_be_picked_and_only_discards_the_card(trait: str) -> None:
    # "You may discard 1 card ... (Note that many Traits do not produce an effect)": a table may do it, so the
    # companion takes it; the card goes to the discard pile and nothing else changes
    card = next(c for c in GAME.cards_with(trait))
    state = trick_state([card.name, "Ember"])
    after = fillory.apply(state, 0, {"type": "trick", "card": card.name, "trait": trait})
    assert after.where(card.id) == "discard"
    assert sorted(after.cards_at("hand:0")) == [cid("Ember")]
    assert after.step == "score" and after.turn_seat == 0
    assert vp(after, 0) == vp(state, 0) and vp(after, 1) == vp(state, 1)
    assert {c.id: after.where(c.id) for c in GAME.cards if c.id != card.id} == \
        {c.id: state.where(c.id) for c in GAME.cards if c.id != card.id}
    line = fillory.describe_move({"type": "trick", "card": card.name, "trait": trait}, 0, list(PLAYERS))
    assert line == f"{PLAYERS[0]} discarded {card.name} for the {trait} trait, which has no trick."
    again = refused(after, 0, {"type": "trick", "card": "Ember", "trait": "Fillory"})  # still one trick a turn
    assert again.rule is not None


def test_knowledge_looks_only() -> None:
    state = trick_state(["Time Loop"])
    after = fillory.apply(state, 0, {"type": "trick", "card": "Time Loop", "trait": "Knowledge"})
    assert moved_cards(state, after) == {cid("Time Loop"): "discard"} and turn(after)["step"] == "score"


def test_psychic_looks_at_an_opponents_hand_only() -> None:
    state = trick_state(["Psychic Magic"], hands={2: ["Joe"]})
    after = fillory.apply(state, 0, {"type": "trick", "card": "Psychic Magic", "trait": "Psychic", "target_seat": 2})
    assert moved_cards(state, after) == {cid("Psychic Magic"): "discard"} and turn(after)["step"] == "score"
    # "Look at Opponent's Hand": my own hand is not an opponent's.
    assert refused(state, 0, {"type": "trick", "card": "Psychic Magic", "trait": "Psychic", "target_seat": 0}).rule == \
        "fillory.trick.psychic"
    no_seat = {"type": "trick", "card": "Psychic Magic", "trait": "Psychic", "target_seat": 3}
    assert refused(state, 0, no_seat).rule is None


def test_defense_moves_a_creature_from_any_control_zone_to_the_neutral_zone() -> None:
    state = trick_state(["Battle Magic"], zones={0: ["Golem"], 1: ["Djinn", "Pete"], 2: ["Mercenaries"]},
                        discard=["Joe"])
    for creature, zone in [("Djinn", "zone:1"), ("Golem", "zone:0"), ("Mercenaries", "zone:2")]:
        assert at(state, creature) == zone
        after = fillory.apply(state, 0, {"type": "trick", "card": "Battle Magic", "trait": "Defense",
                                         "target": creature})
        assert moved_cards(state, after) == {cid("Battle Magic"): "discard", cid(creature): "neutral"}
    # Pete is no Creature; The Beast already is in the neutral zone; Joe is in the discard pile.
    for target, rule in [("Pete", "fillory.trick.defense"), ("The Beast", "fillory.trick.defense"),
                         ("Joe", "fillory.trick.defense")]:
        error = refused(state, 0, {"type": "trick", "card": "Battle Magic", "trait": "Defense", "target": target})
        assert error.rule == rule


def test_plot_moves_a_character_from_any_control_zone_to_the_neutral_zone() -> None:
    state = trick_state(["Romance"], zones={0: ["Pete"], 1: ["Quentin", "Victoria"]}, hands={1: ["Joe"]})
    for character, _zone in [("Quentin", "zone:1"), ("Pete", "zone:0")]:
        after = fillory.apply(state, 0, {"type": "trick", "card": "Romance", "trait": "Plot", "target": character})
        assert moved_cards(state, after) == {cid("Romance"): "discard", cid(character): "neutral"}
    # Victoria has no Character trait (notes.toml); Alice is already neutral; Joe is in a hand.
    for target in ["Victoria", "Alice", "Joe"]:
        error = refused(state, 0, {"type": "trick", "card": "Romance", "trait": "Plot", "target": target})
        assert error.rule == "fillory.trick.plot"


def test_transform_swaps_two_characters_between_neutral_and_control_zones() -> None:
    state = trick_state(["Niffin"], zones={0: ["Pete"], 1: ["Marina"], 2: ["Joe", "Stanley"]},
                        hands={1: ["Richard"]}, discard=["Mike"])
    mine_for_neutral = fillory.apply(state, 0, {"type": "trick", "card": "Niffin", "trait": "Transform",
                                                "targets": ["Pete", "Quentin"]})
    assert moved_cards(state, mine_for_neutral) == {cid("Niffin"): "discard", cid("Pete"): "neutral",
                                                    cid("Quentin"): "zone:0"}
    two_opponents = fillory.apply(state, 0, {"type": "trick", "card": "Niffin", "trait": "Transform",
                                             "targets": ["Joe", "Marina"]})
    assert moved_cards(state, two_opponents) == {cid("Niffin"): "discard", cid("Joe"): "zone:1",
                                                 cid("Marina"): "zone:2"}
    for targets in (["Quentin", "Alice"],      # both neutral: the same place, nothing would switch
                    ["Joe", "Stanley"],        # both in Cy's zone
                    ["Pete", "Pete"],          # one card twice
                    ["Pete", "Richard"],       # Richard is in a hand
                    ["Pete", "Mike"],          # Mike is in the discard
                    ["Pete", "Brakebills"],    # Brakebills is no Character
                    ["Pete"]):                 # two are needed
        error = refused(state, 0, {"type": "trick", "card": "Niffin", "trait": "Transform", "targets": targets})
        assert error.rule == (None if len(targets) == 1 else "fillory.trick.transform"), targets


def test_traveler_takes_one_deck_card_into_my_hand() -> None:
    state = trick_state(["Neitherlands"], discard=["Joe"], hands={1: ["Pete"]})
    after = fillory.apply(state, 0, {"type": "trick", "card": "Neitherlands", "trait": "Traveler", "take": "Djinn"})
    assert moved_cards(state, after) == {cid("Neitherlands"): "discard", cid("Djinn"): "hand:0"}
    for take in ["Joe", "Pete", "Quentin"]:
        error = refused(state, 0, {"type": "trick", "card": "Neitherlands", "trait": "Traveler", "take": take})
        assert error.rule == "fillory.trick.traveler"


@pytest.mark.parametrize("card, trait", [("Hospital", "Heal"), ("Suicide", "Heal"), ("Suicide", "Healing"),
                                         ("Richard", "heal")])
def test_heal_puts_a_character_from_the_discard_into_my_zone(card: str, trait: str) -> None:
    # Suicide was printed with 'Healing'; notes.toml reads it as Heal, so it gives the Heal trick.
    state = trick_state([card], discard=["Quentin", "Death"], neutral=[], zones={1: ["Pete"]})
    after = fillory.apply(state, 0, {"type": "trick", "card": card, "trait": trait, "target": "Quentin"})
    assert moved_cards(state, after) == {cid(card): "discard", cid("Quentin"): "zone:0"}
    # Quentin's own ability does not fire: he came from the discard, not from my hand.
    assert fillory.view(after, 0)["pending"] is None and turn(after)["step"] == "score"
    for target in ["Death", "Pete"]:  # not a Character; not in the discard
        error = refused(state, 0, {"type": "trick", "card": card, "trait": trait, "target": target})
        assert error.rule == "fillory.trick.heal"


def test_time_gives_an_extra_action_whose_ability_fires_then_no_second_trick() -> None:
    state = trick_state(["Time Magic", "Quentin", "Romance"], neutral=[], discard=["Alice"])
    extra = fillory.apply(state, 0, {"type": "trick", "card": "Time Magic", "trait": "Time"})
    assert moved_cards(state, extra) == {cid("Time Magic"): "discard"}
    assert turn(extra)["step"] == "action" and turn(extra)["extra_action"] is True
    # An Action Phase: the card is played from hand, so its ability is activated.
    played = fillory.apply(extra, 0, {"type": "play", "card": "Quentin"})
    assert turn(played)["step"] == "ability" and fillory.view(played, 0)["pending"]["card"] == cid("Quentin")
    summoned = fillory.apply(played, 0, {"type": "summon", "card": "Alice", "to": "zone"})
    assert turn(summoned)["step"] == "score"
    assert refused(summoned, 0, {"type": "trick", "card": "Romance", "trait": "Plot", "target": "Quentin"}).rule == \
        "fillory.turn.phase-order"
    assert refused(summoned, 0, {"type": "play", "card": "Romance"}).rule == "fillory.turn.phase-order"
    scored = fillory.apply(summoned, 0, {"type": "score", "trait": "Student"})
    assert vp(scored, 0) == 4  # Quentin and Alice


def test_time_with_an_empty_hand_leaves_nothing_to_play_and_the_turn_goes_on() -> None:
    state = trick_state(["Time Magic"], zones={0: ["Pete"]})
    extra = fillory.apply(state, 0, {"type": "trick", "card": "Time Magic", "trait": "Time"})
    assert fillory.view(extra, 0)["players"][0]["hand"] == []
    scored = fillory.apply(extra, 0, {"type": "score", "trait": "Hedge"})
    assert vp(scored, 0) == 1
    ended = fillory.apply(extra, 0, {"type": "end_turn", "discard": []})
    assert turn(ended)["seat"] == 1


def test_spell_draws_then_places_a_hand_card_without_its_ability() -> None:
    state = trick_state(["Card Tricks", "Quentin"], neutral=[], deck=["Djinn"])
    after = fillory.apply(state, 0, {"type": "trick", "card": "Card Tricks", "trait": "Spell",
                                     "draw": "Djinn", "place": "Quentin"})
    assert moved_cards(state, after) == {cid("Card Tricks"): "discard", cid("Djinn"): "hand:0",
                                         cid("Quentin"): "zone:0"}
    assert fillory.view(after, 0)["pending"] is None and turn(after)["step"] == "score"
    # The card just drawn is in my hand, so it may be the one placed.
    drawn_placed = fillory.apply(state, 0, {"type": "trick", "card": "Card Tricks", "trait": "Spell",
                                            "draw": "Djinn", "place": "Djinn"})
    assert moved_cards(state, drawn_placed) == {cid("Card Tricks"): "discard", cid("Djinn"): "zone:0"}
    with_discard = trick_state(["Card Tricks", "Quentin"], neutral=[], deck=["Djinn"], discard=["Death"])
    for draw, place in [("Death", "Quentin"),        # the deck still has cards: no drawing from the discard
                        ("Djinn", "Card Tricks"),    # the trick card is discarded, not in hand
                        ("Djinn", "Alice")]:         # Alice is not in my hand
        error = refused(with_discard, 0, {"type": "trick", "card": "Card Tricks", "trait": "Spell", "draw": draw,
                                          "place": place})
        assert error.rule == "fillory.trick.spell", (draw, place)


def test_fillory_scores_one_victory_point() -> None:
    state = trick_state(["Talking Animal"], scored={0: {"Drugs": 1}})
    after = fillory.apply(state, 0, {"type": "trick", "card": "Talking Animal", "trait": "Fillory"})
    assert vp(after, 0) == 2 and turn(after)["step"] == "score"
    assert fillory.score(after)[0]["breakdown"][-1]["points"] == 1


def test_religion_steals_a_card_from_an_opponents_hand() -> None:
    """Religion steals "1 Random card" from an opponent's hand: only its holder knows which left it, so the
    trick waits for Ben's phone to say. A card the thief names is passed over, held or not: the thief does not
    choose, and taking a named card that was held told every phone whether Ben held it, one card a try."""
    state = trick_state(["Religious Magic", "Pete"], hands={1: ["Joe", "Djinn"], 2: ["Golem"]})
    move = {"type": "trick", "card": "Religious Magic", "trait": "Religion", "target_seat": 1}
    waits = fillory.apply(state, 0, move)
    assert waits.loss == (1, "Religion") and moved_cards(state, waits) == {cid("Religious Magic"): "discard"}
    assert fillory.apply(state, 0, {**move, "take": "Djinn"}) == waits == fillory.apply(state, 0, {**move, "take": "Golem"})
    error = refused(state, 0, {**move, "target_seat": 0})  # my own hand is no opponent's
    assert error.rule == "fillory.trick.religion"
    taken = fillory.apply(waits, 1, {"type": "lose_card", "card": "Joe"})
    assert moved_cards(state, taken) == {cid("Religious Magic"): "discard", cid("Joe"): "hand:0"}
    # a game begun before format 2 replays its log as it was played: the card named and held is taken
    legacy = dataclasses.replace(state, legacy_take=True)
    after = fillory.apply(legacy, 0, {**move, "take": "Djinn"})
    assert moved_cards(legacy, after) == {cid("Religious Magic"): "discard", cid("Djinn"): "hand:0"}


def test_character_draws_two_one_to_hand_one_to_zone_without_its_ability() -> None:
    state = trick_state(["Pete"], neutral=[], deck=["Quentin", "Djinn"])
    after = fillory.apply(state, 0, {"type": "trick", "card": "Pete", "trait": "Character",
                                     "to_hand": "Djinn", "to_zone": "Quentin"})
    assert moved_cards(state, after) == {cid("Pete"): "discard", cid("Djinn"): "hand:0", cid("Quentin"): "zone:0"}
    assert fillory.view(after, 0)["pending"] is None and turn(after)["step"] == "score"
    same = refused(state, 0, {"type": "trick", "card": "Pete", "trait": "Character", "to_hand": "Djinn",
                              "to_zone": "Djinn"})
    assert same.rule == "fillory.trick.character"
    off_deck = refused(state, 0, {"type": "trick", "card": "Pete", "trait": "Character", "to_hand": "Djinn",
                                  "to_zone": "Pete"})
    assert off_deck.rule == "fillory.trick.character"


@pytest.mark.parametrize("key, place", [("to_hand", "hand:0"), ("to_zone", "zone:0")])
def test_character_with_one_card_left_to_draw_puts_it_in_the_hand_or_the_zone(key: str, place: str) -> None:
    """Deck and discard pile empty: the Pete discarded for the trick, reshuffled, is the only card to draw. The
    rulebook ("Put 1 in your hand and 1 in your Control Zone") does not say where a lone card goes, so the table's
    choice is taken either way (fillory.trick.character-last, authored). The zone was refused with no rule:
    "The trick move needs a 'to_hand' field"."""
    state = trick_state(["Pete"], zones={1: ["Quentin"]}, rest="neutral")
    assert at(state, "Pete") == "hand:0" and not fillory.view(state, 0)["discard"]
    after = fillory.apply(state, 0, {"type": "trick", "card": "Pete", "trait": "Character", key: "Pete"})
    assert at(after, "Pete") == place and turn(after)["step"] == "score" and fillory.view(after, 0)["discard"] == []
    for move in ({}, {"to_hand": "Pete", "to_zone": "Pete"}):   # neither, or both: say which, with the rule
        error = refused(state, 0, {"type": "trick", "card": "Pete", "trait": "Character", **move})
        assert error.rule == "fillory.trick.character-last"
        assert error.message.startswith("Only one card is left to draw: it goes into your hand ('to_hand') or your "
                                        "control zone ('to_zone'), ")
    wrong = refused(state, 0, {"type": "trick", "card": "Pete", "trait": "Character", key: "Quentin"})
    assert wrong.rule == "fillory.trick.character"                # a card not there to draw
    assert content("fillory").rule("fillory.trick.character-last").provenance == "authored"


@pytest.mark.parametrize("to", ["hand", "zone"])
def test_hedge_takes_a_discard_card_into_hand_or_zone(to: str) -> None:
    state = trick_state(["Safe House"], discard=["Quentin", "Death"], neutral=[])
    after = fillory.apply(state, 0, {"type": "trick", "card": "Safe House", "trait": "Hedge", "take": "Quentin",
                                     "to": to})
    assert moved_cards(state, after) == {cid("Safe House"): "discard", cid("Quentin"): f"{to}:0"}
    assert fillory.view(after, 0)["pending"] is None and turn(after)["step"] == "score"
    error = refused(state, 0, {"type": "trick", "card": "Safe House", "trait": "Hedge", "take": "Djinn", "to": to})
    assert error.rule == "fillory.trick.hedge"


def test_threat_makes_an_opponent_discard_from_their_hand() -> None:
    """Threat: an opponent discards "1 random card"; its holder's phone says which, whatever card is named."""
    state = trick_state(["Insanity", "Pete"], hands={2: ["Joe", "Golem"]})
    move = {"type": "trick", "card": "Insanity", "trait": "Threat", "target_seat": 2}
    waits = fillory.apply(state, 0, {**move, "take": "Golem"})
    assert waits == fillory.apply(state, 0, move) and waits.loss == (2, "Threat")
    after = fillory.apply(waits, 2, {"type": "lose_card", "card": "Golem"})
    assert moved_cards(state, after) == {cid("Insanity"): "discard", cid("Golem"): "discard"}
    assert refused(state, 0, {**move, "target_seat": 0}).rule == "fillory.trick.threat"


# Ambiguity: the rulebook sets no condition on the trick beyond discarding a card with the trait. When the
# effect has nothing to act on (no Creature/Character in reach, an empty opponent's hand), a careful
# player discards the card and nothing else happens, as at the table; the phone page says so too
# ("... it would do nothing"). So the move is accepted without a target, and refused only if a target
# exists but was not named.
@pytest.mark.parametrize("card, trait", [("Battle Magic", "Defense"), ("Romance", "Plot"), ("Hospital", "Heal")])
def test_a_trick_with_nothing_in_reach_discards_the_card_and_does_nothing(card: str, trait: str) -> None:
    # Every Character and Creature is in the neutral zone or the deck; the discard pile is empty.
    state = trick_state([card], hands={1: ["Pete"]})
    after = fillory.apply(state, 0, {"type": "trick", "card": card, "trait": trait})
    assert moved_cards(state, after) == {cid(card): "discard"} and turn(after)["step"] == "score"
    line = fillory.describe_move({"type": "trick", "card": card, "trait": trait}, 0, list(PLAYERS))
    assert line.startswith(f"Ann discarded {card} for the {trait} trick and found no ")
    # With something in reach, the target must be named.
    reachable = trick_state([card], zones={1: ["Djinn", "Pete"]}, discard=["Joe"])
    assert refused(reachable, 0, {"type": "trick", "card": card, "trait": trait}).rule is None


def test_transform_with_no_two_characters_in_different_places_does_nothing() -> None:
    state = trick_state(["Glass Horses"], rest="deck", neutral=["Quentin", "Alice", "Brakebills"])
    after = fillory.apply(state, 0, {"type": "trick", "card": "Glass Horses", "trait": "Transform"})
    assert moved_cards(state, after) == {cid("Glass Horses"): "discard"}
    assert "found no two Characters to swap" in fillory.describe_move(
        {"type": "trick", "card": "Glass Horses", "trait": "Transform"}, 0, list(PLAYERS))
    possible = trick_state(["Glass Horses"], rest="deck", neutral=["Quentin"], zones={1: ["Pete"]})
    assert refused(possible, 0, {"type": "trick", "card": "Glass Horses", "trait": "Transform"}).rule is None


# Ambiguity: "discard 1 card ... to generate a card trick effect" — the card is discarded first, so an
# effect that reaches into the discard pile may find the trick card itself. We keep that literal reading.
def test_the_discarded_trick_card_is_already_in_the_discard_pile() -> None:
    richard = trick_state(["Richard"])  # Character, Religion, Heal
    healed = fillory.apply(richard, 0, {"type": "trick", "card": "Richard", "trait": "Heal", "target": "Richard"})
    assert at(healed, "Richard") == "zone:0" and fillory.view(healed, 0)["pending"] is None
    hedge = trick_state(["Pete"])  # Character, Hedge
    taken = fillory.apply(hedge, 0, {"type": "trick", "card": "Pete", "trait": "Hedge", "take": "Pete", "to": "hand"})
    assert at(taken, "Pete") == "hand:0"


def test_the_fillory_trick_point_does_not_use_up_the_fillory_trait() -> None:
    state = trick_state(["Ember"], zones={0: ["Talking Animal", "Cursed Blade"]})
    tricked = fillory.apply(state, 0, {"type": "trick", "card": "Ember", "trait": "Fillory"})
    assert fillory.view(tricked, None)["players"][0]["scored"] == {}
    scored = fillory.apply(tricked, 0, {"type": "score", "trait": "Fillory"})
    assert vp(scored, 0) == 1 + 4
    assert [row["points"] for row in fillory.score(scored)[0]["breakdown"]] == [1, 4]
    assert fillory.view(scored, None)["players"][0]["scored"] == {"Fillory": 4}


def test_one_trait_cards_have_no_trick_but_still_score() -> None:
    # Cocaine and Amphetamines were printed with Drugs only (notes.toml); Drugs has no trick: discarding
    # Cocaine for it is only a discard
    state = trick_state(["Cocaine"], zones={0: ["Amphetamines"]})
    discarded = fillory.apply(state, 0, {"type": "trick", "card": "Cocaine", "trait": "Drugs"})
    assert discarded.where(cid("Cocaine")) == "discard" and vp(discarded, 0) == vp(state, 0)
    assert vp(fillory.apply(discarded, 0, {"type": "score", "trait": "Drugs"}), 0) == 1
    assert vp(fillory.apply(state, 0, {"type": "score", "trait": "Drugs"}), 0) == 1


def test_only_one_trick_per_turn() -> None:
    state = trick_state(["Talking Animal", "Ember"])
    once = fillory.apply(state, 0, {"type": "trick", "card": "Talking Animal", "trait": "Fillory"})
    assert refused(once, 0, {"type": "trick", "card": "Ember", "trait": "Fillory"}).rule == "fillory.turn.phase-order"


def test_the_trick_may_be_skipped_straight_to_scoring_or_the_end() -> None:
    state = trick_state(["Ember"], zones={0: ["Pete"]})
    assert vp(fillory.apply(state, 0, {"type": "score", "trait": "Hedge"}), 0) == 1
    assert turn(fillory.apply(state, 0, {"type": "end_turn", "discard": []}))["seat"] == 1


# --- SCORE PHASE ----------------------------------------------------------------------------------

MAGIC = [c.name for c in GAME.cards_with("Magic")]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8, 9])
def test_scoring_is_the_square_of_the_cards_with_the_trait(n: int) -> None:
    state = position(zones={0: MAGIC[:n], 1: MAGIC[n:n + 3]}, hands={0: [MAGIC[-1]]}, step="score")
    after = fillory.apply(state, 0, {"type": "score", "trait": "magic"})
    assert vp(after, 0) == n * n and vp(after, 1) == 0
    assert fillory.view(after, None)["players"][0]["scored"] == {"Magic": n * n}
    assert fillory.score(after)[0]["breakdown"] == [{"cause": f"Magic ×{n}", "points": n * n}]
    assert turn(after)["step"] == "end" and not fillory.outcome(after).over


def test_ten_magic_cards_score_a_hundred_and_win_at_once() -> None:
    state = position(zones={0: MAGIC[:10]}, step="score")
    after = fillory.apply(state, 0, {"type": "score", "trait": "Magic"})
    assert vp(after, 0) == 100 and fillory.outcome(after).over and fillory.outcome(after).winner == 0
    assert fillory.view(after, None)["over"] is True and fillory.view(after, None)["winner"] == 0


def test_only_my_own_control_zone_counts() -> None:
    # Students in the neutral zone (Quentin, Alice...), in my hand and in Ben's zone do not count.
    state = position(zones={0: ["Hammer Spell"], 1: ["The Trials"]}, hands={0: ["Todd"]}, step="score")
    assert vp(fillory.apply(state, 0, {"type": "score", "trait": "Student"}), 0) == 1


def test_each_trait_scores_once_per_player_but_every_player_may_score_it() -> None:
    students = ["Hammer Spell", "The Trials", "Todd"]
    mine = position(zones={0: students}, step="score", scored={0: {"Student": 1}})
    assert refused(mine, 0, {"type": "score", "trait": "Student"}).rule == "fillory.score.once"
    assert refused(mine, 0, {"type": "score", "trait": "STUDENT"}).rule == "fillory.score.once"
    bens = position(zones={1: students}, seat=1, step="score", scored={0: {"Student": 1}, 2: {"Student": 2}})
    after = fillory.apply(bens, 1, {"type": "score", "trait": "Student"})
    assert vp(after, 1) == 9 and fillory.view(after, None)["players"][1]["scored"] == {"Student": 9}


def test_the_character_trait_may_never_be_scored() -> None:
    state = position(zones={0: ["Pete", "Joe", "Stanley"]}, step="score")
    assert refused(state, 0, {"type": "score", "trait": "Character"}).rule == "fillory.score.no-character"
    assert refused(state, 0, {"type": "score", "trait": "character"}).rule == "fillory.score.no-character"
    assert fillory.trait_points([cid(c) for c in ["Pete", "Joe", "Stanley"]], []) and all(
        row["trait"] != "Character" for row in fillory.trait_points([cid(c) for c in ["Pete", "Joe"]], []))


def test_a_trait_with_no_card_in_my_zone_is_refused() -> None:
    state = position(zones={0: ["Pete"], 1: ["Djinn"]}, step="score")
    assert refused(state, 0, {"type": "score", "trait": "Creature"}).rule == "fillory.score.empty"


@pytest.mark.parametrize("trait", ["Creature", "Creatures"])
def test_mercenaries_printed_creatures_counts_as_a_creature(trait: str) -> None:
    state = position(zones={0: ["Mercenaries", "Djinn", "Golem"]}, step="score")
    after = fillory.apply(state, 0, {"type": "score", "trait": trait})
    assert vp(after, 0) == 9 and fillory.view(after, None)["players"][0]["scored"] == {"Creature": 9}


@pytest.mark.parametrize("trait", ["Heal", "Healing"])
def test_suicide_printed_healing_counts_as_heal(trait: str) -> None:
    state = position(zones={0: ["Suicide", "Hospital"]}, step="score")
    after = fillory.apply(state, 0, {"type": "score", "trait": trait})
    assert vp(after, 0) == 4 and fillory.view(after, None)["players"][0]["scored"] == {"Heal": 4}


def test_trait_points_counts_typo_cards_and_leaves_out_character_and_scored_traits() -> None:
    zone = [cid(c) for c in ["Mercenaries", "Djinn", "Golem", "Suicide", "Hospital", "Pete"]]
    rows = fillory.trait_points(zone, ["Heal"])
    assert rows[0] == {"trait": "Creature", "cards": 3, "points": 9}
    traits = [row["trait"] for row in rows]
    assert "Character" not in traits and "Heal" not in traits and "Creatures" not in traits
    assert [row["points"] for row in rows] == sorted((row["points"] for row in rows), reverse=True)
    assert all(row["points"] == row["cards"] ** 2 for row in rows)


def test_http_calculator_reads_the_misprinted_traits(client: FlaskClient) -> None:
    response = client.post("/api/calc/fillory", json={"zone": ["Mercenaries", "Golem", "Suicide", "Hospital",
                                                                "Healing Magic"], "scored": ["Creature"]})
    assert response.status_code == 200
    traits = response.get_json()["traits"]
    assert traits[0] == {"trait": "Heal", "cards": 3, "points": 9}
    assert "Creature" not in [t["trait"] for t in traits]


def test_typo_cards_are_found_by_their_normalised_traits_in_abilities() -> None:
    # Binding Spell: Banish Creature — Mercenaries in Ben's zone. Healing Magic: Summon Heal — Suicide.
    binding = position(zones={0: ["Binding Spell"], 1: ["Mercenaries"]}, step="ability", pending="Binding Spell")
    assert at(fillory.apply(binding, 0, {"type": "banish", "card": "Mercenaries"}), "Mercenaries") == "discard"
    healing = position(zones={0: ["Healing Magic"]}, step="ability", pending="Healing Magic", discard=["Suicide"])
    assert at(fillory.apply(healing, 0, {"type": "summon", "card": "Suicide", "to": "zone"}), "Suicide") == "zone:0"


def test_only_one_score_per_turn_and_not_before_the_action() -> None:
    state = position(zones={0: ["Pete", "Djinn"]}, step="score")
    once = fillory.apply(state, 0, {"type": "score", "trait": "Hedge"})
    assert refused(once, 0, {"type": "score", "trait": "Creature"}).rule == "fillory.turn.phase-order"
    before = position(zones={0: ["Pete"]}, hands={0: ["Joe"]})
    assert refused(before, 0, {"type": "score", "trait": "Hedge"}).rule == "fillory.turn.phase-order"


def test_scoring_waits_for_the_pending_ability() -> None:
    state = position(zones={0: ["Pete", "Safe House"]}, step="ability", pending="Safe House")
    assert refused(state, 0, {"type": "score", "trait": "Hedge"}).rule == "fillory.turn.phase-order"


# --- VICTORY: "Be the first player to score 100 Victory Points" -----------------------------------

def test_the_fillory_trick_can_reach_a_hundred_and_ends_the_game_at_once() -> None:
    state = trick_state(["Cursed Blade", "Pete"], zones={0: ["Hammer Spell"]}, scored={0: NINETY_NINE})
    assert vp(state, 0) == 99
    won = fillory.apply(state, 0, {"type": "trick", "card": "Cursed Blade", "trait": "Fillory"})
    assert vp(won, 0) == 100
    result = fillory.outcome(won)
    assert result.over and result.winner == 0 and result.winners == (0,)
    table = fillory.view(won, None)
    assert table["phase"] == "over" and table["winner"] == 0 and table["turn"]["seat"] is None
    # Nobody moves again, not even the winner scoring the Student they still could have.
    assert refused(won, 0, {"type": "score", "trait": "Student"}).rule == "fillory.game.over"
    assert refused(won, 0, {"type": "end_turn", "discard": []}).rule == "fillory.game.over"
    assert refused(won, 1, {"type": "draw", "card": "Djinn"}).rule == "fillory.game.over"


def test_ninety_nine_is_not_enough() -> None:
    # 95 already (Magic ×9 = 81, Plover ×3 = 9, Light ×2 = 4, Drugs ×1 = 1), then Student ×2 = 4: 99.
    state = position(zones={0: ["Hammer Spell", "The Trials"]}, step="score",
                     scored={0: {"Magic": 9, "Plover": 3, "Light": 2, "Drugs": 1}})
    assert vp(state, 0) == 95
    after = fillory.apply(state, 0, {"type": "score", "trait": "Student"})
    assert vp(after, 0) == 99 and not fillory.outcome(after).over
    passed = fillory.apply(after, 0, {"type": "end_turn", "discard": []})
    assert turn(passed)["seat"] == 1


def test_scoring_past_a_hundred_wins_with_the_whole_total() -> None:
    state = position(zones={0: ["Hammer Spell", "The Trials"]}, step="score", scored={0: NINETY_NINE})
    won = fillory.apply(state, 0, {"type": "score", "trait": "Student"})
    assert vp(won, 0) == 103 and fillory.outcome(won).winner == 0
    assert fillory.score(won)[0]["total"] == 103


# --- END PHASE: "Max hand size is 5 cards. Discard excess cards." ---------------------------------

SIX = ["Pete", "Joe", "Djinn", "Golem", "Ember", "Death"]


def test_six_cards_at_the_end_must_go_down_to_five() -> None:
    state = position(hands={0: SIX}, step="end")
    assert refused(state, 0, {"type": "end_turn", "discard": []}).rule == "fillory.end.hand-limit"
    assert refused(state, 0, {"type": "end_turn"}).rule == "fillory.end.hand-limit"
    after = fillory.apply(state, 0, {"type": "end_turn", "discard": ["Ember"]})
    assert moved_cards(state, after) == {cid("Ember"): "discard"}
    assert fillory.view(after, 0)["players"][0]["hand_count"] == 5


def test_exactly_five_cards_need_no_discard() -> None:
    state = position(hands={0: SIX[:5]}, step="end")
    after = fillory.apply(state, 0, {"type": "end_turn", "discard": []})
    assert moved_cards(state, after) == {} and turn(after)["seat"] == 1


def test_the_end_discard_names_cards_in_my_own_hand() -> None:
    state = position(hands={0: SIX, 1: ["Stanley"]}, step="end")
    for card in ["Stanley", "Quentin", "Hammer Spell"]:
        assert refused(state, 0, {"type": "end_turn", "discard": [card]}).rule == "fillory.card.location"
    assert refused(state, 0, {"type": "end_turn", "discard": ["Pete", "Pete"]}).rule is None


def test_the_hand_limit_is_only_checked_for_the_player_ending_the_turn() -> None:
    # Ben holds 7 (a Religion steal can do that mid-turn); only Ann's own hand matters when she ends.
    state = position(hands={0: ["Stanley"], 1: SIX + ["Marina"]}, step="end")
    after = fillory.apply(state, 0, {"type": "end_turn", "discard": []})
    assert turn(after)["seat"] == 1 and fillory.view(after, None)["players"][1]["hand_count"] == 7


def test_seven_cards_need_two_discards() -> None:
    state = position(hands={0: SIX + ["Stanley"]}, step="end")
    assert refused(state, 0, {"type": "end_turn", "discard": ["Pete"]}).rule == "fillory.end.hand-limit"
    assert fillory.view(fillory.apply(state, 0, {"type": "end_turn", "discard": ["Pete", "Joe"]}), 0)[
        "players"][0]["hand_count"] == 5


def test_the_turn_cannot_end_before_the_action() -> None:
    state = position(hands={0: ["Pete"]}, step="action")
    assert refused(state, 0, {"type": "end_turn", "discard": []}).rule == "fillory.turn.phase-order"
    drawing = position(hands={0: ["Pete"]}, step="draw")
    assert refused(drawing, 0, {"type": "end_turn", "discard": []}).rule == "fillory.turn.phase-order"


# --- TURN ORDER and PLAYER COUNTS -----------------------------------------------------------------

@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_every_player_count_from_two_to_six_deals_and_wraps_around(count: int) -> None:
    names = [f"P{i}" for i in range(count)]
    first = count - 1
    state = fillory.setup(names, {"first_seat": first})
    deck = [c.name for c in sorted(GAME.cards, key=lambda c: c.number) if c.name not in GAME.setup_neutral
            and c.id not in GAME.setup_neutral]
    cards = iter(deck)
    # The deal: every seat draws 3, in any order, before anyone plays.
    for _ in range(3):
        for seat in reversed(range(count)):
            assert fillory.view(state, None)["phase"] == "deal"
            state = fillory.apply(state, seat, {"type": "draw", "card": next(cards)})
    assert fillory.view(state, None)["phase"] == "play"
    assert turn(state)["seat"] == first and turn(state)["step"] == "draw"
    order = []
    for _ in range(count + 1):
        seat = turn(state)["seat"]
        order.append(seat)
        number = turn(state)["number"]
        hand = fillory.view(state, seat)["players"][seat]["hand"]
        state = play(state, seat, {"type": "draw", "card": next(cards)}, {"type": "play", "card": hand[0]},
                     {"type": "decline"}, {"type": "end_turn", "discard": []})
        assert turn(state)["number"] == number + 1 and turn(state)["step"] == "draw"
    assert order == [first] + list(range(count))  # the last seat passes to seat 0


@pytest.mark.parametrize("count", [0, 1, 7, 8])
def test_fewer_than_two_or_more_than_six_players_are_refused(count: int) -> None:
    with pytest.raises(SetupError):
        fillory.setup([f"P{i}" for i in range(count)])


def test_the_deal_is_three_cards_each_and_nothing_else() -> None:
    state = fillory.setup(["Ann", "Ben"])
    state = play(state, 1, {"type": "draw", "card": "Pete"}, {"type": "draw", "card": "Joe"},
                 {"type": "draw", "card": "Djinn"})
    assert refused(state, 1, {"type": "draw", "card": "Golem"}).rule == "fillory.setup.deal"
    assert refused(state, 1, {"type": "play", "card": "Pete"}).rule == "fillory.setup.deal"
    assert refused(state, 0, {"type": "draw", "card": "Quentin"}).rule == "fillory.card.location"  # neutral
    assert refused(state, 0, {"type": "draw", "card": "Joe"}).rule == "fillory.card.location"      # Ben's hand


def test_out_of_turn_moves_are_refused() -> None:
    state = position(hands={0: ["Pete"], 1: ["Joe"]}, step="draw")
    assert refused(state, 1, {"type": "draw", "card": "Djinn"}).rule == "fillory.turn.not-your-turn"
    assert refused(state, 2, {"type": "end_turn", "discard": []}).rule == "fillory.turn.not-your-turn"


def test_one_draw_per_draw_phase() -> None:
    state = position(hands={0: ["Pete"]}, step="draw")
    drew = fillory.apply(state, 0, {"type": "draw", "card": "Djinn"})
    assert turn(drew)["step"] == "action" and at(drew, "Djinn") == "hand:0"
    assert refused(drew, 0, {"type": "draw", "card": "Golem"}).rule == "fillory.turn.phase-order"


# --- DRAW PHASE: "If the Deck ever runs out, shuffle the discard and draw from it." -------------

def test_an_empty_deck_is_refilled_from_the_discard_pile() -> None:
    state = position(rest="neutral", hands={0: ["Pete"]}, discard=["Joe", "Djinn", "Golem"], step="draw")
    assert fillory.view(state, None)["deck_count"] == 0
    after = fillory.apply(state, 0, {"type": "draw", "card": "Djinn"})
    assert at(after, "Djinn") == "hand:0" and at(after, "Joe") == "deck" and at(after, "Golem") == "deck"
    assert fillory.view(after, None)["discard"] == [] and fillory.view(after, None)["deck_count"] == 2


def test_the_discard_is_not_drawn_from_while_the_deck_has_cards() -> None:
    state = position(rest="neutral", hands={0: ["Pete"]}, discard=["Joe"], deck=["Djinn"], step="draw")
    assert refused(state, 0, {"type": "draw", "card": "Joe"}).rule == "fillory.card.location"


def test_nothing_to_draw_at_all_skips_the_draw_phase() -> None:
    state = position(rest="neutral", hands={1: ["Pete"]}, zones={0: ["Joe"]}, step="end")
    after = fillory.apply(state, 0, {"type": "end_turn", "discard": []})
    assert turn(after)["seat"] == 1 and turn(after)["step"] == "action"
    played = fillory.apply(after, 1, {"type": "play", "card": "Pete"})
    assert at(played, "Pete") == "zone:1"


def test_the_spell_trick_reshuffles_an_empty_deck_too() -> None:
    state = trick_state(["Card Tricks", "Pete"], rest="neutral", discard=["Joe"])
    after = fillory.apply(state, 0, {"type": "trick", "card": "Card Tricks", "trait": "Spell", "draw": "Joe",
                                     "place": "Pete"})
    assert at(after, "Joe") == "hand:0" and at(after, "Pete") == "zone:0"
    assert at(after, "Card Tricks") in {"discard", "deck"}


# --- malformed moves: rule None, state unchanged --------------------------------------------------

@pytest.mark.parametrize("step, move", [
    ("action", {"type": "cast"}), ("action", {"type": "play"}), ("action", {"type": "play", "card": 5}),
    ("action", {"type": "play", "card": "Gandalf"}), ("action", "play"), ("action", None), ("action", []),
    ("score", {"type": "score", "trait": "Wizardry"}), ("score", {"type": "score"}),
    ("trick", {"type": "trick", "card": "Pete"}), ("trick", {"type": "trick", "card": "Pete", "trait": "Plover!"}),
])
def test_malformed_moves_have_no_rule_and_change_nothing(step: str, move: Any) -> None:
    # Each move is malformed in a step where a well-formed move of its type would be allowed.
    state = position(hands={0: ["Pete"]}, zones={0: ["Joe"]}, step=step)
    assert refused(state, 0, move).rule is None


# --- the same through the HTTP API -----------------------------------------------------------------

class Table:
    """A two-seat game on the test server, driven through POST /api/games/<id>/moves."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        created = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]})
        assert created.status_code == 201
        self.game = created.get_json()
        self.version = 0
        self.actions = 0

    def post(self, seat: int, move: Any, version: int | None = None) -> Any:
        self.actions += 1
        token = self.game["seats"][seat]["token"]
        return self.client.post(f"/api/games/{self.game['id']}/moves", headers={"Authorization": f"Bearer {token}"},
                                json={"version": self.version if version is None else version,
                                      "action_id": f"act-{self.actions}", "move": move})

    def ok(self, seat: int, move: Any) -> dict[str, Any]:
        response = self.post(seat, move)
        assert response.status_code == 200, response.get_json()
        body: dict[str, Any] = response.get_json()
        self.version = body["version"]
        return body

    def snapshot(self) -> Any:
        return self.client.get(f"/api/games/{self.game['id']}").get_json()

    def illegal(self, seat: int, move: Any, rule: str | None) -> dict[str, Any]:
        before = self.snapshot()
        response = self.post(seat, move)
        body: dict[str, Any] = response.get_json()
        assert response.status_code == 422, body
        assert body["ok"] is False and body["status"] == 422 and body["rule"] == rule
        assert isinstance(body["error"], str) and body["error"][:1].isupper()
        assert rule is None or rule in RULE_IDS
        assert self.snapshot() == before
        return body


@pytest.fixture
def http_table(client: FlaskClient) -> Table:
    """Ann holds Time Loop, Romance, Death and draws Card Tricks; Ben holds Djinn, Mercenaries, Golem."""
    table = Table(client)
    for seat, cards in [(0, ["Time Loop", "Romance", "Death"]), (1, ["Djinn", "Mercenaries", "Golem"])]:
        for card in cards:
            table.ok(seat, {"type": "draw", "card": card})
    table.ok(0, {"type": "draw", "card": "Card Tricks"})
    return table


def test_http_banish_from_my_own_zone_is_422_and_changes_nothing(http_table: Table) -> None:
    http_table.ok(0, {"type": "play", "card": "Time Loop"})
    body = http_table.illegal(0, {"type": "banish", "card": "Time Loop"}, "fillory.banish")
    assert "Time Loop" in body["error"]
    http_table.illegal(0, {"type": "banish", "card": "Romance"}, "fillory.banish")  # in my hand
    answer = http_table.ok(0, {"type": "banish", "card": "The Beast"})  # a Plot in the neutral zone
    assert cid("The Beast") in answer["state"]["discard"] and answer["state"]["turn"]["step"] == "trick"


def test_http_summon_from_an_opponents_hand_without_its_ability(http_table: Table) -> None:
    http_table.ok(0, {"type": "play", "card": "Romance"})  # Summon Student or Hedge
    http_table.illegal(0, {"type": "summon", "card": "Djinn", "to": "zone"}, "fillory.ability.target")
    answer = http_table.ok(0, {"type": "summon", "card": "Quentin", "to": "zone"})
    state = answer["state"]
    assert state["pending"] is None and state["turn"]["step"] == "trick"
    assert state["players"][0]["zone"] == sorted([cid("Quentin"), cid("Romance")],
                                                 key=lambda c: GAME.card(c).number)
    http_table.illegal(0, {"type": "score", "trait": "Character"}, "fillory.score.no-character")
    http_table.ok(0, {"type": "trick", "card": "Death", "trait": "Threat", "target_seat": 1})
    threat = http_table.ok(1, {"type": "lose_card", "card": "Golem"})
    assert cid("Golem") in threat["state"]["discard"] and threat["state"]["players"][1]["hand_count"] == 2
    scored = http_table.ok(0, {"type": "score", "trait": "Student"})
    assert scored["state"]["players"][0]["vp"] == 1
    http_table.illegal(0, {"type": "score", "trait": "Plot"}, "fillory.turn.phase-order")


def test_http_out_of_turn_malformed_and_stale_moves(http_table: Table) -> None:
    http_table.illegal(1, {"type": "play", "card": "Djinn"}, "fillory.turn.not-your-turn")
    http_table.illegal(0, {"type": "play", "card": "Djinn"}, "fillory.card.location")
    http_table.illegal(0, {"type": "play", "card": "Gandalf"}, None)
    before = http_table.snapshot()
    stale = http_table.post(0, {"type": "play", "card": "Romance"}, version=http_table.version - 1)
    assert stale.status_code == 409 and stale.get_json()["version"] == http_table.version
    assert stale.get_json()["ok"] is False and stale.get_json()["rule"] is None
    assert http_table.snapshot() == before


def test_http_hand_limit_at_the_end_of_the_turn(http_table: Table) -> None:
    # Draw +1, play -1, summon into hand +1: Ann's hand grows by one a turn, 4, 5, then 6.
    ann_turns = [("Ember", "Romance", "Quentin"), ("Pete", "Time Loop", "Infidelity")]
    ben_turns = [("Talking Animal", "Djinn"), ("Stanley", "Golem")]
    http_table.ok(0, {"type": "play", "card": "Death"})
    http_table.ok(0, {"type": "decline"})
    for (ben_draw, ben_play), (draw, card, summon) in zip(ben_turns, ann_turns, strict=True):
        http_table.ok(0, {"type": "end_turn", "discard": []})
        for move in [{"type": "draw", "card": ben_draw}, {"type": "play", "card": ben_play}, {"type": "decline"},
                     {"type": "end_turn", "discard": []}]:
            http_table.ok(1, move)
        for move in [{"type": "draw", "card": draw}, {"type": "play", "card": card},
                     {"type": "summon", "card": summon, "to": "hand"}]:
            state = http_table.ok(0, move)["state"]
    assert state["players"][0]["hand_count"] == 5
    http_table.ok(0, {"type": "end_turn", "discard": []})  # exactly 5: no discard needed
    for move in [{"type": "draw", "card": "Joe"}, {"type": "play", "card": "Mercenaries"}, {"type": "decline"},
                 {"type": "end_turn", "discard": []}]:
        http_table.ok(1, move)
    http_table.ok(0, {"type": "draw", "card": "Marina"})
    http_table.ok(0, {"type": "play", "card": "Quentin"})
    state = http_table.ok(0, {"type": "summon", "card": "Julia", "to": "hand"})["state"]
    assert state["players"][0]["hand_count"] == 6
    body = http_table.illegal(0, {"type": "end_turn", "discard": []}, "fillory.end.hand-limit")
    assert "5" in body["error"]
    http_table.illegal(0, {"type": "end_turn", "discard": ["Joe"]}, "fillory.card.location")  # Joe is Ben's
    ended = http_table.ok(0, {"type": "end_turn", "discard": ["Ember"]})["state"]
    assert ended["players"][0]["hand_count"] == 5 and cid("Ember") in ended["discard"]
    assert ended["turn"] == {"seat": 1, "step": "draw", "number": ended["turn"]["number"], "extra_action": False, "loss": None}


def test_http_a_plot_trick_with_no_character_in_any_control_zone_is_accepted(http_table: Table) -> None:
    # What the phone's trick form sends when it says "it would do nothing": no target at all.
    http_table.ok(0, {"type": "play", "card": "Time Loop"})
    http_table.ok(0, {"type": "decline"})
    answer = http_table.ok(0, {"type": "trick", "card": "Romance", "trait": "Plot"})
    assert cid("Romance") in answer["state"]["discard"] and answer["state"]["turn"]["step"] == "score"
    log = http_table.client.get(f"/api/games/{http_table.game['id']}/log").get_json()["entries"]
    assert log[-1]["text"] == "Ann discarded Romance for the Plot trick and found no Character to move."


# "Max hand size is 5 cards. Discard excess cards." (End phase): exactly the cards over five, none otherwise.

def test_the_end_of_turn_discards_exactly_the_excess() -> None:
    three = ["Quentin", "Eliza", "Julia"]
    state = position(hands={0: three}, step="end")
    with pytest.raises(IllegalMove) as over:     # 3 cards held, 2 discarded: nothing was over the limit
        fillory.apply(state, 0, {"type": "end_turn", "discard": three[:2]})
    assert over.value.rule == "fillory.end.hand-limit" and "discard none" in over.value.message
    assert fillory.apply(state, 0, {"type": "end_turn", "discard": []}).turn_seat == 1
    seven = ["Quentin", "Eliza", "Julia", "Alice", "Penny", "Kady", "Margo"]
    state = position(hands={0: seven}, step="end")
    with pytest.raises(IllegalMove) as extra:    # 7 held: discard exactly 2, not 3
        fillory.apply(state, 0, {"type": "end_turn", "discard": seven[:3]})
    assert extra.value.rule == "fillory.end.hand-limit" and "exactly 2" in extra.value.message
    with pytest.raises(IllegalMove, match="discard 1 more"):
        fillory.apply(state, 0, {"type": "end_turn", "discard": seven[:1]})
    after = fillory.apply(state, 0, {"type": "end_turn", "discard": seven[:2]})
    assert sorted(after.cards_at("hand:0")) == sorted(cid(c) for c in seven[2:])
