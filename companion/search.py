"""Full-text search over every game's rule entries and cards (SQLite FTS5 through sqlite-utils).

The index lives in an in-memory database built once per process from the card-data layer the
first time anyone searches (~150 rows: a few milliseconds). The catalog is itself loaded once per
process, so the index can never lag behind it, and the app's own database stays free of derived data.

Users type words or questions, not FTS syntax: question and stop words are left out ("can I banish a card
in hand" searches banish, card, hand), every term is quoted (the last one, still being typed, matched as a
prefix: "summ" finds Summon), terms joined by dots or dashes become one phrase (``game.score.square`` finds
the rule of that id), and quotes, stars, brackets or words like AND/NEAR are treated as plain text. The text
is NFKC-normalised first (full-width letters, ligatures). The index stores Porter stems (levitation ->
"levit"), and FTS5 stems a typed beginning too ("levita" -> "levita"*, which begins no stem): the word being
typed also searches the whole words of the index it begins whose stems its own prefix misses
(:func:`completions`), so every beginning of a word finds it. Every entry holding any term is ranked in
:func:`_rank`: rarer words count more, words in the title and words near each other more still, and the
asking page's game (``prefer``) comes first.

Typos are forgiven: a word that begins no word of the index is also searched as the index's nearest
words (Levenshtein distance through rapidfuzz: one edit for words of 4-5 letters, two from 6 on, as
a whole word or as a word's beginning), so "banishh" finds Banish; :func:`corrections` says which
words were used (a word after an apostrophe too: "L'Ermite" finds L'Hermite). The rulebooks' own
misspellings of names, recorded in the games' data notes (``printed`` -> ``used``), are aliases of the
entry they name: "Mayakowski" finds Professor Mayakovsky.
"""

from __future__ import annotations

import bisect
import html
import itertools
import math
import re
import sqlite3
import threading
import unicodedata
from typing import Any, Iterable
from urllib.parse import quote

import sqlite_utils
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from cardgen.catalog import available_games, catalogs, content

MAX_LIMIT = 50
MAX_QUERY_CHARS = 200
# Markers that never occur in game text, turned into <mark> after escaping (snippet_html).
_MARK_START, _MARK_END = "\x02", "\x03"
_WORD = re.compile(r"\w+", re.UNICODE)
#: The index's FTS5 tokenizer: words without accents, stored as their Porter stems ("creatures" -> "creatur").
TOKENIZE = "porter unicode61 remove_diacritics 2"

#: A rulebook misspelling becomes a search alias when it reads like a name (a few words, not a sentence).
ALIAS_MAX_WORDS = 3
#: Typo tolerance: words shorter than this are never corrected; the edits allowed by word length.
MIN_TYPO_LENGTH = 4
MAX_CORRECTIONS = 3


def max_edits(word: str) -> int:
    return 1 if len(word) < 6 else 2


_lock = threading.Lock()
_index: sqlite_utils.Database | None = None
_index_games: tuple[str, ...] = ()
#: Every word of the index, sorted, per game (None: all games); built with the index.
_vocabulary: dict[str | None, list[str]] = {}


def _rule_rows(game: str, game_content: Any) -> Iterable[dict[str, Any]]:
    for rule in getattr(game_content, "rules", ()):
        yield {"kind": "rule", "ref": rule.id, "game": game, "title": rule.title, "body": rule.text,
               "keywords": " ".join((rule.id, *rule.tags)), "url": f"/rules/{quote(game)}#{rule.id}"}


def _card_rows(game: str, game_content: Any) -> Iterable[dict[str, Any]]:
    seen: set[tuple[str, str]] = set()
    for card in getattr(game_content, "cards", ()):
        traits = getattr(card, "traits", ())
        ability = game_content.ability_text(card)  # a typed hook of every content (default: nothing)
        notes = " ".join(note.text for note in getattr(card, "notes", ()))
        parts = [f"Traits: {', '.join(traits)}." if traits else "", _sentence(f"Ability: {ability}") if ability else "", notes]
        body = " ".join(p for p in parts if p)
        value = getattr(card, "value", None)
        title = card.name if value is None else f"{card.name} ({value})"  # Blue Spellbook (0) … (3)
        if (title, body) in seen:
            continue  # identical copies (e.g. twelve Blue Ingredients) are one search result: the first copy
        seen.add((title, body))
        yield {"kind": "card", "ref": card.id, "game": game, "title": title,
               "body": body, "keywords": " ".join((card.id, *traits)), "url": f"/c/{game}/{card.id}"}


