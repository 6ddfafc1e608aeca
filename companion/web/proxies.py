"""The phone's address behind a reverse proxy: werkzeug's ``ProxyFix``, for the proxies named in ``TRUSTED_PROXIES``.

A proxy in front (nginx or Caddy adding HTTPS) connects from its own address, often loopback, which the
per-address limits never count (:mod:`.rate_limits`), so every phone would go unlimited. Name the proxy
(``COMPANION_TRUSTED_PROXIES`` or ``companion serve --trusted-proxy``: addresses or networks, comma
separated) and a request that comes from it is read as coming from the address in the last entry of
its ``X-Forwarded-For`` (and over the scheme in ``X-Forwarded-Proto``), so the limits and the access log
see the phone. A request from anywhere else is taken as it is: its ``X-Forwarded-*`` headers are
ignored, since any client can write them.
"""

from __future__ import annotations

import ipaddress
from typing import Any, Callable, Iterable

from werkzeug.middleware.proxy_fix import ProxyFix

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(setting: Any) -> tuple[Network, ...]:
    """The networks of ``TRUSTED_PROXIES`` (a comma-separated text or a list); ValueError names a bad one."""
    items = setting.split(",") if isinstance(setting, str) else list(setting or ())
    networks = []
    for item in (str(i).strip() for i in items):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"TRUSTED_PROXIES: '{item}' is not an IP address or network") from None
    return tuple(networks)


class TrustedProxies:
    """WSGI middleware: ``ProxyFix`` (one proxy: ``x_for=1, x_proto=1``) for requests from a trusted proxy."""

    def __init__(self, app: Callable[..., Iterable[bytes]], networks: tuple[Network, ...]) -> None:
        self.app, self.networks = app, networks
        self.fixed = ProxyFix(app, x_for=1, x_proto=1)

    def _trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if self.networks and self._trusted(environ.get("REMOTE_ADDR", "")):
            return self.fixed(environ, start_response)  # type: ignore[no-any-return]
        return self.app(environ, start_response)
