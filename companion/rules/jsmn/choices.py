"""Jonathan Strange & Mr Norrell: ``choices(state, seat)`` — the moves a magician may report now and the values
each field may take.

Built only from what the seat may know: the public table (the year, the card of Marseilles, the rows of
books and named connexions, every magician's prestige, place, board, books and hand counts, the turn) and
the seat's own secret ledger (its feats with their tokens, its completed feats, the spells it cast). Which
feats another magician holds, their tokens (so the supply) and the spells they cast never change what is
offered: a feat in another hand is offered like a free one and refused by the server (rule
jsmn.companion.feat-refusals, named in ``checks``), and likewise a spell another magician has in front of
them (jsmn.spell.magicianship) or an element whose tokens ran out (jsmn.magic.supply).

Every card option carries ``card=("jsmn", id)`` (the card pages offer the moves that name a card); every
option shows a name, never an id. Hands are counts, so a discard lists every invitation and introduction of
the kinds the seat holds.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..choices import Choice, Field, Option
from .magic import hand_discards, has_connexion
from .state import (
    ACTION_IDS,
    BOOKS,
    CONNEXION_DISCS,
    CONNEXION_TYPES,
    ELEMENTS,
    FEAT_NEEDS,
    FEATS,
    GAME,
    GAME_ID,
    INTRODUCTIONS,
    INVITATIONS,
    LIMITS,
    MAGICIANS,
    MARSEILLES,
    NAMED,
    OCCUPIABLE,
    SPELLS,
    TRACKS,
    JsmnState,
    Seat,
    magicianship,
    replace,
)

#: A glyph per element, shown beside its word (never alone).
GLYPHS: dict[str, str] = {"birds": "ᐯ", "hills": "⋀", "rain": "☂", "stones": "▮", "trees": "♣", "wind": "≋"}
ELEMENT_TEXT: dict[str, str] = {e.id: f"{GLYPHS.get(e.id, '•')} {e.name}" for e in GAME.elements}
ACTION_TEXT: dict[str, str] = {a.id: a.name for a in GAME.actions}
CONNEXION_TEXT: dict[str, str] = {c.id: c.name for c in GAME.connexion_types}
PLACE_TEXT: dict[str, str] = {loc: str(GAME.map.location(loc).name) for loc in OCCUPIABLE}
#: Spell effects that ask for more than the spell, and the field that asks.
SPELL_FIELDS: dict[str, str] = {"move_anywhere": "to", "take_feat": "feat", "reuse_book": "book",
                                "uncover_action": "action", "study_any": "elements", "swap_engagement": "card"}
#: Setup row slots of the books of magic, nearest the prestige track first (the first is discarded each year).
BOOK_SLOTS: tuple[str, ...] = ("nearest the prestige track", "in the middle", "nearest the fairy track")


def card(card_id: str) -> tuple[str, str]:
    return (GAME_ID, card_id)


def needs_text(fid: str, tokens: Iterable[str] | None = None) -> str:
    """A feat's elements, e.g. "ᐯ Birds 2, ☂ Rain 1" (with tokens placed: "ᐯ Birds 1/2")."""
    placed = list(tokens) if tokens is not None else None
    return ", ".join(f"{ELEMENT_TEXT[e]} {'' if placed is None else f'{placed.count(e)}/'}{n}"
                     for e, n in FEAT_NEEDS[fid].items())


def left_text(fid: str, tokens: Iterable[str]) -> str:
    """What a feat in front of the seat still takes, e.g. "takes ▮ Stones 1, ≋ Wind 2"."""
    placed = list(tokens)
    return "takes " + ", ".join(f"{ELEMENT_TEXT[e]} {n - placed.count(e)}" for e, n in FEAT_NEEDS[fid].items()
                                if placed.count(e) < n)


def feat_option(fid: str, **extra: Any) -> Option:
    feat = FEATS[fid]
    return Option(fid, f"{feat.name} ({feat.magicianship})", needs_text(fid), card=card(fid), **extra)


def action_name(action: str | None, magician: str | None = None) -> str:
    if action == "unique":
        return str(MAGICIANS[magician].unique_action) if magician in MAGICIANS else "Unique action"
    if action == "still":
        return "Still the waters"
    return ACTION_TEXT.get(action or "", action or "")


