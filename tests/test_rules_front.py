"""Every game's rules front is a typed :class:`companion.rules.front.Rules`, checked when it is first loaded."""

from __future__ import annotations

import ast
import re
import sys
import types
from pathlib import Path

import pytest

from companion.rules import SPECS
from companion.rules.front import MEMBERS, Rules, missing_members
from companion.rules.spec import GameSpec, MoveSpec

ROOT = Path(__file__).resolve().parents[1]


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


# -- declared hooks are called, never sniffed --------------------------------------------------------------

def declared_hooks() -> set[str]:
    """Every name a game declares with a typed default: the rules front's members, the content's hooks and the
    pages' fields (``game`` and ``extra`` aside: words many objects have)."""
    import dataclasses

    from cardgen.catalog.base import CardAndRuleLookups
    from companion.web.games import GamePages

    content_hooks = {"label", "card_facts", "card_rules", "ability_text", "subject_label"}
    assert all(callable(getattr(CardAndRuleLookups, name)) for name in content_hooks)
    return {*MEMBERS, *content_hooks, *(f.name for f in dataclasses.fields(GamePages))} - {"game", "extra"}


def sniffed_hooks(paths: list[Path], hooks: set[str]) -> list[str]:
    """``hasattr(x, "<hook>")`` or ``getattr(x, "<hook>", default)`` on a declared hook: duck typing where the
    declaration already says. Discovery reading a module's ``SPEC`` (is this package a game?) is no hook."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant) and node.args[1].value in hooks
                    and (node.func.id == "hasattr" or (node.func.id == "getattr" and len(node.args) == 3
                                                       and node.args[1].value != "SPEC"))):
                found.append(f"{path.relative_to(ROOT) if ROOT in path.parents else path.name}:{node.lineno}: "
                             f"{ast.unparse(node)}")
    return found


def test_shared_code_calls_declared_hooks_and_never_sniffs_them() -> None:
    paths = sorted({*(ROOT / "companion").rglob("*.py"), *(ROOT / "cardgen").rglob("*.py")})
    assert sniffed_hooks(paths, declared_hooks()) == []


def test_the_sniff_check_sees_hasattr_and_getattr_with_a_default(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text('if hasattr(rules, "choices"):\n    pass\nx = getattr(c, "label", None)\n'
                                   'y = getattr(c, "cards", ())\nz = getattr(module, "SPEC", None)\n')
    assert [line.split(": ", 1)[1] for line in sniffed_hooks([tmp_path / "a.py"], declared_hooks())] == [
        "hasattr(rules, 'choices')", "getattr(c, 'label', None)"]


# -- the shared rules modules keep no dead helpers ---------------------------------------------------------

SHARED_RULES = ("base.py", "choices.py", "fields.py", "front.py", "spec.py")


def unused_public_names(defining: list[Path], using: list[Path], texts: str = "") -> list[str]:
    """Public top-level functions and classes of ``defining`` that no code of ``using`` reads (a name, an
    attribute or a renamed import; the defining module's own uses included) and no template text names."""
    read: set[str] = set()
    for path in using:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name):
                read.add(node.id)
            elif isinstance(node, ast.Attribute):
                read.add(node.attr)
            elif isinstance(node, ast.ImportFrom):  # ``import never_stalled as stalled``: used under its new name
                read.update(alias.name for alias in node.names if alias.asname)
    return [f"{path.name}: {node.name}" for path in defining for node in ast.parse(path.read_text(encoding="utf-8")).body
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_")
            and node.name not in read and not re.search(rf"\b{node.name}\b", texts)]


def test_the_shared_rules_modules_keep_no_dead_helpers() -> None:
    """Issue 22 found four public helpers of the rules base nobody called (``require``, ``check_seat``,
    ``applying``, ``move_type``); every public function or class of the shared rules modules is used."""
    code = sorted(p for top in ("companion", "cardgen", "tests", "bench") for p in (ROOT / top).rglob("*.py"))
    templates = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "templates").rglob("*.html"))
    shared = [ROOT / "companion" / "rules" / name for name in SHARED_RULES]
    assert unused_public_names(shared, code, templates) == []


def test_the_dead_helper_check_sees_one(tmp_path: Path) -> None:
    (tmp_path / "base.py").write_text("def used():\n    pass\n\n\ndef dead():\n    pass\n\n\n__all__ = ['dead']\n")
    (tmp_path / "user.py").write_text("from base import used\nused()\n")
    assert unused_public_names([tmp_path / "base.py"], sorted(tmp_path.glob("*.py"))) == ["base.py: dead"]