def _sentence(text: str) -> str:
    """``text`` ending in one full stop (an ability already ending in one keeps it: no "..")."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def _plain_title(title: str) -> str:
    """A title as a rulebook would name it: "Blue Spellbook (2)" -> "blue spellbook", "Trick: Heal" -> "heal"."""
    title = re.sub(r"\s*\([^)]*\)$", "", title)
    return title.rpartition(": ")[2].strip().casefold()


def rulebook_aliases(game_content: Any) -> dict[str, set[str]]:
    """What the rulebook printed for a name, by the name used instead (case-folded): its data notes'
    normalised misspellings that read like a name ("Mayakowski" for Professor Mayakovsky)."""
    aliases: dict[str, set[str]] = {}
    for note in getattr(game_content, "notes", ()):
        printed, used = note.printed.strip(), note.used.strip()
        if (note.action != "normalised" or not _WORD.search(printed) or printed.casefold() == used.casefold()
                or len(printed.split()) > ALIAS_MAX_WORDS or any(mark in printed for mark in ".:;/")):
            continue
        aliases.setdefault(used.casefold(), set()).add(printed)
    return aliases


def normal(text: str) -> str:
    """A query as the index reads it: NFKC-normalised (full-width letters and ligatures as the plain letters:
    "Ｌｅｖｉｔａｔｉｏｎ" -> "Levitation", "ﬁre" -> "fire"), at most :data:`MAX_QUERY_CHARS` before and after
    (one character can become 18)."""
    return unicodedata.normalize("NFKC", text[:MAX_QUERY_CHARS])[:MAX_QUERY_CHARS]


def _folded(word: str) -> str:
    """``word`` case-folded and without accents, to compare a typed beginning with the index's words."""
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c)).casefold()


def build_index(games: Iterable[str] | None = None) -> sqlite_utils.Database:
    """A fresh in-memory index of the given games' rules and cards (default: every game whose data loads),
    with every word of it and its stem in ``words`` (see :func:`completions`)."""
    games = available_games() if games is None else games
    db = sqlite_utils.Database(sqlite3.connect(":memory:", check_same_thread=False), execute_plugins=False)
    rows: list[dict[str, Any]] = []
    for game in games:
        game_content = content(game)
        aliases = rulebook_aliases(game_content)
        for row in (*_rule_rows(game, game_content), *_card_rows(game, game_content)):
            spelled = aliases.get(_plain_title(row["title"]))
            if spelled:
                row["keywords"] = " ".join((row["keywords"], *sorted(spelled)))
            rows.append(row)
    entries = db.table("entries")
    entries.create({"kind": str, "ref": str, "game": str, "title": str, "body": str, "keywords": str, "url": str})
    entries.insert_all(rows)
    entries.enable_fts(["title", "body", "keywords"], tokenize=TOKENIZE, create_triggers=False)
    _index_words(db)
    return db


def _index_words(db: sqlite_utils.Database) -> None:
    """Every word of the index once (``words``: the word, folded, and its stem as FTS5 stores it), and the
    same words in an FTS5 table of their own, so that a typed beginning's own prefix query tells which
    words it already finds."""
    words = vocabulary(db, None)
    db.execute(f"CREATE VIRTUAL TABLE words_fts USING fts5(word, tokenize='{TOKENIZE}')")
    db.execute("CREATE VIRTUAL TABLE words_stems USING fts5vocab(words_fts, instance)")
    db.conn.executemany("INSERT INTO words_fts(rowid, word) VALUES (?, ?)", enumerate(words, start=1))
    stems: dict[int, list[str]] = {}
    for rowid, term in db.execute("SELECT doc, term FROM words_stems ORDER BY doc, offset"):
        stems.setdefault(rowid, []).append(term)
    db.execute("CREATE TABLE words (rowid INTEGER PRIMARY KEY, word TEXT, folded TEXT, stem TEXT)")
    db.conn.executemany("INSERT INTO words VALUES (?, ?, ?, ?)",
                        [(rowid, word, _folded(word), " ".join(stems.get(rowid, [word])))
                         for rowid, word in enumerate(words, start=1)])
    db.execute("CREATE INDEX words_folded ON words(folded)")
    db.conn.commit()


