"""Mandragora: ``choices(state, seat)`` — the moves a sorcerer may make now and the values each field may take.

Built only from what the seat may know: the public table (the circle, cards per shop, hand counts,
cast spells, the stacks, scrolls in front of each seat, the countdown) and the seat's own hand note.
Which cards lie face down at a shop or in another hand never changes what is offered.
"""

from __future__ import annotations

from collections import Counter

from cardgen.catalog.mandragora import WHITE

from ..choices import Choice, Field, Option
from .moves import NOTE_CARDS, TEAM_KINDS, available_colours, note_room
from .state import (
    BLACK_BOOK,
    CARD,
    GAME,
    GAME_ID,
    INGREDIENT_COLOURS,
    MANDRAKE,
    SHOP_COUNT,
    SPELLBOOKS,
    MandragoraState,
)

#: Every hand colour by its word and the print kit's symbol name (never colour alone).
COLOUR_TEXT: dict[str, str] = {**{c.id: f"{c.name} ({c.symbol_name})" for c in GAME.colours},
                               WHITE: f"{GAME.mandrake_hand_colour} (mandrakes)"}
TEAM_TEXT: dict[str, str] = {"give": "Give {partner} a card of my choice", "receive": "Take a card {partner} chooses",
                             "exchange": "Swap one card each with {partner}", "none": "No help this time"}
#: What a spell without effect fields does, in a few words.
EFFECT_NOTES: dict[str, str] = {
    "replication": "play again right away (or give it up)", "swiftness": "the Assistant goes 1 shop further for you",
    "disappearance": "at the end, 1 colour fewer counts", "purification": "at the end, your hand is discarded"}
DROP_OUT_MARKERS = ("III", "II", "final")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def scroll_text(scroll: str) -> str:
    return f"Cursed scroll ({_plural(CARD[scroll].curses, 'curse')})"


def _free_scrolls(state: MandragoraState) -> Counter[int]:
    """Cursed scrolls still in the deck or at a shop, per curse value (public: scrolls lie face up)."""
    return Counter(card.curses for card in state.free_scrolls())


def _seek(state: MandragoraState, seat: int) -> Choice:
    steps = []
    for n in range(1, state.move_range(seat) + 1):
        index = (state.assistant + n) % SHOP_COUNT
        shop = GAME.shop(state.circle[index])
        cards = state.shop_cards[index]
        steps.append(Option(n, f"{_plural(n, 'shop')} → {shop.name}",
                            f"{shop.time} shop · {_plural(cards, 'card')} to take",
                            caps={"scrolls": cards}, also={"shop": shop.id}))
    free = _free_scrolls(state)
    most = max(state.shop_cards[(state.assistant + n) % SHOP_COUNT] for n in range(1, state.move_range(seat) + 1))
    scrolls = tuple(Option(value, f"Scrolls with {_plural(value, 'curse')}", max=min(free[value], most))
                    for value in sorted(free) if min(free[value], most) > 0)
    fields = [Field("steps", "Seek: how far does the Assistant go clockwise?", options=tuple(steps))]
    if scrolls:
        fields.append(Field("scrolls", "Cursed scrolls among the cards you took", kind="counts", options=scrolls,
                            max=most))
    return Choice("seek", "Seek", tuple(fields), id="m-seek", rule="mandragora.seek.move",
                  checks=("mandragora.seek.scrolls",))


def _book_tags(book: str) -> tuple[str, ...]:
    """What a spellbook's ingredients may be: its colour, or any colour (black)."""
    return ("any",) if book == BLACK_BOOK else (CARD[book].colour or "",)


def _book_group(book: str) -> str:
    return COLOUR_TEXT[CARD[book].colour or WHITE]


def _mandrakes_left(state: MandragoraState) -> int:
    return note_room(state)[MANDRAKE]


