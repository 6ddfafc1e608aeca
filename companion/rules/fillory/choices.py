"""Magicians of Fillory: ``choices(state, seat)`` — the moves a seat may make now and the values each field may take.

Built only from what the seat may know: the public table (the neutral zone, the discard pile, every
control zone, how many cards the deck and each hand hold, the turn, the waiting ability, the points
scored) and the seat's own hand. The deck and the other hands are one unknown pile to this seat, so
every card list that could name a card from them (a draw, a Traveler's search, a Religion or Threat
card taken from an opponent's hand) offers the whole pile: "in the deck or in a hand". The companion
knows where each of those cards really is, so reporting a card that is in another hand is refused
(``fillory.card.location`` or the trick's own rule, named in ``Choice.checks``); that refusal, like
the card people see at the table, is the game's own inference and is documented in the rule entry.
Which hidden cards are in the deck and which in a hand never changes what is offered.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..choices import Choice, Field, Option
from .play import stalled
from .scoring import seat_trait_points
from .state import (
    CARDS,
    CARDS_WITH,
    GAME,
    GAME_ID,
    FilloryState,
    rule_for_last_card,
    rule_for_trick,
)

HIDDEN = "hidden"
#: the card an option stands for when it sends the value of another field (``Option.copies``)
THE_TRICK_CARD = "@card"
THE_DRAWN_CARD = "@draw"
BY_NAME: tuple[str, ...] = tuple(c.id for c in sorted(CARDS, key=lambda c: c.name.casefold()))
CARD_NAME: dict[str, str] = {c.id: c.name for c in CARDS}
TRICK_TRAITS: dict[str, tuple[str, ...]] = {
    c.id: tuple(t for t in c.traits if GAME.trait(t).trick is not None) for c in CARDS}
#: the tricks that take a card from an opponent's hand at random (the victim's phone says which)
AT_RANDOM = ("steal_random", "force_discard")
OPPONENT_TRICKS = ("peek_hand", *AT_RANDOM)


class Known:
    """Where each card is as ``seat`` may know it: public places and its own hand; the rest is hidden."""

    def __init__(self, state: FilloryState, seat: int):
        self.state, self.seat = state, seat
        own = f"hand:{seat}"
        self.place = {c.id: (loc if loc == own or not (loc == "deck" or loc.startswith("hand:")) else HIDDEN)
                      for c, loc in zip(CARDS, state.locations, strict=True)}
        self.deck = state.count_at("deck")
        self.hand_counts = [state.count_at(f"hand:{s}") for s in range(len(state.players))]

    def at(self, place: str) -> list[str]:
        return [cid for cid in BY_NAME if self.place[cid] == place]

    @property
    def hand(self) -> list[str]:
        return self.at(f"hand:{self.seat}")

    def where(self, card: str) -> str:
        place = self.place[card]
        if place == HIDDEN:
            return "in the deck or a hand"
        if place == "neutral":
            return "neutral zone"
        if place == "discard":
            return "discard pile"
        kind, _, who = place.partition(":")
        if int(who) == self.seat:
            return "your hand" if kind == "hand" else "your zone"
        return f"{self.state.players[int(who)]}'s zone"


def _card(cid: str, detail: str = "", **extra: Any) -> Option:
    return Option(cid, CARD_NAME[cid], detail, card=(GAME_ID, cid), **extra)


def _cards(cids: Iterable[str], known: Known | None = None) -> tuple[Option, ...]:
    return tuple(_card(cid, known.where(cid) if known else "") for cid in cids)


_FIRST = {"neutral": 0, "zone": 1, "discard": 2, "hand": 3, HIDDEN: 4}


def _visible_first(known: Known, cids: Iterable[str]) -> list[str]:
    return sorted(cids, key=lambda cid: _FIRST[known.place[cid].partition(":")[0]])


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


# -- draw, play, ability -------------------------------------------------------------------------------

def _drawable(known: Known) -> list[str]:
    """What a draw may report: the unknown pile, or the discard pile once the deck is empty (reshuffled)."""
    return known.at(HIDDEN) if known.deck else known.at("discard")


def _draw(known: Known, dealing: bool) -> Choice:
    if dealing:
        missing = GAME.starting_hand - known.hand_counts[known.seat]
        title = f"Which card did you draw? ({_plural(missing, 'card')} to go)"
        rule, hint = "fillory.setup.deal", ""
    elif known.deck:
        title, rule, hint = "Which card did you draw?", "fillory.draw.one", ""
    else:
        title, rule = "Which card did you draw?", "fillory.draw.reshuffle"
        hint = "The deck is empty: shuffle the discard pile into a new deck, then draw."
    return Choice("draw", "Report this draw", (Field("card", title, options=_cards(_drawable(known))),),
                  id="f-draw", rule=rule, hint=hint, checks=("fillory.card.location",))


def _play(known: Known, extra: bool) -> Choice:
    options = tuple(_card(cid, GAME.ability_text(GAME.card(cid)) or "no ability") for cid in known.hand)
    return Choice("play", "Play it", (Field("card", "Which card do you play into your zone?", options=options),),
                  id="f-play", rule="fillory.action.play", primary=True,
                  title="Extra action (Time): play another card" if extra else "")


def ability_targets(known: Known, action: str) -> list[str]:
    """Cards the waiting ability may summon (anywhere but your zone) or banish (neutral or an opponent's zone)."""
    assert known.state.pending is not None
    found: dict[str, None] = {}
    mine = f"zone:{known.seat}"
    for opt in GAME.card(known.state.pending).ability:
        if opt.action != action:
            continue
        for cid in (opt.target,) if opt.kind == "card" else CARDS_WITH[opt.target]:
            place = known.place[cid]
            if action == "summon" and place == mine:
                continue
            if action == "banish" and not (place == "neutral" or (place.startswith("zone:") and place != mine)):
                continue
            found[cid] = None
    return _visible_first(known, sorted(found, key=BY_NAME.index))


def _ability(known: Known) -> list[Choice]:
    found = []
    summon = ability_targets(known, "summon")
    if summon:
        found.append(Choice("summon", "Summon", (
            Field("card", "Summon which card?", options=_cards(summon, known)),
            Field("to", "Put it into", options=(Option("zone", "My zone", "its ability stays quiet"),
                                                Option("hand", "My hand")), default="zone")),
            id="f-summon", rule="fillory.summon"))
    banish = ability_targets(known, "banish")
    if banish:
        found.append(Choice("banish", "Banish", (
            Field("card", "Banish which card to the discard pile?", options=_cards(banish, known)),),
            id="f-banish", rule="fillory.banish"))
    nothing = "" if found else "No card can be targeted right now."
    found.append(Choice("decline", "Decline the ability", id="f-decline", primary=not found, hint=nothing,
                        rule="fillory.ability.decline"))
    return found


# -- the card trick ------------------------------------------------------------------------------------

def _in_reach(known: Known, trait: str) -> list[str]:
    effect = GAME.trait(trait).trick
    assert effect is not None
    found = []
    for cid in CARDS_WITH.get(effect.trait, ()):
        place = known.place[cid]
        if (("neutral" in effect.zones and place == "neutral") or ("control" in effect.zones and place.startswith("zone:"))
                or ("discard" in effect.zones and place == "discard")):
            found.append(cid)
    return sorted(found, key=BY_NAME.index)


def _pool(known: Known, wanted: int) -> tuple[list[str], bool]:
    """Cards a trick's draw of ``wanted`` cards may report (the trick card is already discarded), and
    whether the discard pile (reshuffled, with the trick card) may supply them."""
    hidden = known.at(HIDDEN) if known.deck else []
    reshuffled = known.deck < wanted
    return hidden + (known.at("discard") if reshuffled else []), reshuffled


def _itself(trait: str, cards: Iterable[str], label: str, effect_trait: str = "") -> Option:
    """"The card I discard for this trick" (it lies in the discard pile when the effect happens)."""
    return Option(THE_TRICK_CARD, label, copies="card",
                  when={"card": tuple(c for c in cards if not effect_trait or effect_trait in GAME.card(c).traits)})


def _nothing(name: str, text: str, when: dict[str, tuple[Any, ...]]) -> Field:
    """A trick field with nothing to pick: the move leaves it out, the form says why."""
    return Field(name, "What the trick reaches", required=False, hint=text, when=when)


def _trick_fields(known: Known, trait: str, cards: list[str]) -> list[Field]:
    effect = GAME.trait(trait).trick
    assert effect is not None
    when: dict[str, tuple[str, ...]] = {"trait": (trait,)}
    kind = effect.kind
    if kind in ("to_neutral", "revive"):
        reach = _in_reach(known, trait)
        options = _cards(reach, known)
        if kind == "revive":
            options += (_itself(trait, cards, "The card I discard for this trick", effect.trait),)
            return [Field("target", f"Which {effect.trait}?", options=options, when=when)]
        if not reach:   # nothing in reach: the card is discarded and the effect finds nothing
            return [_nothing("target", f"No {effect.trait} is where this trick reaches; it would do nothing.", when)]
        return [Field("target", f"Which {effect.trait}?", options=options, when=when)]
    if kind == "swap":
        reach = _in_reach(known, trait)
        if len({known.place[c] for c in reach}) < 2:   # no two in different places: nothing to swap
            return [_nothing("targets", f"No two {effect.trait}s in different places are where this trick reaches; "
                                        "it would do nothing.", when)]
        return [Field("targets", f"Which two {effect.trait}s swap places?", kind="many", min=2, max=2,
                      options=_cards(reach, known), when=when)]
    if kind == "search_deck":
        pool, reshuffled = _pool(known, 1)
        options = _cards(pool) + ((_itself(trait, cards, "The card I discarded"),) if reshuffled else ())
        return [Field("take", "Which card did you take into your hand?", options=options, when=when)]
    if kind == "draw_and_place":
        pool, reshuffled = _pool(known, 1)
        drawn = _cards(pool) + ((_itself(trait, cards, "The card I discarded"),) if reshuffled else ())
        place = tuple(_card(c, unless={"card": (c,)}) for c in known.hand) + (
            Option(THE_DRAWN_CARD, "The card I just drew", copies="draw"),)
        return [Field("draw", "Which card did you draw?", options=drawn, when=when),
                Field("place", "Which card goes into your zone (without its ability)?", options=place, when=when)]
    if kind == "draw_split":
        pool, reshuffled = _pool(known, 2)
        options = _cards(pool) + ((_itself(trait, cards, "The card I discarded"),) if reshuffled else ())
        if known.deck + len(known.at("discard")) + 1 >= 2:
            return [Field("to_hand", "Drawn card kept in your hand", options=options, when=when),
                    Field("to_zone", "Drawn card put into your zone", options=options, when=when)]
        # the card discarded for this trick is the only one left to draw: it goes into the hand or the zone, as
        # the table chose (fillory.trick.character-last; the server refuses neither or both, a check)
        one = "Only the card you discard is left to draw: put it into your hand or your zone, one of the two."
        return [Field("to_hand", "Drawn card kept in your hand", options=options, required=False,
                      none_label="Not into my hand", hint=one, when=when),
                Field("to_zone", "Drawn card put into your zone", options=options, required=False,
                      none_label="Not into my zone", when=when)]
    if kind == "from_discard":
        options = _cards(known.at("discard")) + (Option(THE_TRICK_CARD, "The card I discard for this trick",
                                                        copies="card"),)
        return [Field("take", "Which card came out of the discard pile?", options=options, when=when),
                Field("to", "Put it into", options=(Option("hand", "My hand"), Option("zone", "My zone")),
                      default="hand", when=when)]
    # peek_deck, peek_hand, steal_random, force_discard (their opponent field is shared: for the last two, the
    # victim's phone says which card left their hand, as only it knows), extra_action, gain_vp
    return []


def _trick(known: Known) -> Choice | None:
    cards = list(known.hand)
    if not cards:
        return None
    # the traits with a trick first; a trait without one may be picked too (the card is only discarded)
    traits = [t.name for t in GAME.traits if any(t.name in TRICK_TRAITS[c] for c in cards)]
    plain = [t.name for t in GAME.traits if t.trick is None and any(t.name in GAME.card(c).traits for c in cards)]
    fields = [Field("card", "Discard which card?", options=tuple(
                  _card(c, ", ".join(TRICK_TRAITS[c]) or "no trick") for c in cards)),
              Field("trait", "For which trait's trick?", options=tuple(
                  Option(t, t, GAME.trait(t).trick.text,  # type: ignore[union-attr]
                         when={"card": tuple(c for c in cards if t in TRICK_TRAITS[c])}) for t in traits) + tuple(
                  Option(t, t, "No trick: the card is discarded and nothing else happens",
                         when={"card": tuple(c for c in cards if t in GAME.card(c).traits)}) for t in plain))]
    opponents = tuple(Option(s, known.state.players[s], f"{known.hand_counts[s]} in hand")
                      for s in range(len(known.state.players)) if s != known.seat)
    for kinds, hint in ((("peek_hand",), ""), (AT_RANDOM, "The card leaves their hand at random; their phone then "
                                                          "says which one.")):
        against = tuple(t for t in traits if GAME.trait(t).trick.kind in kinds)  # type: ignore[union-attr]
        if against:
            fields.append(Field("target_seat", "Which opponent?", when={"trait": against}, options=opponents,
                                hint=hint))
    for trait in traits:
        fields += _trick_fields(known, trait, [c for c in cards if trait in TRICK_TRAITS[c]])
    checks = ("fillory.card.location", *dict.fromkeys(rule_for_trick(t) for t in traits))
    if known.deck + len(known.at("discard")) == 0:   # a draw of two finds only the trick card: hand or zone
        checks += tuple(dict.fromkeys(r for t in traits if (r := rule_for_last_card(t)) not in checks))
    return Choice("trick", "Do the trick", tuple(fields), title="Card trick (optional): discard a card for a trick",
                  id="f-trick", folded=True, primary=False, rule="fillory.trick.discard", checks=checks)


# -- score and the end of the turn -----------------------------------------------------------------

def _score(known: Known) -> Choice | None:
    zone = known.at(f"zone:{known.seat}")
    rows = seat_trait_points(known.state, known.seat)
    if not rows:
        return None
    options = tuple(Option(row["trait"], f"{row['trait']} +{row['points']} VP",
                           f"{_plural(row['cards'], 'card')}: "
                           + ", ".join(CARD_NAME[c] for c in zone if row["trait"] in GAME.card(c).traits))
                    for row in rows)
    return Choice("score", "Score", (Field("trait", "Score which trait? (best first)", options=options),),
                  id="f-score", rule="fillory.score.square", irreversible=True,
                  hint="Each trait scores once: n cards with it in your zone score n².")


def _lose(known: Known, trait: str) -> Choice:
    thief = known.state.players[known.state.turn_seat or 0]
    effect = GAME.trait(trait).trick
    goes = "into their hand" if effect is not None and effect.kind == "steal_random" else "to the discard pile"
    return Choice("lose_card", "Give it up",
                  (Field("card", f"Which card did {thief}'s {trait} trick take from your hand?",
                         options=_cards(known.hand)),),
                  id="f-lose", rule=rule_for_trick(trait), primary=True,
                  title=f"{thief}'s {trait} trick: a card from your hand",
                  hint=f"The card picked at random goes {goes}. Only your phone knows your hand, so it says which.")


def _end(known: Known, primary: bool) -> Choice:
    hand = known.hand
    excess = max(0, len(hand) - GAME.hand_limit)
    fields: tuple[Field, ...] = ()
    hint = f"Hand limit {GAME.hand_limit}: you hold {len(hand)}."
    if excess:
        fields = (Field("discard", f"Discard {_plural(excess, 'card')} (you hold {len(hand)}, the limit is "
                                   f"{GAME.hand_limit})", kind="many", min=excess, max=excess,
                        options=_cards(hand)),)
        hint = f"Discard exactly the {_plural(excess, 'card')} over the limit."
    return Choice("end_turn", "End my turn", fields, id="f-end", rule="fillory.end.hand-limit", hint=hint,
                  primary=primary)


def choices(state: FilloryState, seat: int) -> list[Choice]:
    """The moves ``seat`` may make now, each with the values its fields may take."""
    if state.phase == "over" or stalled(state):  # (a dead end takes no move: .moves._ended)
        return []
    known = Known(state, seat)
    if state.phase == "deal":
        if known.hand_counts[seat] < GAME.starting_hand:
            return [_draw(known, dealing=True)]
        return []
    if state.loss is not None:  # a Religion or Threat trick waits for its victim, and only for them
        return [_lose(known, state.loss[1])] if state.loss[0] == seat else []
    if state.turn_seat != seat:
        return []
    step = state.step
    if step == "draw":
        return [_draw(known, dealing=False)]
    if step == "ability":
        return _ability(known)
    found: list[Choice] = []
    if step == "action":
        if known.hand:
            return [_play(known, extra=state.extra_action)]
    if step == "trick":
        trick = _trick(known)
        if trick is not None:
            found.append(trick)
    if step in ("action", "trick", "score"):
        score = _score(known)
        if score is not None:
            found.append(score)
    found.append(_end(known, primary=not any(c.primary for c in found)))
    return found


__all__ = ["THE_DRAWN_CARD", "THE_TRICK_CARD", "choices"]