def completions(db: sqlite_utils.Database, typed: str) -> list[str]:
    """The whole words of the index that ``typed`` begins but its own prefix query misses, one per stem
    (the shortest). FTS5 stems a prefix like a whole word, so ``"levita"*`` looks for stems beginning
    "levita" and misses levitation, stored as "levit"; "pray"* is "prai"* and misses prayer. Searched whole,
    these words find what the beginning should. Mostly none: "summ"* already finds summon."""
    folded = _folded(typed)
    if not folded:
        return []
    rows = db.execute(
        "SELECT word, min(length(word)) FROM words WHERE folded >= ? AND folded < ?"
        " AND rowid NOT IN (SELECT rowid FROM words_fts WHERE words_fts MATCH ?) GROUP BY stem ORDER BY word",
        [folded, folded + "\U0010ffff", '"' + typed.replace('"', "") + '"*'])
    return [word for word, _ in rows]


def vocabulary(db: sqlite_utils.Database, game: str | None) -> list[str]:
    """Every distinct word of the index's entries (of one game, or all), case-folded and sorted."""
    sql = "SELECT title, body, keywords FROM entries" + (" WHERE game = ?" if game else "")
    words = {word.casefold() for row in db.execute(sql, [game] if game else []) for text in row
             for word in _WORD.findall(text)}
    return sorted(words)


def _get_index() -> sqlite_utils.Database:
    """The index of every game whose data loads (built again when that set changes)."""
    global _index, _index_games
    games = available_games()
    if _index is None or games != _index_games:
        _index, _index_games = build_index(games), games
        _vocabulary.clear()
    return _index


def _words_of(game: str | None) -> list[str]:
    if game not in _vocabulary:
        _vocabulary[game] = vocabulary(_get_index(), game)
    return _vocabulary[game]


def _nearest(word: str, words: list[str]) -> list[str]:
    """The index words nearest ``word`` (as whole words or as a word's beginning), nearest first; none
    when some index word already begins with it (then it is not a typo)."""
    start = bisect.bisect_left(words, word)
    if start < len(words) and words[start].startswith(word):
        return []
    edits = max_edits(word)
    whole = process.extract(word, words, scorer=Levenshtein.distance, score_cutoff=edits, limit=MAX_CORRECTIONS)
    if whole:  # nearest whole words first: "banishh" -> banish, not banishe(d) and banishm(ent)
        best = min(distance for _, distance, _ in whole)
        return [match for match, distance, _ in whole if distance == best]
    heads = sorted({candidate[:len(word)] for candidate in words if len(candidate) > len(word)})
    begun = process.extract(word, heads, scorer=Levenshtein.distance, score_cutoff=edits, limit=MAX_CORRECTIONS)
    best = min((distance for _, distance, _ in begun), default=0)
    # the shortest whole word of each nearest beginning: the index stems whole words ("banishment" is
    # stored as "banish"), so a bare beginning such as "banishm" would match nothing
    return [_shortest_with(words, match) for match, distance, _ in begun if distance == best]


def _shortest_with(words: list[str], head: str) -> str:
    """The shortest index word that begins with ``head`` (``words`` is sorted)."""
    start = bisect.bisect_left(words, head)
    end = bisect.bisect_left(words, head + "\U0010ffff")
    return min(words[start:end], key=lambda w: (len(w), w), default=head)


def corrections(text: str, game: str | None = None) -> dict[str, list[str]]:
    """Each typed word (case-folded) that begins no index word, with the nearest words searched instead."""
    with _lock:
        words = _words_of(game)
    found: dict[str, list[str]] = {}
    tried: set[str] = set()
    for chunk in normal(text).split():
        for word in _WORD.findall(chunk.casefold()):
            if len(word) >= MIN_TYPO_LENGTH and not word.isdigit() and word not in tried:
                tried.add(word)
                nearest = _nearest(word, words)
                if nearest:
                    found[word] = nearest
    return found


