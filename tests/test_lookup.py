"""Look-up pages: search scoped to the game a page belongs to, a game label on every result, typos."""

from __future__ import annotations

import html
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from cardgen.catalog import content


def shown(response: Any) -> str:
    return html.unescape(response.get_data(as_text=True))


def nav_rules_link(page: str) -> str:
    nav = re.search(r'<nav aria-label="Main">.*?</nav>', page, re.S).group(0)
    return re.search(r'<a href="([^"]*)">Rules</a>', nav).group(1)


def results(page: str) -> list[tuple[str, str, str]]:
    """(title, kind, game label) of each result, in order."""
    return re.findall(r'<li class="result">\s*<a href="[^"]*"><strong>(.*?)</strong></a> <span class="tag">(\w+)</span>'
                      r' <span class="tag game-tag">(.*?)</span>', page)


def test_every_result_carries_its_game_label(client: FlaskClient) -> None:
    page = shown(client.get("/rules?q=banish"))
    found = results(page)
    labels = {label for _, _, label in found}
    assert {content("fillory").title, content("mandragora").title} <= labels, found
    assert len(found) == page.count('<li class="result">')


def test_a_game_page_scopes_the_rules_link_to_its_game(app: Flask, client: FlaskClient) -> None:
    game = app.extensions["store"].create_game("mandragora", ["Ann", "Ben"], {})
    assert nav_rules_link(shown(client.get(f"/g/{game['id']}"))) == "/rules?game=mandragora"
    assert nav_rules_link(shown(client.get("/c/fillory/quentin"))) == "/rules?game=fillory"
    assert nav_rules_link(shown(client.get("/rules/jsmn"))) == "/rules?game=jsmn"
    assert nav_rules_link(shown(client.get("/"))) == "/rules"  # no game here: every game
    assert client.get("/rules?game=mandragora").headers["Location"] == "/rules/mandragora"


def test_scoped_search_stays_in_its_game_with_a_switch_for_all(client: FlaskClient) -> None:
    page = shown(client.get("/rules?q=banish&game=fillory"))
    assert {label for _, _, label in results(page)} == {content("fillory").title}
    assert '<option value="fillory" selected>' in page
    switch = re.search(r'<a href="([^"]*)" id="search-all-games">Search all games</a>', page).group(1)
    everywhere = shown(client.get(html.unescape(switch)))
    assert len({label for _, _, label in results(everywhere)}) >= 2
    assert 'id="search-all-games"' not in everywhere


def test_a_typo_is_searched_as_the_word_meant_and_says_so(client: FlaskClient) -> None:
    page = shown(client.get("/rules?q=banishh&game=fillory"))
    assert ("Banish", "rule", content("fillory").title) in results(page)
    assert "Also searched for banish (for “banishh”)." in page
    exact = shown(client.get("/rules?q=banish&game=fillory"))
    assert "Also searched for" not in exact


def test_the_rulebooks_spelling_finds_the_card(client: FlaskClient) -> None:
    page = shown(client.get("/rules?q=Mayakowski"))
    assert results(page)[0] == ("Professor Mayakovsky", "card", content("fillory").title)