def _cast(state: MandragoraState, seat: int) -> Choice | None:
    hand = state.hand_counts[seat]
    if hand < 2:
        return None   # a spell needs a spellbook and at least one ingredient
    note = Counter(state.hand_notes[seat] or ())
    gone = state.cast_books() | state.removed()
    mandrakes = _mandrakes_left(state)
    noted = [c for c in SPELLBOOKS if c.id in note and c.id not in gone]
    books = [Option(c.id, GAME.label(c), "in your note", card=(GAME_ID, c.id), tags=_book_tags(c.id)) for c in noted]
    books += [Option(c.id, GAME.label(c), card=(GAME_ID, c.id), tags=_book_tags(c.id), group=_book_group(c.id),
                     short=str(c.value)) for c in SPELLBOOKS if c.id not in gone and c.id not in note]
    if mandrakes:
        books.insert(0, Option(MANDRAKE, "Mandrake as the spellbook (worth 0)", "takes one colour or all different",
                               tags=("any",)))
    room = note_room(state)
    ingredients = []
    for colour in INGREDIENT_COLOURS:
        most = min(hand - 1, room[colour])
        if most > 0:
            ingredients.append(Option(colour, f"{COLOUR_TEXT[colour]} ingredients", max=most,
                                      when={"book": (colour, "any")}))
    if mandrakes:
        ingredients.append(Option(MANDRAKE, "A mandrake as an ingredient", "wild: any colour; one mandrake a spell",
                                  unless={"book": (MANDRAKE,)}))
    powers = []
    for value in range(GAME.spell_values[0], GAME.spell_values[1] + 1):
        left = state.spells_left(value)
        if left:
            powers.append(Option(value, str(value), f"{_plural(len(left), 'card')} left", needs={"ingredients": value}))
    spells = []
    for spell in GAME.spells:
        values = tuple(sorted({CARD[c].value or 0 for c in state.spells_left() if CARD[c].spell == spell.id}))
        if values:
            note_text = EFFECT_NOTES.get(spell.id, "")
            spells.append(Option(spell.id, spell.name, f"{spell.kind_label} · values left: "
                                 f"{', '.join(map(str, values))}" + (f" · {note_text}" if note_text else ""),
                                 when={"power": values}))
    fields = [Field("book", "Spellbook", options=tuple(books)),
              Field("ingredients", "Ingredients", kind="counts", options=tuple(ingredients), min=1, max=hand - 1),
              Field("power", "Power: the value of the spell card you take (at most one per ingredient)",
                    options=tuple(powers)),
              Field("spell", "Spell", options=tuple(spells))]
    fields += _effects(state, seat)
    return Choice("cast", "Cast", tuple(fields), title="Cast a spell instead", id="m-cast", folded=True,
                  rule="mandragora.spell.prepare",
                  checks=("mandragora.black.magic", "mandragora.mandrake.as-book"))


def _effects(state: MandragoraState, seat: int) -> list[Field]:
    own = tuple(Option(s, scroll_text(s)) for s in state.scrolls[seat])
    opponents = state.opponents(seat)
    found: list[Field] = []
    texts = {spell.id: spell.text for spell in GAME.spells}
    if own:
        found.append(Field("scroll", "Banish which of your scrolls?", options=own, when={"spell": ("banishment",)},
                           hint=texts["banishment"]))
        found.append(Field("scroll", "Give which of your scrolls?", options=own, when={"spell": ("transfer",)},
                           hint=texts["transfer"]))
        found.append(Field("to", "To which opponent?", options=tuple(Option(s, state.players[s]) for s in opponents),
                           when={"spell": ("transfer",)}))
    holding = tuple(Option(s, state.players[s], f"{state.hand_counts[s]} in hand")
                    for s in opponents if state.hand_counts[s])
    if holding:
        found.append(Field("from", "Draw a card from whose hand?", options=holding, when={"spell": ("substitution",)},
                           hint=texts["substitution"]))
    # the shop's id, as the seek form's: the log line names the shop ("… took a card from the Moonlit Well"),
    # where an index read "shop 3", its place in the circle counted from the start tile at 0
    shops = tuple(Option(shop_id, GAME.shop(shop_id).name, f"{GAME.shop(shop_id).time}, "
                                                           f"{_plural(state.shop_cards[i], 'card')}")
                  for i, shop_id in enumerate(state.circle) if state.shop_cards[i])
    if shops:
        free = _free_scrolls(state)
        found.append(Field("shop", "Take a card from which shop?", options=shops, when={"spell": ("levitation",)},
                           hint=texts["levitation"]))
        only_scrolls = state.pool() - sum(free.values()) < 1
        found.append(Field("scroll", "Was it a cursed scroll?", none_label="No: it goes into my hand",
                           options=tuple(Option(v, f"Yes, with {_plural(v, 'curse')}") for v in sorted(free)),
                           required=only_scrolls, when={"spell": ("levitation",)}))
    return found