def fts_query(text: str, *, any_term: bool = False, fixes: dict[str, list[str]] | None = None) -> str:
    """The user's text as a safe FTS5 expression: quoted prefix phrases, ANDed (or ORed); a one-word
    phrase with ``fixes`` (from :func:`corrections`) also matches the corrected words."""
    phrases: list[str] = []
    for chunk in text[:MAX_QUERY_CHARS].split():
        words = _WORD.findall(chunk)
        if not words:
            continue
        phrase = '"' + " ".join(words) + '"*'
        nearest = (fixes or {}).get(words[0].casefold(), []) if len(words) == 1 else []
        phrases.append("(" + " OR ".join([phrase, *('"' + w + '"*' for w in nearest)]) + ")" if nearest else phrase)
    return (" OR " if any_term else " AND ").join(phrases)


def search(q: str, game: str | None = None, limit: int = 20, prefer: str | None = None) -> list[dict[str, Any]]:
    """Rules and cards matching ``q`` (best first); ``game`` narrows to one game, ``prefer`` puts the
    entries of the game the question was asked from ahead of other games' (the asking page's game).

    Each result: ``{"kind": "rule"|"card", "id", "game", "title", "snippet", "snippet_html", "url"}``.
    An exact rule or card id comes first. Questions are read as their words: question and stop words
    are left out (unless nothing else is left), and every entry holding any remaining word is ranked by
    :func:`_rank` (rarer words count more, words in the title and words side by side more still).
    """
    for name in (game, prefer):
        if name is not None and name not in catalogs():
            raise ValueError(f"unknown game '{name}' (known: {', '.join(catalogs())})")
    limit = max(1, min(int(limit), MAX_LIMIT))
    q = normal(q)
    if not fts_query(q):
        return []
    text = question_words(q)
    fixes = corrections(text, game)
    with _lock:
        db = _get_index()
        rows = _rank(db, text, fixes, game, prefer, limit)
        exact = _exact(db, q.strip(), game)
    if exact is not None:  # first, with its words marked when the ranking found it too (else its opening)
        key = (exact["kind"], exact["ref"])
        ranked = next((r for r in rows if (r["kind"], r["ref"]) == key), exact)
        rows = [ranked] + [r for r in rows if (r["kind"], r["ref"]) != key][:limit - 1]
    return [_result(r) for r in rows]


#: Words a question is made of that name nothing in a rulebook: left out of a search when other words remain.
STOP_WORDS = frozenset("""
a an the and or but if then so of to in on at by for from with into onto about as than this that these those
it its it's is are was were be been being am do does did doing done have has had having can could may might
must shall should will would i me my mine we us our you your he she they them their his her who whom whose
what when where why how which there here any some all each every many much more most get gets got
happen happens happened happening anyone someone somebody something anything one ones just also please
allowed able ok okay rule rules say says mean means
""".split())


def question_words(q: str) -> str:
    """``q`` without its question and stop words ("can I banish a card in hand" -> "banish card hand");
    ``q`` itself when nothing else is left, and dotted or dashed chunks (rule ids, phrases) kept whole."""
    kept = [chunk for chunk in q[:MAX_QUERY_CHARS].split()
            if len(_WORD.findall(chunk)) != 1 or _WORD.findall(chunk)[0].casefold() not in STOP_WORDS]
    return " ".join(kept) if any(_WORD.search(chunk) for chunk in kept) else q


#: Ranking weights (tuned on tests/search_questions.py): a word found in the title, two words found side by
#: side (within a few words), the asking page's game, and rule entries over cards.
TITLE_WEIGHT = 1.0
NEAR_WEIGHT = 0.8
NEAR_DISTANCE = 3
PREFER_WEIGHT = 4.0
#: The asking page's game comes first when its entry scores at least this share of the best entry's score.
PREFER_SHARE = 0.5
TITLE_COVER_WEIGHT = 3.0
RULE_WEIGHT = 0.3


def _term_rows(db: sqlite_utils.Database, expression: str, game: str | None, column: str | None = None) -> set[int]:
    match = f"{{{column}}} : ({expression})" if column else expression
    sql = ("SELECT entries_fts.rowid FROM entries_fts JOIN entries e ON e.rowid = entries_fts.rowid"
           " WHERE entries_fts MATCH ?" + (" AND e.game = ?" if game else ""))
    return {row[0] for row in db.execute(sql, [match, *([game] if game else [])])}