def _mine(here: Seat) -> set[str]:
    """Feats this seat holds or has completed (its own secret: it may know them)."""
    return {fid for fid, _ in here.feats} | set(here.completed)


def _takeable(here: Seat) -> tuple[Option, ...]:
    """Every feat but the seat's own: which feats other magicians hold is secret (taken from the row on the table,
    so named without its elements: the card page has them)."""
    mine = _mine(here)
    return tuple(Option(f, FEATS[f].name, f"{FEATS[f].magicianship} magicianship", card=card(f))
                 for f in FEATS if f not in mine)


def _hand(here: Seat, tagged: bool = True) -> tuple[Option, ...]:
    """The invitations and introductions a discard may name (hands are counts: every card of a kind held),
    tagged with their element where another field depends on it."""
    cards = [*(INVITATIONS.values() if here.invitations else ()), *(INTRODUCTIONS.values() if here.introductions
                                                                     else ())]
    return tuple(Option(c.id, c.name, card=card(c.id), tags=(c.element,) if tagged else ()) for c in cards)


def _needs_now(state: JsmnState, tokens: tuple[str, ...], fid: str) -> tuple[str, ...]:
    """The available elements a feat of this seat still takes (the supply is not known: checked by the server)."""
    available = state.available_elements()
    return tuple(e for e, n in FEAT_NEEDS[fid].items() if e in available and tokens.count(e) < n)


def _own_feats(here: Seat, field_name: str, elements: Iterable[str] | None = None) -> tuple[Option, ...]:
    """The seat's feats in progress, each shown while ``field_name`` holds an element it still takes."""
    allowed = None if elements is None else set(elements)
    found = []
    for fid, tokens in here.feats:
        takes = tuple(e for e, n in FEAT_NEEDS[fid].items() if tokens.count(e) < n and
                      (allowed is None or e in allowed))
        if takes:
            found.append(Option(fid, f"{FEATS[fid].name} ({FEATS[fid].magicianship})", left_text(fid, tokens),
                                card=card(fid), when={field_name: takes}))
    return tuple(found)


# -- setup and preparation ---------------------------------------------------------------------------

def _starting_feats() -> Choice:
    return Choice("starting_feats", "Report my three feats",
                  (Field("feats", "The three feats of magic you were dealt", kind="many",
                         options=tuple(feat_option(f) for f in FEATS), min=LIMITS.start_feats,
                         max=LIMITS.start_feats, hint="Only this phone sees them."),),
                  id="j-start", rule="jsmn.setup.hand", irreversible=True, checks=("jsmn.companion.feat-refusals",))


def _book_option(bid: str, **extra: Any) -> Option:
    book = BOOKS[bid]
    return Option(bid, book.name, f"{ELEMENT_TEXT[book.element]} · {book.text}", card=card(bid), **extra)


def _named_option(nid: str, **extra: Any) -> Option:
    named = NAMED[nid]
    return Option(nid, named.name, f"{CONNEXION_TEXT[named.connexion_type]} · {named.text}", card=card(nid), **extra)


def _new_year(state: JsmnState) -> Choice:
    first = not state.marseilles
    cards = tuple(Option(c.id, f"{c.name} ({c.english})",
                         f"fairy +{c.strength} · draw {c.invitations} · "
                         + " ".join(ELEMENT_TEXT[e] for e in c.elements), card=card(c.id))
                  for c in MARSEILLES.values() if c.id not in state.marseilles)
    fields = [Field("marseilles", "The Card of Marseilles revealed", options=cards)]
    checks: tuple[str, ...] = ()
    if not first:
        unseen = replace(state, book_row=state.book_row[1:],
                         book_discard=state.book_discard + state.book_row[:1]).books_unseen()
        if unseen:
            fields.append(Field("book", "The book of magic revealed into the row",
                                options=tuple(_book_option(b) for b in unseen)))
    else:
        if not state.book_row:
            checks += ("jsmn.setup.rows",)
            fields += [Field(f"books.{i}", f"Book of magic laid out {slot}",
                             options=tuple(_book_option(b) for b in BOOKS)) for i, slot in enumerate(BOOK_SLOTS)]
        if not state.named_row:
            fields.append(Field("named", "The two named connexions laid out", kind="many",
                                options=tuple(_named_option(n) for n in NAMED),
                                min=LIMITS.available_named_connexions, max=LIMITS.available_named_connexions))
    return Choice("new_year", "Start the year", tuple(fields), id="j-year", rule="jsmn.year.marseilles",
                  irreversible=True, checks=checks,
                  hint="Any magician may report the year's preparation." if not first else
                  "Any magician may report it, with the rows laid out at setup.")


