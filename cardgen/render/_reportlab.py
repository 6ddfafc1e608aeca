"""ReportLab's paragraph module without the one regular expression the kit never uses compiled at import.

``reportlab.platypus.paragraph`` compiles ``uri_pat`` (a URL validator, case-insensitive over most of
Unicode) when it is imported: 23 ms, 7 % of a build's imports, which every ``cardgen`` process pays
before its work (and before a kit build can fork). It is only read to hyphenate a URL that overflows a
line, which no kit text has. Imported first by :mod:`cardgen.render`, this module imports the paragraph
module with that pattern compiled at its first use instead; any other pattern, or a ReportLab whose
pattern differs, compiles as before. Importing ReportLab's paragraph module before this one only
loses the saving.
"""

from __future__ import annotations

import re
import sys
from typing import Any

_URI_PATTERN_START = "(^(?:[a-z0-9\\.\\-\\+]*)://)"


class _CompiledAtFirstUse:
    """A pattern that compiles itself the first time any of its methods or attributes is asked for."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._arguments = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        compiled = _compile(*self._arguments)
        self.__dict__.update({n: getattr(compiled, n) for n in ("match", "search", "fullmatch", "sub", "split")})
        return getattr(compiled, name)


_compile = re.compile

if "reportlab.platypus.paragraph" not in sys.modules:
    def _compile_uri_pattern_later(pattern: Any, flags: int = 0) -> Any:
        if isinstance(pattern, str) and pattern.startswith(_URI_PATTERN_START):
            return _CompiledAtFirstUse(pattern, flags)
        return _compile(pattern, flags)

    re.compile = _compile_uri_pattern_later  # type: ignore[assignment]
    try:
        import reportlab.platypus.paragraph  # noqa: F401
    finally:
        re.compile = _compile
