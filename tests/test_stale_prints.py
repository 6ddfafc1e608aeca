"""A printed card's QR code carries its content version; the card page says when the print is out of date."""

from __future__ import annotations

import dataclasses

import pytest
from flask.testing import FlaskClient

from cardgen.catalog import content
from cardgen.catalog.versions import card_version
from cardgen.render.qr import card_url


def test_a_cards_version_is_stable_and_changes_with_any_field() -> None:
    fillory = content("fillory")
    quentin = fillory.find_card("quentin")
    assert card_version(quentin) == card_version(dataclasses.replace(quentin), fillory)
    assert len(card_version(quentin)) == 8
    for field in dataclasses.fields(quentin):
        value = getattr(quentin, field.name)
        if isinstance(value, str):
            changed = dataclasses.replace(quentin, **{field.name: value + "!"})
            assert card_version(changed, fillory) != card_version(quentin)
    versions = {card_version(card) for card in content("fillory").cards}
    assert len(versions) == len(content("fillory").cards), "every card its own version"


def test_the_qr_url_carries_the_version() -> None:
    assert card_url("http://10.0.0.2:8000/", "fillory", "quentin", "0123abcd") == \
        "http://10.0.0.2:8000/c/fillory/quentin?v=0123abcd"
    assert card_url("http://10.0.0.2:8000", "fillory", "quentin") == "http://10.0.0.2:8000/c/fillory/quentin"


@pytest.mark.parametrize(("game", "card_id"), [("fillory", "quentin"), ("mandragora", None), ("jsmn", None),
                                               ("barony-sorcery", None)])
def test_a_page_opened_from_an_older_print_says_so(client: FlaskClient, game: str, card_id: str | None) -> None:
    catalog = content(game)
    card = catalog.find_card(card_id) if card_id else next(iter(catalog.cards))
    current = card_version(card)
    fresh = client.get(f"/c/{game}/{card.id}?v={current}")
    assert fresh.status_code == 200 and "changed since your print" not in fresh.get_data(as_text=True)
    old = "0" * 8 if current != "0" * 8 else "f" * 8
    stale = client.get(f"/c/{game}/{card.id}?v={old}")
    page = stale.get_data(as_text=True)
    assert stale.status_code == 200
    assert "This card has changed since your print." in page
    assert f"version {old}" in page and f"(version {current})" in page
    for link in (f"/c/{game}/{card.id}", f"/c/{game}/{card.id}?v=not-a-version"):
        assert "changed since your print" not in client.get(link).get_data(as_text=True)
