"""The photo audit of every game with one, in a phone's browser (390×844): a generated photo of the seat's cards
with a planted mis-report, the difference listed, one tap fixes it, the audit then agrees (Mandragora and JS&MN
here; Fillory's is in test_photo.py). And Mandragora's spellbook face down under its spell: the page says the
photo cannot see it and offers the choice, filled in from the seat's own reported casts."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any, Callable

import requests
from playwright.sync_api import BrowserContext, Page, expect

from cardgen.catalog import content
from companion.rules import rules_for
from companion.rules.mandragora.cast import EFFECT_FIELDS
from tests.e2e.conftest import HTTP_SECONDS, Api, screenshot
from tests.e2e.phone import open_seat
from tests.e2e.test_photo import doc_picture

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import photo_set  # noqa: E402  bench/photo_set.py: table photos from the print kit's faces

WAIT = 30_000  # a generous ceiling: the server reads the photo on a busy machine
MANDRAGORA, JSMN = content("mandragora"), content("jsmn")


def _game(api: Api, game: str, options: dict[str, Any]) -> dict[str, Any]:
    answer = api.http.post(f"{api.base}/api/games", json={"game": game, "players": ["Ann", "Ben"], "options": options},
                           timeout=HTTP_SECONDS)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _photo(tmp_path: Path, game: str, cards: list[str], seed: int) -> Path:
    scene = photo_set.scene(game, cards, 6.0, seed, perspective=0.05)
    assert sorted(scene.cards) == sorted(cards)
    path = tmp_path / f"{game}-{seed}.jpg"
    path.write_bytes(scene.jpeg)
    return path


def _audit_page(new_phone: Callable[[], BrowserContext], server: str, game: dict[str, Any], photo: Path,
                names: list[str]) -> Page:
    page = open_seat(new_phone, server, game, 0)
    page.get_by_role("link", name="Take a photo of your cards").click()
    expect(page.get_by_role("heading", name=re.compile("Check your cards"))).to_be_visible()
    page.set_input_files("#photo-file", str(photo))
    # the status first: a refusal ("Not read: …") is then what a failure shows
    expect(page.locator("#photo-status")).to_contain_text(f"{len(names)} cards found", timeout=WAIT)
    expect(page.locator("#photo-boxes text")).to_have_count(len(names))
    assert sorted(page.locator("#photo-boxes text").all_text_contents()) == sorted(names)
    return page


def _fix_and_agree(page: Page, text: str, label: str) -> None:
    """Compare: one difference, ``text`` in it; its fix button (``label``, a pattern) tapped; then they agree."""
    page.get_by_role("button", name="Compare with the app").click()
    expect(page.locator("#result-list li")).to_have_count(1, timeout=WAIT)
    expect(page.locator("#result-list li")).to_contain_text(text)
    page.get_by_role("button", name=re.compile(f"Fix: {label}")).click()
    expect(page.locator("#result-headline")).to_have_text("The photo and the app agree.", timeout=WAIT)


# -- Mandragora --------------------------------------------------------------------------------------------

def _mandragora_moves() -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]], Any]:
    """A fixed setup (first seat, circle) and a random playout, made here with the rules, that ends on Ann's cast
    of a spell without an effect field while the stack of its power holds another such spell."""
    rules = rules_for("mandragora")
    options = {"first_seat": 0, "circle": list(MANDRAGORA.circle_order)}
    for seed in range(40):
        rng = random.Random(seed)
        state = rules.setup(["Ann", "Ben"], options, rng)
        moves: list[tuple[int, dict[str, Any]]] = []
        for _ in range(200):
            found = next(((s, m) for s in (0, 1) if (m := rules.random_legal_move(state, s, rng))), None)
            if found is None:
                break
            seat, move = found
            state = rules.apply(state, seat, move)
            moves.append((seat, move))
            if seat == 0 and move["type"] == "cast":
                view = rules.view(state, 0)
                cast = MANDRAGORA.card(view["players"][0]["spells"][-1]["spell"])
                others = [card for stack in view["spell_stacks"] if stack["value"] == cast.value
                          for card in stack["cards"] if MANDRAGORA.card(card).spell not in (*EFFECT_FIELDS, cast.spell)]
                if cast.spell not in EFFECT_FIELDS and others:
                    return options, moves, state
    raise AssertionError("no playout ended on a cast the test can swap")


def test_mandragora_audit_fixes_a_mis_tapped_spell_and_asks_for_the_spellbook_under_a_spell(
        new_phone: Callable[[], BrowserContext], server: str, api: Api, tmp_path: Path) -> None:
    options, moves, state = _mandragora_moves()
    game = _game(api, "mandragora", options)
    tokens = [seat["token"] for seat in game["seats"]]
    for seat, move in moves:
        api.move(game["id"], tokens[seat], move)
    view = rules_for("mandragora").view(state, 0)
    mine = view["players"][0]
    cast = mine["spells"][-1]
    spell = MANDRAGORA.card(cast["spell"])
    other = next(MANDRAGORA.card(card) for stack in view["spell_stacks"] if stack["value"] == spell.value
                 for card in stack["cards"] if MANDRAGORA.card(card).spell not in (*EFFECT_FIELDS, spell.spell))
    photo_cards = [row["spell"] for row in mine["spells"][:-1]] + [other.id] + list(mine["scrolls"])
    names = [MANDRAGORA.label(MANDRAGORA.card(card)) for card in photo_cards]
    page = _audit_page(new_phone, server, game, _photo(tmp_path, "mandragora", photo_cards, 3), names)
    was, now = MANDRAGORA.label(spell), MANDRAGORA.label(other)
    _fix_and_agree(page, f"the photo shows {now} in front of you, not {was}.",
                   rf"Move [0-9]+ cast {re.escape(now)}, not {re.escape(was)}")
    screenshot(page, "photo-audit-mandragora")

    # the spellbooks under the spells lie face down: the photo cannot see them; the page asks, filled in from the
    # casts Ann reported (the corrected one included), and scores once she confirms
    page.get_by_role("button", name="Score these cards").click()
    expect(page.locator("#result-headline")).to_contain_text("The photo cannot see the spellbook under",
                                                             timeout=WAIT)
    asks = page.locator("#unseen select")
    expect(asks).to_have_count(len(mine["spells"]))
    expect(page.get_by_label(f"Which spellbook is under {now}?")).to_have_value(
        "mandrake-1" if cast["book"] == "mandrake" else cast["book"])
    expect(page.locator("#unseen .hint").first).to_have_text("Filled in from the casts you reported in this game.")
    doc_picture(page, "photo-spellbook")
    page.get_by_role("button", name="Score with your answers").click()
    expect(page.locator("#result-headline")).to_contain_text("Total:", timeout=WAIT)
    expect(page.locator("#unseen")).to_be_hidden()
    under = {row["spell"]: "mandrake-1" if row["book"] == "mandrake" else row["book"] for row in mine["spells"]}
    under[other.id] = under.pop(spell.id)
    total = requests.post(f"{server}/api/photo/mandragora/score", timeout=HTTP_SECONDS, json={
        "cards": [{"card": card, **({"under": under[card]} if card in under else {})} for card in photo_cards]}
    ).json()["total"]
    expect(page.locator("#result-headline")).to_contain_text(f"Total: {total}.")


# -- Jonathan Strange & Mr Norrell ---------------------------------------------------------------------------

def test_jsmn_audit_fixes_a_mis_tapped_starting_feat(new_phone: Callable[[], BrowserContext], server: str, api: Api,
                                                     tmp_path: Path) -> None:
    feats = [card.id for card in JSMN.cards if card.kind == "feat"]
    game = _game(api, "jsmn", {})
    tokens = [seat["token"] for seat in game["seats"]]
    api.move(game["id"], tokens[0], {"type": "starting_feats", "feats": feats[0:3]})   # she was dealt feats[6]
    api.move(game["id"], tokens[1], {"type": "starting_feats", "feats": feats[3:6]})
    photo_cards = [feats[6], feats[1], feats[2]]
    names = [JSMN.label(JSMN.card(card)) for card in photo_cards]
    page = _audit_page(new_phone, server, game, _photo(tmp_path, "jsmn", photo_cards, 4), names)
    was, now = JSMN.label(JSMN.card(feats[0])), JSMN.label(JSMN.card(feats[6]))
    _fix_and_agree(page, f"the photo shows {now} in front of you, not {was}.",
                   rf"Move [0-9]+ took {re.escape(now)}, not {re.escape(was)}")
    state = requests.get(f"{server}/api/games/{game['id']}", headers={"Authorization": f"Bearer {tokens[0]}"},
                         timeout=HTTP_SECONDS).json()["state"]
    assert sorted(feat["id"] for feat in state["players"][0]["ledger"]["feats"]) == sorted(photo_cards)
