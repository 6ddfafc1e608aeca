"""Moves, undos, corrections and put-backs written to the log; replays of the resolved timeline."""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from typing import Any, Mapping, Sequence

from companion.fast_json import dumps_compact
from companion.rules import IllegalMove, rules_for
from companion.store.backend import Connection, fetch_rows
from companion.store.common import State, _check_room, _dumps, _now, hash_token
from companion.store.errors import CorrectionRefused, NotFound, SeatRefused, Stale
from companion.store.states import (
    GAME_CACHE_SIZE,
    StateCache,
    Written,
    _applied,
    _state_from,
    _state_json,
)
from companion.store.timeline import (
    HIDDEN_MISFIT,
    LiveMove,
    _correction,
    _ending,
    _final_moves_stand,
    _named,
    _replayed,
    _Revisions,
    _Timeline,
    after_the_end,
    hidden_from,
    may_end_in_secret,
    move_kind,
)

log = logging.getLogger(__name__)


class Moves(StateCache):
    """What the table did, and the history it reads."""

    def _earlier_answer(self, db: Connection, game_id: str, seat: int, action_id: str,
                        kind: str, asked: Mapping[str, Any]) -> dict[str, Any] | None:
        rows = fetch_rows(db, "SELECT seat, kind, move, result FROM moves WHERE game_id = ? AND action_id = ?",
                             [game_id, action_id])
        return _earlier(rows[0] if rows else None, seat, action_id, kind, asked)

    def action_logged(self, game_id: str, action_id: str) -> bool:
        """Whether the game's log holds an entry written with ``action_id`` (a write with it writes nothing)."""
        return bool(self.backend.rows("SELECT 1 FROM moves WHERE game_id = ? AND action_id = ?", [game_id, action_id]))

    def apply_move(self, game_id: str, seat: int, version: int, action_id: str,
                   move: Mapping[str, Any], token: str | None = None) -> dict[str, Any]:
        """Check ``move`` against the rules and append it; a retried action_id gets its first answer.

        ``token``: the seat token the move was sent with, when ``seat`` is only what this process remembers
        of it (:meth:`~companion.store.seats.Seats.known_seat`): the token is checked to hold ``seat`` before
        anything else is answered (on PostgreSQL in the move's one statement), else :class:`SeatRefused`.

        The rules are applied to the state at ``version`` before the write lock is taken (a state per
        version never changes), so writers queue only for the checks and the two writes. Inside the
        lock the order of answers is as it always was: an earlier answer for a retried action id,
        else 409 if the game has moved on, else the rules' verdict."""
        prepared = self._prepare_move(game_id, seat, version, move)
        checked = token is None
        asked = {"move": move}
        if isinstance(prepared, tuple) and _has_room(version):  # a backend's one-statement way (PostgreSQL)
            new_state, new_json, kept = prepared
            seq = version + 1
            answer = Written(version=seq, seq=seq)
            done = self.backend.append_move(game_id, version, seat, action_id, _dumps(kept),
                                            _stored_answer(answer, "move", asked), _now(), new_json,
                                            None if token is None else hash_token(token))
            if done is not None:
                wrote, earlier_row, seat_held = done
                if not seat_held:
                    self.forget_token(game_id, str(token))
                    raise SeatRefused()
                checked = True
                if wrote:
                    self._remember(game_id, seq, new_state)
                    return answer
                if earlier_row is not None:
                    earlier = _earlier(earlier_row, seat, action_id, "move", asked)
                    assert earlier is not None
                    return earlier
            # nothing written and no earlier answer seen: the way below tells why (a stale version, no such
            # game, or the first try of this action id, committed while this one waited)
        if not checked and self.seat_for_token(game_id, str(token)) != seat:  # (before a 409 or a 422)
            self.forget_token(game_id, str(token))
            raise SeatRefused()
        with self.backend.write(game_id) as db:
            row, earlier = _game_and_earlier_answer(db, game_id, seat, action_id, "move", asked)
            if earlier is not None:
                return earlier
            current = int(row["version"])
            if version != current:
                raise Stale(current)
            _check_room(current)
            if prepared is None:  # the state at this version was not at hand: read it now
                rules = rules_for(row["game"])
                state_json = self._game_row(db, game_id, "state")["state"]
                prepared = _applied(rules, _state_from(row["game"], state_json), seat, move, row["game"])
            if isinstance(prepared, BaseException):
                raise prepared
            new_state, new_json, kept = prepared
            seq = current + 1
            written = Written(version=seq, seq=seq)
            db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                       " VALUES (?, ?, ?, 'move', ?, NULL, ?, ?, ?)",
                       [game_id, seq, seat, _dumps(kept), action_id, _stored_answer(written, "move", asked), _now()])
            db.execute("UPDATE games SET version = ?, state = ? WHERE id = ?", [seq, new_json, game_id])
        self._remember(game_id, seq, new_state)
        return written

    def _prepare_move(self, game_id: str, seat: int, version: int,
                      move: Mapping[str, Any]) -> tuple[State, str, dict[str, Any]] | Exception | None:
        """The rules' verdict on ``move`` at ``version`` (new state and its JSON, or the error to raise),
        worked out without the write lock; None when the game is not at that version (or not there)."""
        state = self._cached(game_id, version)
        game = self._games.get(game_id)
        if state is None or game is None:
            rows = self.backend.rows("SELECT game, version, state FROM games WHERE id = ?", [game_id])
            if not rows or int(rows[0]["version"]) != version:
                return None
            game = rows[0]["game"]
            if len(self._games) >= GAME_CACHE_SIZE:
                self._games.clear()  # simplest bound, as for the tokens
            self._games[game_id] = game
            if state is None:
                state = _state_from(game, rows[0]["state"])
                self._remember(game_id, version, state)
        return _applied(rules_for(game), state, seat, move, game)

    # -- undo and correction -------------------------------------------------------------------

    def undo(self, game_id: str, seat: int, version: int, action_id: str) -> dict[str, Any]:
        """Take back the last live move (any seat may; private notes are passed over): appends an undo
        entry. The replay runs before the write lock; inside it the version is checked again."""
        def change(timeline: _Timeline) -> tuple[dict[str, Any], int, list[LiveMove]]:
            target = timeline.last_public()
            if target is None:
                raise IllegalMove("there is no move left to take back", None)
            entry = {"type": "undo", "seq": target.seq}
            return entry, target.seq, [m for m in timeline.live if m.seq != target.seq]

        return self._rewrite(game_id, seat, version, action_id, "undo", change, {})

    def correct(self, game_id: str, seat: int, version: int, action_id: str, seq: int,
                move: Mapping[str, Any] | None, drop: Sequence[int] = (),
                also: Sequence[Mapping[str, Any]] = (), insert: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
        """Replace live move ``seq`` by ``move`` (None: remove it) and replay every later move on the
        corrected history; ``drop`` names later moves to remove with it, ``also`` later moves to correct
        with it (``{"seq", "move"}``), ``insert`` moves the rules now need before a later move
        (``{"before", "seat", "move"}``, see :class:`_Revisions`). A later move that no longer fits refuses
        the whole correction (:class:`CorrectionRefused` names its seq): nothing changes."""
        asked = {"seq": seq, "move": move, "drop": list(drop), "also": [dict(a) for a in also],
                 "insert": [dict(i) for i in insert]}
        return self._rewrite(game_id, seat, version, action_id, "correct",
                             _correction(seat, seq, move, drop, also, insert), asked)

    def revert(self, game_id: str, seat: int, version: int, action_id: str, entry: int,
               drop: Sequence[int] = ()) -> dict[str, Any]:
        """Cancel the undo or correction logged as ``entry``: the move taken back or removed is put back,
        a correction is undone (with the moves it put in), and every later move is replayed (``drop``:
        later moves to remove with it; one that no longer fits refuses, as for :meth:`correct`). Only the
        seat that made the change or the seat whose move it changed may; a change is cancelled once."""
        def change(timeline: _Timeline) -> tuple[dict[str, Any], int, list[LiveMove]]:
            return _Revisions.reverted_live(timeline, seat, entry, drop)

        return self._rewrite(game_id, seat, version, action_id, "revert", change,
                             {"entry": entry, "drop": list(drop)})

    def preview(self, game_id: str, seat: int, seq: int, move: Mapping[str, Any] | None,
                drop: Sequence[int] = (), also: Sequence[Mapping[str, Any]] = (),
                insert: Sequence[Mapping[str, Any]] = ()) -> tuple[LiveMove | None, State]:
        """What :meth:`correct` would meet, without writing: ``(None, the corrected state)`` if it fits,
        else ``(the first later move that no longer fits, the corrected state just before it)``. For the
        corrections page, which asks then how to fix that move (or for the move the rules now need)."""
        game, initial, timeline = self._timeline_of(game_id)
        _, first, new_live = _correction(seat, seq, move, drop, also, insert)(timeline)
        return _Revisions.replay_until_misfit(timeline, _named(_state_from(game, initial), timeline.names), new_live,
                                              seat, first)

    def state_before(self, game_id: str, seq: int) -> tuple[LiveMove, State]:
        """Live move ``seq`` and the state just before it (the point of the game its choice form is made
        for); NotFound if it is no live move."""
        game, initial, timeline = self._timeline_of(game_id)
        state = _named(_state_from(game, initial), timeline.names)
        for live in timeline.live:
            if live.seq == seq:
                return live, state
            try:
                state = _replayed(timeline, state, live)
            except IllegalMove:  # stored by an older version, not taken by these rules: passed over, as
                pass             # timeline() does (a correction that replays it names it)
        raise NotFound(f"move {seq} is not a move of the game as it stands")

    def live_moves(self, game_id: str) -> list[LiveMove]:
        """The moves of the game as it stands, in order (every undo, correction and put-back applied)."""
        return self._timeline_of(game_id)[2].live

    def _timeline_of(self, game_id: str) -> tuple[str, str, _Timeline]:
        with self.backend.read() as db:
            row = self._game_row(db, game_id, "game, initial_state, players")
            entries = fetch_rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                            [game_id])
        return row["game"], row["initial_state"], _Timeline(rules_for(row["game"]), entries, json.loads(row["players"]))

    def _rewrite(self, game_id: str, seat: int, version: int, action_id: str, kind: str,
                 change: Any, asked: Mapping[str, Any]) -> dict[str, Any]:
        """Write the undo, correction or put-back ``change`` works out; ``asked``: what the request asked (its
        body but for the version, the action id and the seat), which a retried action id must ask again."""
        with self.backend.read() as db:
            row = self._game_row(db, game_id, "game, version, initial_state, players")
            earlier = self._earlier_answer(db, game_id, seat, action_id, kind, asked)
            if earlier is not None:
                return earlier
            current = int(row["version"])
            if version != current:
                raise Stale(current)
            _check_room(current)  # (before the replay: a full game costs no work)
            entries = fetch_rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                            [game_id])
        rules = rules_for(row["game"])
        timeline = _Timeline(rules, entries, json.loads(row["players"]))
        before = self._cached(game_id, current)
        if before is None:
            before = _state_from(row["game"], self._game_row(None, game_id, "state")["state"])
        ended = _ending(rules, before)
        timeline.over = (rules.outcome(before).reason or "it has ended") if ended is not None else None
        entry, first_changed, new_live = change(timeline)
        _final_moves_stand(timeline, new_live)
        put_in = entry.pop("_put_in", [])  # moves a correction puts in: entries of their own (_Revisions)
        old = {m.seq: m for m in timeline.live}   # a correction's own moves (the move, 'also', 'insert'):
        written = {id(m) for m in new_live if old.get(m.seq) != m} if kind == "correct" else set()
        kept: dict[int, dict[str, Any]] = {}
        after_end: list[LiveMove] = []
        state = self._rebuild(game_id, row["game"], timeline, row["initial_state"], first_changed, new_live, seat,
                              written, kept, None if kind == "undo" else after_end)
        if after_end:
            _removed_after_the_end(entry, put_in, after_end, timeline.names, seat)
        _keep_as_read(entry, put_in, kept)
        ends = _ending(rules, state)
        if ends != ended:  # the end moved: the log line says so, on every phone (never a silent new winner)
            entry["ending"] = {"was": ended, "now": ends}
        state_json = _state_json(row["game"], rules, state)
        with self.backend.write(game_id) as db:
            now, earlier = _game_and_earlier_answer(db, game_id, seat, action_id, kind, asked)
            if earlier is not None:
                return earlier
            if int(now["version"]) != current:  # someone wrote while this replayed: nothing changes
                raise Stale(int(now["version"]))
            _check_room(current)
            seq = current + 1
            answer = {"version": seq + len(put_in), "seq": seq,
                      {"undo": "undid", "revert": "reverted"}.get(kind, "corrected"): first_changed}
            if put_in:
                answer["inserted"] = entry["insert"]
            db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [game_id, seq, seat, kind, _dumps(entry), first_changed, action_id,
                        _stored_answer(answer, kind, asked), _now()])
            for n, (before, author, move) in enumerate(put_in, start=1):
                db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                           " VALUES (?, ?, ?, 'move', ?, ?, ?, ?, ?)",
                           [game_id, seq + n, author, _dumps(move), before, f"insert-{secrets.token_hex(8)}",
                            dumps_compact({"version": seq + n, "seq": seq + n}), _now()])
            db.execute("UPDATE games SET version = ?, state = ? WHERE id = ?", [answer["version"], state_json, game_id])
        self._remember(game_id, answer["version"], state)
        return answer

    def _rebuild(self, game_id: str, game: str, timeline: _Timeline, initial_json: str, first_changed: int,
                 new_live: list[LiveMove], seat: int, written: set[int] | None = None,
                 kept: dict[int, dict[str, Any]] | None = None, after_end: list[LiveMove] | None = None) -> State:
        """The state after ``new_live``, replayed from the latest state this process holds that comes
        before ``first_changed`` and that no later undo or correction touched (else from set-up).
        ``written``: the ids of the moves the change itself writes; a private note among them that does not
        fit is refused with the rules' reason (only a note already there is passed over: it was advice); each
        of them the rules took less a field they did not read goes into ``kept`` by seq, as a move would be
        stored (:func:`~companion.store.states._applied`). ``after_end``: where the game's ``sooner_end`` is
        "secret", the live moves that now come after an end the change brings sooner go into it (the replay
        stops there) instead of a refusal: the caller removes them with the change."""
        written = written or set()
        base_version, base = 0, None
        with self._states_lock:
            held = [v for (g, v) in self._states if g == game_id and v < first_changed]
        for candidate in sorted(held, reverse=True):
            if timeline.untouched_up_to(candidate):
                base = self._cached(game_id, candidate)
                if base is not None:
                    base_version = candidate
                    break
        if base is None:
            base_version = 0
            base = _state_from(game, initial_json)
        state = _named(base, timeline.names)
        passed = False  # past a point where the game may have ended on another seat's secret (may_end_in_secret)
        for index, live in enumerate(new_live):
            if live.seq <= base_version:
                continue
            point = after_end is not None and may_end_in_secret(timeline, state, live, seat, first_changed)
            try:
                if id(live) in written and kept is not None:
                    applied = _applied(timeline.rules, state, live.seat, live.move, game)
                    if isinstance(applied, Exception):
                        raise applied
                    state = applied[0]
                    if applied[2] != live.move:
                        kept[live.seq] = applied[2]
                else:
                    state = timeline.rules.apply(state, live.seat, live.move)
            except IllegalMove as error:
                if move_kind(live.move) in timeline.private and id(live) in written:
                    raise IllegalMove(error.message, error.rule, move=live.move, seat=live.seat) from None
                if move_kind(live.move) in timeline.private:
                    continue  # a private note that no longer fits is passed over: it is advice only
                name = timeline.names[live.seat]
                whose = "your" if live.seat == seat else f"{name}'s"
                if id(live) not in written and live.seq in timeline.steps(_state_from(game, initial_json))[1][:1]:
                    # not this change's doing: a move an older version stored that these rules cannot read at all
                    who = "you correct or remove" if live.seat == seat else f"{name} corrects or removes"
                    raise CorrectionRefused(f"{whose} move {live.seq} was stored by an older version of the companion, "
                                            "and this one cannot read it, so nothing after it can be replayed: "
                                            f"{who} that move first", None, live.seq) from None
                if passed and after_end is not None:
                    # whether this move still fits can rest on whether the game ended at that point: it goes with
                    # the change, with every later move, as the moves after an end the change brings do (a refusal
                    # naming it, given only where the game did not end, told the asking seat so)
                    after_end.extend(m for m in new_live[index:] if move_kind(m.move) not in timeline.private)
                    break
                if error.pending is not None:  # the rules now need a choice first (public: the table sees it)
                    choice = error.pending.get("title", "a choice")
                    raise CorrectionRefused(f"the rules now need a choice before {whose} move {live.seq}: {choice}; "
                                            f"make that choice with this correction (or correct or remove move "
                                            f"{live.seq})", error.rule, live.seq, error.pending) from None
                ended = timeline.rules.outcome(state)
                if ended.over:  # the change ends the game sooner (see GameSpec.sooner_end for what may be said)
                    told = timeline.rules.SPEC.sooner_end
                    later = [m for m in new_live[index:] if move_kind(m.move) not in timeline.private]
                    if told == "secret" and after_end is not None:
                        after_end.extend(later)
                        break
                    raise CorrectionRefused(after_the_end(whose, live.seq, ended.reason if told == "reason" else ""),
                                            error.rule, live.seq, after_end=[m.seq for m in later],
                                            others=any(m.seat != seat for m in later)) from None
                if live.seat == seat:
                    raise CorrectionRefused(f"your move {live.seq} would no longer fit: {error.message}",
                                            error.rule, live.seq) from None
                if hidden_from(timeline.rules, live, seat):  # whose and which would tell what it holds
                    raise CorrectionRefused(HIDDEN_MISFIT, None, None) from None
                # another seat's move: its reason may rest on what only that seat knows
                raise CorrectionRefused(f"{name}'s move {live.seq} would no longer fit; correct or remove that "
                                        "move too", None, live.seq) from None
            passed = passed or point
        return state

    def replay(self, game_id: str) -> State:
        """The state rebuilt from the log alone (the cache is not consulted): for checks and repairs. A live
        move the rules no longer take (stored by an older version) raises, as it would in a correction."""
        with self.backend.read() as db:
            row = self._game_row(db, game_id, "game, initial_state, players")
            entries = fetch_rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                                    [game_id])
        timeline = _Timeline(rules_for(row["game"]), entries, json.loads(row["players"]))
        steps, _ = timeline.steps(_state_from(row["game"], row["initial_state"]), strict=True)
        return steps[-1][2]

    def timeline(self, game_id: str) -> list[tuple[int, int | None, State]]:
        """``(seq, seat, state after it)`` for the start (seq 0, seat None) and each live move, in order: the
        one resolved timeline (every undo, correction, removal and cleared confirmation applied, private
        notes that no longer fit passed over: the replay the state itself is). Every reader of a game's
        history (result page, chart, exports, archive) reads it. A live move the rules no longer take
        (stored by an older version) is passed over, and the state stored on the game row, what the table
        saw, closes the timeline: the last step always holds the game's current state."""
        with self.backend.read() as db:
            row = self._game_row(db, game_id, "game, initial_state, players, version")
            entries = fetch_rows(db, "SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq",
                                    [game_id])
        version = int(row["version"])
        rules = rules_for(row["game"])
        timeline = _Timeline(rules, entries, json.loads(row["players"]))
        steps, skipped = timeline.steps(_state_from(row["game"], row["initial_state"]))
        if skipped:
            log.warning("game %s: live moves %s no longer apply; the stored state closes its timeline", game_id,
                        skipped)
            current = self._cached(game_id, version)
            if current is None:  # (a rare path: the state read now may be a newer version's, which is fine)
                current = self.current(game_id)[1]
            last_seq, last_seat, _ = steps[-1]
            steps.append((max([last_seq, *skipped]), last_seat, current))
        return steps


