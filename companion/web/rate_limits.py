"""Per-address limits on joining and on starting games (the ``limits`` library), shared by every worker process.

- **Join code look-ups** (``POST /api/join``, the join page ``/j/<code>`` and its seat form, and a wrong code
  sent by the home page's join form ``GET /join?code=``; a right one is counted at ``/j/<code>``): ``JOIN_LIMIT`` per address, 20 a minute by default, so a code cannot be
  found by trying (a 6-character code has 32⁶ ≈ 10⁹ values).
- **Hand-over code look-ups** (``/h/<code>`` and its form, ``POST /api/handover``): ``JOIN_LIMIT`` per address
  too, counted apart from the join codes (an 8-character code, 32⁸ ≈ 10¹² values, live 15 minutes).
- **New games** (``POST /api/games``, the home page's form): ``NEW_GAME_LIMIT``, 30 a minute by default.
- **Moves of one seat** (moves, undos, corrections and renames of one seat): ``MOVE_LIMIT``, 60 a
  minute by default, far more than a player reports at a table; counted per game and seat, whatever
  the address.
- **Hand-over codes asked for by one seat** (``POST /api/games/<id>/seats/<n>/handover`` and the seat's
  *Hand this seat to another phone* button): ``HANDOVER_LIMIT``, 10 a minute by default, counted per game
  and seat like the moves (each request replaces the seat's code: a write).
- **Photos read** (``POST /api/photo/<game>``, each costing up to a few tenths of a second of CPU):
  ``PHOTO_LIMIT``, 30 a minute by default.

Past a limit the answer is 429 in the one error shape with ``Retry-After``. The host's own machine
(loopback addresses) is never limited: that is where ``scripts/start.sh`` and the benchmarks talk
from. Behind a reverse proxy, name it in ``TRUSTED_PROXIES`` (:mod:`.proxies`): the phone's address
it forwards is then the one limited. An IPv6 address is counted by its /64 network (the part one
household or phone gets), an IPv4 address by itself.

The counting is the ``limits`` library's fixed-window strategy. gunicorn's workers are separate
processes and an in-memory counter is one per process (with the kernel spreading connections, every
worker would allow the whole limit), so the counters are kept by the store, where every process shares
them (:mod:`companion.store.limit_counters`: for SQLite a small file beside the database,
``<database>.limits``, through :class:`SqliteStorage`, a ``limits`` storage; for PostgreSQL a table of that
database, which every node shares).
"""

from __future__ import annotations

import ipaddress
import time
from typing import Any

from flask import Flask, Response, current_app, request
from limits import parse
from limits.strategies import FixedWindowRateLimiter

from companion.store.limit_counters import SqliteStorage, limit_counters  # noqa: F401  (SqliteStorage: its old home)

JOIN_LIMIT = "20 per minute"
NEW_GAME_LIMIT = "30 per minute"
MOVE_LIMIT = "60 per minute"
HANDOVER_LIMIT = "10 per minute"
PHOTO_LIMIT = "30 per minute"
#: the photo reads' endpoints, one per game that scores by photo (companion/web/photo/views.py)
PHOTO_ENDPOINT_PREFIX = "photo_api.read_photo_"
JOIN_ENDPOINTS = frozenset({"api.join", "home.join", "home.join_code", "home.claim"})
HANDOVER_ENDPOINTS = frozenset({"api.take_handover", "seats.take_over", "seats.take_over_now"})
NEW_GAME_ENDPOINTS = frozenset({"api.create_game", "home.new_game"})


#: the addresses no per-address limit counts, by default the server's own machine (``UNLIMITED_ADDRESSES``)
UNLIMITED_ADDRESSES = "127.0.0.0/8, ::1"


def unlimited_networks(setting: Any) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """The networks of ``UNLIMITED_ADDRESSES`` (comma-separated; None: the default, loopback)."""
    text = UNLIMITED_ADDRESSES if setting is None else setting
    items = text.split(",") if isinstance(text, str) else list(text)
    return tuple(ipaddress.ip_network(str(item).strip(), strict=False) for item in items if str(item).strip())


def _from_this_machine() -> bool:
    """Whether the request comes from an address no per-address limit counts (``UNLIMITED_ADDRESSES``)."""
    networks = current_app.extensions.get("unlimited_networks")
    if networks is None:
        networks = current_app.extensions["unlimited_networks"] = unlimited_networks(
            current_app.config.get("UNLIMITED_ADDRESSES"))
    try:
        ip = ipaddress.ip_address((request.remote_addr or "").split("%", 1)[0])
    except ValueError:
        return False
    return any(ip in network for network in networks)


