"""The instance's saved settings, shared by the print kit and the companion.

An *instance* is one companion server with its database: a laptop at a table, a club's machine, a public
server. Its folder (``instance/`` in the project, or ``$SPELLBOOK_INSTANCE``) holds the database, the
secret key and ``settings.toml``. That file holds the setting both halves of the project must agree on
for years: the **base URL**, the address printed in every card's QR code and used for every link the
server shows. ``companion base-url URL`` saves it; ``cardgen build`` (and ``proof`` and ``export``) and
``companion serve`` use it whenever no ``--base-url`` is given, so a kit printed today and the server
started next month point at the same place.

The file is TOML, rewritten whole by ``save_base_url`` (written under a temporary name, then renamed)::

    base_url = "https://club.example"

A broken file is refused with its path and the field, never silently ignored.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import tomli

INSTANCE_ENV = "SPELLBOOK_INSTANCE"
SETTINGS_FILE = "settings.toml"


class SiteError(ValueError):
    """A settings file that cannot be read or written, or a value that cannot be saved (the reason is the message)."""


def instance_dir() -> Path:
    """The instance folder: ``$SPELLBOOK_INSTANCE``, else ``instance/`` in the project (where the
    companion keeps its database and secret key)."""
    explicit = os.environ.get(INSTANCE_ENV)
    if explicit:
        return Path(explicit).absolute()
    return Path(__file__).resolve().parents[1] / "instance"


def settings_path() -> Path:
    return instance_dir() / SETTINGS_FILE


def _read(path: Path) -> dict[str, object]:
    if not path.exists():
        return {}
    try:
        return tomli.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError) as error:
        raise SiteError(f"cannot read the instance settings in {path}: {error} (mend the file, or delete it and "
                        "save the address again with companion base-url URL)") from error


def saved_base_url() -> str | None:
    """The saved base URL (checked, without a trailing slash), or None when none is saved."""
    from cardgen.render.qr import validate_base_url

    path = settings_path()
    value = _read(path).get("base_url")
    if value is None:
        return None
    if not isinstance(value, str):
        raise SiteError(f"{path}: base_url must be a string such as \"https://club.example\"")
    try:
        return validate_base_url(value)
    except ValueError as error:
        raise SiteError(f"{path}: base_url: {error}") from None


def save_base_url(url: str | None) -> Path:
    """Save ``url`` as the instance's base URL (None forgets it); the file's path."""
    from cardgen.render.qr import validate_instance_url

    path = settings_path()
    settings = _read(path)
    if url is None:
        settings.pop("base_url", None)
    else:
        try:
            settings["base_url"] = validate_instance_url(url)
        except ValueError as error:
            raise SiteError(str(error)) from None
    lines = ["# This instance's settings (docs/serving.md). `companion base-url URL` rewrites this file.", ""]
    lines += [f"{key} = {json.dumps(value)}" for key, value in sorted(settings.items()) if isinstance(value, str)]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:
        raise SiteError(f"cannot write {path}: {error.strerror or error}") from error
    return path


def resolve_base_url(given: str | None, fallback: str) -> tuple[str, str]:
    """The base URL to use and where it came from: ``given`` (a command's ``--base-url``), else
    ``$SPELLBOOK_BASE_URL``, else the saved setting, else ``fallback``."""
    if given:
        return given, "--base-url"
    if os.environ.get("SPELLBOOK_BASE_URL"):
        return os.environ["SPELLBOOK_BASE_URL"], "SPELLBOOK_BASE_URL"
    saved = saved_base_url()
    if saved is not None:
        return saved, f"saved in {settings_path()}"
    return fallback, "default"
