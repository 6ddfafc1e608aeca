"""The Jonathan Strange & Mr Norrell card data: the rulebook's counts, the map, the example turn, provenance
on every record, the notes, and broken copies failing with file, record and field."""

from __future__ import annotations

import html
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from catalog_checks import edit, problems_after, rewrite
from flask.testing import FlaskClient

from cardgen.catalog import content
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.catalog.jsmn import (
    BOOK_FORMS,
    CONNEXION_TYPE_IDS,
    ELEMENT_IDS,
    Book,
    Feat,
    Introduction,
    Invitation,
    JsmnContent,
    MarseillesCard,
    NamedConnexion,
    Spell,
)
from companion.search import search

JSMN: JsmnContent = content("jsmn")
SOURCE = DEFAULT_DATA_DIR / "jsmn"


# -- the rulebook's numbers -------------------------------------------------------------------------

def test_seven_decks_with_the_rulebooks_counts_numbered_in_deck_order() -> None:
    sizes = Counter(c.kind for c in JSMN.cards)
    assert sizes == {"invitation": 48, "introduction": 48, "feat": 33, "spell": 24, "connexion": 6, "book": 18,
                     "marseilles": 12}
    assert len(JSMN.cards) == 189 and [c.number for c in JSMN.cards] == list(range(1, 190))
    assert len({c.id for c in JSMN.cards}) == 189 and len({c.name for c in JSMN.cards}) == 189
    kinds = [c.kind for c in JSMN.cards]
    assert kinds == sorted(kinds, key=["invitation", "introduction", "feat", "spell", "connexion", "book",
                                       "marseilles"].index)


def test_component_and_token_counts() -> None:
    c = JSMN.contents
    assert (c.element_tokens, c.tokens_per_element, len(JSMN.elements)) == (78, 13, 6)
    assert (c.discs, c.discs_per_colour, c.action_discs, c.prestige_discs, c.connexion_discs) == (44, 11, 6, 1, 4)
    assert (c.magician_pieces, c.magician_boards, c.fairy_discs, c.year_tokens, c.decks) == (4, 4, 1, 1, 7)
    assert JSMN.token_counts == {"element tokens": 78, "discs": 44, "fairy disc": 1, "year token": 1,
                                 "magician pieces": 4}


def test_limits_and_magicianship_values() -> None:
    lim = JSMN.limits
    assert (lim.hand_limit, lim.max_moves, lim.max_engagements, lim.invitation_takes) == (5, 2, 2, 2)
    assert (lim.start_invitations, lim.start_introductions, lim.start_feats) == (2, 2, 3)
    assert (lim.available_books, lim.available_feats, lim.available_named_connexions) == (3, 4, 2)
    assert lim.spell_discard_prestige == 1
    m = JSMN.magicianship
    assert (m.feat_values, m.book, m.pupil, m.spell) == ((2, 3, 4, 5), 1, 3, 1)


def test_tracks_years_ravens_fairy_and_prestige() -> None:
    t = JSMN.tracks
    assert t.years == tuple(range(1806, 1818)) and len(t.years) == len(JSMN.marseilles) == 12
    assert t.raven_years == (1811, 1813, 1815, 1817)
    assert t.difficulties == (0, 4, 8)
    assert len(t.connexion_spaces) == 4 == JSMN.contents.connexion_discs and t.prestige_start == 0
    assert t.fairy_length >= 8 + sum(c.strength for c in JSMN.marseilles)
    assert t.connexions_passed(0, t.connexion_spaces[1]) == 2
    assert t.connexions_passed(t.connexion_spaces[0], t.connexion_spaces[0] + 1) == 0


def test_elements_each_with_its_own_symbol() -> None:
    assert tuple(e.id for e in JSMN.elements) == ELEMENT_IDS
    symbols = {e.symbol for e in JSMN.elements}
    assert len(symbols) == 6 and JSMN.any_element_symbol not in symbols
    assert JSMN.element("Stones").symbol_name == "standing stone"


def test_invitations_and_introductions() -> None:
    for deck in (JSMN.invitations, JSMN.introductions):
        assert Counter(c.element for c in deck) == {e: 8 for e in ELEMENT_IDS}
        for card in deck:
            assert JSMN.map.location(card.location).occupiable
    for inv in JSMN.invitations:
        assert inv.london == (JSMN.map.location(inv.location).region == "city")
    assert sum(i.london for i in JSMN.invitations) == 16
    assert {i.prestige for i in JSMN.introductions} == {1, 2, 3}
    flora = JSMN.card("Flora-Greysteel")
    assert isinstance(flora, Introduction) and (flora.location, flora.prestige) == ("padua", 2)
    assert {i.person for i in JSMN.introductions} == {"historical", "period type", "fictional"}