def address_key(address: str) -> str:
    """What per-address limits count by: an IPv4 address itself (also written as IPv6, ``::ffff:a.b.c.d``),
    an IPv6 address's /64 network (one phone or household gets a whole /64 and may use any of its
    addresses), anything else as it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class RateLimits:
    """The per-address limits, checked before the few views they guard and nowhere else.

    Built on ``limits`` (the library Flask-Limiter is made of) rather than on Flask-Limiter itself:
    Flask-Limiter's hooks ran on every request, looking for limits that only a few endpoints have,
    and cost about a fifth of the server's time for a bare version read (docs/serving.md)."""

    def __init__(self, app: Flask) -> None:
        app.config.setdefault("JOIN_LIMIT", JOIN_LIMIT)
        app.config.setdefault("NEW_GAME_LIMIT", NEW_GAME_LIMIT)
        app.config.setdefault("MOVE_LIMIT", MOVE_LIMIT)
        app.config.setdefault("HANDOVER_LIMIT", HANDOVER_LIMIT)
        app.config.setdefault("PHOTO_LIMIT", PHOTO_LIMIT)
        self.storage = limit_counters(app.extensions.get("store") or app.config["DATABASE"])
        self.strategy = FixedWindowRateLimiter(self.storage)
        self.by_endpoint = {**{endpoint: ("join-codes", "JOIN_LIMIT", "join codes tried")
                               for endpoint in JOIN_ENDPOINTS},
                            **{endpoint: ("handover-codes", "JOIN_LIMIT", "hand-over codes tried")
                               for endpoint in HANDOVER_ENDPOINTS},
                            **{endpoint: ("new-games", "NEW_GAME_LIMIT", "games started")
                               for endpoint in NEW_GAME_ENDPOINTS},
                            **{endpoint: ("photos", "PHOTO_LIMIT", "photos read")
                               for endpoint in app.view_functions if endpoint.startswith(PHOTO_ENDPOINT_PREFIX)}}

    def check(self) -> Response | None:
        guarded = self.by_endpoint.get(request.endpoint or "")
        if guarded is None or _from_this_machine():
            return None
        if request.endpoint == "home.join":
            if not request.args.get("code", "").strip():
                return None  # the home page's "Join" link: no code is tried
            # the form's code: refused like any try once the address is past the limit (else a 303 here, where
            # /j/ says 429, would tell a live code); under it, only a wrong code is counted (join_miss): a right
            # one is counted by /j/<code>, where it is sent on, so a join by the form costs what a QR code's does
            return self._over(*guarded, address_key(request.remote_addr or "unknown"))
        scope, setting, what = guarded
        return self._hit(scope, setting, address_key(request.remote_addr or "unknown"),
                         f"too many {what} from your address")

    def join_miss(self) -> None:
        """Count a wrong code sent through the home page's join form (see :meth:`check`)."""
        if not _from_this_machine():
            self._hit("join-codes", "JOIN_LIMIT", address_key(request.remote_addr or "unknown"), "")

    def _over(self, scope: str, setting: str, what: str, key: str) -> Response | None:
        """The 429 for ``key`` past ``setting``'s limit in ``scope``, without counting this request; else None."""
        limit = parse(str(current_app.config[setting]))
        if self.strategy.test(limit, scope, key):
            return None
        return self._refusal(limit, scope, key, f"too many {what} from your address")

    def address_counted(self) -> str | None:
        """The key the request's address is counted by (:func:`address_key`), None if it is not counted."""
        return None if _from_this_machine() else address_key(request.remote_addr or "unknown")

    def seat_moves(self, game_id: str, seat: int) -> Response | None:
        """The 429 for a seat past ``MOVE_LIMIT`` (moves, undos, corrections and renames together), else None."""
        if _from_this_machine():
            return None
        return self._hit("seat-moves", "MOVE_LIMIT", f"{game_id}/{seat}", "too many moves from this seat")

    def seat_handovers(self, game_id: str, seat: int) -> Response | None:
        """The 429 for a seat past ``HANDOVER_LIMIT`` (hand-over codes asked for), else None."""
        if _from_this_machine():
            return None
        return self._hit("seat-handovers", "HANDOVER_LIMIT", f"{game_id}/{seat}",
                         "too many hand-over codes asked for by this seat")

    def _hit(self, scope: str, setting: str, key: str, what: str) -> Response | None:
        limit = parse(str(current_app.config[setting]))
        if self.strategy.hit(limit, scope, key):
            return None
        return self._refusal(limit, scope, key, what)

    def _refusal(self, limit: Any, scope: str, key: str, what: str) -> Response:
        reset_at = self.strategy.get_window_stats(limit, scope, key).reset_time
        wait = max(1, int(reset_at - time.time() + 0.999))
        from .errors import error_response

        response = error_response(429, f"{what} (at most {limit}); try again in {wait} s")
        response.headers["Retry-After"] = str(wait)
        return response


def init_rate_limits(app: Flask) -> RateLimits:
    limits = RateLimits(app)
    app.before_request(limits.check)
    app.extensions["rate_limits"] = limits
    return limits
