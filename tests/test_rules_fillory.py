"""Magicians of Fillory rules: every refusal (rule id + sentence) and exact legal positions, by rulebook case."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, Mapping

import pytest

from companion.rules import GAMES, IllegalMove, Outcome, SetupError
from companion.rules.fillory import game as fillory
from companion.rules.fillory.state import CARDS, GAME, FilloryState, LedgerEntry

PLAYERS = ("Ann", "Ben", "Cy")
RULES_DIR = Path(fillory.__file__).parent


# --- building positions --------------------------------------------------------------------------

def cid(ref: str) -> str:
    return GAME.card(ref).id


def ids(refs: Iterable[str]) -> list[str]:
    """Card ids in card number order (the order view() lists them in)."""
    return sorted((cid(r) for r in refs), key=lambda c: GAME.card(c).number)


def table(*, hands: Mapping[int, Iterable[str]] | None = None, zones: Mapping[int, Iterable[str]] | None = None,
          neutral: Iterable[str] | None = None, discard: Iterable[str] = (), deck: Iterable[str] = (),
          rest: str = "deck", seat: int = 0, step: str = "action", pending: str | None = None,
          extra_action: bool = False, scored: Mapping[int, Mapping[str, int]] | None = None,
          players: tuple[str, ...] = PLAYERS) -> FilloryState:
    """A play-phase position on turn 4. Cards not named go to ``rest`` (the deck unless told otherwise);
    ``neutral`` defaults to the 13 setup cards; ``scored`` gives per seat {trait: cards it scored}."""
    places = {card.id: rest for card in CARDS}
    for ref in (GAME.setup_neutral if neutral is None else neutral):
        places[cid(ref)] = "neutral"
    for ref in deck:
        places[cid(ref)] = "deck"
    for ref in discard:
        places[cid(ref)] = "discard"
    for s, cards in (zones or {}).items():
        places.update({cid(ref): f"zone:{s}" for ref in cards})
    for s, cards in (hands or {}).items():
        places.update({cid(ref): f"hand:{s}" for ref in cards})
    ledger = tuple(tuple(LedgerEntry("score", trait, n, n * n) for trait, n in (scored or {}).get(s, {}).items())
                   for s in range(len(players)))
    return FilloryState(players=players, first_seat=0, phase="play", locations=tuple(places[c.id] for c in CARDS),
                        ledger=ledger, turn_seat=seat, step=step, turn_number=4,  # type: ignore[arg-type]
                        extra_action=extra_action, pending=cid(pending) if pending else None)


#: 95 victory points already scored: Magic ×9 = 81, Plover ×3 = 9, Light ×2 = 4, Drugs ×1 = 1.
NINETY_FIVE = {"Magic": 9, "Plover": 3, "Light": 2, "Drugs": 1}


def where(state: FilloryState, ref: str) -> str:
    return state.where(cid(ref))


def refused(state: FilloryState, seat: int, move: Any) -> IllegalMove:
    before = fillory.state_to_json(state)
    with pytest.raises(IllegalMove) as caught:
        fillory.apply(state, seat, move)
    assert fillory.state_to_json(state) == before
    return caught.value


# --- refusals: one or more cases per rule id -----------------------------------------------------

HAND = {0: ["Quentin", "Eliza", "Fillory & Further"], 1: ["Julia", "Death"], 2: ["Pete"]}
#: Ann at 99 VP (Magic ×9, Plover ×3, Light ×2, Sex ×2, Drugs ×1) plays the Fillory trick: 100, game over.
OVER = fillory.apply(table(hands=HAND, step="trick", scored={0: {"Magic": 9, "Plover": 3, "Light": 2, "Sex": 2,
                                                                 "Drugs": 1}}),
                     0, {"type": "trick", "card": "Fillory & Further", "trait": "Fillory"})

ILLEGAL: list[tuple[str, FilloryState, int, Any, str | None, str]] = [
    # (case, position, seat, move, rule, a fragment of the sentence)
    ("out of turn draw", table(hands=HAND, step="draw"), 1, {"type": "draw", "card": "Brakebills"},
     "fillory.turn.not-your-turn", "It is Ann's turn"),
    ("out of turn play", table(hands=HAND), 2, {"type": "play", "card": "Pete"},
     "fillory.turn.not-your-turn", "It is Ann's turn, not Cy's."),
    ("play before drawing", table(hands=HAND, step="draw"), 0, {"type": "play", "card": "Quentin"},
     "fillory.turn.phase-order", "Draw your card first"),
    ("second draw", table(hands=HAND), 0, {"type": "draw", "card": "Mentors"},
     "fillory.turn.phase-order", "already drawn"),
    ("second play", table(hands=HAND, step="trick"), 0, {"type": "play", "card": "Eliza"},
     "fillory.turn.phase-order", "already played your card"),
    ("trick before the action", table(hands=HAND), 0, {"type": "trick", "card": "Eliza", "trait": "Time"},
     "fillory.turn.phase-order", "Play a card from your hand first"),
    ("score before the action", table(hands=HAND, zones={0: ["Penny"]}), 0, {"type": "score", "trait": "Student"},
     "fillory.turn.phase-order", "Play a card from your hand first"),
    ("end turn before the action", table(hands=HAND), 0, {"type": "end_turn"},
     "fillory.turn.phase-order", "action phase comes before"),
    ("end turn before drawing", table(hands=HAND, step="draw"), 0, {"type": "end_turn"},
     "fillory.turn.phase-order", "Draw your card first"),
    ("trick after scoring", table(hands=HAND, step="end"), 0, {"type": "trick", "card": "Eliza", "trait": "Time"},
     "fillory.turn.phase-order", "card trick phase is over"),
    ("second score", table(hands=HAND, step="end", zones={0: ["Penny"]}), 0, {"type": "score", "trait": "Student"},
     "fillory.turn.phase-order", "already scored this turn"),
    ("trick while an ability waits", table(hands=HAND, step="ability", pending="Sex Magic", zones={0: ["Sex Magic"]}),
     0, {"type": "trick", "card": "Eliza", "trait": "Time"}, "fillory.turn.phase-order", "First resolve Sex Magic's ability (Summon Student)"),
    ("end turn while an ability waits", table(hands=HAND, step="ability", pending="Sex Magic", zones={0: ["Sex Magic"]}),
     0, {"type": "end_turn"}, "fillory.turn.phase-order", "or decline it"),
    ("second trick after Time", table(hands=HAND, step="score", extra_action=True), 0,
     {"type": "trick", "card": "Eliza", "trait": "Time"}, "fillory.turn.phase-order", "card trick phase is over"),
    ("trick in the extra action", table(hands=HAND, extra_action=True), 0,
     {"type": "trick", "card": "Eliza", "trait": "Time"}, "fillory.turn.phase-order", "no second card trick"),
    ("deal: a fourth starting card", fillory.setup(PLAYERS), 0, None, "fillory.setup.deal", "already hold your 3"),
    ("deal: play before the deal ends", fillory.setup(PLAYERS), 0, {"type": "play", "card": "Quentin"},
     "fillory.setup.deal", "starting hand of 3"),
    ("draw a neutral card", table(hands=HAND, step="draw"), 0, {"type": "draw", "card": "Alice"},
     "fillory.card.location", "Alice is not in the deck; it is in the neutral zone"),
    ("draw a card from a hand", table(hands=HAND, step="draw"), 0, {"type": "draw", "card": "Julia"},
     "fillory.card.location", "Julia is not in the deck"),
    ("play a card not in hand", table(hands=HAND), 0, {"type": "play", "card": "Penny"},
     "fillory.card.location", "Penny is not in your hand; it is in the neutral zone"),
    ("play an opponent's card", table(hands=HAND), 0, {"type": "play", "card": "Death"},
     "fillory.card.location", "Death is not in your hand"),
    ("trick with a card not in hand", table(hands=HAND, step="trick"), 0,
     {"type": "trick", "card": "Margo", "trait": "Character"}, "fillory.card.location", "Margo is not in your hand"),
    ("discard a card not in hand", table(hands=HAND, step="end"), 0, {"type": "end_turn", "discard": ["Death"]},
     "fillory.card.location", "Death is not in your hand"),
    ("summon with nothing pending", table(hands=HAND, step="trick"), 0, {"type": "summon", "card": "Julia", "to": "hand"},
     "fillory.ability.when", "No special ability is waiting"),
    ("banish with nothing pending", table(hands=HAND), 0, {"type": "banish", "card": "Julia"},
     "fillory.ability.when", "played from your hand"),
    ("decline with nothing pending", table(hands=HAND, step="score"), 0, {"type": "decline"},
     "fillory.ability.when", "No special ability is waiting"),
    ("summon a card the ability does not name", table(step="ability", pending="Quentin", zones={0: ["Quentin"]}), 0,
     {"type": "summon", "card": "Margo", "to": "hand"}, "fillory.ability.target",
     "Quentin's ability can summon Julia or Alice or Penny or Elliot; Margo does not match"),
    ("summon a card without the trait", table(step="ability", pending="Sex Magic", zones={0: ["Sex Magic"]}), 0,
     {"type": "summon", "card": "Julia", "to": "zone"}, "fillory.ability.target", "can summon Student; Julia"),
    ("summon with a banish-only ability", table(step="ability", pending="Death", zones={0: ["Death"]}), 0,
     {"type": "summon", "card": "Julia", "to": "hand"}, "fillory.ability.target", "Death's ability cannot summon"),
    ("banish with a summon-only ability", table(step="ability", pending="Quentin", zones={0: ["Quentin"]}), 0,
     {"type": "banish", "card": "Julia"}, "fillory.ability.target", "Quentin's ability cannot banish"),
    ("banish a card without the trait", table(step="ability", pending="Binding Spell", zones={0: ["Binding Spell"]}), 0,
     {"type": "banish", "card": "Alice"}, "fillory.ability.target", "can banish Creature; Alice does not match"),
    ("summon from my own control zone", table(step="ability", pending="Sex Magic", zones={0: ["Sex Magic", "Todd"]}), 0,
     {"type": "summon", "card": "Todd", "to": "hand"}, "fillory.summon", "already in your control zone"),
    ("banish from my own control zone", table(step="ability", pending="Death", zones={0: ["Death", "Stanley"]}), 0,
     {"type": "banish", "card": "Stanley"}, "fillory.banish", "Stanley is not in the neutral zone or an opponent's"),
    ("banish from an opponent's hand", table(hands={1: ["Stanley"]}, step="ability", pending="Death",
                                              zones={0: ["Death"]}), 0,
     {"type": "banish", "card": "Stanley"}, "fillory.banish", "the only places banish reaches"),
    ("banish from the deck", table(step="ability", pending="Death", zones={0: ["Death"]}), 0,
     {"type": "banish", "card": "Stanley"}, "fillory.banish", "Stanley is not in the neutral zone"),
    ("banish from the discard", table(step="ability", pending="Death", zones={0: ["Death"]}, discard=["Stanley"]), 0,
     {"type": "banish", "card": "Stanley"}, "fillory.banish", "it is in the discard pile"),
    ("trick with a trait the card lacks", table(hands=HAND, step="trick"), 0,
     {"type": "trick", "card": "Quentin", "trait": "Time"}, "fillory.trick.discard", "Quentin does not have the trait Time"),
    ("Psychic at myself", table(hands={0: ["Psychic Magic"]}, step="trick"), 0,
     {"type": "trick", "card": "Psychic Magic", "trait": "Psychic", "target_seat": 0}, "fillory.trick.psychic",
     "targets an opponent"),
    ("Plot on a neutral Character", table(hands={0: ["Romance"]}, step="trick"), 0,
     {"type": "trick", "card": "Romance", "trait": "Plot", "target": "Quentin"}, "fillory.trick.plot",
     "Quentin is not in a control zone; it is in the neutral zone"),
    ("Plot on a non-Character", table(hands={0: ["Romance"]}, zones={1: ["Golem"]}, step="trick"), 0,
     {"type": "trick", "card": "Romance", "trait": "Plot", "target": "Golem"}, "fillory.trick.plot",
     "needs a Character; Golem is not one"),
    ("Defense on a non-Creature", table(hands={0: ["Binding Spell"]}, zones={1: ["Stanley"]}, step="trick"), 0,
     {"type": "trick", "card": "Binding Spell", "trait": "Defense", "target": "Stanley"}, "fillory.trick.defense",
     "needs a Creature"),
    ("Defense on a Creature in a hand", table(hands={0: ["Binding Spell"], 1: ["Golem"]}, step="trick"), 0,
     {"type": "trick", "card": "Binding Spell", "trait": "Defense", "target": "Golem"}, "fillory.trick.defense",
     "Golem is not in a control zone"),
    ("Transform within one place", table(hands={0: ["Niffin"]}, step="trick"), 0,
     {"type": "trick", "card": "Niffin", "trait": "Transform", "targets": ["Quentin", "Julia"]},
     "fillory.trick.transform", "are in the same place"),
    ("Transform with a Character in the deck", table(hands={0: ["Niffin"]}, step="trick"), 0,
     {"type": "trick", "card": "Niffin", "trait": "Transform", "targets": ["Quentin", "Stanley"]},
     "fillory.trick.transform", "Stanley is not in the neutral zone or a control zone"),
    ("Transform one card with itself", table(hands={0: ["Niffin"]}, step="trick"), 0,
     {"type": "trick", "card": "Niffin", "trait": "Transform", "targets": ["Quentin", "quentin"]},
     "fillory.trick.transform", "two different cards"),
    ("Traveler takes a neutral card", table(hands={0: ["Neitherlands"]}, step="trick"), 0,
     {"type": "trick", "card": "Neitherlands", "trait": "Traveler", "take": "Alice"}, "fillory.trick.traveler",
     "Alice is not in the deck"),
    ("Heal a Character that is not discarded", table(hands={0: ["Hospital"]}, step="trick"), 0,
     {"type": "trick", "card": "Hospital", "trait": "Heal", "target": "Quentin"}, "fillory.trick.heal",
     "Quentin is not in the discard pile"),
    ("Heal a non-Character", table(hands={0: ["Hospital"]}, discard=["Golem"], step="trick"), 0,
     {"type": "trick", "card": "Hospital", "trait": "Heal", "target": "Golem"}, "fillory.trick.heal", "needs a Character"),
    ("Spell places a card not in hand", table(hands={0: ["Card Tricks"]}, step="trick"), 0,
     {"type": "trick", "card": "Card Tricks", "trait": "Spell", "draw": "Mentors", "place": "Alice"},
     "fillory.trick.spell", "Alice is not in your hand"),
    ("Religion from an empty hand (a game begun before format 2)",
     replace(table(hands={0: ["Religious Magic"], 2: ["Pete"]}, step="trick"), legacy_take=True), 0,
     {"type": "trick", "card": "Religious Magic", "trait": "Religion", "target_seat": 1, "take": "Pete"},
     "fillory.trick.religion", "Ben's hand is empty"),
    ("Character draws the same card twice", table(hands={0: ["Stanley"]}, step="trick"), 0,
     {"type": "trick", "card": "Stanley", "trait": "Character", "to_hand": "Mentors", "to_zone": "mentors"},
     "fillory.trick.character", "two different cards"),
    ("Character draws a discard card while the deck has cards", table(hands={0: ["Stanley"]}, discard=["Golem"],
                                                                      step="trick"), 0,
     {"type": "trick", "card": "Stanley", "trait": "Character", "to_hand": "Mentors", "to_zone": "Golem"},
     "fillory.trick.character", "Golem is not in the deck; it is in the discard pile"),
    ("Hedge takes a card not in the discard", table(hands={0: ["Safe House"]}, step="trick"), 0,
     {"type": "trick", "card": "Safe House", "trait": "Hedge", "take": "Mentors", "to": "hand"},
     "fillory.trick.hedge", "Mentors is not in the discard pile"),
    ("Threat at myself", table(hands={0: ["Insanity", "Pete"]}, step="trick"), 0,
     {"type": "trick", "card": "Insanity", "trait": "Threat", "target_seat": 0, "take": "Pete"},
     "fillory.trick.threat", "targets an opponent"),
    ("score Character", table(hands=HAND, step="trick", zones={0: ["Penny", "Margo"]}), 0,
     {"type": "score", "trait": "character"}, "fillory.score.no-character", "Character trait can never be scored"),
    ("score a trait twice", table(hands=HAND, step="trick", zones={0: ["Penny", "Margo"]}, scored={0: {"Student": 1}}),
     0, {"type": "score", "trait": "Student"}, "fillory.score.once", "already scored Student (1 VP)"),
    ("score a trait with no card", table(hands=HAND, step="trick", zones={0: ["Penny"]}), 0,
     {"type": "score", "trait": "Plover"}, "fillory.score.empty", "No card in your control zone has the trait Plover"),
    ("score a trait only opponents have", table(hands=HAND, step="score", zones={1: ["Penny"]}), 0,
     {"type": "score", "trait": "Student"}, "fillory.score.empty", "trait Student"),
    ("end with 7 cards", table(hands={0: ["Quentin", "Eliza", "Pete", "Golem", "Djinn", "Joe", "Mentors"]}, step="end"),
     0, {"type": "end_turn", "discard": ["Quentin"]}, "fillory.end.hand-limit", "discard 1 more (you would still hold 6)"),
    ("end with 6 cards, no discard", table(hands={0: ["Quentin", "Eliza", "Pete", "Golem", "Djinn", "Joe"]}, step="trick"),
     0, {"type": "end_turn"}, "fillory.end.hand-limit", "at most 5 cards"),
    ("any move once the game is over", OVER, 1, {"type": "draw", "card": "Mentors"}, "fillory.game.over",
     "Ann reached 100 victory points"),
    ("even the winner's move", OVER, 0, {"type": "end_turn"}, "fillory.game.over", "no more moves"),
    ("draw from an empty deck and discard", table(rest="neutral", step="draw", hands={1: ["Mentors"]}), 0,
     {"type": "draw", "card": "Mentors"}, "fillory.draw.reshuffle", "both empty"),
    # a dead end (deck, discard and every hand empty, nothing left to score): no move at all, not even the turn's end
    ("any move at a dead end", table(rest="neutral", step="draw"), 0, {"type": "draw", "card": "Mentors"},
     "fillory.game.dead-end", "a dead end"),
    ("the turn's end at a dead end", table(rest="neutral", step="end"), 0, {"type": "end_turn"},
     "fillory.game.dead-end", "nobody can reach 100 victory points"),
]

# a fourth starting card: seat 0 already holds three
_deal = fillory.setup(PLAYERS)
for _card in ("Mentors", "Golem", "Djinn"):
    _deal = fillory.apply(_deal, 0, {"type": "draw", "card": _card})
ILLEGAL[[c[0] for c in ILLEGAL].index("deal: a fourth starting card")] = (
    "deal: a fourth starting card", _deal, 0, {"type": "draw", "card": "Joe"}, "fillory.setup.deal",
    "already hold your 3")

MALFORMED: list[tuple[str, str, Any, str]] = [
    ("not an object", "action", ["draw"], "must be a JSON object"),
    ("unknown type", "action", {"type": "cast"}, "Unknown move type 'cast'; Magicians of Fillory knows: draw, play"),
    ("missing card", "action", {"type": "play"}, "needs a 'card' field"),
    ("card is a number", "action", {"type": "play", "card": 7}, "Field 'card' of the 'play' move must be a text"),
    ("unknown card", "action", {"type": "play", "card": "Hermione"}, "no card called 'Hermione'"),
    ("unknown trait", "trick", {"type": "trick", "card": "Eliza", "trait": "Luck"}, "no trait called 'Luck'"),
    ("discard is not a list", "end", {"type": "end_turn", "discard": "Quentin"},
     "Field 'discard' of the 'end_turn' move must be a list of texts"),
    ("discard lists a card twice", "end", {"type": "end_turn", "discard": ["Eliza", "eliza"]}, "same card twice"),
    ("discard names nothing", "end", {"type": "end_turn", "discard": [3]},
     "Field 'discard' of the 'end_turn' move must be a list of texts"),
]


@pytest.mark.parametrize("case,state,seat,move,rule,fragment", ILLEGAL, ids=[c[0] for c in ILLEGAL])
def test_refusals_name_the_rule(case: str, state: FilloryState, seat: int, move: Any, rule: str, fragment: str) -> None:
    error = refused(state, seat, move)
    assert error.rule == rule
    assert fragment in error.message


@pytest.mark.parametrize("case,step,move,fragment", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_malformed_moves_have_no_rule(case: str, step: str, move: Any, fragment: str) -> None:
    error = refused(table(hands=HAND, step=step), 0, move)
    assert error.rule is None
    assert fragment in error.message


@pytest.mark.parametrize("step,move,fragment", [
    ("ability", {"type": "summon", "card": "Todd", "to": "pocket"}, "'to' must be 'hand' or 'zone'"),
    ("ability", {"type": "summon", "card": "Todd"}, "needs a 'to' field"),
    ("trick-niffin", {"type": "trick", "card": "Niffin", "trait": "Transform", "targets": ["Quentin"]},
     "exactly two cards"),
    ("trick-psychic", {"type": "trick", "card": "Psychic Magic", "trait": "Psychic", "target_seat": True},
     "must be a seat number"),
    ("trick-psychic", {"type": "trick", "card": "Psychic Magic", "trait": "Psychic", "target_seat": 7}, "no seat 7"),
    ("trick-psychic", {"type": "trick", "card": "Psychic Magic", "trait": "Psychic"}, "needs a 'target_seat'"),
    ("trick-hedge", {"type": "trick", "card": "Safe House", "trait": "Hedge", "take": "Golem", "to": "deck"},
     "'to' must be 'hand' or 'zone'"),
    ("trick-traveler", {"type": "trick", "card": "Neitherlands", "trait": "Traveler"}, "needs a 'take' field"),
])
def test_malformed_effect_fields(step: str, move: dict[str, Any], fragment: str) -> None:
    hands = {0: ["Niffin", "Psychic Magic", "Safe House", "Neitherlands"]}
    if step == "ability":
        state = table(step="ability", pending="Sex Magic", zones={0: ["Sex Magic"]})
    else:
        state = table(hands=hands, step="trick", discard=["Golem"])
    error = refused(state, 0, move)
    assert (error.rule, fragment in error.message) == (None, True), error.message


def test_a_refusal_carries_its_move_and_seat() -> None:
    move = {"type": "play", "card": "Penny"}
    error = refused(table(hands=HAND), 0, move)
    assert (error.rule, error.seat, error.move) == ("fillory.card.location", 0, move)
    assert str(error) == "Penny is not in your hand; it is in the neutral zone. [fillory.card.location]"


@pytest.mark.parametrize("ref,card", [
    ("Jane", "jane-chatwin"), ("jane chatwin", "jane-chatwin"), ("JANE-CHATWIN", "jane-chatwin"),
    ("Kady\u2019s Mother", "kadys-mother"), ("kady's mother", "kadys-mother"), ("Mayakowski", "professor-mayakovsky"),
])
def test_cards_may_be_named_as_the_rulebook_spells_them(ref: str, card: str) -> None:
    state = table(hands={0: ["Arcane Sigil", "Hospital", "Witch in a Coma", "Flight of Geese", "Kady's Mother",
                             "Jane Chatwin", "Professor Mayakovsky"]}, neutral=[])
    after = fillory.apply(state, 0, {"type": "play", "card": ref})
    assert after.where(card) == "zone:0"


def test_the_rulebooks_misprinted_traits_are_understood() -> None:
    state = table(hands={0: ["Suicide", "Mercenaries"]}, discard=["Pete"], step="trick")
    after = fillory.apply(state, 0, {"type": "trick", "card": "Suicide", "trait": "Healing", "target": "Pete"})
    assert (where(after, "Pete"), where(after, "Suicide")) == ("zone:0", "discard")
    scored = fillory.apply(table(step="score", zones={0: ["Mercenaries", "Golem"]}), 0,
                           {"type": "score", "trait": "Creatures"})
    assert scored.scored(0) == {"Creature": 4}
    assert fillory.describe_move({"type": "play", "card": "Jane"}, 1, ["Ann", "Ben"]) == "Ben played Jane Chatwin."


@pytest.mark.parametrize("seat", [-1, 3, "0", True, None])
def test_unknown_seat_is_refused(seat: Any) -> None:
    assert refused(table(hands=HAND), seat, {"type": "play", "card": "Quentin"}).rule is None


def test_every_rule_id_the_module_raises_exists_and_is_tested() -> None:
    sources = "".join(p.read_text() for p in RULES_DIR.glob("*.py") if p.name != "choices.py")
    raised = set(re.findall(r'"(fillory\.[a-z.-]+)"', sources))
    linked = set(re.findall(r'"(fillory\.[a-z.-]+)"', (RULES_DIR / "choices.py").read_text()))
    assert linked <= {rule.id for rule in GAME.rules}, linked - {rule.id for rule in GAME.rules}  # the forms' links
    raised |= {f"fillory.trick.{t.name.lower()}" for t in GAME.traits
               if t.trick is not None and t.trick.kind not in ("peek_deck", "extra_action", "gain_vp")}
    assert len(raised) >= 25
    assert raised <= {rule.id for rule in GAME.rules}, raised - {rule.id for rule in GAME.rules}
    assert raised - {case[4] for case in ILLEGAL} == set()


def test_empty_deck_and_discard_during_the_deal_cannot_draw() -> None:
    state = fillory.setup(["Ann", "Ben"])
    state = FilloryState(**{**state.__dict__, "locations": tuple(
        "neutral" if loc == "deck" else loc for loc in state.locations)})
    error = refused(state, 0, {"type": "draw", "card": "Mentors"})
    assert error.rule == "fillory.draw.reshuffle"
    assert "both empty" in error.message


# --- setup and the deal --------------------------------------------------------------------------

def test_setup_puts_the_thirteen_cards_in_the_neutral_zone() -> None:
    state = fillory.setup(PLAYERS, {}, None)
    seen = fillory.view(state, None)
    assert seen["neutral"] == ids(["The Beast", "Quentin", "Julia", "Alice", "Penny", "Kady", "Brakebills",
                                   "Fillory & Further", "Dean Fogg", "Eliza", "Elliot", "Margo", "Jane Chatwin"])
    assert (seen["deck_count"], seen["discard"], seen["phase"]) == (97, [], "deal")
    assert seen["turn"] == {"seat": None, "step": None, "number": 0, "extra_action": False, "loss": None}
    assert [p["hand_count"] for p in seen["players"]] == [0, 0, 0]


@pytest.mark.parametrize("players,options,fragment", [
    (["Ann"], {}, "2 to 6 players"),
    (["A", "B", "C", "D", "E", "F", "G"], {}, "2 to 6 players"),
    (["Ann", "ann"], {}, "must be different"),
    (["Ann", "Ben"], {"first_seat": 2}, "Option 'first_seat' must be a seat number from 0 to 1"),
    (["Ann", "Ben"], {"first_seat": "1"}, "got '1'"),
    (["Ann", "Ben"], {"first_seat": True}, "Option 'first_seat' must be"),
    (["Ann", "Ben"], {"variant": "fast"}, "Unknown option 'variant'"),
    (["Ann", "Ben"], ["first_seat"], "Options must be an object"),
])
def test_setup_errors(players: list[str], options: Any, fragment: str) -> None:
    with pytest.raises(SetupError, match=re.escape(fragment)):
        fillory.setup(players, options, None)


def test_the_deal_in_any_order_then_the_most_magical_player_starts() -> None:
    state = fillory.setup(PLAYERS, {"first_seat": 2}, None)
    draws = [(1, "Mentors"), (0, "Golem"), (2, "Djinn"), (1, "Joe"), (0, "Pete"), (1, "Death"),
             (2, "Stanley"), (0, "Hospital"), (2, "Insanity")]
    for seat, card in draws:
        assert state.phase == "deal"
        state = fillory.apply(state, seat, {"type": "draw", "card": card})
    seen = fillory.view(state, 0)
    assert seen["phase"] == "play"
    assert seen["turn"] == {"seat": 2, "step": "draw", "number": 1, "extra_action": False, "loss": None}
    assert seen["players"][0]["hand"] == ids(["Golem", "Pete", "Hospital"])
    assert [p["hand_count"] for p in seen["players"]] == [3, 3, 3]
    assert seen["deck_count"] == 97 - 9
    assert refused(state, 0, {"type": "draw", "card": "Binding Spell"}).rule == "fillory.turn.not-your-turn"


# --- legal moves with exact results --------------------------------------------------------------

def test_draw_then_play_a_card_with_an_ability() -> None:
    state = table(hands={0: ["Sex Magic"]}, step="draw")
    state = fillory.apply(state, 0, {"type": "draw", "card": "mentors"})
    assert (where(state, "Mentors"), state.step) == ("hand:0", "action")
    state = fillory.apply(state, 0, {"type": "play", "card": "SEX MAGIC"})
    seen = fillory.view(state, 0)
    assert seen["turn"]["step"] == "ability"
    assert seen["pending"] == {"card": "sex-magic", "options": [
        {"action": "summon", "kind": "trait", "target": "Student", "label": "Student"}]}
    assert seen["players"][0]["zone"] == ["sex-magic"]


@pytest.mark.parametrize("source,setting", [
    ("an opponent's hand", {"hands": {1: ["Todd"]}}),
    ("an opponent's control zone", {"zones": {2: ["Todd"]}}),
    ("the deck", {}),
    ("the discard pile", {"discard": ["Todd"]}),
    ("the neutral zone", {"neutral": ["Todd"]}),
    ("my own hand", {"hands": {0: ["Todd"]}}),
])
@pytest.mark.parametrize("to", ["hand", "zone"])
def test_summon_takes_a_card_from_anywhere_but_my_zone(source: str, setting: dict[str, Any], to: str) -> None:
    setting = dict(setting)
    zones = {0: ["Sex Magic"], **setting.pop("zones", {})}
    state = table(step="ability", pending="Sex Magic", zones=zones, **setting)
    state = fillory.apply(state, 0, {"type": "summon", "card": "Todd", "to": to})
    assert where(state, "Todd") == f"{to}:0"
    # the summoned card's own ability (Summon Djinn or Margo) does not fire
    assert (state.pending, state.step) == (None, "trick")


def test_summon_by_card_name_from_an_opponents_hand() -> None:
    state = table(hands={0: ["Quentin"], 2: ["Julia", "Pete"]}, neutral=[], step="action")
    state = fillory.apply(state, 0, {"type": "play", "card": "Quentin"})
    state = fillory.apply(state, 0, {"type": "summon", "card": "Julia", "to": "hand"})
    assert fillory.view(state, 0)["players"][0]["hand"] == ["julia"]
    assert fillory.view(state, 2)["players"][2]["hand"] == ["pete"]


@pytest.mark.parametrize("place", ["neutral", "zone:1", "zone:2"])
def test_banish_from_the_neutral_zone_or_an_opponents_zone(place: str) -> None:
    setting: dict[str, Any] = {"neutral": ["Stanley"]} if place == "neutral" else {"zones": {int(place[-1]): ["Stanley"]}}
    zones = {0: ["Death"], **setting.pop("zones", {})}
    state = table(step="ability", pending="Death", zones=zones, **setting)
    state = fillory.apply(state, 0, {"type": "banish", "card": "stanley"})
    assert (where(state, "Stanley"), state.step, state.pending) == ("discard", "trick", None)
    assert fillory.view(state, None)["discard"] == ["stanley"]


def test_summon_or_banish_on_one_card_and_decline() -> None:
    base = table(step="ability", pending="Time Loop", zones={0: ["Time Loop"], 1: ["Romance"]})
    assert where(fillory.apply(base, 0, {"type": "banish", "card": "Romance"}), "Romance") == "discard"
    assert where(fillory.apply(base, 0, {"type": "summon", "card": "Romance", "to": "zone"}), "Romance") == "zone:0"
    declined = fillory.apply(base, 0, {"type": "decline"})
    assert (declined.step, declined.pending, where(declined, "Romance")) == ("trick", None, "zone:1")


@pytest.mark.parametrize("students,points", [(1, 1), (2, 4), (3, 9), (4, 16), (5, 25)])
def test_scoring_squares_the_number_of_cards(students: int, points: int) -> None:
    zone = ["Penny", "Kady", "Elliot", "Margo", "Todd"][:students] + ["Golem"]
    state = fillory.apply(table(step="trick", zones={0: zone}), 0, {"type": "score", "trait": "student"})
    assert (state.vp(0), state.scored(0), state.step) == (points, {"Student": points}, "end")
    assert fillory.score(state)[0]["breakdown"] == [{"cause": f"Student ×{students}", "points": points}]


def test_three_students_score_nine_and_others_may_score_the_same_trait() -> None:
    state = table(step="score", zones={0: ["Penny", "Kady", "Brakebills"], 1: ["Todd", "Margo"]})
    state = fillory.apply(state, 0, {"type": "score", "trait": "Student"})
    state = fillory.apply(state, 0, {"type": "end_turn"})
    state = fillory.apply(state, 1, {"type": "draw", "card": "Mentors"})
    state = fillory.apply(state, 1, {"type": "play", "card": "Mentors"})
    state = fillory.apply(state, 1, {"type": "decline"})
    state = fillory.apply(state, 1, {"type": "score", "trait": "Student"})
    assert [row["total"] for row in fillory.score(state)] == [9, 4, 0]
    assert fillory.view(state, None)["players"][1]["scored"] == {"Student": 4}


def test_the_fillory_trick_gains_one_point_and_the_trick_card_is_discarded() -> None:
    state = table(hands={0: ["Fillory & Further", "Pete"]}, step="trick", zones={0: ["Penny"]})
    state = fillory.apply(state, 0, {"type": "trick", "card": "fillory & further", "trait": "FILLORY"})
    assert (state.vp(0), where(state, "Fillory & Further"), state.step) == (1, "discard", "score")
    state = fillory.apply(state, 0, {"type": "score", "trait": "Psychic"})
    assert fillory.score(state)[0] == {"seat": 0, "name": "Ann", "total": 2, "breakdown": [
        {"cause": "Fillory trick", "points": 1}, {"cause": "Psychic ×1", "points": 1}]}


def test_the_hand_limit_at_the_end_of_the_turn() -> None:
    seven = ["Quentin", "Eliza", "Pete", "Golem", "Djinn", "Joe", "Mentors"]
    state = table(hands={0: seven}, step="end")
    state = fillory.apply(state, 0, {"type": "end_turn", "discard": ["Joe", "golem"]})
    assert fillory.view(state, 0)["players"][0]["hand_count"] == 5
    assert fillory.view(state, None)["discard"] == ids(["Golem", "Joe"])
    assert fillory.view(state, None)["turn"] == {"seat": 1, "step": "draw", "number": 5, "extra_action": False, "loss": None}


def test_discarding_below_the_limit_is_refused_and_the_last_seat_passes_to_the_first() -> None:
    state = table(hands={2: ["Pete", "Golem"]}, step="trick", seat=2)
    refused(state, 2, {"type": "end_turn", "discard": ["Pete"]})  # "discard excess cards": none with 2 in hand
    state = fillory.apply(state, 2, {"type": "end_turn", "discard": []})
    assert (state.turn_seat, state.step, where(state, "Pete"), where(state, "Golem")) == (0, "draw", "hand:2", "hand:2")


def test_time_gives_one_extra_action_and_no_second_trick() -> None:
    state = table(hands={0: ["Time Magic", "Sex Magic", "Pete"]}, step="trick", zones={0: ["Penny"]})
    state = fillory.apply(state, 0, {"type": "trick", "card": "Time Magic", "trait": "Time"})
    assert (state.step, state.extra_action, where(state, "Time Magic")) == ("action", True, "discard")
    assert fillory.view(state, None)["turn"]["extra_action"] is True
    state = fillory.apply(state, 0, {"type": "play", "card": "Sex Magic"})
    state = fillory.apply(state, 0, {"type": "summon", "card": "Todd", "to": "zone"})
    assert state.step == "score"
    assert refused(state, 0, {"type": "trick", "card": "Pete", "trait": "Hedge"}).rule == "fillory.turn.phase-order"
    assert refused(state, 0, {"type": "play", "card": "Pete"}).rule == "fillory.turn.phase-order"
    state = fillory.apply(state, 0, {"type": "score", "trait": "Student"})
    assert state.vp(0) == 4


def test_the_extra_action_is_an_action_phase_so_a_card_is_played_unless_the_hand_is_empty() -> None:
    """Time gives an extra action phase (rule fillory.trick.time), and an action phase puts a card from the hand
    into play, as the turn's first one must: skipping it while holding cards is refused, as there."""
    state = table(hands={0: ["Eliza", "Pete"]}, step="trick", zones={0: ["Penny"]})
    state = fillory.apply(state, 0, {"type": "trick", "card": "Eliza", "trait": "Time"})
    assert refused(state, 0, {"type": "score", "trait": "Traveler"}).rule == "fillory.turn.phase-order"
    assert refused(state, 0, {"type": "end_turn"}).rule == "fillory.turn.phase-order"
    empty = table(hands={0: ["Eliza"]}, step="trick", zones={0: ["Penny"]})
    empty = fillory.apply(empty, 0, {"type": "trick", "card": "Eliza", "trait": "Time"})
    empty = fillory.apply(empty, 0, {"type": "score", "trait": "Traveler"})   # nothing left to play
    assert (empty.vp(0), empty.step) == (1, "end")