def _note(state: MandragoraState, seat: int) -> Choice:
    """The private hand note: spellbooks still possible in a hand, ingredients and mandrakes by count."""
    hand = state.hand_counts[seat]
    note = state.hand_notes[seat] or ()
    gone = state.cast_books() | state.removed()
    room = note_room(state)
    counts: Counter[str] = Counter()
    for token in note:
        kind = NOTE_CARDS.get(token)
        if token == MANDRAKE or kind == "mandrake":
            counts[MANDRAKE] += 1
        elif token in INGREDIENT_COLOURS:
            counts[token] += 1
        elif kind == "ingredient":
            counts[CARD[token].colour or ""] += 1
    options = [Option(colour, f"{COLOUR_TEXT[colour]} ingredients", max=min(hand, room[colour]))
               for colour in INGREDIENT_COLOURS if min(hand, room[colour]) > 0]
    if min(hand, room[MANDRAKE]) > 0:
        options.append(Option(MANDRAKE, "Mandrakes", "white", max=min(hand, room[MANDRAKE])))
    if hand:
        options += [Option(c.id, GAME.label(c), card=(GAME_ID, c.id), group=_book_group(c.id), short=str(c.value))
                    for c in SPELLBOOKS if c.id not in gone]
    default: list[str] = []
    for token in note:
        if token in NOTE_CARDS and NOTE_CARDS[token] == "spellbook":
            default.append(token)
    default = [c for c in INGREDIENT_COLOURS for _ in range(counts[c])] + [MANDRAKE] * counts[MANDRAKE] + default
    return Choice("note_hand", "Save my note", (Field("cards", "The cards in my hand", kind="counts",
                                                    options=tuple(options), max=hand, default=default or None),),
                  title="Write down my hand", id="m-note", folded=True, primary=False, rule="mandragora.hand.note",
                  hint="Only this phone sees your note. Keep it to get advice; the companion never needs it.")


def _turn(state: MandragoraState, seat: int) -> list[Choice]:
    found = [_seek(state, seat)]
    cast = _cast(state, seat)
    if cast is not None:
        found.append(cast)
    if state.extra_turn:
        found.append(Choice("decline_extra_turn", "Give up the extra turn", id="m-decline", primary=False,
                            rule="mandragora.effect.replication"))
    if state.countdown_marker in DROP_OUT_MARKERS:
        found.append(Choice("drop_out", "Drop out", id="m-drop", primary=False, irreversible=True,
                            rule="mandragora.end.drop-out",
                            hint="Dropping out ends your game: you take no more turns."))
    return found


def choices(state: MandragoraState, seat: int) -> list[Choice]:
    """The moves ``seat`` may make now, each with the values its fields may take."""
    if state.phase == "over":
        return []
    note = _note(state, seat)
    if state.phase == "reckoning":
        if state.reveals[seat] is not None:
            return [note]
        hand = state.hand_counts[seat]
        colours = tuple(Option(c, COLOUR_TEXT[c]) for c in available_colours(state))
        top = min(hand, len(colours))
        return [Choice("reveal_hand", "Reveal my hand",
                       (Field("colours", "Colours left in my hand", kind="many", options=colours,
                              min=1 if hand else 0, max=top),),
                       id="m-reveal", rule="mandragora.end.reveal", irreversible=True,
                       checks=("mandragora.end.colour-count",),
                       hint="Other phones see your colours only once everyone has revealed. Disappearance and "
                            "Purification are applied for you."), note]
    if state.pending:
        waiting = state.pending[0]
        if waiting.seat != seat:
            return [note]
        if waiting.kind == "curse_marker":
            return [Choice("pass_curse_marker", "Pass the Curse marker",
                           (Field("to", "Give the Curse marker to",
                                  options=tuple(Option(s, state.players[s]) for s in waiting.candidates)),),
                           id="m-curse", rule="mandragora.curse.tie"), note]
        partner = waiting.partner if waiting.partner is not None else seat
        hands = state.hand_counts
        kinds = [k for k in TEAM_KINDS if not ((k in ("give", "exchange") and hands[seat] == 0)
                                               or (k in ("receive", "exchange") and hands[partner] == 0))]
        return [Choice("team_help", "Confirm",
                       (Field("kind", "Help your partner",
                              options=tuple(Option(k, TEAM_TEXT[k].format(partner=state.players[partner]))
                                            for k in kinds)),),
                       id="m-team", rule="mandragora.team.exchange",
                       hint="Pass the cards at the table; the companion only counts them."), note]
    legacy = _legacy_pass(state, seat)
    if state.turn_seat != seat or state.dropped[seat]:
        return [*legacy, note]
    return [*_turn(state, seat), *legacy, note]


def _legacy_pass(state: MandragoraState, seat: int) -> list[Choice]:
    """A game stored before format 2 keeps its reading: the holder still tied for the most may pass at will."""
    if not state.legacy_tie or state.curse_holder != seat:
        return []
    curses = [state.curses(s) for s in range(len(state.players))]
    tied = [s for s, count in enumerate(curses) if count == curses[seat] == max(curses) and s != seat]
    if not tied:
        return []
    return [Choice("pass_curse_marker", "Pass the Curse marker",
                   (Field("to", "Give the Curse marker to", options=tuple(Option(s, state.players[s]) for s in tied)),),
                   id="m-curse-tie", rule="mandragora.curse.tie", folded=True,
                   hint="This game began before the marker followed every change: it stays with you unless you "
                        "pass it.")]


__all__ = ["COLOUR_TEXT", "choices", "scroll_text"]
