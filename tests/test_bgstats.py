"""The BG Stats export (``/g/<id>/result.bgstats.json`` and the result page's "Open in BG Stats" link) checked
against BG Stats' documented import format: the play JSON of its "push plays" link, as described on
bgstatsapp.com's support page "Push plays to BG Stats from other apps or websites" (fields ``sourceName``,
``sourcePlayId``, ``game`` {``name``, ``bggId``, ``highestWins``, ``noPoints``, ``sourceGameId``}, ``playDate``
"YYYY-MM-DD HH:MM:SS", ``durationMin``, ``board``, ``comments``, ``location``, ``players`` [{``name``, ``score``,
``winner``, ``rank``, ``role``, ``startPlayer``, ``sourcePlayerId``}]). The format is written down here as a
strict pydantic model (no field of our own, every type as documented)."""

from __future__ import annotations

import json
from typing import Annotated, Any
from urllib.parse import unquote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from test_results import play_to_the_end

from companion.rules import SPECS
from companion.web.results import BGSTATS_IMPORT_URL


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class BgStatsGame(_Strict):
    name: Annotated[str, Field(min_length=1)]
    bggId: int | None = None
    highestWins: bool
    noPoints: bool
    sourceGameId: str | None = None


class BgStatsPlayer(_Strict):
    name: Annotated[str, Field(min_length=1)]
    score: int | float
    winner: bool
    rank: Annotated[int, Field(ge=1)]
    role: str = ""
    startPlayer: bool = False
    sourcePlayerId: str | None = None


