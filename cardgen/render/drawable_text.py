"""``cardgen check`` (and every build): every character the data would print must be one the kit's fonts can draw.

ReportLab draws a character its font lacks as nothing at all (a Japanese card name printed as a blank
title, an ability line reading "Summon , , Penny"). The kit's faces draw Latin, Latin Extended, Greek and
Cyrillic in every text style (:mod:`cardgen.render.fonts`, with its Noto fallbacks); this walks every
string of a game's data files (and the print labels) and names the file, record and field of each one
holding a character outside that coverage. ``cardgen build``, ``proof`` and ``export`` refuse such data with
the same lines (:func:`cardgen.render.build.plan_build`), rather than print blanks.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import tomli

from cardgen.catalog.base import Problem

from .fonts import undrawable


def _strings(value: Any, field: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield field, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{field}.{key}" if field else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value, 1):
            yield from _strings(item, f"{field}[{index}]")


def _shown(text: str) -> str:
    """``text`` for a terminal: a control character (a NUL in a name) as its escape, not written raw."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


def _record_name(table: str, index: int, record: Any) -> str:
    label = ""
    if isinstance(record, dict):
        label = next((str(record[k]) for k in ("name", "id", "key") if isinstance(record.get(k), str)), "")
    return f"{table} #{index}" + (f" '{_shown(label)}'" if label else "")


def _describe(chars: list[str]) -> str:
    return ", ".join(f"'{_shown(c)}' (U+{ord(c):04X} {unicodedata.name(c, 'unnamed')})" for c in chars)


def file_problems(path: Path) -> list[Problem]:
    """One problem per field of ``path`` (a TOML file) holding characters no font of the kit draws (a file
    is read again only when it changed: every build asks)."""
    try:
        stat = path.stat()
    except OSError:
        return []  # the game's loader reports a missing file
    return list(_file_problems(str(path), stat.st_mtime_ns, stat.st_size))


@lru_cache(maxsize=512)
def _file_problems(name: str, mtime_ns: int, size: int) -> tuple[Problem, ...]:
    path = Path(name)
    try:
        data = tomli.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError):
        return ()  # the game's loader reports an unreadable file
    problems: list[Problem] = []
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for index, record in enumerate(value, 1):
                for field, text in _strings(record, ""):
                    chars = undrawable(text)
                    if chars:
                        problems.append(Problem(str(path), _record_name(key, index, record), field,
                                                f"no font of the print kit can draw {_describe(chars)}"))
        else:
            for field, text in _strings(value, key):
                chars = undrawable(text)
                if chars:
                    problems.append(Problem(str(path), "", field, f"no font of the print kit can draw {_describe(chars)}"))
    return tuple(problems)


def folder_problems(folder: Path) -> list[Problem]:
    """Every undrawable character of every TOML file under ``folder``, file by file in name order."""
    return [p for path in sorted(folder.rglob("*.toml")) for p in file_problems(path)]


def card_record(card: Any) -> tuple[str, str]:
    """The data file and record (as ``cardgen check`` names them: "card #3 'Alice'") of a loaded card: the record
    whose ``id`` is the card's in its game's data folder; (the game's folder, "card '<id>'") if none is."""
    from cardgen.catalog import game_folder
    from cardgen.catalog.versions import catalog_of

    catalog = catalog_of(card)
    game = str(getattr(card, "game", "") or getattr(catalog, "game", ""))
    root = getattr(catalog, "__dict__", {}).get("_data_root")
    folder = game_folder(game, root)
    for path in sorted(folder.rglob("*.toml")):
        try:
            data = tomli.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError):
            continue
        for key, value in data.items():
            if isinstance(value, list):
                for index, record in enumerate(value, 1):
                    if isinstance(record, dict) and record.get("id") == getattr(card, "id", None):
                        return str(path), _record_name(key, index, record)
    return str(folder), f"card '{getattr(card, 'id', '')}'"


def unfitted(card: Any, field: str, message: str) -> Exception:
    """The refusal of a card whose ``field`` cannot be set on its face within the readable minimum: a
    :class:`~cardgen.catalog.base.DataError` naming the file, record and field (what ``cardgen check`` reports),
    raised by the face while it draws, so that no build prints it cut off or run over."""
    from cardgen.catalog.base import DataError

    path, record = card_record(card)
    return DataError([Problem(path, record, field, message)])
