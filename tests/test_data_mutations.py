"""Every discovered game's data, broken one field at a time: the loader must refuse each break with a problem
naming the file, the record and the very field that was broken (docs: "a malformed data file names file,
record and field"). The breaks are made in the text of a copy of the game's folder, so a new game's data
is covered with no edit here."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cardgen.catalog import DataError, catalogs, facts_in, game_folder, load_game

GAMES = sorted(catalogs())

#: a top-level ``key = value`` line of a TOML file (before its first [table] header)
_TOP_LEVEL = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+?)\s*(#.*)?$")
_PROVENANCE = re.compile(r'\b([a-z_]*provenance)\s*=\s*"(rulebook|authored)"')


def _copy(tmp_path: Path, game: str) -> Path:
    folder = tmp_path / game
    shutil.copytree(game_folder(game), folder)
    return folder


def _problems(folder: Path, game: str) -> list[tuple[str, str, str, str]]:
    with pytest.raises(DataError) as caught:
        load_game(game, folder.parent)
    return [(Path(p.file).name, p.record, p.field, p.message) for p in caught.value.problems]


def _top_level_fields(path: Path) -> list[tuple[int, str]]:
    """(line index, key) of every top-level scalar ``key = value`` of ``path``."""
    found = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if line.startswith("["):
            break
        match = _TOP_LEVEL.match(line)
        if match and not match.group(2).startswith(("[", "{")):
            found.append((i, match.group(1)))
    return found


TOP_LEVEL = [(game, key, index) for game in GAMES
             for index, key in _top_level_fields(game_folder(game) / "game.toml")]


@pytest.mark.parametrize(("game", "key", "index"), TOP_LEVEL, ids=[f"{g}:{k}" for g, k, _ in TOP_LEVEL])
def test_a_game_toml_field_of_the_wrong_type_is_refused_naming_it(tmp_path: Path, game: str, key: str,
                                                                   index: int) -> None:
    """A table where game.toml's top level has a number or a string: no field takes one, so each is a problem
    naming game.toml, the record and that field (a field read only after the loader's last check passed
    used to drop its problem and load the game with an empty title)."""
    folder = _copy(tmp_path, game)
    path = folder / "game.toml"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[index] = f"{key} = {{ broken = 1 }}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = _problems(folder, game)
    assert [p for p in problems if p[0] == "game.toml" and p[1] and p[2] == key], problems


def _provenance_fields(game: str) -> list[tuple[str, str, int]]:
    """(file, key, line index) for the first use of each provenance field of each of ``game``'s files."""
    found: dict[tuple[str, str], int] = {}
    for path in sorted(game_folder(game).glob("*.toml")):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            for match in _PROVENANCE.finditer(line.split("#", 1)[0]):
                found.setdefault((path.name, match.group(1)), i)
    return [(file, key, index) for (file, key), index in found.items()]


PROVENANCES = [(game, *field) for game in GAMES for field in _provenance_fields(game)]


@pytest.mark.parametrize(("game", "file", "key", "index"), PROVENANCES,
                         ids=[f"{g}:{f}:{k}" for g, f, k, _ in PROVENANCES])
def test_a_wrong_provenance_is_reported_under_its_own_field(tmp_path: Path, game: str, file: str, key: str,
                                                            index: int) -> None:
    """``symbol_provenance = "folklore"`` is reported as field 'symbol_provenance', not 'provenance'."""
    folder = _copy(tmp_path, game)
    path = folder / file
    lines = path.read_text(encoding="utf-8").splitlines()
    broken = re.sub(rf'\b{key}\s*=\s*"(rulebook|authored)"', f'{key} = "folklore"', lines[index], count=1)
    assert broken != lines[index]
    lines[index] = broken
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = _problems(folder, game)
    named = [p for p in problems if p[0] == file and p[1] and p[2].rsplit(".", 1)[-1] == key and "folklore" in p[3]]
    assert named, problems


_HEADER = re.compile(r"^\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?\s*(#.*)?$")