def test_an_empty_hand_skips_the_action() -> None:
    state = table(step="action", zones={0: ["Penny"]})
    state = fillory.apply(state, 0, {"type": "score", "trait": "Student"})
    state = fillory.apply(state, 0, {"type": "end_turn"})
    assert state.turn_seat == 1


@pytest.mark.parametrize("how", ["score", "trick"])
def test_reaching_100_ends_the_game_at_once(how: str) -> None:
    if how == "score":
        state = table(hands={0: ["Pete"]}, step="trick", zones={0: ["Sex Magic", "Golem", "Joe"]}, scored={0: NINETY_FIVE})
        state = fillory.apply(state, 0, {"type": "score", "trait": "Sex"})
        total = 104
    else:
        state = table(hands={0: ["Talking Animal"]}, step="trick", scored={0: {"Magic": 9, "Plover": 3, "Sex": 3}})
        state = fillory.apply(state, 0, {"type": "trick", "card": "Talking Animal", "trait": "Fillory"})
        total = 100
    seen = fillory.view(state, None)
    assert (seen["phase"], seen["over"], seen["winner"], seen["players"][0]["vp"]) == ("over", True, 0, total)
    assert fillory.outcome(state) == Outcome(over=True, winner=0, winners=(0,),
                                                     reason=f"Ann reached {total} VP first (the goal is 100)")
    assert refused(state, 0, {"type": "end_turn"}).rule == "fillory.game.over"
    assert fillory.advice(state, 0) == [] and fillory.random_legal_move(state, 0, random.Random(1)) is None