def _has_room(entries: int) -> bool:
    try:
        _check_room(entries)
    except IllegalMove:
        return False
    return True


def _game_and_earlier_answer(db: Any, game_id: str, seat: int, action_id: str, kind: str,
                             asked: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Inside the write lock: the game's row (game, version) and the first answer to a retried
    ``action_id`` (None if it is new); NotFound if there is no such game."""
    rows = fetch_rows(db, "SELECT g.game, g.version, m.seat, m.kind, m.move, m.result FROM games g"
                     " LEFT JOIN moves m ON m.game_id = g.id AND m.action_id = ? WHERE g.id = ?", [action_id, game_id])
    if not rows:
        raise NotFound(f"there is no game '{game_id}'")
    row = rows[0]
    return row, _earlier(row if row["kind"] is not None else None, seat, action_id, kind, asked)


#: the key of a write's stored answer (the log entry's ``result``) that holds :func:`_fingerprint` of the request
_ASKED = "asked"


def _fingerprint(kind: str, asked: Mapping[str, Any]) -> str:
    """What a request asked (``kind`` and its body but for the version, the action id and the seat), as a digest
    that the same body gives whatever the order of its fields: a retry must ask it again."""
    text = json.dumps({"kind": kind, **asked}, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _stored_answer(answer: Mapping[str, Any], kind: str, asked: Mapping[str, Any]) -> str:
    """The answer as the log entry keeps it, to repeat to a retry: with what was asked (never sent back)."""
    return dumps_compact({**answer, _ASKED: _fingerprint(kind, asked)})


def _earlier(row: Mapping[str, Any] | None, seat: int, action_id: str, kind: str,
             asked: Mapping[str, Any]) -> dict[str, Any] | None:
    """The first answer to a retried action id (its log entry ``row``: seat, kind, move, result), None for a new
    one. An id already used by another seat, for another kind of request or for another body is refused (422,
    nothing written): answering it would tell the phone that a request it never applied was made. One sentence
    for all three, which tells nothing about another seat's request."""
    if row is None:
        return None
    answer: dict[str, Any] = json.loads(row["result"])
    stored = answer.pop(_ASKED, None)
    same = row["seat"] == seat and row["kind"] == kind
    if same and stored is not None:
        same = stored == _fingerprint(kind, asked)
    elif same and kind == "move":  # written before requests were kept: every field of the move as stored (less
        kept = json.loads(row["move"])  # the fields the rules did not read) must be in the one sent again
        sent = asked["move"]
        same = all(name in sent and sent[name] == value for name, value in kept.items())
    if not same:
        raise IllegalMove(f"action id '{action_id}' was already used for a different request, so this one was not "
                          "applied; send a new action id for a new action", None)
    return answer


def _removed_after_the_end(entry: dict[str, Any], put_in: list[Any], after_end: Sequence[LiveMove],
                           names: Sequence[str], seat: int) -> None:
    """A change that ends the game sooner where that end rests on a secret (``GameSpec.sooner_end`` "secret"):
    the live moves now after the end go with it, in its ``drop`` (and the log line names them); those the change
    itself corrects (``also``) or puts in (``insert``) are left out of it. A put-in move after the end that an
    earlier put-in move was placed before cannot be left out alone: refused, in words that tell nothing hidden."""
    inserted = list(entry.get("insert", ()))
    gone = {m.seq for m in after_end}
    keep = [n for n, new_seq in enumerate(inserted) if new_seq not in gone]
    if keep != list(range(len(keep))) or any(put_in[n][0] in gone for n in keep if put_in[n][0] in inserted):
        first = after_end[0]
        whose = "your" if first.seat == seat else f"{names[first.seat]}'s"
        raise CorrectionRefused(f"{whose} move {first.seq} and the moves put in with this change cannot all stand "
                                "with it; change it another way", None, None)
    if len(keep) < len(inserted):
        entry["insert"] = inserted[:len(keep)]
        del put_in[len(keep):]
        if not entry["insert"]:
            del entry["insert"]
    if entry.get("also"):
        entry["also"] = [a for a in entry["also"] if int(a["seq"]) not in gone]
        if not entry["also"]:
            del entry["also"]
    cleared = set(entry.get("cleared", ()))
    dropped = sorted({*entry.get("drop", ()), *(s for s in gone if s not in inserted and s not in cleared)})
    if dropped:
        entry["drop"] = dropped


def _keep_as_read(entry: dict[str, Any], put_in: list[Any], kept: Mapping[int, dict[str, Any]]) -> None:
    """A correction's own moves (the move, 'also', 'insert') stored as a move is: less the fields the rules did
    not read (``kept``, by seq; a correction kept what was sent, so an unread field nothing checked stayed)."""
    if not kept:
        return
    if isinstance(entry.get("move"), dict) and entry.get("seq") in kept:
        entry["move"] = kept[entry["seq"]]
    for other in entry.get("also", ()):
        if other["seq"] in kept:
            other["move"] = kept[other["seq"]]
    for n, new_seq in enumerate(entry.get("insert", ())):
        if new_seq in kept and n < len(put_in):
            before, author, _ = put_in[n]
            put_in[n] = (before, author, kept[new_seq])
