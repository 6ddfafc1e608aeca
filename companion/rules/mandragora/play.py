"""Mandragora: "what can I do now?" — advice from a seat's hand note, and random legal moves.

``random_legal_move`` drives the property tests, benchmarks and the secrets test: every move it
returns is legal (the tests apply each one) and its choices come only from the ``random.Random``
it is given. Hidden facts (which card lies where) are invented consistently with the public counts.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..base import IllegalMove
from .cast import check_cast
from .moves import NOTE_CARDS, available_colours, colours_left, note_bucket, note_room
from .state import (
    BLACK_BOOK,
    CARD,
    GAME,
    INGREDIENT_COLOURS,
    INGREDIENT_COPIES,
    MANDRAKE,
    MANDRAKES,
    SHOP_COUNT,
    SPELLBOOKS,
    MandragoraState,
    shop_label,
)

CAST_CHANCE = 0.45        # how often a random turn tries to cast before seeking
DROP_CHANCE = 0.08        # how often a random seat drops out during the countdown
DECLINE_CHANCE = 0.15     # how often a random seat gives up a Replication extra turn
NOTE_WORD_CHANCE = 0.35   # how often a random note entry is a colour word rather than a card id
NOTE_CHANCE = 0.5         # how often a seat whose note no longer fits its hand offers a new one
NOTE_CARD_IDS: tuple[str, ...] = tuple(sorted(NOTE_CARDS))
NOTE_WORDS: tuple[str, ...] = (*INGREDIENT_COLOURS, MANDRAKE)


def acting_seats(state: MandragoraState) -> list[int]:
    """The seats whose move the game waits for (hand notes aside, which any seat may make any time)."""
    if state.phase == "reckoning":
        return [s for s in state.seats if state.reveals[s] is None]
    if state.phase != "play":
        return []
    if state.pending:
        return [state.pending[0].seat]
    return [] if state.turn_seat is None else [state.turn_seat]


# --- advice --------------------------------------------------------------------------------------

def _note_parts(note: tuple[str, ...]) -> tuple[list[str], Counter[str], int]:
    """Books (card ids), ingredients per colour and mandrakes in a hand note."""
    books: list[str] = []
    colours: Counter[str] = Counter()
    mandrakes = 0
    for token in note:
        kind = NOTE_CARDS.get(token)
        if token == MANDRAKE or kind == "mandrake":
            mandrakes += 1
        elif kind == "spellbook":
            books.append(token)
        elif token in INGREDIENT_COLOURS:
            colours[token] += 1
        elif kind == "ingredient":
            colours[CARD[token].colour or ""] += 1
    return books, colours, mandrakes


def _best_power(state: MandragoraState, most: int) -> int | None:
    for power in range(min(most, GAME.spell_values[1]), 0, -1):
        if state.spells_left(power):
            return power
    return None


def _cast_options(books: list[str], colours: Counter[str], mandrakes: int) -> list[tuple[str, list[str]]]:
    """(book, ingredients) per book in the note with the most ingredients it can take."""
    options: list[tuple[str, list[str]]] = []
    present = sorted(c for c in colours if colours[c])
    for book in books:
        wild = [MANDRAKE] if mandrakes else []
        if book == BLACK_BOOK:
            options.append((book, present + wild[: max(0, len(INGREDIENT_COLOURS) - len(present))]))
        else:
            colour = CARD[book].colour or ""
            options.append((book, [colour] * colours[colour] + wild))
    if mandrakes:
        if present:
            richest = max(present, key=lambda c: (colours[c], c))
            options.append((MANDRAKE, [richest] * colours[richest]))
        if len(present) > 1:
            options.append((MANDRAKE, present))
    return options


def advice(state: MandragoraState, seat: int) -> list[dict[str, Any]]:
    """From ``seat``'s private hand note: the legal casts now, most points first, then where to seek.

    Each entry is ``{"type", "text", "points", "move"}``; a cast move has no effect fields yet.
    Empty when the seat has no note or cannot move now.
    """
    note = state.hand_notes[seat] if 0 <= seat < len(state.players) else None
    if note is None or state.phase != "play" or state.pending or state.turn_seat != seat:
        return []
    books, colours, mandrakes = _note_parts(note)
    found: list[dict[str, Any]] = []
    for book, ingredients in _cast_options(books, colours, mandrakes):
        power = _best_power(state, len(ingredients))
        if power is None:
            continue
        # the fewest cards for that power: leave a wild mandrake out when it is not needed
        used = sorted(ingredients, key=lambda i: i == MANDRAKE)[:power]
        spell_card = GAME.card(state.spells_left(power)[0])
        move = {"type": "cast", "book": book, "ingredients": used, "power": power,
                "spell": GAME.spell_of(spell_card).id}
        try:
            plan = check_cast(state, seat, move)
        except IllegalMove:
            continue
        points = power + plan.cast.book_value
        book_name = "a mandrake" if book == MANDRAKE else f"the {GAME.label(CARD[book])}"
        found.append({"type": "cast", "points": points, "move": move,
                      "text": f"Cast {GAME.spell_of(spell_card).name} (power {power}) on {book_name} with "
                              f"{', '.join(used)}: {points} point{'' if points == 1 else 's'}."})
    found.sort(key=lambda entry: -entry["points"])
    reach = state.move_range(seat)
    seeks = sorted(range(1, reach + 1), key=lambda steps: -state.shop_cards[(state.assistant + steps) % SHOP_COUNT])
    for steps in seeks[:2]:
        index = (state.assistant + steps) % SHOP_COUNT
        cards = state.shop_cards[index]
        if cards:
            found.append({"type": "seek", "points": 0, "move": {"type": "seek", "steps": steps},
                          "text": f"Send the Assistant {steps} shop{'s' * (steps != 1)} to the "
                                  f"{shop_label(state, index)}: {cards} card{'s' * (cards != 1)} there."})
    return found


# --- random legal moves --------------------------------------------------------------------------

def _draw_scrolls(state: MandragoraState, cards: int, rng: random.Random) -> list[str]:
    """Which of ``cards`` taken from the shops are cursed scrolls, as if drawn from the hidden pool."""
    free = [c.id for c in state.free_scrolls()]
    pool = state.pool()
    taken: list[str] = []
    for _ in range(cards):
        if pool > 0 and rng.random() < len(free) / pool:
            taken.append(free.pop(rng.randrange(len(free))))
        pool -= 1
    return taken


def _scroll_ref(scroll: str, rng: random.Random) -> Any:
    return CARD[scroll].curses if rng.random() < 0.3 else scroll


def _random_seek(state: MandragoraState, seat: int, rng: random.Random) -> dict[str, Any]:
    steps = rng.randint(1, state.move_range(seat))
    destination = (state.assistant + steps) % SHOP_COUNT
    scrolls = _draw_scrolls(state, state.shop_cards[destination], rng)
    move: dict[str, Any] = {"type": "seek", "steps": steps}
    if scrolls or rng.random() < 0.5:
        free = {c.id for c in state.free_scrolls()}
        by_value: list[Any] = []
        for scroll in scrolls:
            ref = _scroll_ref(scroll, rng)
            lowest = min((s for s in free if CARD[s].curses == CARD[scroll].curses),
                         key=lambda s: CARD[s].number)
            by_value.append(ref if ref == scroll or lowest == scroll else scroll)
            free.discard(scroll)
        move["scrolls"] = by_value
    if rng.random() < 0.5:
        move["shop"] = state.circle[destination]
    return move


def _random_ingredients(state: MandragoraState, book: str, room: int, rng: random.Random) -> list[str]:
    used = Counter(i for casts in state.casts for c in casts for i in c.ingredients)
    mandrakes_left = len(MANDRAKES) - used[MANDRAKE] - sum(c.book == MANDRAKE for s in state.casts for c in s)
    copies = INGREDIENT_COPIES[len(state.players)]
    left = {c: copies[c] - used[c] for c in INGREDIENT_COLOURS if copies[c] - used[c] > 0}
    wild = [MANDRAKE] if mandrakes_left - (book == MANDRAKE) > 0 and book != MANDRAKE and rng.random() < 0.3 else []
    if book == BLACK_BOOK or (book == MANDRAKE and rng.random() < 0.5):
        colours = rng.sample(sorted(left), rng.randint(0, len(left)))
        chosen = colours + wild[: max(0, len(INGREDIENT_COLOURS) - len(colours))]
    else:
        colour = CARD[book].colour if book != MANDRAKE else (rng.choice(sorted(left)) if left else None)
        chosen = [colour] * rng.randint(0, left.get(colour or "", 0)) + wild if colour else list(wild)
    rng.shuffle(chosen)
    return [str(c) for c in chosen[:room]]


def _effect_fields(state: MandragoraState, seat: int, spell: str, rng: random.Random) -> dict[str, Any]:
    mine = state.scrolls[seat]
    if spell in ("banishment", "transfer") and mine:
        fields: dict[str, Any] = {"scroll": rng.choice(mine)}
        if spell == "transfer":
            fields["to"] = rng.choice(state.opponents(seat))
        return fields
    if spell == "substitution":
        holding = [s for s in state.opponents(seat) if state.hand_counts[s] > 0]
        return {"from": rng.choice(holding)} if holding else {}
    if spell == "levitation":
        stocked = [i for i, cards in enumerate(state.shop_cards) if cards]
        if not stocked:
            return {}
        fields = {"shop": rng.choice(stocked) if rng.random() < 0.5 else state.circle[rng.choice(stocked)]}
        taken = _draw_scrolls(state, 1, rng)
        if taken:
            fields["scroll"] = taken[0]
        return fields
    return {}


def _random_cast(state: MandragoraState, seat: int, rng: random.Random) -> dict[str, Any] | None:
    room = state.hand_counts[seat] - 1
    if room < 1:
        return None
    gone = state.cast_books() | state.removed()
    books = [b.id for b in SPELLBOOKS if b.id not in gone] + [MANDRAKE]
    for _ in range(3):
        book = rng.choice(books)
        ingredients = _random_ingredients(state, book, room, rng)
        powers = [p for p in range(1, len(ingredients) + 1) if state.spells_left(p)]
        if not powers:
            continue
        power = rng.choice(powers)
        spell = GAME.spell_of(GAME.card(rng.choice(state.spells_left(power))))
        move = {"type": "cast", "book": book, "ingredients": ingredients, "power": power,
                "spell": spell.name if rng.random() < 0.5 else spell.id}
        try:
            check_cast(state, seat, move)
        except IllegalMove:
            continue
        return {**move, **_effect_fields(state, seat, spell.id, rng)}
    return None


def _random_note(state: MandragoraState, seat: int, rng: random.Random) -> dict[str, Any]:
    """A plausible note as long as the hand: card ids and colour words within what can still be in a hand."""
    unavailable = state.cast_books() | state.removed()
    room = note_room(state)
    note: list[str] = []
    for _ in range(state.hand_counts[seat]):
        token = rng.choice(NOTE_WORDS) if rng.random() < NOTE_WORD_CHANCE else rng.choice(NOTE_CARD_IDS)
        bucket = note_bucket(token)
        if token in unavailable or (bucket is not None and room[bucket] <= 0):
            continue
        if bucket is not None:
            room[bucket] -= 1
        note.append(token)
        if token in NOTE_CARDS:
            unavailable.add(token)
    return {"type": "note_hand", "cards": note}


def _random_reveal(state: MandragoraState, seat: int, rng: random.Random) -> dict[str, Any]:
    held = state.hand_counts[seat]
    left = colours_left(state)
    shown = Counter(c for s, r in enumerate(state.reveals) if s != seat for c in (r or ()))
    possible = [c for c in available_colours(state) if left[c] > shown[c]]  # (what the count at the end takes)
    if held == 0 or not possible:
        return {"type": "reveal_hand", "colours": []}
    return {"type": "reveal_hand", "colours": rng.sample(possible, rng.randint(1, min(held, len(possible))))}


def _note_is_stale(state: MandragoraState, seat: int) -> bool:
    note = state.hand_notes[seat]
    return state.hand_counts[seat] > 0 and (note is None or len(note) != state.hand_counts[seat])


def random_legal_move(state: MandragoraState, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A legal move for ``seat`` chosen with ``rng``, or None when the seat has nothing to do now.

    Besides the seat the game waits for, a seat whose hand note no longer matches its hand count
    offers a new note, so notes change as often as hands do.
    """
    if state.phase == "over":
        return None
    acting = acting_seats(state)
    if seat not in acting:
        if state.phase == "play" and _note_is_stale(state, seat) and rng.random() < NOTE_CHANCE:
            return _random_note(state, seat, rng)
        return None
    if state.phase == "reckoning":
        return _random_reveal(state, seat, rng)
    if state.pending:
        waiting = state.pending[0]
        if waiting.kind == "curse_marker":
            return {"type": "pass_curse_marker", "to": rng.choice(waiting.candidates)}
        partner = waiting.partner if waiting.partner is not None else seat
        kinds = ["none"] + (["give"] if state.hand_counts[seat] else []) + \
                (["receive"] if state.hand_counts[partner] else []) + \
                (["exchange"] if state.hand_counts[seat] and state.hand_counts[partner] else [])
        return {"type": "team_help", "kind": rng.choice(kinds)}
    if _note_is_stale(state, seat) and rng.random() < 0.3:
        return _random_note(state, seat, rng)
    if state.extra_turn and rng.random() < DECLINE_CHANCE:
        return {"type": "decline_extra_turn"}
    if state.countdown_marker in ("III", "II", "final") and rng.random() < DROP_CHANCE:
        return {"type": "drop_out"}
    if rng.random() < CAST_CHANCE:
        move = _random_cast(state, seat, rng)
        if move is not None:
            return move
    return _random_seek(state, seat, rng)
