"""What a Fillory seat may report right now, as choices the seat page turns into move forms.

Built only from ``rules.view(state, seat)`` (what that phone may know) and the card catalog, so the
page never offers a choice based on another seat's secrets. The rules module stays the judge: the
forms offer what fits the current step, the server accepts or refuses the move with a rule id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from cardgen.catalog.fillory import Card, FilloryContent, Trait
from companion.web.games import last_live_move

HIDDEN = "hidden"  # in the deck or in another player's hand: this phone cannot tell which
DISCARDED_CARD = "@card"  # a choice meaning "the card I discard for this trick" (the page fills it in)


@dataclass(frozen=True)
class CardChoice:
    """One card a form offers, with where it is as this phone sees it."""

    id: str
    name: str
    number: int
    traits: tuple[str, ...]
    where: str  # e.g. "neutral zone", "Ben's zone", "your hand", "deck or a hand"
    reason: str = ""  # e.g. "Student" when an ability names a trait


@dataclass(frozen=True)
class TrickCombo:
    """Discarding ``card`` for the trick of one of its traits."""

    card: CardChoice
    trait: Trait

    @property
    def value(self) -> str:
        return f"{self.card.id}|{self.trait.name}"


@dataclass(frozen=True)
class TrickGroup:
    """The extra fields one trait's trick needs, with their choices."""

    trait: Trait
    kind: str
    rule_id: str
    candidates: tuple[CardChoice, ...] = ()  # target / targets / take from a visible place


@dataclass(frozen=True)
class SeatForms:
    seat: int
    my_turn: bool
    headline: str  # one sentence: what this seat should do now
    draw: tuple[CardChoice, ...] | None = None
    play: tuple[CardChoice, ...] | None = None
    summon: tuple[CardChoice, ...] = ()
    banish: tuple[CardChoice, ...] = ()
    can_decline: bool = False
    pending_card: CardChoice | None = None
    trick_combos: tuple[TrickCombo, ...] = ()
    trick_groups: tuple[TrickGroup, ...] = ()
    score: tuple[dict[str, Any], ...] | None = None
    end_turn: tuple[CardChoice, ...] | None = None
    hand_limit: int = 5
    over_limit: int = 0
    opponents: tuple[tuple[int, str], ...] = ()
    hand: tuple[CardChoice, ...] = ()
    drawable: tuple[CardChoice, ...] = ()  # cards a draw could report (the datalist of trick fields)
    discard: tuple[CardChoice, ...] = ()
    undo_text: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def has_forms(self) -> bool:
        return any((self.draw is not None, self.play is not None, self.summon, self.banish,
                    self.can_decline, self.trick_combos, self.score is not None, self.end_turn is not None))


class Locator:
    """Where each card is, as one seat's view shows it."""

    def __init__(self, catalog: FilloryContent, view: Mapping[str, Any], me: int | None):
        self.catalog = catalog
        self.me = me
        self.names = {p["seat"]: p["name"] for p in view["players"]}
        self.place: dict[str, tuple[str, int | None]] = {}
        for cid in view["neutral"]:
            self.place[cid] = ("neutral", None)
        for cid in view["discard"]:
            self.place[cid] = ("discard", None)
        for player in view["players"]:
            for cid in player["zone"]:
                self.place[cid] = ("zone", player["seat"])
            for cid in player.get("hand") or ():
                self.place[cid] = ("hand", player["seat"])

    def where(self, card_id: str) -> str:
        kind, seat = self.place.get(card_id, (HIDDEN, None))
        if kind == "neutral":
            return "neutral zone"
        if kind == "discard":
            return "discard pile"
        if kind == "zone":
            return "your zone" if seat == self.me else f"{self.names.get(seat, '?')}'s zone"
        if kind == "hand":
            return "your hand" if seat == self.me else f"{self.names.get(seat, '?')}'s hand"
        return "deck or a hand"

    def kind(self, card_id: str) -> tuple[str, int | None]:
        return self.place.get(card_id, (HIDDEN, None))

    def choice(self, card: Card, reason: str = "") -> CardChoice:
        return CardChoice(card.id, card.name, card.number, card.traits, self.where(card.id), reason)

    def choices(self, card_ids: Sequence[str]) -> tuple[CardChoice, ...]:
        cards = sorted((self.catalog.card(cid) for cid in card_ids), key=lambda c: c.number)
        return tuple(self.choice(c) for c in cards)

    def where_all(self, test: Callable[[str, int | None], bool]) -> tuple[CardChoice, ...]:
        return tuple(self.choice(c) for c in self.catalog.cards if test(*self.kind(c.id)))


