"""Barony: Sorcery: is a cast legal, and what does it cost? One pure check for the referee and the calculator.

:func:`check_cast` answers for one action's spells (a single spell, or a combination of one
category): legal or not, the total cost in Magic tokens, the category, a sentence and the rule id.
An illegal combination is an *answer* (``legal`` False with the rule it breaks); only a name that is
no spell of the game raises :class:`UnknownSpell`. Spells, costs and categories come from
``content("barony-sorcery")``; nothing here repeats the card data.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, Iterable, Sequence

from cardgen.catalog import content
from cardgen.catalog.barony_sorcery import BaronySorceryContent, Spell

from ..base import IllegalMove

GAME_ID = "barony-sorcery"
GAME: BaronySorceryContent = content(GAME_ID)

CAST_SINGLE = "barony-sorcery.cast.single"
CAST_COMBINE = "barony-sorcery.cast.combine"
CAST_ONCE = "barony-sorcery.cast.once"
CAST_SAME_CATEGORY = "barony-sorcery.cast.same-category"
CAST_IN_PLAY = "barony-sorcery.cast.in-play"
CAST_PAY = "barony-sorcery.cast.pay"


class UnknownSpell(IllegalMove):
    """A name that is no spell of the game (a malformed request, not an illegal cast)."""

    def __init__(self, message: str):
        super().__init__(message, None)


def _keys() -> dict[str, Spell]:
    keys: dict[str, Spell] = {}
    for spell in GAME.spells:
        keys[spell.id] = spell
        keys[spell.name.casefold()] = spell
    return keys


SPELL_KEYS: dict[str, Spell] = _keys()
SPELL_ORDER: dict[str, int] = {spell.id: i for i, spell in enumerate(GAME.spells)}
CATEGORY_NAMES: dict[str, str] = {category.id: category.name for category in GAME.categories}


def find_spell(ref: Any) -> Spell | None:
    """The spell a player means: its id or name in any case (curly quotes and spaces forgiven)."""
    if not isinstance(ref, str):
        return None
    return SPELL_KEYS.get(ref.strip().casefold())


def spell_of(ref: Any) -> Spell:
    """The spell named by ``ref``; :class:`UnknownSpell` with a sentence otherwise."""
    found = find_spell(ref)
    if found is None:
        if not isinstance(ref, str) or not ref.strip():
            raise UnknownSpell(f"a spell must be given by its name, got {ref!r}")
        names = listing([spell.name for spell in GAME.spells])
        raise UnknownSpell(f"there is no spell called '{ref.strip()[:60]}' in {GAME.title} (the spells: {names})")
    return found


def listing(items: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def tokens(count: int) -> str:
    return f"{count} Magic token{'s' * (count != 1)}"


@dataclass(frozen=True)
class CastResult:
    """The answer for one cast: ``spells`` are the catalog's spells in the order they were named."""

    legal: bool
    cost: int
    category: str | None   # the one category of all the spells, None when they are mixed
    reason: str
    rule: str
    spells: tuple[Spell, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal, "cost": self.cost, "category": self.category,
            "category_name": CATEGORY_NAMES.get(self.category or ""), "reason": self.reason, "rule": self.rule,
            "spells": [{"id": s.id, "name": s.name, "category": s.category, "cost": s.cost, "text": s.text,
                        "rule": s.rule} for s in self.spells],
        }


def check_cast(spell_refs: Sequence[Any], magic: int | None = None,
               in_play: Iterable[str] | None = None) -> CastResult:
    """Whether one action may cast ``spell_refs`` (names or ids, any case) with ``magic`` tokens in hand.

    ``magic`` None leaves the price unchecked; ``in_play`` (spell ids or names) None allows all nine.
    The checks, in order: every spell is in play, none is named twice, all share one category, the
    seat can pay the total. Raises :class:`UnknownSpell` for an empty list or a name that is no spell.
    """
    if isinstance(spell_refs, (str, bytes)) or not isinstance(spell_refs, Sequence):
        raise UnknownSpell("'spells' must be a list of spell names")
    if not spell_refs:
        raise UnknownSpell("name at least one spell to cast")
    spells = tuple(spell_of(ref) for ref in spell_refs)
    names = [spell.name for spell in spells]
    cost = sum(spell.cost for spell in spells)
    categories = {spell.category for spell in spells}
    category = next(iter(categories)) if len(categories) == 1 else None

    def refused(reason: str, rule: str) -> CastResult:
        return CastResult(False, cost, category, reason, rule, spells)

    if in_play is not None:
        allowed = {spell_of(ref).id for ref in in_play}
        absent = [spell.name for spell in spells if spell.id not in allowed]
        if absent:
            shown = listing([s.name for s in GAME.spells if s.id in allowed])
            verb = "is" if len(absent) == 1 else "are"
            return refused(f"{listing(absent)} {verb} not among the spells in play ({shown}); "
                           "the spells not drawn at setup stay in the box.", CAST_IN_PLAY)
    repeated = sorted({spell.name for spell in spells if names.count(spell.name) > 1}, key=names.index)
    if repeated:
        return refused(f"{listing(repeated)} is named more than once: a spell can be cast only once "
                       "in the same action.", CAST_ONCE)
    if category is None:
        parts = [f"{spell.name} is {CATEGORY_NAMES[spell.category]}" for spell in spells]
        return refused(f"Only spells of one category combine, and here {listing(parts)}.", CAST_SAME_CATEGORY)
    if magic is not None and cost > magic:
        return refused(f"{listing(names)} cost{'s' * (len(spells) == 1)} {tokens(cost)} and you have "
                       f"{magic}: the whole cost is paid before the effect.", CAST_PAY)
    kind = CATEGORY_NAMES[category]
    if len(spells) == 1:
        return CastResult(True, cost, category, f"{names[0]} costs {tokens(cost)}: pay, then use its effect at "
                          f"once, in place of one of the basic actions.", CAST_SINGLE, spells)
    return CastResult(True, cost, category, f"{listing(names)} cost {tokens(cost)} together: pay them all, then "
                      f"take one {kind} action with the benefit of each spell (one action, not "
                      f"{len(spells)}).", CAST_COMBINE, spells)


def legal_casts(in_play: Iterable[str], magic: int) -> list[CastResult]:
    """Every legal cast from the spells ``in_play`` that ``magic`` tokens pay for, larger combinations
    first, then dearer, then in card order."""
    return list(_legal_casts(_spell_ids(tuple(in_play)), max(0, magic)))


@lru_cache(maxsize=1024)
def _spell_ids(refs: tuple[str, ...]) -> tuple[str, ...]:
    """The spells named by ``refs`` as ids in card order (UnknownSpell for a name that is no spell)."""
    return tuple(sorted({spell_of(ref).id for ref in refs}, key=SPELL_ORDER.__getitem__))


@lru_cache(maxsize=4096)
def _legal_casts(chosen: tuple[str, ...], magic: int) -> tuple[CastResult, ...]:
    found: list[CastResult] = []
    for category in CATEGORY_NAMES:
        mine = [spell for spell in chosen if SPELL_KEYS[spell].category == category]
        for size in range(len(mine), 0, -1):
            for group in combinations(mine, size):
                if sum(SPELL_KEYS[s].cost for s in group) <= magic:
                    found.append(check_cast(group, magic))
    found.sort(key=lambda r: (-len(r.spells), -r.cost, SPELL_ORDER[r.spells[0].id]))
    return tuple(found)
