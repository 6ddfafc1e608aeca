"""Mandragora: casting a spell — checking the spellbook, ingredients, power and spell card, then its effect.

:func:`check_cast` validates everything but the effect fields, in the order the contract lists
(one book, an ingredient, one mandrake, the colour rule, the power, the spell card, the hand, the
cards still available) and returns a :class:`CastPlan`; advice uses it to offer only legal casts.
:func:`cast` applies a plan and its effect to a :class:`Board`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from cardgen.catalog.mandragora import Spell

from ..base import IllegalMove, field
from .state import (
    BLACK_BOOK,
    GAME,
    INGREDIENT_COLOURS,
    INGREDIENT_COPIES,
    MANDRAKE,
    MANDRAKES,
    Board,
    Cast,
    MandragoraState,
    scroll_id,
    seat_field,
    shop_index,
)
from .turns import give_scrolls, recompute_curse

EFFECT_FIELDS: dict[str, tuple[str, ...]] = {
    "banishment": ("scroll",), "transfer": ("scroll", "to"), "substitution": ("from",),
    "levitation": ("shop", "scroll"),
}
ALL_EFFECT_FIELDS: frozenset[str] = frozenset(name for names in EFFECT_FIELDS.values() for name in names)


@dataclass(frozen=True)
class CastPlan:
    spell: Spell
    cast: Cast


def _book(ref: Any) -> str:
    """The spellbook card id, or "mandrake"; a second book anywhere is refused by the caller."""
    if isinstance(ref, (list, tuple)):
        raise IllegalMove("a spell uses exactly one spellbook; cast two spells for two books",
                          "mandragora.spell.one-book")
    if not isinstance(ref, str) or not ref.strip():
        raise IllegalMove("field 'book' must name a spellbook card (e.g. spellbook-yellow-2) or 'mandrake'", None)
    text = ref.strip().casefold()
    if text == MANDRAKE:
        return MANDRAKE
    if text == "black":
        return BLACK_BOOK
    card = GAME.find_card(text)
    if card is not None and card.kind == "mandrake":
        return MANDRAKE
    if card is None or card.kind != "spellbook":
        raise IllegalMove(f"'{ref}' is not a spellbook: a spell is prepared on a spellbook or a mandrake",
                          "mandragora.spell.prepare")
    return card.id


def ingredient_id(ref: Any) -> str:
    """An ingredient as its colour id, or "mandrake", however it was spelt ("  YELLOW ", an ingredient card's
    id); a spellbook here is a second book."""
    if not isinstance(ref, str) or not ref.strip():
        raise IllegalMove("every ingredient must be a colour (e.g. 'yellow'), an ingredient card or 'mandrake'", None)
    text = ref.strip().casefold()
    if text == MANDRAKE:
        return MANDRAKE
    if text in INGREDIENT_COLOURS:
        return text
    card = GAME.find_card(text)
    if card is not None and card.kind == "spellbook":
        raise IllegalMove("a spell uses exactly one spellbook; cast two spells for two books",
                          "mandragora.spell.one-book")
    if card is not None and card.kind == "mandrake":
        return MANDRAKE
    if card is not None and card.kind == "ingredient" and card.colour:
        return card.colour
    if text == "black":
        raise IllegalMove("there are no black ingredients: the black spellbook takes ingredients of different colours",
                          "mandragora.black.magic")
    raise IllegalMove(f"'{ref}' is not an ingredient colour ({', '.join(INGREDIENT_COLOURS)}) or 'mandrake'", None)


def _check_colours(book: str, ingredients: list[str]) -> None:
    """Same colour for a coloured book, all different for black, either for a mandrake book."""
    colours = [c for c in ingredients if c != MANDRAKE]
    wild = len(ingredients) - len(colours)  # a mandrake ingredient matches or is a colour not otherwise present
    same = len(set(colours)) <= 1
    different = len(set(colours)) == len(colours) and len(colours) + wild <= len(INGREDIENT_COLOURS)
    if book == MANDRAKE:
        if not (same or different):
            raise IllegalMove("on a mandrake spellbook the ingredients must be all one colour or all different",
                              "mandragora.mandrake.as-book")
        return
    colour = GAME.card(book).colour
    if book == BLACK_BOOK:
        if not different:
            raise IllegalMove("the black spellbook needs ingredients all of different colours",
                              "mandragora.black.magic")
        return
    wrong = sorted({c for c in colours if c != colour})
    if wrong:
        raise IllegalMove(f"a {colour} spellbook takes only {colour} ingredients, not {', '.join(wrong)}",
                          "mandragora.spell.same-colour")


def _spell_card(state: MandragoraState, ref: Any, power: int) -> tuple[Spell, str]:
    if not isinstance(ref, str) or not ref.strip():
        raise IllegalMove("field 'spell' must name a spell, e.g. 'Banishment'", None)
    named: str | None = None   # a spell card id names that very copy
    try:
        spell = GAME.spell(ref.strip())
    except KeyError:
        card = GAME.find_card(ref.strip())
        if card is None or card.spell is None:
            raise IllegalMove(f"there is no spell called '{ref}' in {GAME.title}", None) from None
        spell, named = GAME.spell(card.spell), card.id
    low, high = GAME.spell_values
    if not low <= power <= high:
        raise IllegalMove(f"there is no stack of power {power}: the spell cards are worth {low} to {high}, so the "
                          f"power is {low} to {high}", "mandragora.spell.empty-stack")
    left = state.spells_left(power)
    if not left:
        raise IllegalMove(f"the stack of power {power} is empty; choose a power whose stack still has cards",
                          "mandragora.spell.empty-stack")
    # identical copies are interchangeable: a card id names its spell and value, so another copy of the same
    # spell and value serves when that very card was recorded already (rule mandragora.spell.no-such-copy)
    value = None if named is None else GAME.card(named).value
    copies = [c for c in left if GAME.card(c).spell == spell.id and value in (None, GAME.card(c).value)]
    copies.sort(key=lambda c: c != named)
    if not copies and named is not None:
        raise IllegalMove(f"{named} is not in the stack of power {power}: it is worth {GAME.card(named).value} "
                          f"or already cast", "mandragora.spell.no-such-copy")
    if not copies:
        on_stack = sorted({GAME.spell_of(GAME.card(c)).name for c in left})
        raise IllegalMove(f"no {spell.name} of value {power} is left in the stack (it holds "
                          f"{', '.join(on_stack)})", "mandragora.spell.no-such-copy")
    return spell, copies[0]


def _check_available(state: MandragoraState, seat: int, book: str, ingredients: list[str]) -> None:
    used = len(ingredients) + 1
    if state.hand_counts[seat] < used:
        raise IllegalMove(f"this spell uses {used} cards but {state.players[seat]} has "
                          f"{state.hand_counts[seat]} in hand", "mandragora.spell.prepare")
    if book != MANDRAKE:
        if book in state.cast_books():
            raise IllegalMove(f"{GAME.label(GAME.card(book))} ({book}) already lies in a cast spell",
                              "mandragora.spell.card-used")
        if book in state.removed():
            raise IllegalMove(f"{GAME.label(GAME.card(book))} ({book}) is back in the box with "
                              f"{len(state.players)} sorcerers", "mandragora.spell.card-used")
    already: Counter[str] = Counter()
    for seat_casts in state.casts:
        for c in seat_casts:
            already.update(c.ingredients)
            already[MANDRAKE] += c.book == MANDRAKE
    wanted = Counter(ingredients)
    wanted[MANDRAKE] += book == MANDRAKE
    copies = INGREDIENT_COPIES[len(state.players)]
    for colour, count in sorted(wanted.items()):
        total = len(MANDRAKES) if colour == MANDRAKE else copies[colour]
        if already[colour] + count > total:
            what = "mandrakes" if colour == MANDRAKE else f"{colour} ingredients"
            raise IllegalMove(f"this game has {total} {what} and {already[colour]} already lie in cast spells",
                              "mandragora.spell.card-used")


def check_cast(state: MandragoraState, seat: int, move: Mapping[str, Any]) -> CastPlan:
    """Everything about a cast but its effect fields; IllegalMove names the first rule broken."""
    book = _book(move.get("book"))
    raw = field(move, "ingredients", list, required=False, default=[])
    ingredients = [ingredient_id(ref) for ref in raw]
    if not ingredients:
        raise IllegalMove("a spell needs at least one ingredient: their number is its highest power",
                          "mandragora.spell.power")
    if ingredients.count(MANDRAKE) + (book == MANDRAKE) > GAME.max_mandrakes_per_spell:
        raise IllegalMove("a spell may hold only one mandrake, as spellbook or ingredient",
                          "mandragora.spell.one-mandrake")
    _check_colours(book, ingredients)
    power = field(move, "power", int)
    if not 1 <= power <= len(ingredients):
        raise IllegalMove(f"with {len(ingredients)} ingredient{'s' * (len(ingredients) != 1)} the power is 1 to "
                          f"{len(ingredients)}, not {power}", "mandragora.spell.power")
    spell, card = _spell_card(state, move.get("spell"), power)
    _check_available(state, seat, book, ingredients)
    return CastPlan(spell, Cast(spell=card, book=book, ingredients=tuple(ingredients), power=power))


def _unused_fields(spell: Spell, move: Mapping[str, Any]) -> None:
    extra = sorted(name for name in ALL_EFFECT_FIELDS - set(EFFECT_FIELDS.get(spell.id, ()))
                   if move.get(name) is not None)
    if extra:
        raise IllegalMove(f"{spell.name} takes no '{extra[0]}' field", None)


def _note_after_cast(note: tuple[str, ...] | None, cast_: Cast) -> tuple[str, ...] | None:
    """The hand note without the cards the spell used, where the note lists them."""
    if note is None:
        return None
    left = list(note)

    def drop(matches: Any) -> None:
        for i, token in enumerate(left):
            if matches(token):
                del left[i]
                return

    def is_mandrake(token: str) -> bool:
        return token == MANDRAKE or token.startswith("mandrake-")

    drop(is_mandrake if cast_.book == MANDRAKE else (lambda token: token == cast_.book))
    for colour in cast_.ingredients:
        if colour == MANDRAKE:
            drop(is_mandrake)
        else:
            drop(lambda token, c=colour: token == c or token.startswith(f"ingredient-{c}-"))
    return tuple(left)


def cast(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    """Cast the spell the move describes (rules mandragora.spell.*) and apply its immediate effect."""
    state = board.state
    plan = check_cast(state, seat, move)
    _unused_fields(plan.spell, move)
    board.casts[seat].append(plan.cast)
    board.hand_counts[seat] -= plan.cast.cards
    board.hand_notes[seat] = _note_after_cast(board.hand_notes[seat], plan.cast)
    effect = plan.spell.id
    if effect == "banishment":
        _banish(board, seat, move)
    elif effect == "transfer":
        _transfer(board, seat, move)
    elif effect == "substitution":
        _substitute(board, seat, move)
    elif effect == "levitation":
        _levitate(board, seat, move)
    elif effect == "replication":
        board.grant_extra_turn = True


def _own_scroll(board: Board, seat: int, move: Mapping[str, Any], rule: str, spell: str) -> str | None:
    mine = board.scrolls[seat]
    if move.get("scroll") is None:
        if mine:
            raise IllegalMove(f"{spell} needs 'scroll': one of the cursed scrolls in front of you", rule)
        return None
    return scroll_id(move["scroll"], mine, "scroll", rule, "in front of you")


def _banish(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    scroll = _own_scroll(board, seat, move, "mandragora.effect.banishment", "Banishment")
    if scroll is None:
        return
    board.scrolls[seat].remove(scroll)
    board.banished.append(scroll)
    recompute_curse(board, seat, {seat})


def _transfer(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    state = board.state
    scroll = _own_scroll(board, seat, move, "mandragora.effect.transfer", "Transfer")
    to = seat_field(state, move, "to")
    if scroll is None:
        if to is not None:
            raise IllegalMove("you have no cursed scroll to give", "mandragora.effect.transfer")
        return
    if to is None:
        raise IllegalMove("Transfer needs 'to': the opponent who receives the scroll", "mandragora.effect.transfer")
    if to == seat:
        raise IllegalMove("Transfer gives the scroll to an opponent, not to yourself", "mandragora.effect.transfer")
    if to not in state.opponents(seat):
        raise IllegalMove(f"{state.players[to]} is your partner: give the scroll to the other team",
                          "mandragora.team.opponent")
    board.scrolls[seat].remove(scroll)
    give_scrolls(board, to, [scroll], causer=seat)


def _substitute(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    state = board.state
    victim = seat_field(state, move, "from")
    holding = [s for s in state.opponents(seat) if board.hand_counts[s] > 0]
    if victim is None:
        if holding:
            raise IllegalMove("Substitution needs 'from': an opponent with cards in hand",
                              "mandragora.effect.substitution")
        return
    if victim == seat:
        raise IllegalMove("Substitution draws from an opponent's hand, not your own", "mandragora.effect.substitution")
    if victim not in state.opponents(seat):
        raise IllegalMove(f"{state.players[victim]} is your partner: draw from the other team",
                          "mandragora.team.opponent")
    if board.hand_counts[victim] == 0:
        raise IllegalMove(f"{state.players[victim]} has no card in hand to draw", "mandragora.effect.substitution")


def _levitate(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    state = board.state
    if move.get("shop") is None:
        if any(board.shop_cards):
            raise IllegalMove("Levitation needs 'shop': a shop with a card to take", "mandragora.effect.levitation")
        if move.get("scroll") is not None:
            raise IllegalMove("there is no card at any shop to take", "mandragora.effect.levitation")
        return
    index = shop_index(state, move["shop"], "shop")
    if board.shop_cards[index] == 0:
        raise IllegalMove(f"there is no card at the {GAME.shop(state.circle[index]).name}",
                          "mandragora.effect.levitation")
    free = [c.id for c in state.free_scrolls()]
    if move.get("scroll") is not None:
        scroll = scroll_id(move["scroll"], free, "scroll", "mandragora.effect.levitation",
                           "still in the deck or at a shop")
        board.shop_cards[index] -= 1
        give_scrolls(board, seat, [scroll], causer=seat)
        return
    if state.pool() - len(free) < 1:
        raise IllegalMove("every card left at the shops and in the deck is a cursed scroll: say which one you took",
                          "mandragora.effect.levitation")
    board.shop_cards[index] -= 1
    board.hand_counts[seat] += 1
