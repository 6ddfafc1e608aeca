"""The functions every page's templates may call, added to the app by :func:`init_app` (``create_app``): the
choice forms' helpers (``templates/pages/_choices.html``) and the table page's board picture (:mod:`.boards`).
A page area's own template functions are its blueprint's (``rule_url``: :mod:`.lookup`; the photo links:
:mod:`.photo.views`)."""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

from flask import Flask
from markupsafe import Markup

from companion.rules import choices as choices_module
from companion.web.boards import board_picture


def _slug(label: str) -> str:
    """As choices.js makes it: lower case, apostrophes dropped, every other run of characters but a-z 0-9 a dash."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower().replace("'", "")).strip("-")


def choice_list_json(options: Sequence[Any]) -> Markup:
    """A shared list as the page sends it: [value, label, detail, tags, {when, unless, needs, caps, also, copies}] per
    option (trailing blanks left out; value "" when it is the label's slug), as
    compact JSON safe inside <script> (UTF-8 kept: a glyph is 3 bytes, not a 6-byte escape)."""
    rows = []
    for o in options:
        deps = {name: dict(getattr(o, name)) for name in ("when", "unless", "needs", "caps", "also") if getattr(o, name)}
        if o.copies:  # the value picked in another field (companion.rules.choices.Option.copies)
            deps["copies"] = o.copies
        # "" for a value that is its label's slug (most card ids: "Sitting of Parliament", sitting-of-parliament)
        value = "" if isinstance(o.value, str) and o.value and o.value == _slug(o.label) else o.value
        row = [value, o.label, o.detail, " ".join(o.tags), deps]
        while len(row) > 2 and not row[-1]:
            row.pop()
        rows.append(row)
    text = json.dumps(rows, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def init_app(app: Flask) -> None:
    # the choice forms' long lists, sent once per page (templates/pages/_choices.html)
    app.add_template_global(choices_module.shared_lists, "shared_choice_lists")
    app.add_template_global(choices_module.list_rows, "choice_list_rows")
    app.add_template_global(choices_module.plain, "plain_choice_field")
    app.add_template_global(choice_list_json, "choice_list_json")
    app.add_template_global(board_picture, "board_picture")