# -- the turn: connexions, the action, visits ----------------------------------------------------------

def _connexions(state: JsmnState, seat: int) -> list[Choice]:
    here = state.seats[seat]
    if len(here.connexions) >= CONNEXION_DISCS:
        return []
    free = tuple(Option(c, CONNEXION_TEXT[c]) for c in CONNEXION_TYPES if not here.has(c))
    found = [Choice("connexion", "Take this connexion",
                    (Field("connexion", "A connexion type for your disc", options=free),),
                    id="j-conn", rule="jsmn.connexion.gain")]
    named = [n for n in state.named_row if not here.has(NAMED[n].connexion_type)
             and (NAMED[n].effect != "take_book" or state.book_row)]
    if named:
        fields = [Field("named", "Or a named connexion", options=tuple(_named_option(n) for n in named))]
        unseen = state.named_unseen()
        if unseen:
            fields.append(Field("reveal", "The named connexion revealed in its place",
                                options=tuple(_named_option(n) for n in unseen)))
        movers = tuple(n for n in named if NAMED[n].effect == "move_anywhere")
        if movers:
            fields.append(Field("to", "Where does your magician go?", options=_places(), when={"named": movers}))
        takers = tuple(n for n in named if NAMED[n].effect == "take_book")
        if takers:
            fields.append(Field("book", "Which available book?",
                                options=tuple(_book_option(b) for b in state.book_row), when={"named": takers}))
            books = state.books_unseen()
            if books:
                fields.append(Field("book_reveal", "The book revealed in its place",
                                    options=tuple(_book_option(b) for b in books), when={"named": takers}))
        found.append(Choice("connexion", "Take this named connexion", tuple(fields), id="j-named",
                            rule="jsmn.connexion.named", primary=False))
    return found


def _places(exclude: str | None = None) -> tuple[Option, ...]:
    return tuple(Option(loc, name) for loc, name in PLACE_TEXT.items() if loc != exclude)


def _action(state: JsmnState, seat: int) -> list[Choice]:
    here = state.seats[seat]
    magician = MAGICIANS[here.magician]
    borrowable = tuple(Option(c, CONNEXION_TEXT[c]) for c in CONNEXION_TYPES if c != "pupil" and not here.has(c))
    actions = []
    for action in ACTION_IDS:
        if action in here.covered or (action == "acquire-book" and not state.book_row):
            continue
        if action == "unique" and magician.unique_effect == "borrow_connexion" and not borrowable:
            continue
        text = magician.unique_text if action == "unique" else next(a.text for a in GAME.actions if a.id == action)
        actions.append(Option(action, action_name(action, here.magician), text))
    if not actions:  # every action covered (rule jsmn.action.covered): stilling the waters is the only move
        return [Choice("still_waters", "Still the waters", id="j-still", rule="jsmn.action.covered",
                       hint="Every action you could take is covered by a disc: every action disc returns to the "
                            "basin; no action this turn.")]
    fields = [Field("action", "Your action (covered ones are not offered)", options=tuple(actions))]
    if state.book_row:
        fields.append(Field("book", "Which available book?", options=tuple(_book_option(b) for b in state.book_row),
                            when={"action": ("acquire-book",)}))
        unseen = state.books_unseen()
        if unseen:
            fields.append(Field("reveal", "The book revealed in its place",
                                options=tuple(_book_option(b) for b in unseen), when={"action": ("acquire-book",)}))
    if magician.unique_effect == "extra_element":
        fields.append(Field("element", "One more element this turn",
                            options=tuple(Option(e, ELEMENT_TEXT[e]) for e in ELEMENTS), when={"action": ("unique",)}))
    elif magician.unique_effect == "borrow_connexion":
        fields.append(Field("connexion", "Borrow which connexion?", options=borrowable, when={"action": ("unique",)}))
    return [Choice("choose_action", "Take this action", tuple(fields), id="j-action", rule="jsmn.action.choose"),
            Choice("still_waters", "Still the waters", id="j-still", primary=False,
                   hint="Every action disc returns to the basin; no action this turn.")]


