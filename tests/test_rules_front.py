"""Every game's rules front is a typed :class:`companion.rules.front.Rules`, checked when it is first loaded."""

from __future__ import annotations

import sys
import types

import pytest

from companion.rules import SPECS
from companion.rules.front import MEMBERS, Rules, missing_members
from companion.rules.spec import GameSpec, MoveSpec


@pytest.mark.parametrize("game", list(SPECS))
def test_every_discovered_game_front_has_every_member_of_the_protocol(game: str) -> None:
    front = SPECS[game].rules()
    assert missing_members(front) == [] and isinstance(front, Rules)
    assert front.SPEC is SPECS[game] and front.GAME_ID == game
    assert callable(front.choices) and callable(front.stalled)


def test_the_members_are_the_protocols_constants_and_functions() -> None:
    assert MEMBERS[:2] == ("SPEC", "GAME_ID") and {"setup", "apply", "view", "choices", "stalled"} <= set(MEMBERS)
    assert len(set(MEMBERS)) == len(MEMBERS)


def test_a_front_missing_members_is_refused_naming_them() -> None:
    name = "house_test_half_front"
    module = types.ModuleType(name)
    spec = GameSpec(id="half", moves=(MoveSpec("go", "Go."),),
                    rules_module=name)
    module.SPEC = spec  # type: ignore[attr-defined]
    module.setup = lambda players, options=None, rng=None: None  # type: ignore[attr-defined]
    sys.modules[name] = module
    try:
        with pytest.raises(TypeError) as refused:
            spec.rules()
        message = str(refused.value)
        assert "GAME_ID" in message and "apply" in message and "stalled" in message and "setup," not in message
    finally:
        del sys.modules[name]