_VISIBLE_FIRST = {"neutral": 0, "zone": 1, "discard": 2, "hand": 3, HIDDEN: 4}


def ability_targets(loc: Locator, options: Sequence[Mapping[str, Any]], action: str) -> tuple[CardChoice, ...]:
    """Cards the pending summon/banish options allow, visible places first."""
    found: dict[str, CardChoice] = {}
    for opt in options:
        if opt["action"] != action:
            continue
        if opt["kind"] == "card":
            cards: Sequence[Card] = [loc.catalog.card(opt["target"])]
        else:
            cards = loc.catalog.cards_with(opt["target"])
        for card in cards:
            kind, seat = loc.kind(card.id)
            if action == "summon" and kind == "zone" and seat == loc.me:
                continue  # summon never takes from your own zone
            if action == "banish" and not (kind == "neutral" or (kind == "zone" and seat != loc.me)):
                continue  # banish reaches the neutral zone and opponents' zones only
            reason = "" if opt["kind"] == "card" else opt["target"]
            found.setdefault(card.id, loc.choice(card, reason))
    return tuple(sorted(found.values(), key=lambda c: (_VISIBLE_FIRST[loc.kind(c.id)[0]], c.number)))


def trick_group(loc: Locator, trait: Trait, hand: Sequence[CardChoice]) -> TrickGroup:
    """The fields and visible candidates for one trait's trick."""
    assert trait.trick is not None
    trick = trait.trick
    candidates: tuple[CardChoice, ...] = ()
    # the trick's own card goes to the discard first, so a discard-pile trick may pick it
    own = CardChoice(DISCARDED_CARD, "The card you discard for this trick", 0, (), "discard pile")
    reaches_discard = "discard" in trick.zones or trick.kind == "from_discard"
    could_pick_own = reaches_discard and any(
        trait.name in c.traits and (not trick.trait or trick.trait in c.traits) for c in hand)
    if trick.kind in ("to_neutral", "swap", "revive"):
        wanted = set(trick.zones)

        def fits(kind: str, seat: int | None) -> bool:
            return (("control" in wanted and kind == "zone") or ("neutral" in wanted and kind == "neutral")
                    or ("discard" in wanted and kind == "discard"))

        candidates = tuple(c for c in loc.where_all(fits) if trick.trait in c.traits)
    elif trick.kind == "from_discard":
        candidates = loc.where_all(lambda kind, seat: kind == "discard")
    if could_pick_own:
        candidates = (own, *candidates)
    rule_id = f"fillory.trick.{trait.name.casefold()}"
    return TrickGroup(trait=trait, kind=trick.kind, rule_id=rule_id, candidates=candidates)


