"""The type and range of every move field, checked before a move reaches a game's rules (and so before the
store keeps it): a field a move type declares holds one of the kinds below, or null (left out).

Each :class:`~companion.rules.spec.MoveSpec` names its fields' kinds (``{"card": TEXT, "points": NUMBER}``);
the base's :func:`~companion.rules.base.referee` refuses a move whose field is of another type or out of
range, naming the field: the game's own checks speak first (their words are the more precise: "a spell must
be given by its name"), and a move they took is still refused when a field holds junk, so it is never stored. The kinds are pydantic types in strict mode (no "3"
for 3, no true for 1), so no stored move holds what a log line, a page or a replay cannot read.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, Mapping, Optional, Union

from pydantic import Field, StrictInt, StrictStr, TypeAdapter, ValidationError

from .spec import (
    COUNTS,
    KINDS,
    NUMBER,
    SEAT,
    TEXT,
    TEXT_OR_NUMBER,
    TEXT_OR_TEXTS,
    TEXTS,
    TEXTS_OR_NUMBERS,
)


def a_quoted(word: str) -> str:
    """``word`` quoted, after the article it takes: "a 'card'", "an 'action_id'" (a vowel first: an)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} '{word}'"


#: a card id, a name, a colour: longer text is no id of any game
MAX_TEXT = 100
#: a list of ids: more than any game's deck
MAX_ITEMS = 120
#: points, counts, steps: far beyond any total of these games
MAX_NUMBER = 10_000
#: a seat number: more than any game's table
MAX_SEAT = 11

_Text = Annotated[StrictStr, Field(max_length=MAX_TEXT)]
_Number = Annotated[StrictInt, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)]
_Seat = Annotated[StrictInt, Field(ge=0, le=MAX_SEAT)]

_TYPES: dict[str, Any] = {
    TEXT: _Text,
    TEXTS: Annotated[list[_Text], Field(max_length=MAX_ITEMS)],
    NUMBER: _Number,
    SEAT: _Seat,
    TEXT_OR_NUMBER: Union[_Text, _Number],
    TEXTS_OR_NUMBERS: Annotated[list[Union[_Text, _Number]], Field(max_length=MAX_ITEMS)],
    TEXT_OR_TEXTS: Union[_Text, Annotated[list[_Text], Field(max_length=MAX_ITEMS)]],
    COUNTS: Annotated[dict[_Text, Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)]], Field(max_length=20)],
}
assert set(_TYPES) == set(KINDS)

#: what each kind is, in words for a refusal
WORDS: dict[str, str] = {
    TEXT: f"a text of at most {MAX_TEXT} characters",
    TEXTS: f"a list of at most {MAX_ITEMS} texts",
    NUMBER: f"a whole number from {-MAX_NUMBER:,} to {MAX_NUMBER:,}",
    SEAT: f"a seat number from 0 to {MAX_SEAT}",
    TEXT_OR_NUMBER: "a text or a whole number",
    TEXTS_OR_NUMBERS: f"a list of at most {MAX_ITEMS} texts or whole numbers",
    TEXT_OR_TEXTS: "a text or a list of texts",
    COUNTS: "an object of counts such as {\"invitations\": 1}",
}


#: what each kind is, without its bounds: for a value of another type altogether ("40" for a number), where the
#: bounds would be the store's sanity limits, not the game's (its own checks say those)
TYPE_WORDS: dict[str, str] = {
    TEXT: "a text",
    TEXTS: "a list of texts",
    NUMBER: "a whole number",
    SEAT: "a seat number (a whole number)",
    TEXT_OR_NUMBER: "a text or a whole number",
    TEXTS_OR_NUMBERS: "a list of texts or whole numbers",
    TEXT_OR_TEXTS: "a text or a list of texts",
    COUNTS: WORDS[COUNTS],
}
assert set(TYPE_WORDS) == set(KINDS)

#: pydantic's error types for a value of the right type beyond a bound (too long, too many, too large)
_BEYOND = frozenset({"greater_than_equal", "less_than_equal", "too_long", "string_too_long"})


@lru_cache(maxsize=None)
def _adapter(kind: str) -> TypeAdapter[Any]:
    return TypeAdapter(Optional[_TYPES[kind]], config={"strict": True})  # type: ignore[arg-type]


def wrong_field(move: Mapping[str, Any], kinds: Mapping[str, str]) -> str | None:
    """The first field of ``move`` whose value is not of its declared kind, as a sentence (None: all fit)."""
    for name, value in move.items():  # items(): a move that notes which fields the rules read notes none here
        kind = kinds.get(name)
        if kind is None:
            continue
        try:
            _adapter(kind).validate_python(value)
        except ValidationError as error:
            beyond = all(problem["type"] in _BEYOND for problem in error.errors(include_url=False))
            words = WORDS[kind] if beyond else TYPE_WORDS[kind]
            return f"Field '{name}' of the '{move.get('type')}' move must be {words}"
    return None


__all__ = ["MAX_ITEMS", "MAX_NUMBER", "MAX_SEAT", "MAX_TEXT", "TYPE_WORDS", "WORDS", "a_quoted", "wrong_field"]