def _rank(db: sqlite_utils.Database, text: str, fixes: dict[str, list[str]], game: str | None,
          prefer: str | None, limit: int) -> list[dict[str, Any]]:
    """Every entry holding any word of ``text``, best first: each word found adds its rarity (inverse document
    frequency), more if found in the title; each two neighbouring words found near each other add more;
    the preferred game and rule entries add a little; bm25 breaks ties."""
    terms = _terms(db, text, fixes)
    if not terms:
        return []
    total = db.execute("SELECT count(*) FROM entries" + (" WHERE game = ?" if game else ""),
                       [game] if game else []).fetchone()[0] or 1
    score: dict[int, float] = {}
    title_hits: dict[int, int] = {}
    for expression in terms:
        found = _term_rows(db, expression, game)
        if not found:
            continue
        rarity = math.log(1 + total / len(found))
        in_title = _term_rows(db, expression, game, "title")
        for rowid in found:
            score[rowid] = score.get(rowid, 0.0) + rarity * (1 + (TITLE_WEIGHT if rowid in in_title else 0.0))
        for rowid in in_title:
            title_hits[rowid] = title_hits.get(rowid, 0) + 1
    for left, right in zip(terms, terms[1:], strict=False):
        if left.startswith("(") or right.startswith("("):
            continue  # a corrected word has alternatives: NEAR takes single phrases only
        for rowid in _term_rows(db, f"NEAR({left} {right}, {NEAR_DISTANCE})", game):
            score[rowid] = score.get(rowid, 0.0) + NEAR_WEIGHT * 2
    if not score:
        return []
    sql = ("SELECT e.rowid AS rowid, e.kind, e.ref, e.game, e.title, e.body, e.url,"
           " snippet(entries_fts, 1, ?, ?, '…', 24) AS snippet, bm25(entries_fts, 10.0, 1.0, 5.0) AS bm25"
           " FROM entries_fts JOIN entries e ON e.rowid = entries_fts.rowid WHERE entries_fts MATCH ?"
           + (" AND e.game = ?" if game else ""))
    cursor = db.execute(sql, [_MARK_START, _MARK_END, " OR ".join(terms), *([game] if game else [])])
    keys = [d[0] for d in cursor.description]
    rows = [dict(zip(keys, row, strict=True)) for row in cursor.fetchall()]
    for row in rows:
        title_words = [w for w in _WORD.findall(_plain_title(row["title"])) if w not in STOP_WORDS]
        covered = min(1.0, title_hits.get(row["rowid"], 0) / max(1, len(title_words)))
        row["score"] = (score.get(row["rowid"], 0.0) + TITLE_COVER_WEIGHT * covered + (PREFER_WEIGHT if row["game"] == prefer else 0.0)
                        + (RULE_WEIGHT if row["kind"] == "rule" else 0.0))
    best = max(row["score"] for row in rows)
    rows.sort(key=lambda r: (not (r["game"] == prefer and r["score"] >= PREFER_SHARE * best),
                             -r["score"], r["bm25"], r["kind"] != "rule", r["title"]))
    return rows[:limit]


#: How questions say what the rulebooks word otherwise (authored): a question's word also searches these.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "win": ("winner", "winning"), "wins": ("winner", "winning"), "won": ("winner", "winning"),
    "hold": ("hand",), "holding": ("hand",), "keep": ("hand",),
    "goes": ("turn",), "go": ("turn",), "start": ("setup", "starting"), "begin": ("setup", "starting"),
    "cost": ("pay",), "costs": ("pay",), "price": ("pay",),
    "over": ("end",), "finish": ("end",), "finishes": ("end",), "last": ("end",),
    "tied": ("tie",), "draw": ("draw",), "points": ("score", "victory"), "point": ("score", "victory"),
}