class BgStatsPlay(_Strict):
    sourceName: Annotated[str, Field(min_length=1)]
    sourcePlayId: Annotated[str, Field(min_length=1)]
    game: BgStatsGame
    playDate: Annotated[str, Field(pattern=r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")]
    durationMin: Annotated[int, Field(ge=0)]
    board: str = ""
    comments: str = ""
    location: str | None = None
    players: Annotated[list[BgStatsPlayer], Field(min_length=1)]

    @model_validator(mode="after")
    def ranks_fit_the_winners(self) -> "BgStatsPlay":
        if any(p.winner and p.rank != 1 for p in self.players):
            raise ValueError("a winner ranks first")
        if sum(p.startPlayer for p in self.players) > 1:
            raise ValueError("one start player at most")
        return self


def test_the_model_takes_a_play_shaped_as_documented_and_refuses_what_is_not() -> None:
    documented = {"sourceName": "Some app", "sourcePlayId": "p1", "playDate": "2024-05-01 20:15:00",
                  "durationMin": 45, "board": "", "comments": "close", "location": "Club",
                  "game": {"name": "A game", "bggId": 1, "highestWins": True, "noPoints": False, "sourceGameId": "g"},
                  "players": [{"name": "Ann", "score": 12.5, "winner": True, "rank": 1, "role": "",
                               "startPlayer": True, "sourcePlayerId": "a"},
                              {"name": "Ben", "score": 9, "winner": False, "rank": 2, "role": "",
                               "startPlayer": False, "sourcePlayerId": "b"}]}
    BgStatsPlay.model_validate(documented)
    for broken in ({**documented, "playDate": "2024-05-01T20:15:00"}, {**documented, "plays": []},
                   {**documented, "players": []},
                   {**documented, "players": [{**documented["players"][0], "score": "12"}]}):
        with pytest.raises(ValidationError):
            BgStatsPlay.model_validate(broken)


@pytest.mark.parametrize("game", ["fillory", "mandragora", "barony-sorcery", "jsmn"])
def test_every_games_export_and_link_are_in_bg_stats_import_format(app: Flask, client: FlaskClient, game: str) -> None:
    players = ["Ann", "Ben", "Cat"]
    first = game != "barony-sorcery"  # Barony: Sorcery is set up without a first seat
    created = play_to_the_end(app, game, players, seed=14, options={"first_seat": 1} if first else {})
    answer = client.get(f"/g/{created['id']}/result.bgstats.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    play = BgStatsPlay.model_validate(answer.get_json())
    result = client.get(f"/g/{created['id']}/result.json").get_json()
    assert [p.name for p in play.players] == players
    assert [p.score for p in play.players] == [p["total"] for p in result["players"]]
    assert [p.winner for p in play.players] == [p["winner"] for p in result["players"]]
    assert [p.startPlayer for p in play.players] == ([False, True, False] if first else [False] * 3)
    assert play.game.name == result["title"] and play.sourcePlayId == created["id"]
    page = client.get(f"/g/{created['id']}/result").get_data(as_text=True)
    link = page.split('id="open-bgstats" href="', 1)[1].split('"', 1)[0]
    assert link.startswith(BGSTATS_IMPORT_URL)
    assert json.loads(unquote(link[len(BGSTATS_IMPORT_URL):])) == answer.get_json()  # the same play


def test_a_name_with_json_and_url_characters_survives_the_link(app: Flask, client: FlaskClient) -> None:
    names = ['Ann "&" Co', "Bén/100%"]
    created = play_to_the_end(app, "mandragora", names, seed=4)
    page = client.get(f"/g/{created['id']}/result").get_data(as_text=True)
    link = page.split('id="open-bgstats" href="', 1)[1].split('"', 1)[0]
    data: dict[str, Any] = json.loads(unquote(link[len(BGSTATS_IMPORT_URL):].replace("&amp;", "&")))
    assert [p.name for p in BgStatsPlay.model_validate(data).players] == names


def test_the_play_date_is_the_tables_own_time(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import time as clock
    from datetime import datetime, timedelta, timezone

    created = play_to_the_end(app, "fillory", ["Ann", "Ben"], seed=3, options={"first_seat": 0})
    started = datetime.fromisoformat(client.get(f"/g/{created['id']}/result.json").get_json()["started"])
    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+05:30 all year: no summer time to trip on
    clock.tzset()
    try:
        play = client.get(f"/g/{created['id']}/result.bgstats.json").get_json()
    finally:
        monkeypatch.undo()
        clock.tzset()
    utc = started if started.tzinfo else started.replace(tzinfo=timezone.utc)
    local = (utc.astimezone(timezone.utc) + timedelta(hours=5, minutes=30)).strftime("%Y-%m-%d %H:%M:%S")
    assert play["playDate"] == local
    assert [p["startPlayer"] for p in play["players"]] == [True, False]



@pytest.mark.parametrize("game", sorted(SPECS))
def test_the_start_player_is_the_seat_that_took_the_first_turn_however_it_was_chosen(app: Flask, client: FlaskClient,
                                                                                      game: str) -> None:
    """``startPlayer`` is the seat that took the first turn, also when no option named it: a game whose options
    take a ``first_seat`` starts with that seat, or with seat 0 when none is given (as its options say); a
    game without one marks at most one start player, the same as result.json's ``start_seat``."""
    spec = SPECS[game]
    players = ["Ann", "Ben", "Cat"][:max(spec.min_players, min(3, spec.max_players))]
    last = len(players) - 1  # the last seat this table has (a two-player game has no seat 2)
    cases: list[tuple[dict[str, Any], int | None]] = [({}, 0), ({"first_seat": last}, last)] \
        if "first_seat" in spec.options else [({}, None)]
    for options, expected in cases:
        created = play_to_the_end(app, game, players, seed=21, options=options)
        result = client.get(f"/g/{created['id']}/result.json").get_json()
        play = BgStatsPlay.model_validate(client.get(f"/g/{created['id']}/result.bgstats.json").get_json())
        marked = [p.startPlayer for p in play.players]
        assert marked == [seat == result["start_seat"] for seat in range(len(players))], (game, options)
        if expected is not None:
            assert result["start_seat"] == expected and marked.count(True) == 1, (game, options, result["start_seat"])


def test_a_jsmn_stack_on_the_wax_seal_names_the_start_player(app: Flask, client: FlaskClient) -> None:
    created = play_to_the_end(app, "jsmn", ["Ann", "Ben", "Cat"], seed=21, options={"stack": [1, 2, 0]})
    play = client.get(f"/g/{created['id']}/result.bgstats.json").get_json()
    assert [p["startPlayer"] for p in play["players"]] == [False, True, False]
