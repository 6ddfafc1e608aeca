"""A refusal as a page shows it: in table words, never the API's (issue 21: "every message in table words,
never field names").

The rules and the store refuse in the API's words, which name a move's fields ("field 'targets' must list
exactly two cards", "the 'explore' move needs a 'location' field", "must be str, got int") and the parts of a
correction ("'drop' names move 5"): an API client needs those names. A page shows the same refusal, so the
JSON refusal of a move or correction carries ``said`` beside ``error``: the same sentence with each field named
by its form's label (the question the player answered) or, with no form at hand, in plain words; the pages'
scripts and the corrections page show ``said``.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from companion.rules.base import sentence

#: what a Python type name in a rules message means at a table
_TYPES = {"str": "a name", "int": "a whole number", "float": "a number with a fraction", "bool": "yes or no",
          "list": "a list", "dict": "a set of values", "tuple": "a list", "NoneType": "nothing"}
_FIELD = re.compile(r"\b[Ff]ield '([^']+)'(?: of the '[^']*' move)?")
_NEEDS = re.compile(r"\b[Tt]he (?:'[^']*'|\w+) move needs an? '([^']+)' field")
_TAKES_NO = re.compile(r"\btakes no '([^']+)' field")
_TYPED = re.compile(r"\bmust be ([A-Za-z]+(?:/[A-Za-z]+)*), got ([A-Za-z]+)")
_NAMES = re.compile(r"'(drop|also)' names move (\d+), which is not a live move(?: after move (\d+))?")
_PARTS = {"drop": "removed", "also": "corrected"}
#: what only an out-of-date or broken form sends: a field the move does not take, a type the game has not
_EXTRA = re.compile(r"\b[Tt]he '[^']*' move has no field ([^;]+); it takes [^.;]*")
_UNKNOWN = re.compile(r"\bUnknown move type [^;]*; ([^;]+?) knows: [^.;]*")
_NOT_A_MOVE = re.compile(r"\bA move must be a JSON object with a 'type'")
_RELOAD = "reload the page and send it again"


def labels_for(rules: Any, state: Any, seat: int | None, move_type: Any) -> dict[str, str]:
    """The labels of the form for ``move_type`` the rules offer ``seat`` now (field name -> label), if any."""
    if seat is None or not isinstance(move_type, str):
        return {}
    try:
        choices = rules.choices(state, seat)
    except Exception:   # no form to read the labels from: plain words instead
        return {}
    return {f.name.split(".")[0]: f.label for c in choices if c.move == move_type for f in c.fields}


def _named(name: str, labels: Mapping[str, str], article: str = "the") -> str:
    label = labels.get(name.split(".")[0].split("[")[0])
    if label:
        return f"{article} answer to “{label}”" if label.rstrip().endswith("?") else f"“{label}”"
    plain = re.sub(r"[\[\]._]+", " ", name).strip()
    return f"{article} {plain}" if plain else "one of the answers"


def field_names(rules: Any) -> frozenset[str]:
    """Every field name a move of this game declares."""
    return frozenset(name for move in rules.SPEC.moves for name in move.kinds)


def table_words(message: str, labels: Mapping[str, str] | None = None, fields: Iterable[str] = ()) -> str:
    """``message`` with every field and correction part it names said as a player would read it (``fields``:
    the game's field names, also said in plain words where a message quotes one bare)."""
    labels = labels or {}
    text = _NAMES.sub(lambda m: (f"move {m.group(2)} is no longer in the game" +
                                 (f" after move {m.group(3)}" if m.group(3) else "") +
                                 f", so it cannot be {_PARTS[m.group(1)]} with this change"), message)
    text = _EXTRA.sub(lambda m: "this move holds " + " and ".join(_named(n.strip(" '"), {}) for n in
                                                               m.group(1).split(",")) +
                      f", which it does not take: {_RELOAD}", text)
    text = _UNKNOWN.sub(lambda m: f"this is no move of {m.group(1)}: {_RELOAD}", text)
    text = _NOT_A_MOVE.sub(f"this is no move the companion can read: {_RELOAD}", text)
    text = _NEEDS.sub(lambda m: f"this move needs {_named(m.group(1), labels)}", text)
    text = _TAKES_NO.sub(lambda m: "takes no " + _named(m.group(1), labels, "").strip(), text)
    text = _TYPED.sub(lambda m: "must be " + " or ".join(_TYPES.get(t, "another kind") for t in m.group(1).split("/"))
                      + f", not {_TYPES.get(m.group(2), 'that')}", text)
    text = _FIELD.sub(lambda m: _named(m.group(1), labels), text)
    names = sorted(set(fields), key=len, reverse=True)
    if names:
        text = re.sub("'(" + "|".join(map(re.escape, names)) + r")(?:\[\d+\])?'", lambda m: _named(m.group(1), labels), text)
    return sentence(text)


__all__ = ["field_names", "labels_for", "table_words"]