def _terms(db: sqlite_utils.Database, text: str, fixes: dict[str, list[str]]) -> list[str]:
    """The FTS expression of each searched word or phrase of ``text`` (see :func:`fts_query`), in order.
    A one-word chunk also matches its typo corrections (as beginnings) and its :data:`SYNONYMS` (whole);
    it is a beginning only when it is the last word (still being typed) or corrected: "wins" is no "wings".
    A word being typed also matches the whole words it begins that its prefix query misses (:func:`completions`).
    A chunk of several words ("L'Ermite", a rule id) is a phrase ending in a beginning; one holding a corrected
    word or ending in a word with completions is also each phrase they make (:func:`_phrases`)."""
    terms: list[str] = []
    chunks = text[:MAX_QUERY_CHARS].split()
    for position, chunk in enumerate(chunks):
        words = _WORD.findall(chunk)
        if not words:
            continue
        if len(words) != 1:
            expression = _phrases(db, words, fixes)
        else:
            word = words[0].casefold()
            nearest = fixes.get(word, [])
            begun = position == len(chunks) - 1 or bool(nearest)
            typed = f'"{words[0]}"' + ("*" if begun else "")
            alternatives = [typed, *(f'"{w}"*' for w in nearest),
                            *(f'"{w}"' for w in (completions(db, words[0]) if begun and not nearest else ())),
                            *(f'"{w}"' for w in SYNONYMS.get(word, ()))]
            expression = alternatives[0] if len(alternatives) == 1 else "(" + " OR ".join(dict.fromkeys(alternatives)) + ")"
        if expression and expression not in terms:
            terms.append(expression)
    return terms


#: A chunk of several words is searched as at most this many phrases (the typed one first).
MAX_PHRASES = 9


def _phrases(db: sqlite_utils.Database, words: list[str], fixes: dict[str, list[str]]) -> str:
    """Words typed together ("L'Ermite", ``<game>.score.square``) as one FTS phrase ending in a beginning, or
    as several ORed: each word may be one of its typo corrections ("L'Ermite" -> "L hermite"*), and the last
    word one of its :func:`completions` (whole: "L'Abunda" -> "L abundance")."""
    choices: list[list[tuple[str, bool]]] = [[(word, True), *((w, True) for w in fixes.get(word.casefold(), []))]
                                             for word in words]
    if not fixes.get(words[-1].casefold()):
        choices[-1] += [(w, False) for w in completions(db, words[-1])]
    phrases = ['"' + " ".join(w for w, _ in picked) + '"' + ("*" if picked[-1][1] else "")
               for picked in itertools.islice(itertools.product(*choices), MAX_PHRASES)]
    return phrases[0] if len(phrases) == 1 else "(" + " OR ".join(phrases) + ")"


def offline_entries() -> list[dict[str, Any]]:
    """Every entry of the index as the offline look-up searches it (companion/static/js/offline-search.js)."""
    with _lock:
        cursor = _get_index().execute("SELECT kind, ref, game, title, body, keywords, url FROM entries ORDER BY rowid")
        keys = [d[0] for d in cursor.description]
        return [dict(zip(keys, row, strict=True)) for row in cursor.fetchall()]


def _exact(db: sqlite_utils.Database, text: str, game: str | None) -> dict[str, Any] | None:
    """An entry whose id (or card name) is exactly what was typed, in any case."""
    sql = ("SELECT kind, ref, game, title, body, url, '' AS snippet FROM entries"
           " WHERE (lower(ref) = lower(?) OR lower(title) = lower(?))" + (" AND game = ?" if game else "") +
           " ORDER BY kind LIMIT 1")
    cursor = db.execute(sql, [text, text, *([game] if game else [])])
    row = cursor.fetchone()
    if row is None:
        return None
    return dict(zip([d[0] for d in cursor.description], row, strict=True))


def _opening(body: str, size: int = 160) -> str:
    """The start of ``body``, cut at a word with "…" when longer than ``size``."""
    if len(body) <= size:
        return body
    return body[:size].rsplit(" ", 1)[0].rstrip(" ,;:.") + "…"


def _result(row: dict[str, Any]) -> dict[str, Any]:
    marked = row["snippet"] or _opening(row["body"])
    plain = marked.replace(_MARK_START, "").replace(_MARK_END, "")
    highlighted = html.escape(marked).replace(_MARK_START, "<mark>").replace(_MARK_END, "</mark>")
    return {"kind": row["kind"], "id": row["ref"], "game": row["game"], "title": row["title"],
            "snippet": plain, "snippet_html": highlighted, "url": row["url"]}
