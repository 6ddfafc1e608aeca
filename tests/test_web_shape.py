"""The web package keeps its flaskr shape (issue 22): every blueprint is its own module's and registered in
``create_app`` (no routes attached to another module's blueprint by import side effect), no module reaches
into another's private names, the web reads a game's rules only through the game's declared front, and no
module grows into a catch-all."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path
from types import ModuleType

from flask import Blueprint, Flask

import companion.web
from companion.rules import SPECS

WEB = Path(companion.web.__file__).resolve().parent
ROOT = WEB.parents[1]
_URL_FOR = re.compile(r"""url_for\(\s*['"]([A-Za-z0-9_.]+)['"]""")
#: beyond this a module is doing the work of several (pages.py was 652 lines before the split)
MAX_LINES = 450


def web_modules() -> list[ModuleType]:
    return [importlib.import_module(info.name)
            for info in pkgutil.walk_packages([str(WEB)], prefix="companion.web.")]


def sources() -> list[Path]:
    return sorted(WEB.rglob("*.py"))


def test_every_blueprint_of_the_package_is_registered_in_create_app(app: Flask) -> None:
    registered = list(app.blueprints.values())
    found = {f"{module.__name__}.{name}": value for module in web_modules() for name, value in vars(module).items()
             if isinstance(value, Blueprint) and getattr(value, "import_name", None) == module.__name__}
    assert found, "no blueprint found under companion/web"
    missing = [where for where, bp in found.items() if not any(bp is r for r in registered)]
    assert not missing, f"blueprints create_app does not register: {missing}"


def test_every_route_is_defined_in_its_blueprints_own_module(app: Flask) -> None:
    """A blueprint's views are its own module's: no module adds routes to a blueprint made elsewhere."""
    strays = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        blueprint = app.blueprints[rule.endpoint.rpartition(".")[0]]
        view = app.view_functions[rule.endpoint]
        if view.__module__ != blueprint.import_name:
            strays.append(f"{rule.rule} ({rule.endpoint}) is defined in {view.__module__}, "
                          f"its blueprint in {blueprint.import_name}")
    assert not strays, "\n".join(strays)
    assert {bp.import_name for bp in app.blueprints.values()} >= {"companion.web.home", "companion.web.api"}


def _imports(path: Path) -> list[tuple[str, ast.ImportFrom | ast.Import]]:
    """(absolute module name, node) of every import in a file under companion/web."""
    package = ".".join(("companion", "web", *path.relative_to(WEB).with_suffix("").parts))
    if path.name == "__init__.py":
        package = package.rpartition(".")[0] + "._"
    found: list[tuple[str, ast.ImportFrom | ast.Import]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:-node.level] if node.level else []
            found.append((".".join([*base, node.module] if node.module else base), node))
        elif isinstance(node, ast.Import):
            found += [(alias.name, node) for alias in node.names]
    return found


def test_no_module_imports_another_modules_private_names() -> None:
    private = []
    for path in sources():
        modules = {}  # local name -> module, for attribute access such as ``api._store()``
        for module, node in _imports(path):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        private.append(f"{path.relative_to(WEB)}: from {module} import {alias.name}")
                    modules[alias.asname or alias.name] = f"{module}.{alias.name}"
            else:
                for alias in node.names:
                    modules[alias.asname or alias.name.partition(".")[0]] = alias.name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                    and modules[node.value.id].startswith("companion.") and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                private.append(f"{path.relative_to(WEB)}: {node.value.id}.{node.attr}")
    assert not private, "\n".join(private)


def test_the_web_reads_each_game_only_through_its_declared_front() -> None:
    """A module under ``companion.rules.<game>`` other than the front its spec names (``rules_module``) is the
    game's own business: the calculators, pages and photo hooks import what they need from the front."""
    fronts = {spec.rules_module for spec in SPECS.values()}
    game_packages = {front.rpartition(".")[0] for front in fronts} - {""}  # a top-level module front: no package
    inside = []
    for path in sources():
        for module, _ in _imports(path):
            package = module.rpartition(".")[0]
            if package in game_packages and module not in fronts:
                inside.append(f"{path.relative_to(WEB)} imports {module}")
    assert fronts and not inside, "\n".join(inside)


def test_no_web_module_is_a_catch_all() -> None:
    long = {str(path.relative_to(WEB)): lines for path in sources()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines: {long}"


def test_every_endpoint_named_in_templates_and_code_exists(app: Flask) -> None:
    """Endpoint names are ``<blueprint>.<view>``: a template or module still naming an old one (``pages.seat``)
    would answer 500 only on the page that builds the link."""
    named = [(path.relative_to(ROOT), match.group(1))
             for folder, pattern in (("templates", "*.html"), ("companion", "*.py"), ("bench", "*.py"))
             for path in sorted((ROOT / folder).rglob(pattern))
             for match in _URL_FOR.finditer(path.read_text(encoding="utf-8"))]
    assert len(named) > 20
    unknown = [f"{path}: {endpoint}" for path, endpoint in named if endpoint not in app.view_functions]
    assert not unknown, "\n".join(unknown)
