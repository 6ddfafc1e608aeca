"""Barony: Sorcery: what the shared tests need to know (tests/game_traits.py).

It keeps no secrets (every seat sees the whole state), and tracks only the expansion's explorations and casts
(at most 15 Control tokens and 30 Magic tokens' worth of casts a game), so its games are short.
"""

from __future__ import annotations

from typing import Any, Mapping

from game_traits import NO_SECRETS, GameTraits, nothing_hidden


def form_move(state: Any, seat: int, move: Mapping[str, Any]) -> dict[str, Any] | None:
    """A legal move as the Barony seat's form writes it: spells by id in card order, a location by id with
    the reward it pays (the form sends it)."""
    from companion.rules.barony_sorcery.cast import SPELL_ORDER, spell_of

    out = dict(move)
    if move["type"] == "cast":
        out["spells"] = sorted((spell_of(s).id for s in move["spells"]), key=SPELL_ORDER.__getitem__)
    return out


#: a 3-player game ends after 31 to 40 moves while phones of every seat post at once; a random game after as
#: few as 3 (the end of the base game and two entries of points), so the secrets test reads its routes early
TRAITS = GameTraits(label_sentences={"cost_one": "kostet 1 Magiemarke", "cost_other": "kostet 2 Magiemarken",
                                     "spell_number": "Zauber 1/"},
                    secret_model=NO_SECRETS, secret_checkpoints=(2, 5, 9),
                    form_move=form_move, rearrange_hidden=nothing_hidden, min_moves_per_game=10,
                    crash_acks_per_round=2, race_min_acknowledged=25)