def test_the_discard_pile_becomes_the_deck_when_the_deck_is_empty() -> None:
    state = table(hands={0: ["Pete"]}, rest="neutral", discard=["Golem", "Djinn", "Joe"], step="draw")
    state = fillory.apply(state, 0, {"type": "draw", "card": "Djinn"})
    seen = fillory.view(state, 0)
    assert (seen["discard"], seen["deck_count"], seen["players"][0]["hand"]) == ([], 2, ids(["Pete", "Djinn"]))
    assert (where(state, "Golem"), where(state, "Joe")) == ("deck", "deck")


def test_with_nothing_to_draw_the_next_turn_starts_at_the_action() -> None:
    state = table(hands={0: ["Pete"], 1: ["Golem"]}, rest="neutral", step="end")
    state = fillory.apply(state, 0, {"type": "end_turn"})
    assert (state.turn_seat, state.step) == (1, "action")
    state = fillory.apply(state, 1, {"type": "play", "card": "Golem"})
    assert state.step == "ability"


# --- every card trick ----------------------------------------------------------------------------

TRICK_HAND = {0: ["Mentors", "Psychic Magic", "Romance", "Binding Spell", "Niffin", "Neitherlands", "Hospital",
                  "Card Tricks", "Religious Magic", "Stanley", "Safe House", "Insanity"],
              1: ["Golem", "Pete"]}