def _tables(game: str) -> list[tuple[str, str, int]]:
    """(file, table, line index to insert at) for the top level of each of ``game``'s files that has top-level
    keys, and the first [table] / [[record]] of each name."""
    found: list[tuple[str, str, int]] = []
    for path in sorted(game_folder(game).glob("*.toml")):
        seen: set[str] = set()
        if _top_level_fields(path):
            found.append((path.name, "", _top_level_fields(path)[0][0] + 1))
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            match = _HEADER.match(line)
            if match and match.group(1) not in seen:
                seen.add(match.group(1))
                found.append((path.name, match.group(1), i + 1))
    return found


TABLES = [(game, *table) for game in GAMES for table in _tables(game)]


@pytest.mark.parametrize(("game", "file", "table", "index"), TABLES,
                         ids=[f"{g}:{f}:{t or 'top'}" for g, f, t, _ in TABLES])
def test_an_unknown_field_is_reported_in_every_table(tmp_path: Path, game: str, file: str, table: str,
                                                     index: int) -> None:
    """A field no loader reads (a misspelt 'provenance' or 'reading' would leave the default in place without a
    word) is a problem naming the file, the record and the field, in every table and record of every file."""
    folder = _copy(tmp_path, game)
    path = folder / file
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(index, "zz_unknown_field = 1")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = _problems(folder, game)
    assert [p for p in problems if p[0] == file and p[1] and p[2] == "zz_unknown_field"], problems


FILES = [(game, path.name) for game in GAMES for path in sorted(game_folder(game).glob("*.toml"))]


@pytest.mark.parametrize(("game", "file"), FILES, ids=[f"{g}:{f}" for g, f in FILES])
def test_a_file_saved_with_a_byte_order_mark_or_windows_line_ends_reads_the_same(tmp_path: Path, game: str,
                                                                                 file: str) -> None:
    """Notepad saves UTF-8 with a byte-order mark and CRLF line ends: the content and the game's title read the
    same (a BOM was 'not valid TOML: Invalid statement (at line 1, column 1)', and game.toml's title fell back
    to the game's id)."""
    folder = _copy(tmp_path, game)
    path = folder / file
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    assert load_game(game, folder.parent) == load_game(game, game_folder(game).parent)
    assert facts_in(game, folder) == facts_in(game, game_folder(game))


@pytest.mark.parametrize(("game", "file"), FILES, ids=[f"{g}:{f}" for g, f in FILES])
def test_a_file_in_latin_1_names_the_line_of_its_first_bad_byte(tmp_path: Path, game: str, file: str) -> None:
    folder = _copy(tmp_path, game)
    path = folder / file
    lines = path.read_bytes().split(b"\n")
    lines[2] += b" # caf\xe9"
    path.write_bytes(b"\n".join(lines))
    problems = _problems(folder, game)
    assert (file, "", "", f"is not UTF-8 text (byte {len(b''.join(l + b'!' for l in lines[:2])) + len(lines[2]) - 1}, "
                          "on line 3, cannot be read): save it as UTF-8") in problems, problems


_UNREADABLE = {
    "missing": lambda path: path.unlink(),
    "empty": lambda path: path.write_bytes(b"# nothing here yet\n"),
    "not TOML": lambda path: path.write_bytes(b"this is = = not toml\n" + path.read_bytes()),
}
REQUIRED_FILES = [(game, file) for game, file in FILES if file != "notes.toml"]  # notes.toml is optional


@pytest.mark.parametrize("how", list(_UNREADABLE))
@pytest.mark.parametrize(("game", "file"), REQUIRED_FILES, ids=[f"{g}:{f}" for g, f in REQUIRED_FILES])
def test_a_file_that_cannot_be_read_is_one_problem_of_that_file(tmp_path: Path, game: str, file: str,
                                                                how: str) -> None:
    """A missing, empty or unparsable file is said once: not followed by every table and field of it being
    missing (up to 148 lines), nor, for an empty file, by those lines alone."""
    folder = _copy(tmp_path, game)
    _UNREADABLE[how](folder / file)
    problems = [p for p in _problems(folder, game) if p[0] == file]
    assert len(problems) == 1 and problems[0][1:3] == ("", ""), problems
