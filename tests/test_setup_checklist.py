"""The setup checklist on the table and seat pages when a game starts, for every game and player count."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_pages import seat_page, shown, store_of, table_page

from cardgen.catalog import content


def start(app: Flask, game: str, players: int) -> dict[str, Any]:
    return store_of(app).create_game(game, [f"P{n}" for n in range(1, players + 1)], {})


def checklist(page: str) -> str:
    found = re.search(r'<section class="panel setup-checklist".*?</section>', page, re.S)
    assert found, "no setup checklist"
    return found.group(0)


def card_links(section: str, game: str) -> list[str]:
    return re.findall(rf'href="/c/{game}/([^"]+)"', section)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fillory_lists_the_13_neutral_cards_for_every_player_count(app: Flask, client: FlaskClient,
                                                                   players: int) -> None:
    game = start(app, "fillory", players)
    section = checklist(table_page(client, game))
    assert f"Setup checklist · {players} players" in section and "<details open>" in section
    catalog = content("fillory")
    assert card_links(section, "fillory") == list(catalog.setup_neutral) and len(catalog.setup_neutral) == 13
    assert "The Beast" in section and 'href="/rules/fillory#fillory.setup.neutral"' in section
    assert checklist(seat_page(client, game, 0)) == section   # the seat page shows it too, as the game starts


@pytest.mark.parametrize("players, removed", [(2, 10), (3, 5), (4, 0)])
def test_mandragora_names_the_cards_its_player_count_returns_to_the_box(app: Flask, client: FlaskClient,
                                                                        players: int, removed: int) -> None:
    game = start(app, "mandragora", players)
    section = checklist(table_page(client, game))
    catalog = content("mandragora")
    removal = catalog.removal_for(players)
    assert card_links(section, "mandragora") == ([] if removal is None else
                                                [c.id for c in catalog.items if c.id in removal.cards])
    assert len(card_links(section, "mandragora")) == removed
    assert f"Item cards for {players} sorcerers" in section
    if players == 4:
        assert "every item card is used" in section and "which cards" not in section
    else:
        assert "which cards: authored" in section   # the count is the rulebook's, the lists ours
    if players == 2:
        assert "every blue card (16: ingredients and spellbooks)" in section


@pytest.mark.parametrize("players", [2, 3, 4])
def test_jsmn_shows_its_setup_rules_marked_by_source(app: Flask, client: FlaskClient, players: int) -> None:
    game = start(app, "jsmn", players)
    section = checklist(table_page(client, game))
    setup_rules = [r for r in content("jsmn").rules if "setup" in r.tags]
    assert len(re.findall(r"<li><strong>", section)) == len(setup_rules) >= 5
    for rule in setup_rules:
        assert f'href="/rules/jsmn#{rule.id}"' in section
    assert '<span class="tag">authored</span>' in section and '<span class="tag">rulebook</span>' in section


def test_barony_keeps_its_own_checklist_and_the_list_folds_after_the_first_move(app: Flask,
                                                                                 client: FlaskClient) -> None:
    barony = start(app, "barony-sorcery", 3)
    page = table_page(client, barony)
    assert 'id="setup-checklist"' not in page and "27 Territory tiles for 3 players" in page

    game = start(app, "fillory", 2)
    store_of(app).apply_move(game["id"], 0, 0, "a-1", {"type": "draw", "card": "Romance"})
    assert "<details open>" not in checklist(table_page(client, game))   # still there, folded
    assert 'id="setup-checklist"' not in seat_page(client, game, 0)       # the seat page moves on
    live = shown(client.get(f"/g/{game['id']}/live"))
    assert 'id="setup-checklist"' in live


def test_mandragora_lays_out_the_circle_the_companion_tracks(app: Flask, client: FlaskClient) -> None:
    """The rulebook shuffles the shop tiles into a random circle; the companion has drawn one already and follows
    the shops by it, so the checklist tells the table to lay out the circle the table page lists, clockwise from
    the start tile (it said to shuffle the tiles, and a table that did so had shops the companion did not)."""
    section = checklist(table_page(client, start(app, "mandragora", 3)))
    assert "Shuffle the 10 shop tiles" not in section
    assert "clockwise from the starting tile" in section and "in the order listed under" in section
    assert re.search(r"id=\"circle-title\">Shop circle", table_page(client, start(app, "mandragora", 3)))