@pytest.mark.parametrize("trick,moved", [
    ({"card": "Mentors", "trait": "Knowledge"}, {}),
    ({"card": "Psychic Magic", "trait": "Psychic", "target_seat": 1}, {}),
    ({"card": "Romance", "trait": "Plot", "target": "Todd"}, {"Todd": "neutral"}),
    ({"card": "Romance", "trait": "Plot", "target": "Elliot"}, {"Elliot": "neutral"}),  # my own zone counts too
    ({"card": "Binding Spell", "trait": "Defense", "target": "Djinn"}, {"Djinn": "neutral"}),
    ({"card": "Niffin", "trait": "Transform", "targets": ["Quentin", "Todd"]}, {"Quentin": "zone:2", "Todd": "neutral"}),
    ({"card": "Niffin", "trait": "Transform", "targets": ["Elliot", "Todd"]}, {"Elliot": "zone:2", "Todd": "zone:0"}),
    ({"card": "Neitherlands", "trait": "Traveler", "take": "Ember"}, {"Ember": "hand:0"}),
    ({"card": "Hospital", "trait": "Heal", "target": "Kady's Mother"}, {"Kady's Mother": "zone:0"}),
    ({"card": "Card Tricks", "trait": "Spell", "draw": "Ember", "place": "Stanley"},
     {"Ember": "hand:0", "Stanley": "zone:0"}),
    ({"card": "Card Tricks", "trait": "Spell", "draw": "Ember", "place": "Ember"}, {"Ember": "zone:0"}),
    ({"card": "Religious Magic", "trait": "Religion", "target_seat": 1, "take": "Golem"}, {"Golem": "hand:0"}),
    ({"card": "Stanley", "trait": "Character", "to_hand": "Ember", "to_zone": "Guardian"},
     {"Ember": "hand:0", "Guardian": "zone:0"}),
    ({"card": "Safe House", "trait": "Hedge", "take": "Kady's Mother", "to": "zone"}, {"Kady's Mother": "zone:0"}),
    ({"card": "Safe House", "trait": "Hedge", "take": "Safe House", "to": "hand"}, {"Safe House": "hand:0"}),
    ({"card": "Insanity", "trait": "Threat", "target_seat": 1, "take": "Pete"}, {"Pete": "discard"}),
])
def test_card_tricks_move_exactly_the_named_cards(trick: dict[str, Any], moved: dict[str, str]) -> None:
    state = table(hands=TRICK_HAND, zones={0: ["Elliot"], 2: ["Todd", "Djinn"]}, discard=["Kady's Mother"],
                  step="trick", neutral=["Quentin", "Alice"])
    if trick["trait"] in ("Religion", "Threat"):  # a named card from a hand: read only in a game begun before format 2
        state = replace(state, legacy_take=True)
    after = fillory.apply(state, 0, {"type": "trick", **trick})
    expected = dict(zip((c.id for c in CARDS), state.locations, strict=True))
    expected[cid(trick["card"])] = "discard"
    expected.update({cid(card): place for card, place in moved.items()})
    assert dict(zip((c.id for c in CARDS), after.locations, strict=True)) == expected
    assert (after.step, after.vp(0)) == ("score", 0)


