"""Seats: tokens, claims, releases, hand-overs, renames and the seat entries of the log."""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timedelta, timezone
from typing import Any

from companion.fast_json import dumps_compact
from companion.rules import IllegalMove, rules_for
from companion.rules.base import clean_name
from companion.store.backend import Connection, fetch_rows
from companion.store.common import _check_room, _dumps, _now, hash_token
from companion.store.errors import NotFound, SeatRefused, SeatTaken, TokenUsed
from companion.store.states import StateCache, _state_from, _state_json
from companion.store.timeline import _named

#: Join codes avoid characters that are easy to misread on a phone: no 0/O and no 1/I.
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 6
HANDOVER_CODE_LENGTH = 8
#: A hand-over code works once, for this long after the seat's holder asked for it.
HANDOVER_MINUTES = 15


class Seats(StateCache):
    """The seats of a game and who holds them."""

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        """The seat this token holds now (None: no seat of this game, or a token released or handed on).

        A database written before held seats left the seats of API-created games free although their tokens
        were handed out: such a seat becomes held the first time its token is used (and joining then never
        takes it), so an old game's seat cannot be claimed by a stranger once its phone has come back."""
        rows = self.backend.rows("SELECT t.seat, s.claimed FROM seat_tokens t JOIN seats s ON s.game_id = t.game_id"
                                 " AND s.seat = t.seat WHERE t.token_hash = ? AND t.game_id = ? AND t.revoked IS NULL",
                     [hash_token(token), game_id])
        if not rows:
            return None
        seat = int(rows[0]["seat"])
        if not rows[0]["claimed"]:
            with self.backend.write(game_id) as db:
                db.execute("UPDATE seats SET claimed = 1 WHERE game_id = ? AND seat = ?", [game_id, seat])
        self._remember_token(game_id, token, seat)
        return seat

    def token_gone(self, game_id: str, token: str) -> int | None:
        """The seat a token of this game held before it was released or handed on (None: never a token here,
        or one that still works), so an old phone can be told what happened instead of a bare refusal."""
        rows = self.backend.rows("SELECT seat FROM seat_tokens WHERE token_hash = ? AND game_id = ?"
                                 " AND revoked IS NOT NULL", [hash_token(token), game_id])
        return int(rows[0]["seat"]) if rows else None

    def is_host(self, game_id: str, token: str) -> bool:
        """Whether ``token`` is the host token of this game (the phone that created it)."""
        rows = self.backend.rows("SELECT host_token_hash FROM games WHERE id = ?", [game_id])
        return bool(rows) and rows[0]["host_token_hash"] is not None and \
            secrets.compare_digest(rows[0]["host_token_hash"], hash_token(token))

    def new_host(self, game_id: str) -> str:
        """A new host token for this game, for the instance's operator to hand a table whose host's phone is lost
        (``companion host``): the old host token stops working at once. NotFound if there is no such game."""
        token = secrets.token_urlsafe(24)
        with self.backend.write(game_id) as db:
            self._game_row(db, game_id, "id")
            db.execute("UPDATE games SET host_token_hash = ? WHERE id = ?", [hash_token(token), game_id])
        return token

    def _seat_row(self, db: Connection, game_id: str, seat: int) -> dict[str, Any]:
        self._game_row(db, game_id, "id")
        rows = fetch_rows(db, "SELECT name, claimed FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat])
        if not rows:
            count = fetch_rows(db, "SELECT count(*) AS n FROM seats WHERE game_id = ?", [game_id])[0]["n"]
            raise NotFound(f"this game has no seat {seat}; its seats are 0 to {count - 1}")
        return rows[0]

    def claim_seat(self, game_id: str, seat: int, token: str | None = None) -> str:
        """A token for a seat no phone holds; a held seat is never taken (:class:`SeatTaken`).

        ``token``: the one the phone proposes (None: a new one is made). A seat already held by that very token
        answers it again, so a join whose answer was lost can be sent again and gets its seat; a proposed token
        stored before (another seat's, or this seat's before a release) is :class:`TokenUsed`."""
        proposed = token is not None
        token = token if token is not None else secrets.token_urlsafe(24)
        with self.backend.write(game_id) as db:
            row = self._seat_row(db, game_id, seat)
            if row["claimed"]:
                if proposed and self._holds(db, game_id, seat, token):
                    return token  # the same join sent again: the same answer
                raise SeatTaken(f"seat {seat} ({row['name']}) is already taken")
            self._revoke(db, game_id, seat)     # an old database's unused token for this seat stops working
            db.execute("UPDATE seats SET claimed = 1 WHERE game_id = ? AND seat = ?", [game_id, seat])
            self._add_token(db, token, game_id, seat, "claimed")
        return token

    def release_seat(self, game_id: str, seat: int) -> dict[str, Any]:
        """The host frees a seat: its token stops working at once, the log says so, and the seat can
        be joined again with the game's code. A seat nobody holds is :class:`SeatTaken`'s 409."""
        with self.backend.write(game_id) as db:
            row = self._seat_row(db, game_id, seat)
            if not row["claimed"]:
                raise SeatTaken(f"no phone holds seat {seat} ({row['name']}): it can already be joined with the code")
            self._revoke(db, game_id, seat)
            db.execute("UPDATE seats SET claimed = 0 WHERE game_id = ? AND seat = ?", [game_id, seat])
            answer = self._seat_event(db, game_id, seat, {"type": "release", "seat": seat})
        return answer

    def note_rematch(self, game_id: str, by: int | None, rematch_id: str) -> dict[str, Any]:
        """Say in a finished game's log that its rematch ``rematch_id`` was started (by seat ``by``'s phone,
        or None: a phone holding no seat). A new version, so every phone on the game hears of it live."""
        with self.backend.write(game_id) as db:
            return self._seat_event(db, game_id, 0 if by is None else by,
                                    {"type": "rematch", "seat": by, "game": rematch_id})

    def rematch_of(self, game_id: str) -> str | None:
        """The id of the latest rematch started from this game, if any."""
        rows = self.backend.rows("SELECT move FROM moves WHERE game_id = ? AND kind = 'seat' ORDER BY seq DESC",
                     [game_id])
        events = (json.loads(row["move"]) for row in rows)  # a handful: releases, hand-overs, renames
        return next((str(e["game"]) for e in events  # (an entry this version does not write is passed over)
                     if isinstance(e, dict) and e.get("type") == "rematch" and isinstance(e.get("game"), str)), None)

    def handover_code(self, game_id: str, seat: int, token: str | None = None) -> dict[str, Any]:
        """A one-time code another phone uses to take this seat over. A newer code replaces it: the seat's
        earlier code, used or not, is deleted, so a seat has one hand-over row at most however often one is
        asked for (each was a row kept until the game's purge). ``token``: the seat's token the code was asked
        with, checked again inside the write (:class:`SeatRefused` if the seat was handed on or released since
        the request's own check, through any node: the old phone never gets a code to take the seat back)."""
        code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(HANDOVER_CODE_LENGTH))
        now = datetime.now(timezone.utc)
        expires = (now + timedelta(minutes=HANDOVER_MINUTES)).isoformat(timespec="milliseconds")
        with self.backend.write(game_id) as db:
            self._seat_row(db, game_id, seat)
            self._still_held(db, game_id, seat, token)
            db.execute("DELETE FROM seat_handovers WHERE game_id = ? AND seat = ?", [game_id, seat])
            db.execute("INSERT INTO seat_handovers (code_hash, game_id, seat, created, expires) VALUES (?, ?, ?, ?, ?)",
                       [hash_token(code), game_id, seat, now.isoformat(timespec="milliseconds"), expires])
        return {"code": code, "expires": expires}

    def handover_offer(self, code: str) -> dict[str, Any] | None:
        """The game and seat a usable hand-over code is for (nothing is used up), or None."""
        rows = self.backend.rows("SELECT h.game_id, h.seat, s.name FROM seat_handovers h JOIN seats s"
                                 " ON s.game_id = h.game_id AND s.seat = h.seat WHERE h.code_hash = ?"
                                 " AND h.used IS NULL AND h.expires >= ?", [hash_token(code.strip().upper()), _now()])
        return {"id": rows[0]["game_id"], "seat": int(rows[0]["seat"]), "name": rows[0]["name"]} if rows else None

    def take_handover(self, code: str, token: str | None = None) -> dict[str, Any]:
        """The seat a hand-over code was made for, with a new token; the old phone's token stops working.

        ``token``: the one the phone proposes (None: a new one is made). Once the code is used, the same code
        sent again with the token it gave the seat to (a take-over whose answer was lost) answers that seat
        again, as long as the token still holds it; a proposed token stored before is :class:`TokenUsed`."""
        proposed = token is not None
        token = token if token is not None else secrets.token_urlsafe(24)
        cleaned = code.strip().upper()
        unknown = NotFound(f"the hand-over code '{cleaned}' is unknown, used or expired; ask the seat's phone "
                           "for a new one")
        found = self.backend.rows("SELECT game_id FROM seat_handovers WHERE code_hash = ?", [hash_token(cleaned)])
        if not found:
            raise unknown
        game_id = str(found[0]["game_id"])
        # the game's row locked first, then the code's (read again, locked, inside): the order of every write of a
        # game that touches its codes (a new code, a release, a claim, a purge). The other way round, a code taken
        # while its seat asked for another deadlocked on PostgreSQL, which cancels one of the two: a phone's 503.
        with self.backend.write(game_id) as db:
            rows = fetch_rows(db, "SELECT seat, expires, used FROM seat_handovers WHERE code_hash = ? AND game_id = ?",
                              [hash_token(cleaned), game_id])
            if not rows:
                raise unknown
            seat = int(rows[0]["seat"])
            if rows[0]["used"] is not None or rows[0]["expires"] < _now():
                if proposed and rows[0]["used"] is not None and self._holds(db, game_id, seat, token):
                    version = int(self._game_row(db, game_id, "version")["version"])
                    return {"id": game_id, "seat": seat, "token": token, "version": version}  # sent again
                raise unknown
            db.execute("UPDATE seat_handovers SET used = ? WHERE code_hash = ?", [_now(), hash_token(cleaned)])
            self._revoke(db, game_id, seat)
            db.execute("UPDATE seats SET claimed = 1 WHERE game_id = ? AND seat = ?", [game_id, seat])
            self._add_token(db, token, game_id, seat, "handed")
            answer = self._seat_event(db, game_id, seat, {"type": "handover", "seat": seat})
        return {"id": game_id, "seat": seat, "token": token, "version": answer["version"]}

    def rename_seat(self, game_id: str, seat: int, name: str, token: str | None = None) -> dict[str, Any]:
        """A new name for a seat's player (1 to 40 characters, unlike every other player's). ``token``: the seat's
        token it was asked with (None: the host's), checked again inside the write, as for :meth:`handover_code`."""
        new = clean_name(name)
        with self.backend.write(game_id) as db:
            row = self._game_row(db, game_id, "game, players, state, version")
            self._seat_row(db, game_id, seat)
            self._still_held(db, game_id, seat, token)
            names = json.loads(row["players"])
            if not new or len(new) > 40:
                raise IllegalMove("a player's name is 1 to 40 characters", None)
            if any(n.casefold() == new.casefold() for i, n in enumerate(names) if i != seat):
                raise IllegalMove(f"another player is already called {new}", None)
            old = names[seat]
            if new == old:
                raise IllegalMove(f"{old} is already called {new}", None)
            names[seat] = new
            rules = rules_for(row["game"])
            version = int(row["version"])
            state = self._cached(game_id, version)
            if state is None:
                state = _state_from(row["game"], row["state"])
            state = _named(state, names)
            db.execute("UPDATE games SET players = ?, state = ? WHERE id = ?",
                       [_dumps(names), _state_json(row["game"], rules, state), game_id])
            db.execute("UPDATE seats SET name = ? WHERE game_id = ? AND seat = ?", [new, game_id, seat])
            answer = self._seat_event(db, game_id, seat, {"type": "rename", "seat": seat, "name": new, "was": old})
        self._remember(game_id, answer["version"], state)
        return answer

    @staticmethod
    def _still_held(db: Connection, game_id: str, seat: int, token: str | None) -> None:
        """Inside a write of the game: :class:`SeatRefused` unless ``token`` (None: nothing to check) holds the
        seat now. A seat's token is checked when its request comes in, but a release or a hand-over through
        another process or node may commit before this write; every one of them writes the game, so here,
        inside the game's write, the answer is the last word."""
        if token is not None and not Seats._holds(db, game_id, seat, token):
            raise SeatRefused()

    @staticmethod
    def _holds(db: Connection, game_id: str, seat: int, token: str) -> bool:
        """Inside a write of the game: whether ``token`` holds this seat now."""
        return bool(fetch_rows(db, "SELECT 1 AS held FROM seat_tokens t JOIN seats s ON s.game_id = t.game_id"
                                   " AND s.seat = t.seat WHERE t.token_hash = ? AND t.game_id = ? AND t.seat = ?"
                                   " AND t.revoked IS NULL AND s.claimed <> 0", [hash_token(token), game_id, seat]))

    @staticmethod
    def _add_token(db: Connection, token: str, game_id: str, seat: int, origin: str) -> None:
        """Inside a write of the game: store ``token`` for this seat, or :class:`TokenUsed` (the whole write undone)
        if it is stored already, whatever game it is of. Token hashes are unique across games, whose writes do not
        queue for each other: the same token proposed to two games at once is stored by one, and the other's insert
        does nothing (rather than failing on the key: a 500) and is found out by the read after it."""
        hashed = hash_token(token)
        if fetch_rows(db, "SELECT 1 AS used FROM seat_tokens WHERE token_hash = ?", [hashed]):
            raise TokenUsed()
        db.execute("INSERT INTO seat_tokens (token_hash, game_id, seat, origin, created) VALUES (?, ?, ?, ?, ?)"
                   " ON CONFLICT (token_hash) DO NOTHING", [hashed, game_id, seat, origin, _now()])
        mine = fetch_rows(db, "SELECT game_id, seat FROM seat_tokens WHERE token_hash = ?", [hashed])
        if not mine or mine[0]["game_id"] != game_id or int(mine[0]["seat"]) != seat:
            raise TokenUsed()

    @staticmethod
    def _revoke(db: Connection, game_id: str, seat: int) -> None:
        db.execute("UPDATE seat_tokens SET revoked = ? WHERE game_id = ? AND seat = ? AND revoked IS NULL",
                   [_now(), game_id, seat])
        db.execute("UPDATE seat_handovers SET used = ? WHERE game_id = ? AND seat = ? AND used IS NULL",
                   [_now(), game_id, seat])

    def _seat_event(self, db: Connection, game_id: str, seat: int, event: dict[str, Any]) -> dict[str, Any]:
        """Append a seat entry to the log (the game's state is unchanged, but for a rename's names)."""
        row = self._game_row(db, game_id, "version")
        _check_room(int(row["version"]), event["type"] != "rename")
        seq = int(row["version"]) + 1
        answer = {"version": seq, "seq": seq}
        db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                   " VALUES (?, ?, ?, 'seat', ?, NULL, ?, ?, ?)",
                   [game_id, seq, seat, _dumps(event), f"seat-{secrets.token_hex(8)}", dumps_compact(answer), _now()])
        db.execute("UPDATE games SET version = ? WHERE id = ?", [seq, game_id])
        state = self._cached(game_id, seq - 1)
        if state is not None and event["type"] != "rename":
            self._remember(game_id, seq, state)
        return answer
