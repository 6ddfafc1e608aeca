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
from companion.web import create_app

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
    parts = path.relative_to(WEB).with_suffix("").parts if WEB in path.parents else (path.stem,)
    package = ".".join(("companion", "web", *parts))
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


def past_the_fronts(paths: list[Path], fronts: set[str]) -> list[str]:
    """Where a module under companion/web reaches a game's rules other than through the front its spec names
    (``rules_module``): an import of another module of the game's package, a name other than ``SPEC`` taken
    from the package itself (``from companion.rules.<game> import scoring``: the package holds only its spec),
    or a docstring or comment sending the reader to such a module."""
    game_packages = {package for front in fronts if (package := front.rpartition(".")[0])}  # a one-module game: none
    mentioned = re.compile(r"\b(" + "|".join(map(re.escape, sorted(game_packages))) + r")\.(\w+)") \
        if game_packages else None
    inside = []
    for path in paths:
        where = path.relative_to(WEB) if WEB in path.parents else path.name
        for module, node in _imports(path):
            if module.rpartition(".")[0] in game_packages and module not in fronts:
                inside.append(f"{where} imports {module}")
            elif module in game_packages and isinstance(node, ast.ImportFrom):
                inside += [f"{where} imports {alias.name} from {module}" for alias in node.names if alias.name != "SPEC"]
        for match in mentioned.finditer(path.read_text(encoding="utf-8")) if mentioned else ():
            if match.group(0) not in fronts:
                inside.append(f"{where} names {match.group(0)}")
    return inside


def test_the_web_reads_each_game_only_through_its_declared_front() -> None:
    """A module under ``companion.rules.<game>`` other than the front its spec names (``rules_module``) is the
    game's own business: the calculators, pages and photo hooks import what they need from the front."""
    fronts = {spec.rules_module for spec in SPECS.values()}
    assert fronts
    inside = past_the_fronts(sources(), fronts)
    assert not inside, "\n".join(inside)


def test_the_front_check_sees_every_way_past_a_front(tmp_path: Path) -> None:
    front = next(spec.rules_module for spec in SPECS.values() if spec.rules_module.startswith("companion.rules."))
    package = front.rpartition(".")[0]
    ways = {"a.py": f"import {package}.state\n", "b.py": f"from {package} import scoring\n",
            "c.py": f"from {package}.cast import check\n", "d.py": f'"""Totals from :func:`{package}.scoring.total`."""\n'}
    fine = {"e.py": f"from {front} import score\nfrom {package} import SPEC\n", "f.py": f"# see {front}.score\n"}
    for name, text in {**ways, **fine}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = past_the_fronts(sorted(tmp_path.glob("*.py")), {front})
    assert sorted({line.split()[0] for line in found}) == sorted(ways), found


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


def forms_of_their_own(root: Path) -> list[str]:
    """A seat-forms class besides the shared :class:`companion.web.seat_forms.SeatForms` (any class named
    ``*Forms``), or a game's own template (``templates/pages/<folder>/``, ``generic`` aside) writing a form."""
    found = [f"{path.relative_to(root)}:{node.lineno}: class {node.name}"
             for path in sorted((root / "companion").rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.ClassDef) and node.name.endswith("Forms")
             and path.relative_to(root).as_posix() != "companion/web/seat_forms.py"]
    pages = root / "templates" / "pages"
    found += [str(path.relative_to(root)) for folder in sorted(pages.iterdir()) if folder.is_dir()
              and folder.name != "generic" for path in sorted(folder.rglob("*.html"))
              if "<form" in path.read_text(encoding="utf-8")]
    return found


def test_every_games_seat_forms_are_the_shared_ones() -> None:
    """Issue 22: every game copied a ``SeatForms`` class; now one shared class renders any game's choices
    (``templates/pages/_choice_forms.html``) and a game's templates write no form of their own."""
    assert forms_of_their_own(ROOT) == []


def test_the_forms_check_sees_a_copy(tmp_path: Path) -> None:
    (tmp_path / "companion" / "web" / "games").mkdir(parents=True)
    (tmp_path / "companion" / "web" / "seat_forms.py").write_text("class SeatForms:\n    pass\n")
    (tmp_path / "companion" / "web" / "games" / "g.py").write_text("class GSeatForms:\n    pass\n")
    (tmp_path / "templates" / "pages" / "g").mkdir(parents=True)
    (tmp_path / "templates" / "pages" / "g" / "_seat_live.html").write_text('<form method="post"></form>\n')
    (tmp_path / "templates" / "pages" / "generic").mkdir()
    (tmp_path / "templates" / "pages" / "generic" / "_seat_live.html").write_text("<form></form>\n")
    assert forms_of_their_own(tmp_path) == ["companion/web/games/g.py:1: class GSeatForms",
                                            "templates/pages/g/_seat_live.html"]


def test_every_url_rule_builds_with_the_code_werkzeug_compiles_for_it(app: Flask, tmp_path: Path) -> None:
    """tests/conftest.py compiles each URL rule's builders once a test process, not once an app: every rule of an
    app builds with the very code werkzeug compiles for it (a builder kept for another rule would not), and a
    second app's rules reuse the first one's."""
    from werkzeug.routing.rules import Rule

    compile_builder = getattr(Rule._compile_builder, "compile_builder", None)
    assert compile_builder is not None, "tests/conftest.py's compile_url_builders_once is not in place"
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 20
    for rule in rules:
        for append_unknown, built in ((False, rule._build), (True, rule._build_unknown)):
            assert built.__func__.__code__ == compile_builder(rule, append_unknown).__code__, rule.rule
    second = create_app({"TESTING": True, "DATABASE": str(tmp_path / "second.sqlite3"), "SECRET_KEY": "k"})
    try:
        again = {rule.rule: rule for rule in second.url_map.iter_rules()}
        shared = [rule.rule for rule in rules
                  if rule._build.__func__ is again[rule.rule]._build.__func__]
        assert len(shared) > 20
    finally:
        second.extensions["store"].close()