def test_character_trick_reshuffles_when_the_deck_runs_out_midway() -> None:
    state = table(hands={0: ["Stanley"]}, rest="neutral", deck=["Ember"], discard=["Golem", "Joe"], step="trick")
    after = fillory.apply(state, 0, {"type": "trick", "card": "Stanley", "trait": "Character",
                                     "to_hand": "Joe", "to_zone": "Ember"})
    assert [where(after, c) for c in ("Joe", "Ember", "Golem", "Stanley")] == ["hand:0", "zone:0", "deck", "deck"]
    assert fillory.view(after, None)["discard"] == []


def test_religion_and_threat_wait_for_the_victim_to_say_which_card_and_a_named_card_tells_nothing() -> None:
    """Religion and Threat take a card at random from an opponent's hand: only that opponent knows which, so the
    trick waits for their phone (move lose_card), and meanwhile nobody else moves. A card the thief names that
    the hand does not hold is passed over in the same way, never refused: a refusal would tell the thief what
    the hand does not hold, one free try a card (the attacker's twin test below)."""
    state = table(hands={0: ["Religious Magic", "Golem"], 1: ["Death", "Joe"], 2: ["Pete"]}, step="trick")
    move = {"type": "trick", "card": "Religious Magic", "trait": "Religion", "target_seat": 1}
    waiting = fillory.apply(state, 0, move)
    assert waiting.loss == (1, "Religion") and waiting.step == "score"
    assert fillory.view(waiting, 2)["turn"]["loss"] == {"seat": 1, "trait": "Religion"}
    # a card named that Ben's hand does not hold (Pete is Cid's), and one that is no card of his at all: the same
    assert fillory.apply(state, 0, {**move, "take": "Pete"}) == waiting
    assert fillory.apply(state, 0, {**move, "take": "Alice"}) == waiting
    assert refused(waiting, 0, {"type": "score", "trait": "Student"}).rule == "fillory.trick.religion"
    assert refused(waiting, 2, {"type": "lose_card", "card": "Pete"}).rule == "fillory.trick.religion"
    assert refused(waiting, 1, {"type": "lose_card", "card": "Golem"}).rule == "fillory.card.location"
    assert fillory.random_legal_move(waiting, 0, random.Random(1)) is None
    assert fillory.random_legal_move(waiting, 1, random.Random(1))["type"] == "lose_card"
    taken = fillory.apply(waiting, 1, {"type": "lose_card", "card": "Joe"})
    assert (where(taken, "Joe"), taken.loss) == ("hand:0", None)
    assert fillory.redact_move({"type": "lose_card", "card": "joe"}, 1, 2)["card"] is None  # nobody else sees it
    assert fillory.apply(taken, 0, {"type": "end_turn"}).turn_seat == 1          # Ann's turn goes on
    # Threat: the card goes to the discard pile
    threat = table(hands={0: ["Insanity"], 1: ["Death", "Joe"]}, step="trick")
    threat = fillory.apply(threat, 0, {"type": "trick", "card": "Insanity", "trait": "Threat", "target_seat": 1})
    assert where(fillory.apply(threat, 1, {"type": "lose_card", "card": "Death"}), "Death") == "discard"
    # a card named that Ben's hand does hold: the thief does not choose, and taking it would tell every phone
    # that Ben held it (one card a try): the same again
    assert fillory.apply(state, 0, {**move, "take": "Death"}) == waiting
    # a move an earlier version stored in a game begun then, naming a card the hand held, replays as it was taken
    assert where(fillory.apply(replace(state, legacy_take=True), 0, {**move, "take": "Death"}), "Death") == "hand:0"
    # the phones: Ben is asked for the card, from his own hand; Ann and Cid wait
    asked = fillory.choices(waiting, 1)
    assert [c.move for c in asked] == ["lose_card"] and {o.value for o in asked[0].fields[0].options} == {"death", "joe"}
    assert fillory.choices(waiting, 0) == [] and fillory.choices(waiting, 2) == []


