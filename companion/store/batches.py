"""Look-ups that arrive together go to the database together (:class:`Batches`).

On PostgreSQL a statement costs a node's worker about 0.2 ms of CPU whatever it asks (psycopg, the pool,
the wait for the answer through gevent), and PostgreSQL its own share; SQLite answers in the worker's
process for a fraction of that. Right after a move every phone of its table reads the game at once, and a
busy node has many tables: the reads that queue while one statement is out go in the next, as one.

One statement at a time per process, the rest queued: the first look-up finds nothing out and asks for
itself at once, as without batches; a look-up that arrives while a statement is out waits for it (at most
one round trip more), then the first of those waiting asks for all of them together. Each answer is taken
after its request arrived, so it is never older than the same look-up made alone.
"""

from __future__ import annotations

import os
import threading
from typing import Callable, Generic, Hashable, Sequence, TypeVar

Key = TypeVar("Key", bound=Hashable)
Answer = TypeVar("Answer")

#: at most this many look-ups in one statement (the rest in the next)
MOST_AT_ONCE = 64


class _Wanted(Generic[Key, Answer]):
    """One look-up waiting: answered (``answer`` or ``error``), or woken to ask for the queue itself."""

    __slots__ = ("key", "woken", "answered", "answer", "error")

    def __init__(self, key: Key) -> None:
        self.key = key
        self.woken = threading.Event()
        self.answered = False
        self.answer: Answer | None = None
        self.error: BaseException | None = None


class Batches(Generic[Key, Answer]):
    """Look-ups by key: ``many(keys)`` asks for one or several in one statement (an answer for each key, in
    order). :meth:`get` answers one key, asking with the other keys that are waiting."""

    def __init__(self, many: Callable[[Sequence[Key]], list[Answer]], most: int = MOST_AT_ONCE) -> None:
        self._many, self._most = many, most
        self._lock = threading.Lock()
        self._queue: list[_Wanted[Key, Answer]] = []
        self._out = False  # a statement of this process is out, or about to be
        self._pid = os.getpid()

    def get(self, key: Key) -> Answer:
        wanted: _Wanted[Key, Answer] = _Wanted(key)
        with self._lock:
            if self._pid != os.getpid():  # a forked process: what its parent was asking is not its own
                self._queue, self._out, self._pid = [], False, os.getpid()
            self._queue.append(wanted)
            asks = not self._out
            self._out = True
        if not asks:
            wanted.woken.wait()
            if wanted.answered:
                if wanted.error is not None:
                    raise wanted.error
                return wanted.answer  # type: ignore[return-value]
        return self._ask(wanted)

    def _ask(self, own: _Wanted[Key, Answer]) -> Answer:
        """Ask for the queue's first look-ups (``own``, the caller's, first among them), answer them, and wake
        the next caller waiting to ask, if any: whatever happens, no caller is left waiting for nobody."""
        with self._lock:
            batch, self._queue = self._queue[:self._most], self._queue[self._most:]
        done = False
        try:
            answers = self._many([wanted.key for wanted in batch])
            for wanted, answer in zip(batch, answers, strict=True):
                wanted.answer = answer
            done = True
        except Exception as error:  # the statement's error (the database away, ...) is each caller's own
            for wanted in batch:
                wanted.error = error
            done = True
            raise
        finally:
            with self._lock:
                if done:
                    for wanted in batch:
                        wanted.answered = True
                        wanted.woken.set()
                else:  # this caller was stopped mid-way (its greenlet killed): the others ask again
                    self._queue[:0] = [wanted for wanted in batch if wanted is not own]
                if self._queue:
                    self._queue[0].woken.set()  # it asks next, for itself and those behind it
                else:
                    self._out = False
        return own.answer  # type: ignore[return-value]
