"""The store's backend seam (issue 22, for issue 24's PostgreSQL): every database handle is the store's, and
the store's own modules speak to the database only through a :class:`companion.store.Backend`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from companion.store import Backend, Store
from companion.store.sqlite import SqliteBackend

COMPANION = Path(__file__).resolve().parent.parent / "companion"
STORE = COMPANION / "store"
#: the modules of the backends (SQLite; PostgreSQL): the only ones of the store that import a database driver
SQLITE_MODULES = {"sqlite.py", "watch.py", "limit_counters.py"}
BACKEND_MODULES = SQLITE_MODULES | {"postgres.py"}
DRIVERS = {"sqlite3", "sqlite_utils", "psycopg", "psycopg_pool"}
#: SQL only SQLite takes (PostgreSQL has none of these)
SQLITE_ONLY = re.compile(r"PRAGMA|\browid\b|INSERT OR|\bjson_\w+\(|\bGLOB\b|\bIFNULL\(", re.IGNORECASE)


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_no_module_outside_the_store_opens_a_database() -> None:
    opening = sorted(str(path.relative_to(COMPANION)) for path in COMPANION.rglob("*.py")
                     if STORE not in path.parents and imported(path) & DRIVERS)
    # the rules' full-text search builds an index in memory from the rule texts: no database file
    assert opening == ["search.py"]
    assert "sqlite:" not in (COMPANION / "search.py").read_text(encoding="utf-8")
    assert ":memory:" in (COMPANION / "search.py").read_text(encoding="utf-8")


def test_the_stores_own_modules_reach_the_database_only_through_the_backend() -> None:
    domain = sorted(path for path in STORE.glob("*.py") if path.name not in BACKEND_MODULES)
    assert {path.name for path in domain} >= {"facade.py", "seats.py", "moves.py", "states.py", "words.py",
                                              "timeline.py", "backend.py", "__init__.py"}
    for path in domain:
        assert not imported(path) & DRIVERS, path.name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    re.match(r"\s*(SELECT|INSERT|UPDATE|DELETE)\b", node.value):
                assert not SQLITE_ONLY.search(node.value), (path.name, node.value)
                assert "%" not in node.value, (path.name, node.value)  # placeholders are '?', translated by a backend


def test_the_sqlite_backend_is_a_backend_and_the_store_holds_one(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    try:
        assert isinstance(store.backend, SqliteBackend) and isinstance(store.backend, Backend)
        assert store.backend.kind == "sqlite" and store.path == tmp_path / "s.sqlite3"
        with store.backend.read() as db:
            assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0
        assert Store(store.backend).backend is store.backend  # a backend given is used as it is
    finally:
        store.close()