def test_tricks_with_nothing_to_take_need_no_target() -> None:
    state = table(hands={0: ["Insanity", "Card Tricks"]}, step="trick")
    after = fillory.apply(state, 0, {"type": "trick", "card": "Insanity", "trait": "Threat", "target_seat": 2})
    assert (after.step, where(after, "Insanity")) == ("score", "discard")
    empty = table(hands={0: ["Card Tricks"]}, rest="neutral", step="trick")
    # the trick card itself is the only card left to draw, so the reshuffle draws it back
    after = fillory.apply(empty, 0, {"type": "trick", "card": "Card Tricks", "trait": "Spell", "draw": "Card Tricks",
                                     "place": "Card Tricks"})
    assert where(after, "Card Tricks") == "zone:0"


# --- view, score, advice, the move log -----------------------------------------------------------

def test_view_shows_only_my_own_hand() -> None:
    state = table(hands={0: ["Pete"], 1: ["Golem", "Joe"]}, zones={2: ["Todd"]}, discard=["Djinn"])
    for viewer in (None, 0, 1, 2):
        seen = fillory.view(state, viewer)
        assert [p["hand"] for p in seen["players"]] == [
            ids(["Pete"]) if viewer == 0 else None, ids(["Golem", "Joe"]) if viewer == 1 else None,
            [] if viewer == 2 else None]
        assert [p["hand_count"] for p in seen["players"]] == [1, 2, 0]
        assert seen["you"] == viewer
        assert set(seen) == {"game", "phase", "turn", "pending", "players", "neutral", "discard", "deck_count",
                             "you", "over", "winner"}
        assert set(seen["players"][0]) == {"seat", "name", "vp", "scored", "zone", "hand_count", "hand"}
        json.dumps(seen)
    with pytest.raises(ValueError, match="no seat 3"):
        fillory.view(state, 3)