def _move(state: JsmnState, seat: int) -> Choice | None:
    turn = state.turn
    assert turn is not None
    if turn.moves >= turn.max_moves:
        return None
    here = state.seats[seat].location
    label = f"Move your magician to ({turn.moves} of {turn.max_moves} moves made)"
    if here is None:
        return Choice("move", "Move", (Field("to", label, options=_places(), hint="The first move goes anywhere."),),
                      id="j-move", rule="jsmn.move.path")
    steps = GAME.map.steps_from(here)
    coach = turn.coachman and has_connexion(state, seat, "coachman")
    reach = 3 if turn.long_move else 2 if coach else 1
    options = []
    for loc, name in sorted(PLACE_TEXT.items(), key=lambda item: (steps.get(item[0], 99), item[1])):
        far = steps.get(loc, 99)
        if loc != here and (far <= reach or turn.kings_roads):
            options.append(Option(loc, name, f"{far} away" if far > 1 else ""))
    return Choice("move", "Move", (Field("to", label, options=tuple(options),
                                         hint="King's Roads: every place is in reach." if turn.kings_roads else ""),),
                  id="j-move", rule="jsmn.move.path")


def _engage(state: JsmnState, seat: int) -> Choice | None:
    turn = state.turn
    assert turn is not None
    here = state.seats[seat]
    if turn.engagements >= turn.max_engagements:
        return None
    cards = []
    if here.invitations and here.location is not None:
        cards += [Option(c.id, c.name, f"invitation · {ELEMENT_TEXT[c.element]}", card=card(c.id),
                         tags=("invitation",)) for c in INVITATIONS.values()
                  if c.location == here.location and c.id not in turn.cards_played]
    if here.introductions and (here.location is not None or turn.teilo):
        cards += [Option(c.id, c.name, f"introduction · +{c.prestige} prestige · {ELEMENT_TEXT[c.element]}"
                         + ("" if c.location == here.location else f" · {PLACE_TEXT[c.location]}"), card=card(c.id))
                  for c in INTRODUCTIONS.values()
                  if (turn.teilo or c.location == here.location) and c.id not in turn.cards_played]
    if not cards:
        return None
    where = PLACE_TEXT.get(here.location or "", "")
    fields = [Field("card", f"Fulfil an engagement{f' in {where}' if where else ''} "
                            f"({turn.engagements} of {turn.max_engagements} done)", options=tuple(cards))]
    if any(o.tags for o in cards):
        takes = LIMITS.invitation_takes
        fields.append(Field("introductions", "Introductions drawn",
                            options=tuple(Option(n, str(n), caps={"feats": takes - n}) for n in range(takes + 1)),
                            when={"card": ("invitation",)}, default=takes))
        fields.append(Field("feats", "Feats of magic taken", kind="many", options=_takeable(here), max=takes,
                            when={"card": ("invitation",)}))
    return Choice("engage", "Fulfil it", tuple(fields), id="j-engage", rule="jsmn.engage.location",
                  checks=("jsmn.companion.feat-refusals",))


# -- magic -----------------------------------------------------------------------------------------------

MAGIC_CHECKS = ("jsmn.magic.supply",)


def _magic(state: JsmnState, seat: int) -> Choice | None:
    here = state.seats[seat]
    wanted = {e for fid, tokens in here.feats for e in _needs_now(state, tokens, fid)}
    cards = tuple(o for o in _hand(here, tagged=True) if o.tags[0] in wanted)
    if not cards:
        return None
    available = ", ".join(ELEMENT_TEXT[e] for e in state.available_elements())
    return Choice("magic", "Do magic",
                  (Field("card", "Card you discard (its element is placed)", options=cards),
                   Field("feat", "On which of your feats?", options=_own_feats(here, "card", state.available_elements()))),
                  id="j-magic", rule="jsmn.magic.available", checks=MAGIC_CHECKS, hint=f"Available now: {available}.")