def test_feats_values_and_requirements() -> None:
    feats = JSMN.feats
    assert {f.magicianship for f in feats} == {2, 3, 4, 5}
    assert all(f.requires and all(e in ELEMENT_IDS and n >= 1 for e, n in f.requires) for f in feats)
    needed = Counter(e for f in feats for e, n in f.requires for _ in range(n))
    assert set(needed) == set(ELEMENT_IDS) and max(needed.values()) - min(needed.values()) <= 2


def test_spells_include_the_rulebooks_two_and_all_discard_for_one_prestige() -> None:
    spells = {s.id: s for s in JSMN.spells}
    assert spells["teilos-hand"].name == "Teilo's Hand" and spells["teilos-hand"].effect == "introduction_anywhere"
    assert spells["daedaluss-rose"].effect == "place_listed_element" and spells["daedaluss-rose"].elements
    assert all(s.discard_prestige == 1 for s in spells.values())
    assert {s.timing for s in spells.values()} == {"your-turn", "any-time"}
    assert sum(s.magicianship for s in spells.values()) == 6


def test_named_connexions_one_per_type_davey_and_vinculus() -> None:
    named = {c.id: c for c in JSMN.named_connexions}
    assert sorted(c.connexion_type for c in named.values()) == sorted(CONNEXION_TYPE_IDS)
    assert (named["davey"].connexion_type, named["davey"].effect) == ("coachman", "move_anywhere")
    assert named["vinculus"].name == "Vinculus" and named["vinculus"].connexion_type == "street-magician"
    assert all("Viniculus" not in c.name for c in JSMN.cards)


def test_books_in_the_three_forms_and_cards_of_marseilles() -> None:
    assert Counter(b.form for b in JSMN.books) == {form: 6 for form in BOOK_FORMS}
    assert {(b.form, b.element) for b in JSMN.books} == {(f, e) for f in BOOK_FORMS for e in ELEMENT_IDS}
    for card in JSMN.marseilles:
        assert card.strength >= 1 and card.invitations >= 1 and card.elements
    # the example year: two invitations, stones available, trees not
    assert any(c.invitations == 2 and "stones" in c.elements and "trees" not in c.elements for c in JSMN.marseilles)


def test_boards_actions_and_connexion_types() -> None:
    assert [m.id for m in JSMN.magicians] == ["norrell", "strange", "segundus", "redruth"]
    assert JSMN.magician("Jonathan Strange").unique_provenance == "rulebook"
    assert JSMN.magician("segundus").unique_provenance == "rulebook"
    assert {JSMN.magician(m).unique_provenance for m in ("norrell", "redruth")} == {"authored"}
    assert len(JSMN.actions) + 1 == JSMN.contents.action_discs == 6
    assert sorted(e for a in JSMN.actions for e in a.study) == sorted(ELEMENT_IDS)
    assert [t.id for t in JSMN.connexion_types] == list(CONNEXION_TYPE_IDS)
    assert JSMN.connexion_type("Pupil").magicianship == 3


# -- the map ------------------------------------------------------------------------------------

def test_map_is_connected_and_the_named_locations_are_where_history_puts_them() -> None:
    europe = JSMN.map
    assert europe.is_connected()
    for loc_id, (lat, lon) in {"madrid": (40.42, -3.70), "florence": (43.77, 11.26), "padua": (45.41, 11.88)}.items():
        loc = europe.location(loc_id)
        assert abs(loc.lat - lat) < 0.1 and abs(loc.lon - lon) < 0.1 and loc.provenance == "rulebook"
    assert [loc.id for loc in europe.of_region("london")] == ["london"]
    assert not europe.location("London").occupiable


def test_city_of_london_locations_are_all_connected_to_each_other() -> None:
    europe = JSMN.map
    city = {loc.id for loc in europe.of_region("city")}
    by_london = {loc.id for loc in europe.occupiable if loc.region == "europe"
                 and any(set(p.between) == {"london", loc.id} for p in europe.paths)}
    assert len(city) == 8 and by_london
    for place in city:
        assert europe.neighbours(place) == (city - {place}) | by_london
    for place in by_london:
        assert city <= europe.neighbours(place) and "london" not in europe.neighbours(place)


def test_the_example_turn_fits_the_map() -> None:
    europe = JSMN.map
    assert europe.steps("madrid", "padua") == 3 and europe.steps("madrid", "florence") == 2
    assert "padua" in europe.neighbours("florence")
    ex = JSMN.example
    assert (ex.feats_magicianship, ex.books, ex.pupil, ex.total, ex.fairy) == (11, 1, True, 15, 18)