def test_redacted_moves_hide_cards_that_went_into_a_hand() -> None:
    draw = {"type": "draw", "card": "julia"}
    assert fillory.redact_move(draw, 0, 0) == draw
    assert fillory.redact_move(draw, 0, 1) == {"type": "draw", "card": None}
    assert fillory.redact_move(draw, 0, None) == {"type": "draw", "card": None}
    split = {"type": "trick", "card": "stanley", "trait": "Character", "to_hand": "ember", "to_zone": "guardian"}
    assert fillory.redact_move(split, 1, 0) == {**split, "to_hand": None}
    spell = {"type": "trick", "card": "card-tricks", "trait": "spell", "draw": "ember", "place": "pete"}
    assert fillory.redact_move(spell, 1, 2) == {**spell, "draw": None}
    for trait, card in (("Traveler", "neitherlands"), ("Religion", "religious-magic")):
        move = {"type": "trick", "card": card, "trait": trait, "target_seat": 1, "take": "golem"}
        assert fillory.redact_move(move, 0, 1)["take"] is None
    hedge = {"type": "trick", "card": "safe-house", "trait": "Hedge", "take": "golem", "to": "hand"}
    assert fillory.redact_move(hedge, 0, 1)["take"] is None
    assert fillory.redact_move({**hedge, "to": "zone"}, 0, 1)["take"] == "golem"
    threat = {"type": "trick", "card": "insanity", "trait": "Threat", "target_seat": 1, "take": "pete"}
    assert fillory.redact_move(threat, 0, 2) == threat
    summon = {"type": "summon", "card": "julia", "to": "hand"}
    assert fillory.redact_move(summon, 0, 1) == summon


