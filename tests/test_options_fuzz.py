"""Every option of every game, given values of every JSON type (and the right type with wrong contents):
a new game is 201, 400 or 422 with a sentence, never a 500, and a refused one stores nothing.

The options come from each rules module's ``OPTIONS``; values are drawn by hypothesis from any JSON
(standard JSON only: the API refuses NaN and Infinity before the rules see them).
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import GAMES
from companion.web import create_app

SCALARS = (st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=12) | st.sampled_from(["5", "0", "x", "", "random", "Velocity", "strange", "norrell"]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner,
                                                                                           max_size=4), max_leaves=12)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlaskClient]:
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("options") / "o.sqlite3"), "SECRET_KEY": "k",
                      "TESTING": True})
    yield app.test_client()
    app.extensions["store"].close()


def options_of(game: str) -> st.SearchStrategy[dict[str, Any]]:
    names = sorted(GAMES[game].OPTIONS)
    return st.dictionaries(st.sampled_from(names), JSON, min_size=1, max_size=len(names))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_wrong_option_values_are_refused_with_a_sentence(client: FlaskClient, game: str) -> None:
    rules = GAMES[game]
    players = [f"P{i}" for i in range(max(rules.MIN_PLAYERS, min(4, rules.MAX_PLAYERS)))]

    @settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(options=options_of(game), count=st.integers(rules.MIN_PLAYERS, rules.MAX_PLAYERS))
    def new_game(options: dict[str, Any], count: int) -> None:
        response = client.post("/api/games", json={"game": game, "players": players[:count] + [
            f"Q{i}" for i in range(count - len(players[:count]))], "options": options})
        assert response.status_code in (201, 400, 422), (options, response.get_json())
        body = response.get_json()
        if response.status_code != 201:
            assert body["ok"] is False and body["error"][:1].isupper(), body

    new_game()
