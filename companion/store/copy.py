"""Moving up: every game of one database copied into another (``companion db copy --from FILE --to URL``).

A table's or club's SQLite file becomes part of a public instance's PostgreSQL database: games, seats, seat
tokens (hashed, as stored: the phones keep their seats), hand-over codes and the whole log, row for row, read
in one snapshot of the source and written in one transaction of the target (all or nothing). Nothing is
overwritten: a game id or join code the target already has stops the copy before it writes. Then every game
is verified by replaying its log on both sides: the same version and the same state as the source's.
"""

from __future__ import annotations

from typing import Any

from companion.rules import rules_for
from companion.store.backend import fetch_rows
from companion.store.facade import Store

#: the store's tables in the order their rows may be written (each row's references come first)
TABLES = ("games", "seats", "seat_tokens", "seat_handovers", "moves")
_CHUNK = 200


class CopyRefused(Exception):
    """The copy would overwrite or lose something; nothing was written."""


def _present(target: Store, column: str, values: list[str]) -> list[str]:
    found: list[str] = []
    for start in range(0, len(values), _CHUNK):
        chunk = values[start:start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        found += [str(row["v"]) for row in target.backend.rows(
            f"SELECT {column} AS v FROM games WHERE {column} IN ({marks})", chunk)]
    return found


def copy_games(source: Store, target: Store) -> dict[str, Any]:
    """Copy every game of ``source`` into ``target`` and verify each by replaying it on both sides.

    Returns ``{"games": n, "rows": {table: n}}``; raises :class:`CopyRefused` before writing anything when a game
    id or join code is already in the target, or when a copied game does not replay as its source (the copied
    games are then removed from the target again: all or nothing)."""
    with source.backend.read() as db:
        rows = {table: fetch_rows(db, f"SELECT * FROM {table}") for table in TABLES}
    ids = [str(row["id"]) for row in rows["games"]]
    taken = _present(target, "id", ids)
    if taken:
        raise CopyRefused(f"the target already has {len(taken)} of these games ({', '.join(taken[:5])}"
                          f"{', ...' if len(taken) > 5 else ''}); nothing was copied")
    codes = _present(target, "join_code", [str(row["join_code"]) for row in rows["games"]])
    if codes:
        raise CopyRefused(f"the target already has games with the join codes {', '.join(codes[:5])}; nothing was copied")
    if getattr(target.backend, "kind", "") == "postgresql":
        _refuse_nul(rows)
    with target.backend.write(None) as db:
        for table in TABLES:
            for row in rows[table]:
                columns = list(row)
                db.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({','.join('?' * len(columns))})",
                           [row[c] for c in columns])
    moved = [str(row["id"]) for row in rows["games"] if source.version(str(row["id"])) != int(row["version"])]
    if moved:  # a server still playing on the source: the copy is of a moment already gone
        target.purge(ids)
        raise CopyRefused(f"the source changed while it was copied ({len(moved)} game(s) moved on: "
                          f"{', '.join(moved[:5])}{', ...' if len(moved) > 5 else ''}): stop the server that uses "
                          "it, then copy again; nothing was copied")
    problems = [problem for row in rows["games"] if (problem := _differs(source, target, row)) is not None]
    if problems:
        target.purge(ids)
        raise CopyRefused("the copy does not replay as the source: " + "; ".join(problems[:5]))
    return {"games": len(ids), "rows": {table: len(rows[table]) for table in TABLES}}


def _refuse_nul(rows: dict[str, list[dict[str, Any]]]) -> None:
    """PostgreSQL stores no NUL character (U+0000) in text; SQLite does, and a store from before the companion
    refused them (an action id, a name) may hold one: named here, game and field, before anything is written."""
    for table in TABLES:
        for row in rows[table]:
            for column, value in row.items():
                if isinstance(value, str) and "\x00" in value:
                    game = row.get("game_id", row.get("id"))
                    where = f", entry {row['seq']}" if table == "moves" and "seq" in row else ""
                    raise CopyRefused(f"game {game} holds a NUL character (U+0000) in {table}.{column}{where}, "
                                      "which PostgreSQL cannot store; nothing was copied (remove that character "
                                      "from the source, or purge that game there, and copy again)")


def _differs(source: Store, target: Store, row: dict[str, Any]) -> str | None:
    """What differs between the game as stored in the source and as copied, or None. Both sides are read the
    way every reader reads a game, its resolved timeline: a move an older version stored that today's rules
    cannot read is passed over there as on every page, so such a game is copied as it is. Whatever else goes
    wrong while a game is read is said as that game's problem (the copy is then removed), not a traceback."""
    game_id = str(row["id"])
    try:
        rules = rules_for(str(row["game"]))
        version, state = source.current(game_id)
        copied_version, copied = target.current(game_id)
        expected = rules.state_to_json(state)
        if copied_version != version:
            return f"{game_id}: version {copied_version}, not {version}"
        if rules.state_to_json(copied) != expected:
            return f"{game_id}: its stored state differs"
        history = [(seq, seat, rules.state_to_json(after)) for seq, seat, after in source.timeline(game_id)]
        if [(seq, seat, rules.state_to_json(after)) for seq, seat, after in target.timeline(game_id)] != history:
            return f"{game_id}: its log replays to another history"
        if history[-1][2] != expected:
            return f"{game_id}: the source's own log does not replay to its stored state"
    except Exception as error:  # (a game no reader can open: said as its problem, and nothing is kept)
        return f"{game_id}: it could not be read back ({type(error).__name__}: {str(error)[:200]})"
    return None