def _book_uses(state: JsmnState, seat: int) -> Choice | None:
    here = state.seats[seat]
    turn = state.turn
    assert turn is not None
    if not here.hand:
        return None
    available = state.available_elements()
    room = {e: sum(max(0, FEAT_NEEDS[fid].get(e, 0) - tokens.count(e)) for fid, tokens in here.feats)
            for e in available}
    wanted = tuple(e for e in available if room[e])

    def usable(b: str) -> bool:
        book = BOOKS[b]
        if book.form == "any":
            return bool(wanted)
        return room.get(book.element, 0) >= (2 if book.form == "double" else 1)

    books = [b for b in here.books if turn.books_used.count(b) < turn.book_uses and usable(b)]
    if not books:
        return None
    options = []
    for b in books:
        book = BOOKS[b]
        form = "match-double" if book.form == "double" else "match-any" if book.form == "any" else "convert"
        options.append(_book_option(b, tags=(form, f"match-{book.element}") if form != "convert" else (form,)))
    hand = _hand(here, tagged=True)
    fields = [Field("book", "Use a book of magic", options=tuple(options))]
    if any(BOOKS[b].form == "convert" for b in books):
        fields.append(Field("card", "Card you discard", options=_hand(here), when={"book": ("convert",)}))
    for element in dict.fromkeys(BOOKS[b].element for b in books if BOOKS[b].form in ("double", "any")):
        fields.append(Field("card", f"Card you discard ({ELEMENT_TEXT[element]}, the book's element)",
                            options=tuple(o for o in hand if o.tags[0] == element),
                            when={"book": (f"match-{element}",)}))
    if any(BOOKS[b].form == "any" for b in books):
        fields.append(Field("element", "Which element?", options=tuple(Option(e, ELEMENT_TEXT[e]) for e in wanted),
                            when={"book": ("match-any",)}))
    own_feats: list[Field] = []
    tokens = dict(here.feats)

    def takers(form: str, second: bool = False) -> tuple[Option, ...]:
        """The seat's feats that take the element of one of its books of this form, shown while it is picked
        (the second token of a double book: not on a feat the first one completes)."""
        found = []
        for fid in tokens:
            left = {b: FEAT_NEEDS[fid].get(BOOKS[b].element, 0) - tokens[fid].count(BOOKS[b].element) for b in books}
            picks = tuple(b for b in books if BOOKS[b].form == form and BOOKS[b].element in available and left[b] > 0)
            once = second and all(left[b] < 2 for b in picks)
            if picks:
                found.append(Option(fid, f"{FEATS[fid].name} ({FEATS[fid].magicianship})",
                                    left_text(fid, tokens[fid]), card=card(fid), when={"book": picks},
                                    unless={"feats.0": (fid,)} if once else {}))
        return tuple(found)

    if takers("convert"):
        own_feats.append(Field("feats.0", "Feat for the token", options=takers("convert"),
                               when={"book": ("convert",)}))
    if takers("double"):
        own_feats += [Field(f"feats.{i}", f"Feat for the {nth} token", options=takers("double", second=i == 1),
                            when={"book": ("match-double",)}) for i, nth in enumerate(("first", "second"))]
    if any(BOOKS[b].form == "any" for b in books):
        own_feats.append(Field("feats.0", "Feat for the token", options=_own_feats(here, "element", available),
                               when={"book": ("match-any",)}))
    if not own_feats:
        return None
    return Choice("use_book", "Use the book", tuple(fields + own_feats), id="j-book", rule="jsmn.book.use",
                  checks=(*MAGIC_CHECKS, "jsmn.magic.exact", "jsmn.magic.place"))


def _street(state: JsmnState, seat: int) -> Choice | None:
    here = state.seats[seat]
    if not has_connexion(state, seat, "street-magician") or here.hand < 2:
        return None
    feats = _own_feats(here, "element", state.available_elements())
    if not feats:
        return None
    hand = _hand(here)
    return Choice("street_magic", "Do street magic",
                  (Field("cards.0", "First card", options=hand),
                   Field("cards.1", "Second card (same element)", options=hand),
                   Field("element", "Which element?",
                         options=tuple(Option(e, ELEMENT_TEXT[e]) for e in state.available_elements())),
                   Field("feat", "On which of your feats?", options=feats)),
                  id="j-street", rule="jsmn.connexion.street-magician",
                  checks=(*MAGIC_CHECKS, "jsmn.connexion.street-magician", "jsmn.hand.count"),
                  hint="Street Magician: two cards of one element for a token of any allowed element.")


