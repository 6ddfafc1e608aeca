"""Security headers on every answer: pages, the JSON API, static files and error answers alike
(and gunicorn's own refusals, :mod:`companion.serving`).

Added where the answer's headers are handed to the server (WSGI ``start_response``), so nothing the app
answers can miss them, and at a list append's cost: setting them on Flask's ``Headers`` after each
request compared every header name in lower case, several times over, on every answer.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                           "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
_LOWER = {name.lower(): (name, value) for name, value in SECURITY_HEADERS.items()}


class SecurityHeaders:
    """WSGI middleware: every answer gets :data:`SECURITY_HEADERS`, unless it set one of them itself."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            present = {name.lower() for name, _ in headers}
            headers.extend(item for lower, item in _LOWER.items() if lower not in present)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)
