"""Checks shared by the catalog tests: copy a game's data folder, break one file, and read back the problems
the loader reports (each naming its file, record and field)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import pytest

from cardgen.catalog import DataError, load_game
from cardgen.catalog.base import DEFAULT_DATA_DIR

#: Something done to a copied game folder: one file edited, rewritten or deleted.
Breakage = Callable[[Path], None]


def copy_data(tmp_path: Path, game: str) -> Path:
    """The project's data folder of ``game`` copied into ``tmp_path``; returns the copy's folder."""
    folder = tmp_path / game
    shutil.copytree(DEFAULT_DATA_DIR / game, folder)
    return folder


def edit(file: str, old: str, new: str) -> Breakage:
    """A breakage replacing the first ``old`` in ``file`` with ``new`` (failing if ``old`` is not there)."""
    def replace(folder: Path) -> None:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {file}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    replace.__name__ = f"{file}:{old[:30]}"
    return replace


def rewrite(file: str, change: Callable[[str], str]) -> Breakage:
    """A breakage rewriting ``file``'s text with ``change`` (failing if the text stays the same)."""
    def apply(folder: Path) -> None:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        changed = change(text)
        assert changed != text, f"the test's change to {file} did not apply"
        path.write_text(changed, encoding="utf-8")
    apply.__name__ = f"{file}:{change.__name__}"
    return apply


def delete(file: str) -> Breakage:
    """A breakage deleting ``file``."""
    def remove(folder: Path) -> None:
        (folder / file).unlink()
    remove.__name__ = f"delete {file}"
    return remove


def problems_after(tmp_path: Path, game: str, *breakages: Breakage) -> list[str]:
    """Copy ``game``'s data, apply the breakages, load it (it must fail) and return every problem as
    'file: record: field: message' with the file named relative to the copied folder."""
    folder = copy_data(tmp_path, game)
    for breakage in breakages:
        breakage(folder)
    with pytest.raises(DataError) as caught:
        load_game(game, tmp_path)
    lines = [str(p) for p in caught.value.problems]
    prefix = f"{folder}/"
    assert all(line.startswith(prefix) for line in lines), lines  # every problem names its file in the copy
    return [line.removeprefix(prefix) for line in lines]