@pytest.mark.parametrize("move,line", [
    ({"type": "draw", "card": "julia"}, "Ann drew a card."),
    ({"type": "play", "card": "quentin"}, "Ann played Quentin."),
    ({"type": "summon", "card": "julia", "to": "zone"}, "Ann summoned Julia into their control zone."),
    ({"type": "banish", "card": "alice"}, "Ann banished Alice to the discard pile."),
    ({"type": "decline"}, "Ann declined the special ability."),
    ({"type": "trick", "card": "eliza", "trait": "time"}, "Ann discarded Eliza for the Time trick and takes another action phase."),
    ({"type": "trick", "card": "insanity", "trait": "Threat", "target_seat": 1, "take": "pete"},
     "Ann discarded Insanity for the Threat trick and made Ben discard a card at random."),
    ({"type": "trick", "card": "neitherlands", "trait": "Traveler", "take": "ember"},
     "Ann discarded Neitherlands for the Traveler trick and took one of the top 5 cards of the deck into their hand."),
    ({"type": "score", "trait": "student"}, "Ann scored the trait Student."),
    ({"type": "end_turn", "discard": ["golem", "joe"]}, "Ann ended their turn, discarding Golem and Joe."),
    ({"type": "end_turn", "discard": []}, "Ann ended their turn."),
])
def test_describe_move_in_public_words(move: dict[str, Any], line: str) -> None:
    assert fillory.describe_move(move, 0, ["Ann", "Ben"]) == line


def test_trait_points_best_first_without_character_or_scored_traits() -> None:
    zone = ["Penny", "Kady", "Margo", "Alice", "Golem"]
    found = fillory.trait_points(zone, ["female"])
    assert found[0] == {"trait": "Student", "cards": 4, "points": 16}
    assert {e["trait"] for e in found} == {"Student", "Traveler", "Psychic", "Hedge", "Religion", "Light",
                                           "Creature", "Sex"}
    assert [e["points"] for e in found] == sorted((e["points"] for e in found), reverse=True)
    assert fillory.trait_points([], []) == []
    with pytest.raises(IllegalMove, match="no card called 'Hermione'"):
        fillory.trait_points(["Hermione"], [])
    with pytest.raises(IllegalMove, match="no trait called 'Luck'"):
        fillory.trait_points(["Penny"], ["Luck"])


def test_advice_lists_what_the_seat_can_do_now() -> None:
    state = table(hands={0: ["Eliza", "Golem"]}, step="trick", zones={0: ["Penny", "Kady"]}, scored={0: {"Psychic": 1}})
    advice = fillory.advice(state, 0)
    assert [a["type"] for a in advice] == ["trick", "trick", "trick", "score", "score", "score", "score", "score", "end_turn"]
    scores = [a for a in advice if a["type"] == "score"]
    assert scores[0] == {"type": "score", "text": "Score Student: 2 cards for 4 VP.", "move": {"type": "score",
                         "trait": "Student"}, "points": 4, "trait": "Student", "cards": 2}
    for entry in advice:  # every complete suggestion is a legal move
        if entry["type"] in ("score", "end_turn") or entry["move"].get("trait") == "Time":
            fillory.apply(state, 0, entry["move"])
    assert fillory.advice(state, 1) == []
    ability = table(step="ability", pending="Death", zones={0: ["Death"], 1: ["Stanley"]})
    assert [(a["type"], a.get("targets")) for a in fillory.advice(ability, 0)] == [
        ("banish", ids(["Stanley"] + [c for c in GAME.setup_neutral if GAME.card(c).has_trait("Character")])),
        ("decline", None)]


def test_json_round_trip_and_bad_state_data() -> None:
    state = table(hands=HAND, step="ability", pending="Sex Magic", zones={0: ["Sex Magic"]}, scored={1: {"Sex": 2}})
    data = json.loads(json.dumps(fillory.state_to_json(state)))
    assert fillory.state_from_json(data) == state
    for broken, fragment in ((dict(data, game="other"), "not a fillory state"),
                             (dict(data, locations={}), "every card exactly once"),
                             (dict(data, phase="lunch"), "unknown phase"),
                             (dict(data, locations={**data["locations"], "julia": "hand:9"}), "unknown location"),
                             ({k: v for k, v in data.items() if k != "turn"}, "malformed")):
        with pytest.raises(ValueError, match=fragment):
            fillory.state_from_json(broken)


def test_module_is_registered_and_every_move_type_is_documented() -> None:
    assert GAMES["fillory"] is fillory
    assert (fillory.MIN_PLAYERS, fillory.MAX_PLAYERS, fillory.TITLE) == (2, 6, "Magicians of Fillory")
    from companion.rules.fillory.moves import HANDLERS
    assert set(fillory.MOVE_TYPES) == set(HANDLERS)
    assert all(text.endswith(".") and len(text) > 20 for text in fillory.MOVE_TYPES.values())


def test_a_dead_end_waits_for_the_last_cards_ability() -> None:
    """The last card played with its summon or banish still waiting is no dead end: that ability moves a card
    again (rulebook: Summon and Banish), so it is taken, and the game is not finished meanwhile (it was refused
    with fillory.game.dead-end and the API called the game over)."""
    from companion.rules.fillory.play import stalled

    assert stalled(table(rest="neutral", step="end"))
    waiting = table(rest="neutral", step="ability", pending="Mentors")
    assert not stalled(waiting) and not fillory.outcome(waiting).over


def test_a_dead_end_gives_its_reason_who_leads_and_that_the_ruling_is_ours() -> None:
    """A dead end is not over and nobody wins, but its outcome says why and who leads: the reason was empty, so the
    result page read only "The game is over." and the exports had no sentence, while the table explained it. The
    rule it rests on is the project's own (fillory.game.dead-end, authored), and the reason says so."""
    stuck = table(rest="neutral", step="end", scored={0: {"Magic": 9}, 1: {"Magic": 9}})
    result = fillory.outcome(stuck)
    assert not result.over and result.winners == () and result.rule == "fillory.game.dead-end"
    assert result.reason == ("Dead end: no card is left to draw, play or score, so nobody can reach 100 VP; "
                             f"{PLAYERS[0]} and {PLAYERS[1]} lead with 81 VP (our reading: the rulebook does not say "
                             "what happens when nobody can reach 100 VP)")
    assert fillory.outcome(table()).reason == ""  # a game that goes on has no reason yet
    three = table(rest="neutral", step="end", scored={s: {"Magic": 9} for s in range(3)})
    assert f"{PLAYERS[0]}, {PLAYERS[1]} and {PLAYERS[2]} lead with 81 VP (" in fillory.outcome(three).reason
