"""The store's exceptions: what a caller of :class:`companion.store.Store` may have to answer."""

from __future__ import annotations

from typing import Any, Sequence

from companion.rules import IllegalMove


class NotFound(LookupError):
    """No such game, join code or seat."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Stale(Exception):
    """The client acted on an old version of the game; ``version`` is the current one."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the game has moved on to version {version}; reload and try again")
        self.version = version
        self.message = str(self)


class SeatRefused(Exception):
    """The seat token a move was sent with does not hold the seat this process took it for (released, handed
    on, or never this game's): nothing was written, and the caller finds the seat out the usual way (its 401)."""


class StoreUnavailable(RuntimeError):
    """The database cannot be opened or written; the message names the file and the reason. ``public``:
    what a phone is told instead, when the message names what only the server's keeper should read (a
    database server's address, user and error)."""

    def __init__(self, message: str, public: str | None = None) -> None:
        super().__init__(message)
        self.public = public


class NoSuchDatabase(StoreUnavailable):
    """The database server answered, but the database named is not there (never created, or dropped): waiting
    will not help, so the message says how to make it."""


class SeatTaken(Exception):
    """Somebody already holds that seat (or, for a release, nobody does)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TokenUsed(Exception):
    """A seat token a phone proposed (to join or take over a seat) is already stored, for another seat or game or
    for this seat before it was released: nothing was written, and the phone makes a new one. Only a phone that
    knows the token can be told this, so it tells nobody else anything."""

    def __init__(self) -> None:
        self.message = ("this phone's new seat key was used before (for another seat, or for this one before it "
                        "was freed); reload the page, or make a new key, and join again")
        super().__init__(self.message)


class CorrectionRefused(IllegalMove):
    """A correction (or undo) after which a later move no longer fits: ``seq`` names that move; ``pending``
    the choice the rules now need before it, when that is why (public: the table sees it asked for); None when
    that move holds what the asking seat may not see (then neither it nor its author is named)."""

    def __init__(self, message: str, rule: str | None, seq: int | None, pending: Any = None,
                 after_end: Sequence[int] = (), others: bool = False) -> None:
        super().__init__(message, rule, pending=pending)
        self.seq = seq
        #: when the change ends the game before ``seq``: the moves after that end (public, whoever made them),
        #: which the same change may remove in one go (``drop``), and whether other seats made some of them
        self.after_end = tuple(after_end)
        self.others = others
