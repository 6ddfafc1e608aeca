"""The functions every page's templates may call, added to the app by :func:`init_app` (``create_app``): the
choice forms' helpers (``templates/pages/_choices.html``) and the table page's board picture (:mod:`.boards`).
A page area's own template functions are its blueprint's (``rule_url``: :mod:`.lookup`; the photo links:
:mod:`.photo.views`). The templates compiled by one app serve every app of the process (:data:`COMPILED`)."""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

from flask import Flask
from jinja2.bccache import Bucket, BytecodeCache
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


class ProcessBytecodeCache(BytecodeCache):
    """Compiled templates kept in memory for the whole process, keyed by template and checked against its source
    (Jinja's bucket: a changed template is compiled again). Each app has its own Jinja environment, whose own
    cache starts empty: without this, every app a process creates compiles every template it renders again
    (0.37 s of CPU for all of them; the tests create an app for nearly every test)."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


#: the one bytecode cache of this process's apps
COMPILED = ProcessBytecodeCache()


def init_app(app: Flask) -> None:
    app.jinja_env.bytecode_cache = COMPILED
    # the choice forms' long lists, sent once per page (templates/pages/_choices.html)
    app.add_template_global(choices_module.shared_lists, "shared_choice_lists")
    app.add_template_global(choices_module.list_rows, "choice_list_rows")
    app.add_template_global(choices_module.plain, "plain_choice_field")
    app.add_template_global(choice_list_json, "choice_list_json")
    app.add_template_global(board_picture, "board_picture")
