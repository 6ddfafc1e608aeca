"""The card pages that Mandragora's printed QR codes open: one for every card, built from the catalog."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from cardgen.catalog import content
from cardgen.catalog.mandragora import MandragoraContent

MANDRAGORA: MandragoraContent = content("mandragora")


def _page(client: FlaskClient, card_id: str) -> str:
    response = client.get(f"/c/mandragora/{card_id}")
    assert response.status_code == 200, card_id
    return html.unescape(response.get_data(as_text=True))


def test_every_printed_qr_code_opens_a_card_page(client: FlaskClient) -> None:
    for card in MANDRAGORA.cards:
        page = _page(client, card.id)
        assert f'<h1 id="card-title">{MANDRAGORA.label(card)}</h1>' in page
        assert f"card {card.number} of 106" in page


@pytest.mark.parametrize("card_id, facts", [
    ("spellbook-blue-2", ["Kind:</strong> Spellbook", "Colour:</strong> Blue (symbol: water drop)",
                          "Value:</strong> 2", "Left in the box:</strong> with 2 sorcerers"]),
    ("swiftness-2", ["Kind:</strong> Spell", "Value:</strong> 3", "Effect:</strong> Permanent (infinity icon)",
                     "What it does:</strong> Permanent effect: For the rest of the game"]),
    ("scroll-three-curses", ["Kind:</strong> Cursed scroll", "Curses:</strong> 3"]),
    ("mandrake-4", ["Colour:</strong> any (wild); White when left in hand"]),
])
def test_card_page_facts(client: FlaskClient, card_id: str, facts: list[str]) -> None:
    page = _page(client, card_id)
    for fact in facts:
        assert fact in page, fact


def test_card_page_links_its_rules_and_neighbours(client: FlaskClient) -> None:
    page = _page(client, "banishment-1")
    card = MANDRAGORA.card("banishment-1")
    for rule in MANDRAGORA.card_rules(card):
        assert f'href="/rules/mandragora#{rule.id}"' in page and rule.text in page
    assert 'href="/c/mandragora/spellbook-black">← previous card' in page
    assert 'href="/c/mandragora/banishment-2">next card →' in page
    assert "written for this project" not in page  # spells are the rulebook's (their values are not)
    assert "written for this project" in _page(client, "spellbook-red-0")


def test_unknown_mandragora_card_is_a_404_sentence(client: FlaskClient) -> None:
    response = client.get("/c/mandragora/ingredient-blue-13")
    assert response.status_code == 404
    assert "Mandragora has no card 'ingredient-blue-13'." in html.unescape(response.get_data(as_text=True))


def test_rules_page_lists_the_mandragora_rules_the_card_pages_link_to(client: FlaskClient) -> None:
    page = client.get("/rules/mandragora").get_data(as_text=True)
    ids = set(re.findall(r'<li id="(mandragora\.[a-z.-]+)"', page))
    assert {rule.id for rule in MANDRAGORA.rules} == ids


def test_the_rules_page_marks_disappearances_white_mandrakes_as_our_reading(client: FlaskClient) -> None:
    """The entry says "(our reading)" and is marked authored: the page shows the tag beside its id, as it does for
    every authored entry (it showed none)."""
    page = html.unescape(client.get("/rules/mandragora").get_data(as_text=True))
    entry = re.search(r'<li id="mandragora\.effect\.disappearance".*?</li>', page, re.S)
    assert entry is not None and '<span class="tag">authored</span>' in entry.group(0)
    assert "(our reading)" in entry.group(0)