def _free_token(state: JsmnState, seat: int) -> Choice | None:
    turn = state.turn
    assert turn is not None
    if not turn.free_tokens:
        return None
    here = state.seats[seat]
    elements: set[str] = set()
    for credit in turn.free_tokens:
        elements |= set(state.available_elements()) if credit == "available" else set(credit.split(","))
    listed = tuple(e for e in ELEMENTS if e in elements)
    feats = _own_feats(here, "element", listed)
    if not feats:
        return None
    words = "; ".join("any allowed element" if t == "available" else " or ".join(ELEMENT_TEXT[e] for e in t.split(","))
                      for t in turn.free_tokens)
    return Choice("place_token", "Place the token",
                  (Field("element", "Which element?", options=tuple(Option(e, ELEMENT_TEXT[e]) for e in listed)),
                   Field("feat", "On which of your feats?", options=feats)),
                  id="j-token", rule="jsmn.magic.spell-elements", checks=(*MAGIC_CHECKS, "jsmn.spell.daedaluss-rose"),
                  hint=f"A token to place without a discard ({words}).")


def _advisor(state: JsmnState, seat: int) -> Choice | None:
    turn = state.turn
    assert turn is not None
    here = state.seats[seat]
    if not has_connexion(state, seat, "advisor") or turn.advisor_used or not here.hand:
        return None
    return Choice("advisor", "Exchange it",
                  (Field("card", "Advisor: discard which card (you draw one of its kind)?", options=_hand(here)),),
                  id="j-advisor", rule="jsmn.connexion.advisor", primary=False)


# -- spells ----------------------------------------------------------------------------------------------

def _castable(state: JsmnState, seat: int) -> list[str]:
    """Spells whose timing allows them now, less a magicianship spell already in front of a magician (cast
    spells are public: every log names them)."""
    here = state.seats[seat]
    turn = state.turn
    mine = turn is not None and state.phase == "turn" and turn.seat == seat
    if mine and turn is not None and turn.pending:
        return []
    found = []
    for sid, spell in SPELLS.items():
        if spell.magicianship and any(sid in s.spells_played for s in state.seats):
            continue
        if spell.effect == "look_ahead":
            ok = state.phase == "preparation"
        elif spell.effect == "hold_back":
            ok = state.phase == "turn" and turn is not None and turn.seat != seat and bool(turn.last_introduction) \
                and not turn.held_back
        elif spell.timing == "any-time":
            ok = state.phase in ("preparation", "turn")
        else:
            ok = mine
        if ok and spell.effect == "reuse_book":
            ok = bool(turn and turn.books_used)
        if ok and spell.effect == "uncover_action":
            ok = bool(here.covered)
        if ok and spell.effect == "swap_engagement":
            ok = bool(here.hand)
        if ok:
            found.append(sid)
    return found


def _cast(state: JsmnState, seat: int) -> Choice | None:
    here = state.seats[seat]
    if not here.spells:
        return None
    castable = _castable(state, seat)
    if not castable:
        return None
    spells = tuple(Option(s, SPELLS[s].name, f"+{SPELLS[s].magicianship} magicianship" if SPELLS[s].magicianship
                          else "", card=card(s)) for s in castable)
    by_effect: dict[str, tuple[str, ...]] = {}
    for s in castable:
        by_effect[SPELLS[s].effect] = by_effect.get(SPELLS[s].effect, ()) + (s,)
    fields = [Field("spell", "Which spell?", options=spells)]
    if "move_anywhere" in by_effect:
        fields.append(Field("to", "Move to", options=_places(), when={"spell": by_effect["move_anywhere"]}))
    if "take_feat" in by_effect:
        fields.append(Field("feat", "Which feat of magic?", options=_takeable(here),
                            when={"spell": by_effect["take_feat"]}))
    if "reuse_book" in by_effect and state.turn is not None:
        fields.append(Field("book", "Which of your books?",
                            options=tuple(_book_option(b) for b in dict.fromkeys(state.turn.books_used)),
                            when={"spell": by_effect["reuse_book"]}))
    if "uncover_action" in by_effect:
        fields.append(Field("action", "Uncover which action?",
                            options=tuple(Option(a, action_name(a, here.magician)) for a in here.covered),
                            when={"spell": by_effect["uncover_action"]}))
    if "study_any" in by_effect:
        fields.append(Field("elements", "Two elements", kind="many", min=2, max=2,
                            options=tuple(Option(e, ELEMENT_TEXT[e]) for e in ELEMENTS),
                            when={"spell": by_effect["study_any"]}))
    if "swap_engagement" in by_effect:
        fields.append(Field("card", "Card you swap", options=_hand(here), when={"spell": by_effect["swap_engagement"]}))
    return Choice("cast_spell", "Cast", tuple(fields), title=f"Cast a spell ({here.spells} in hand)", id="j-cast",
                  folded=True, primary=False, rule="jsmn.spell.cast",
                  checks=("jsmn.spell.magicianship", "jsmn.companion.feat-refusals"))


