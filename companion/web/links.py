"""Absolute links (a hand-over link, the join QR code, a result's share link) from the configured base URL.

A link a phone is shown or scans must lead to this server, whatever a request's ``Host`` header says:
built from the request, ``Host: evil.example`` on a hand-over would hand the seat's one-time code to a
link elsewhere. ``BASE_URL`` (``COMPANION_BASE_URL``; ``companion serve --base-url``, by default the
address it prints for the phones) is the scheme, host and port the phones reach; without it (an app made
in tests) the links start ``http://localhost``.
"""

from __future__ import annotations

from flask import Flask, current_app

DEFAULT_BASE_URL = "http://localhost"


def init_base_url(app: Flask) -> None:
    """Check ``BASE_URL`` once, at start (a bad one stops the server with the reason)."""
    from cardgen.render.qr import validate_base_url

    app.config["BASE_URL"] = validate_base_url(str(app.config.get("BASE_URL") or DEFAULT_BASE_URL))


def external_url(path: str) -> str:
    """``path`` (as ``url_for`` gives it, starting with ``/``) on the configured base URL."""
    return str(current_app.config["BASE_URL"]) + path