# -- provenance, notes, rules, card pages ------------------------------------------------------------

def test_every_record_in_every_file_carries_its_provenance() -> None:
    for path in sorted(SOURCE.glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        for key, value in doc.items():
            if key in ("note", "rule"):
                continue
            records = value if isinstance(value, list) else [value] if isinstance(value, dict) else []
            for record in records:
                assert record.get("provenance") in ("rulebook", "authored"), (path.name, key, record)
    assert all(c.provenance in ("rulebook", "authored") for c in JSMN.cards)
    assert {c.provenance for c in JSMN.cards} == {"rulebook", "authored"}


def test_notes_flag_the_rulebooks_slips() -> None:
    notes = {n.id: n for n in JSMN.notes}
    assert {"viniculus-spelling", "hand-limit-timing", "invitation-up-to-two", "connexion-discs",
            "turn-order-timing", "segundus-pupil", "balance-figures"} <= set(notes)
    vin = notes["viniculus-spelling"]
    assert (vin.printed, vin.used, vin.action, vin.subject) == ("Viniculus", "Vinculus", "normalised", "vinculus")
    assert JSMN.card("vinculus").notes == (vin,)
    assert JSMN.subject_label("vinculus") == "Vinculus (vinculus)"
    assert JSMN.subject_label("magician:segundus") == "magician John Segundus"


def test_rule_ids_and_card_rules() -> None:
    assert all(r.id.startswith("jsmn.") for r in JSMN.rules) and len({r.id for r in JSMN.rules}) == len(JSMN.rules)
    areas = {r.id.split(".")[1] for r in JSMN.rules}
    assert {"setup", "year", "turn", "action", "visit", "move", "engage", "prestige", "connexion", "magic", "feat",
            "book", "spell", "fairy", "magicianship", "tidy", "hand", "end", "difficulty", "unique"} <= areas
    for card in JSMN.cards:
        rules = JSMN.card_rules(card)
        assert rules and all(r.id.startswith("jsmn.") for r in rules)
        facts = dict(JSMN.card_facts(card))
        assert facts["What it does"] == JSMN.ability_text(card) and JSMN.label(card)
    assert JSMN.card_rules(JSMN.card("teilos-hand"))[0].id == "jsmn.spell.teilos-hand"
    assert JSMN.card_rules(JSMN.card("davey"))[0].id == "jsmn.connexion.coachman"
    london_invitation = next(i for i in JSMN.invitations if i.london)
    assert "jsmn.move.london" in [r.id for r in JSMN.card_rules(london_invitation)]


def test_card_types_match_their_decks() -> None:
    expected = {"invitation": Invitation, "introduction": Introduction, "feat": Feat, "spell": Spell,
                "connexion": NamedConnexion, "book": Book, "marseilles": MarseillesCard}
    assert all(isinstance(c, expected[c.kind]) for c in JSMN.cards)


# -- broken copies -------------------------------------------------------------------------------

@pytest.mark.parametrize("file, old, new, expected", [
    ("feats.toml", "magicianship = 5", "magicianship = 6",
     "feats.toml: feat 'raise-an-island-from-the-sea': field 'magicianship': 6 is not a feat value ((2, 3, 4, 5))"),
    ("introductions.toml", 'location = "padua"', 'location = "pavia"',
     "introductions.toml: introduction 'flora-greysteel': field 'location': 'pavia' does not name a location on "
     "the map"),
    ("invitations.toml", 'element = "trees"', 'element = "fire"',
     "invitations.toml: invitation 'state-dinner': field 'element': unknown element 'fire' (known: birds, hills, "
     "rain, stones, trees, wind)"),
    ("books.toml", 'form = "double"', 'form = "triple"',
     "books.toml: book 'the-magus': field 'form': unknown form 'triple' (known: double, any, convert)"),
    ("connexions.toml", 'type = "coachman"', 'type = "pupil"',
     "connexions.toml: field 'type': two named connexions share a connexion type"),
    ("spells.toml", 'provenance = "rulebook"', "", "spells.toml: spell 'teilos-hand': field 'provenance': is "
                                                 "missing (\"rulebook\" or \"authored\")"),
    ("game.toml", "tokens_per_element = 13", "tokens_per_element = 12",
     "game.toml: contents: field 'element_tokens': 78 is not tokens_per_element × 6 elements (72)"),
    ("game.toml", "year = 1811", "year = 1800",
     "game.toml: example: field 'year': 1800 is not a year of the game (1806..1817)"),
    ("game.toml", "year = 1811", "year = 0", "game.toml: example: field 'year': 0 is not a year of the game (1806..1817)"),
    ("marseilles.toml", 'elements = ["birds", "hills", "stones"]', 'elements = ["birds", "hills", "stone"]',
     "marseilles.toml: marseilles 'the-emperor': field 'elements': unknown element 'stone' (known: birds, hills, "
     "rain, stones, trees, wind)"),
])
def test_a_broken_field_is_named_by_file_record_and_field(tmp_path: Path, file: str, old: str, new: str,
                                                         expected: str) -> None:
    problems = problems_after(tmp_path, "jsmn", edit(file, old, new))
    assert expected in problems, problems


def test_a_missing_card_is_counted_against_the_rulebook(tmp_path: Path) -> None:
    def drop_last_feat(text: str) -> str:
        return text[:text.rindex("[[feat]]")].rstrip() + "\n"
    problems = problems_after(tmp_path, "jsmn", rewrite("feats.toml", drop_last_feat))
    assert problems == ["feats.toml: field 'feat': 32 cards here, but game.toml's contents say 33"]


def test_a_disconnected_map_and_a_moved_padua_are_refused(tmp_path: Path) -> None:
    def cut_edinburgh(text: str) -> str:
        return text.replace('[[path]]\nbetween = ["edinburgh", "york"]\nprovenance = "authored"\n', "")
    assert problems_after(tmp_path, "jsmn", rewrite("map.toml", cut_edinburgh)) == [
        "map.toml: field 'path': the map is not connected: some location cannot be reached"]


def test_the_example_turn_is_checked_against_our_map(tmp_path: Path) -> None:
    def shortcut(text: str) -> str:
        return text + '\n[[path]]\nbetween = ["madrid", "florence"]\nprovenance = "authored"\n'
    problems = problems_after(tmp_path, "jsmn", rewrite("map.toml", shortcut))
    assert "game.toml: example: field 'steps': madrid to padua takes 2 steps on our map, the example 3" in problems


def test_a_note_about_an_unknown_card_is_refused(tmp_path: Path) -> None:
    problems = problems_after(tmp_path, "jsmn",
                              edit("notes.toml", 'subject = "vinculus"', 'subject = "viniculus"'))
    assert problems == ["notes.toml: note 'viniculus-spelling': field 'subject': unknown subject 'viniculus' (a card "
                        "id, location:, magician:, element:, connexion-type:, balance or rulebook)"]


def test_the_balance_note_records_the_figures_of_the_current_numbers() -> None:
    note = next(n for n in JSMN.notes if n.id == "balance-figures")
    assert note.subject == "balance" and JSMN.subject_label("balance") == "the balance of the authored numbers"
    assert "cardgen jsmn-balance --games 2000 --seed 1" in note.text
    strengths = sum(c.strength for c in JSMN.marseilles)
    assert f"fairy +{strengths} over twelve years" in note.used
    spaces = ", ".join(str(s) for s in JSMN.tracks.connexion_spaces)
    assert f"connexion spaces {spaces}" in note.used
    assert all(f.tokens == 4 for f in JSMN.feats if f.magicianship == 5)
    assert all(f.tokens == f.magicianship for f in JSMN.feats if f.magicianship < 5)
    assert {c.invitations for c in JSMN.marseilles} == {2, 3} and {len(c.elements) for c in JSMN.marseilles} == {3}
    assert {c.strength for c in JSMN.marseilles} == {1, 2, 3, 4, 5}


# -- the generic card page and the rules search ------------------------------------------------------

def test_every_card_opens_its_page_with_facts_rules_and_notes(client: FlaskClient) -> None:
    for card in JSMN.cards:
        response = client.get(f"/c/jsmn/{card.id}")
        assert response.status_code == 200, card.id
        page = html.unescape(response.get_data(as_text=True))
        assert f'<h1 id="card-title">{JSMN.label(card)}</h1>' in page and f"card {card.number} of 189" in page
        assert f"What it does:</strong> {JSMN.ability_text(card)}" in page
    vinculus = html.unescape(client.get("/c/jsmn/vinculus").get_data(as_text=True))
    assert "printed “Viniculus”, read as “Vinculus”" in vinculus and "jsmn.connexion.street-magician" in vinculus
    assert client.get("/c/jsmn/viniculus").status_code == 404


def test_rules_search_finds_jsmn_rules_and_cards() -> None:
    assert [r["id"] for r in search("jsmn.fairy.confront")][:1] == ["jsmn.fairy.confront"]
    found = [(r["kind"], r["id"]) for r in search("Teilo's Hand", game="jsmn")]
    assert set(found[:2]) == {("rule", "jsmn.spell.teilos-hand"), ("card", "teilos-hand")}
    assert any(r["id"] == "flora-greysteel" for r in search("Flora Greysteel", game="jsmn"))