# -- the end of a turn -------------------------------------------------------------------------------------

def _end_turn(state: JsmnState, seat: int) -> Choice:
    here = state.seats[seat]
    raven = state.year in TRACKS.raven_years
    total = magicianship(here)
    defeats = raven and total >= state.fairy
    hint = ""
    if raven:
        hint = (f"Raven year: ending your turn confronts the fairy in secret. Your {total} against his {state.fairy}: "
                + ("you defeat him and the game ends." if defeats else "not enough; nobody is told."))
    excess = 0 if defeats else hand_discards(state, seat)
    fields: tuple[Field, ...] = ()
    checks: tuple[str, ...] = ()
    if excess:
        card_ = state.card
        drawn = card_.invitations if card_ is not None else 0
        invitations = here.invitations + drawn
        most = min(excess, invitations)
        hint = (hint + " " if hint else "") + (f"You draw {drawn} invitation{'s' * (drawn != 1)} and must discard "
                                               f"{excess} to keep five.")
        fields = (Field("discard.invitations", "Invitations discarded", kind="number", min=max(0, excess -
                                                                                               here.introductions),
                        max=most, default=None if defeats else most),
                  Field("discard.introductions", "Introductions discarded", kind="number",
                        min=max(0, excess - invitations), max=min(excess, here.introductions),
                        default=None if defeats else excess - most))
        checks = ("jsmn.hand.limit",)
    return Choice("end_turn", "End my turn", fields, id="j-end", rule="jsmn.fairy.confront" if raven else
                  "jsmn.hand.limit" if excess else "jsmn.turn.steps", hint=hint, irreversible=defeats, checks=checks)


def choices(state: JsmnState, seat: int) -> list[Choice]:
    """The moves ``seat`` may report now, each with the values its fields may take."""
    if state.phase == "over" or not 0 <= seat < len(state.seats):
        return []
    here = state.seats[seat]
    if state.phase == "setup":
        return [] if here.started else [_starting_feats()]
    found: list[Choice] = []
    if state.phase == "preparation":
        found.append(_new_year(state))
    turn = state.turn
    if state.phase == "turn" and turn is not None and turn.seat == seat:
        if turn.pending:
            return _connexions(state, seat)
        if turn.step == "action":
            found += _action(state, seat)
        if turn.step == "visits":
            found += [c for c in (_move(state, seat), _engage(state, seat)) if c is not None]
        if turn.step != "action":
            found += [c for c in (_magic(state, seat), _book_uses(state, seat), _street(state, seat),
                                  _free_token(state, seat)) if c is not None]
        advisor = _advisor(state, seat)
        if advisor is not None:
            found.append(advisor)
    cast = _cast(state, seat)
    if cast is not None:
        found.append(cast)
    if state.phase == "turn" and turn is not None and turn.seat == seat:
        if here.spells:
            found.append(Choice("discard_spell", "Discard a spell for 1 prestige", id="j-dspell", primary=False))
        if turn.step != "action":
            found.append(_end_turn(state, seat))
    return found


__all__ = ["ACTION_TEXT", "CONNEXION_TEXT", "ELEMENT_TEXT", "GLYPHS", "PLACE_TEXT", "SPELL_FIELDS", "action_name",
           "choices", "needs_text"]