def build(catalog: FilloryContent, view: Mapping[str, Any], seat: int,
          trait_points: Callable[[list[str], list[str]], list[dict[str, Any]]],
          log: Sequence[Mapping[str, Any]] = ()) -> SeatForms:
    """The move forms that fit this seat's view of the game right now."""
    loc = Locator(catalog, view, seat)
    me = next(p for p in view["players"] if p["seat"] == seat)
    hand = loc.choices(me.get("hand") or [])
    hidden = loc.where_all(lambda kind, s: kind == HIDDEN)
    discard = loc.choices(view["discard"])
    # an empty deck is replaced by the shuffled discard pile before a draw (fillory.draw.reshuffle)
    draw_from = hidden if view["deck_count"] > 0 else discard
    drawable = hidden + discard if view["deck_count"] < 2 else hidden
    opponents = tuple((p["seat"], p["name"]) for p in view["players"] if p["seat"] != seat)
    base: dict[str, Any] = dict(seat=seat, hand=hand, drawable=drawable, discard=discard, opponents=opponents,
                                hand_limit=catalog.hand_limit, undo_text=last_live_move(log, seat))
    turn = view["turn"]
    if view["over"]:
        winner = loc.names.get(view["winner"], "nobody")
        return SeatForms(my_turn=False, headline=f"The game is over: {winner} won.", **base)
    if view["phase"] == "deal":
        missing = catalog.starting_hand - me["hand_count"]
        if missing > 0:
            return SeatForms(my_turn=True, draw=draw_from, **base,
                             headline=f"Report your starting hand: draw {missing} more card{'s' * (missing != 1)}.")
        waiting = [f"{p['name']} ({p['hand_count']}/{catalog.starting_hand})" for p in view["players"]
                   if p["hand_count"] < catalog.starting_hand]
        return SeatForms(my_turn=False, headline="Your starting hand is complete. Waiting for "
                         + ", ".join(waiting) + ".", **base)
    if turn["seat"] != seat:
        who = loc.names.get(turn["seat"], "?")
        return SeatForms(my_turn=False, headline=f"{who}'s turn ({turn['step']} step). Your turn comes later.",
                         **base)
    step = turn["step"]
    scored = list(me["scored"])
    zone_cards = [catalog.card(cid) for cid in me["zone"]]
    score_rows = tuple({**row, "names": [c.name for c in zone_cards if row["trait"] in c.traits]}
                       for row in trait_points(list(me["zone"]), scored))
    if step == "draw":
        reshuffle = "" if view["deck_count"] else " The deck is empty: shuffle the discard pile to make a new one."
        return SeatForms(my_turn=True, headline="Your turn: draw a card and report which one." + reshuffle,
                         draw=draw_from, **base)
    if step == "action":
        if turn.get("extra_action"):  # Time's extra action: playing again is optional
            return SeatForms(my_turn=True, headline="Extra action from Time: play another card, or score or end.",
                             play=hand, score=score_rows, end_turn=hand,
                             over_limit=max(0, len(hand) - catalog.hand_limit), **base)
        if not hand:  # nothing to play: the action is passed over
            return SeatForms(my_turn=True, headline="Your hand is empty: score a trait or end your turn.",
                             score=score_rows, end_turn=hand, **base)
        return SeatForms(my_turn=True, headline="Play a card from your hand into your zone.", play=hand, **base)
    if step == "ability":
        pending = view["pending"] or {"card": None, "options": []}
        card = catalog.card(pending["card"]) if pending["card"] else None
        summon = ability_targets(loc, pending["options"], "summon")
        banish = ability_targets(loc, pending["options"], "banish")
        name = card.name if card else "your card"
        return SeatForms(my_turn=True, headline=f"Resolve {name}'s ability, or decline it.", summon=summon,
                         banish=banish, can_decline=True, pending_card=loc.choice(card) if card else None, **base)
    combos: tuple[TrickCombo, ...] = ()
    groups: tuple[TrickGroup, ...] = ()
    if step == "trick":
        combos = tuple(TrickCombo(c, catalog.trait(t)) for c in hand for t in c.traits
                       if catalog.trait(t).trick is not None)
        seen: dict[str, TrickGroup] = {}
        for combo in combos:
            seen.setdefault(combo.trait.name, trick_group(loc, combo.trait, hand))
        groups = tuple(seen.values())
    over_limit = max(0, len(hand) - catalog.hand_limit)
    headline = {"trick": "Optional: discard a card for its trick, then score, then end your turn.",
                "score": "Optional: score one trait, then end your turn.",
                "end": "End your turn (discard down to the hand limit if needed)."}.get(step, "Your turn.")
    return SeatForms(my_turn=True, headline=headline, trick_combos=combos, trick_groups=groups,
                     score=score_rows if step in ("trick", "score") else None, end_turn=hand,
                     over_limit=over_limit, **base)
