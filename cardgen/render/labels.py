"""The words the print kit prints that are not game data: card-face labels, back titles, sheet captions.

They live in ``data/print/labels/<lang>.toml`` (``en`` ships; ``cardgen build --lang xx`` reads
``xx.toml``), one section per game plus the shared ``sheet`` and ``card`` sections. A language file must
have every section and key the English one has, with the same ``{placeholders}``: :func:`load_labels`
lists each one missing (file, section, key) as a :class:`~cardgen.catalog.base.DataError`.

:func:`resolve <cardgen.render.options.resolve>` makes the build's language the active one
(:func:`use_labels`); faces read a word with :func:`label` while they draw. The active table is process
state: builds run one after another, and the forked build processes inherit it.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import tomli

from cardgen.catalog.base import DEFAULT_DATA_DIR, DataError, Problem
from cardgen.catalog.versions import read_toml

LABELS_FOLDER = "labels"
DEFAULT_LANG = "en"
_FIELD = re.compile(r"\{(\w+)\}")

Labels = dict[str, dict[str, str]]


def labels_path(root: Path | str | None, lang: str) -> Path:
    return Path(root if root is not None else DEFAULT_DATA_DIR) / "print" / LABELS_FOLDER / f"{lang}.toml"


def labels_root(root: Path | str) -> Path | str:
    """The data folder whose print labels a build in ``root`` uses: its own, or the project's when it has none."""
    return root if labels_path(root, DEFAULT_LANG).parent.is_dir() else DEFAULT_DATA_DIR


def _read(path: Path) -> Labels:
    try:
        data = read_toml(path)
    except FileNotFoundError:
        raise DataError([Problem(str(path), "", "", "file is missing (no labels for this language)")]) from None
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError) as exc:
        raise DataError([Problem(str(path), "", "", f"cannot read the labels: {exc}")]) from exc
    return {str(section): {str(k): v for k, v in keys.items()} for section, keys in data.items()
            if isinstance(keys, dict)}


def _stamp(path: Path) -> tuple[int, int]:
    """What tells an edited file from the one read before (its mtime and size; a missing file: none)."""
    try:
        stat = path.stat()
    except OSError:
        return (0, -1)
    return (stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _load(root: str, lang: str, stamps: tuple[tuple[int, int], ...]) -> Labels:
    """``lang``'s labels checked against English (``stamps``: both files', so an edited file is read again)."""
    path = labels_path(root, lang)
    table = _read(path)
    english = table if lang == DEFAULT_LANG else load_labels(root, DEFAULT_LANG)
    problems: list[Problem] = []
    for section, keys in english.items():
        for key, text in keys.items():
            got = table.get(section, {}).get(key)
            if not isinstance(got, str):
                problems.append(Problem(str(path), f"[{section}]", key, "missing (every label of en.toml is needed)"
                                        if got is None else "expected text"))
            elif set(_FIELD.findall(got)) != set(_FIELD.findall(text)):
                problems.append(Problem(str(path), f"[{section}]", key,
                                        f"must use the placeholders {sorted(set(_FIELD.findall(text)))}"))
    if problems:
        raise DataError(problems)
    return table


def load_labels(root: Path | str | None = None, lang: str = DEFAULT_LANG) -> Labels:
    """The labels of ``lang`` from ``root``'s print data (default: the project's), checked against English."""
    base = str(root if root is not None else DEFAULT_DATA_DIR)
    return _load(base, lang, (_stamp(labels_path(base, lang)), _stamp(labels_path(base, DEFAULT_LANG))))


_active: list[Labels] = []
_recording = threading.local()  # .table, .words: a card version's look at what a face draws (this thread only)


@contextmanager
def recording_labels(table: Labels) -> Iterator[set[str]]:
    """Faces drawn inside read ``table`` (in this thread only) and every word they read is added to the set
    yielded, as printed (placeholders filled in): what a card version includes of the labels
    (:mod:`cardgen.render.face_words`)."""
    saved = getattr(_recording, "state", None)
    words: set[str] = set()
    _recording.state = (table, words)
    try:
        yield words
    finally:
        _recording.state = saved


def use_labels(table: Labels) -> None:
    """Make ``table`` the labels faces print from now on."""
    _active[:] = [table]


def face_labels_digest(game: str, table: Labels | None = None) -> str:
    """A digest of the labels a card face of ``game`` prints (the ``card`` section and the game's own), in
    ``table`` (default: the active language): a card manifest records it, so a reprint in another language,
    or after that language's file changed, knows every face's words changed (the card versions include the
    default language's labels only: the QR codes carry them, and the card page knows no print language)."""
    table = table if table is not None else (_active[0] if _active else load_labels())
    sections = {section: table.get(section, {}) for section in ("card", game)}
    text = json.dumps(sections, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def label(section: str, key: str, **fields: object) -> str:
    """The active language's word for ``section.key``, placeholders filled in from ``fields``. A label whose
    number has a word after it has two forms, ``key_one`` and ``key_other`` (see :func:`counted`): asked for
    as ``key`` with a ``count``, the form for that count is read."""
    recording = getattr(_recording, "state", None)
    table = recording[0] if recording is not None else _active[0] if _active else load_labels()
    words = table[section]
    if key not in words and "count" in fields and f"{key}_one" in words:
        key = f"{key}_{'one' if fields['count'] == 1 else 'other'}"
    text = words[key]
    text = text.format(**fields) if fields else text
    if recording is not None:
        recording[1].add(text)
    return text


def counted(section: str, key: str, count: int, **fields: object) -> str:
    """``section.key_one`` when ``count`` is 1, else ``section.key_other``, with ``{count}`` filled in: the
    words round a number ("1 token", "3 tokens") come from the labels like every other word. Two forms
    (one, other) as in English, German, French, Spanish...; a language with more plural forms words its
    ``_other`` text so it reads for every count above one."""
    return label(section, f"{key}_{'one' if count == 1 else 'other'}", count=count, **fields)


def listed(items: list[str], conjunction: str = "or") -> str:
    """"A", "A or B", "A, B or C" in the active language (``card.list_separator`` and ``card.<conjunction>_list``)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return label("card", f"{conjunction}_list", first=label("card", "list_separator").join(items[:-1]), last=items[-1])
