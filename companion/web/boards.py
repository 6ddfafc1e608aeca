"""Board pictures on the table page (inline SVG), drawn from public view data only: what games share.

A game with a picture of its board names a function ``(view) -> Markup`` as ``GamePages.board`` (its own
module under :mod:`companion.web.games` draws it, e.g. ``<game>_board.py``), and its table template shows
``{{ board_picture(view) }}``. Pictures take the ``view(state, None)`` dictionary (what every phone may
see) and are also described in words for people who do not see them. The colours are the pages' own
(companion/static/css/app.css), written as the pictures' SVG attributes: seat pages share the style sheets
but show no board, so the pictures carry their styling themselves.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

INK, INK_SOFT, LINE, CARD = "#1f1a2e", "#4a4458", "#d8d0c2", "#ffffff"
PLUM, PLUM_DARK, PLUM_SOFT, GOLD, GOLD_INK = "#3b1f6e", "#2e1a52", "#ece5f7", "#f3c969", "#6b4a00"
SEAT_COLOURS = (PLUM, "#a3470a", "#1f6b3a", "#0b4f8a", "#8a1c5b", INK_SOFT)


def board_picture(view: dict[str, Any]) -> Markup:
    """The game's board picture for ``{{ board_picture(view) }}`` on its table page (empty for a game without one)."""
    from companion.web.games import pages_for

    draw = pages_for(str(view.get("game", ""))).board
    return draw(view) if draw is not None else Markup("")
