"""Score by photo: photos made from the print kit's own faces read back card by card, the limits on what a
photo may be, each game's calculator filled from cards (its declared hook), and a seat's audit with its
one-tap correction, which must not depend on another seat's secret."""

from __future__ import annotations

import io
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from PIL import Image

from cardgen.catalog import content
from cardgen.catalog.versions import card_version
from cardgen.render.qr import card_url
from companion.photo import MAX_PHOTO_BYTES, card_ref, read_photo
from companion.rules import SPECS, rules_for
from companion.web.photo import games_with_photo, hook

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import photo_set  # noqa: E402  bench/photo_set.py: table photos from the print kit's faces

PHOTO_GAMES = games_with_photo()


def test_every_discovered_game_declares_its_photo_hook() -> None:
    assert PHOTO_GAMES == [game for game, spec in SPECS.items() if spec.photo_module]
    for game in PHOTO_GAMES:
        assert hook(game) is not None


@pytest.mark.parametrize("base", ["http://localhost:8000", "https://club.example.org/tables/", "http://192.0.2.7:9000"])
def test_a_code_names_its_card_whatever_its_address(base: str) -> None:
    for game in PHOTO_GAMES:
        card = content(game).cards[0]
        assert card_ref(card_url(base, game, card.id, card_version(card))) == (game, card.id, card_version(card))
        assert card_ref(card_url(base, game, card.id)) == (game, card.id, None)
    assert card_ref("http://192.0.2.1:8000/j/ABCDEF") is None
    assert card_ref("WIFI:S:table;;") is None
    assert card_ref("ftp://x/c/fillory/quentin") is None


# -- reading generated photos ---------------------------------------------------------------------------

def _read(client: FlaskClient, game: str, jpeg: bytes) -> Any:
    response = client.post(f"/api/photo/{game}", data=jpeg, content_type="image/jpeg")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


@pytest.mark.parametrize("game", PHOTO_GAMES)
def test_a_generated_table_photo_is_read_card_by_card(client: FlaskClient, game: str) -> None:
    rng = random.Random(game)
    ids = photo_set.card_ids(game)
    for layout, ppm in (("spread", 5.0), ("fan", 6.0)):
        scene = photo_set.scene(game, rng.sample(ids, min(5, len(ids))), ppm, rng.randrange(1000), layout=layout)
        answer = _read(client, game, scene.jpeg)
        found = Counter(card["card"] for card in answer["cards"])
        assert found - Counter(scene.cards) - Counter(scene.hidden) == Counter(), "a card read that is not there"
        assert not Counter(scene.cards) - found, f"{layout} at {ppm} px/mm: missed {Counter(scene.cards) - found}"
        assert (answer["width"], answer["height"]) == scene.size
        for card in answer["cards"]:  # each box lies inside the photo, round a code of 16 mm at this scale
            xs = [x for x, _ in card["corners"]]
            assert 0 <= min(xs) and max(xs) <= scene.size[0]
            assert 0.5 * 12 * ppm < max(xs) - min(xs) < 2.5 * 16 * ppm


def test_codes_of_another_game_or_no_card_are_listed_as_not_read(client: FlaskClient) -> None:
    first, second = PHOTO_GAMES[:2]
    scene = photo_set.scene(first, photo_set.card_ids(first)[:2], 6.0, 1, perspective=0)
    answer = _read(client, second, scene.jpeg)
    assert answer["cards"] == []
    assert [u["reason"] for u in answer["unread"]] == [f"a card of another game ({first})"] * 2


def test_a_12_megapixel_jpeg_is_taken(client: FlaskClient) -> None:
    game = PHOTO_GAMES[0]
    scene = photo_set.scene(game, photo_set.card_ids(game)[:3], 6.0, 2, perspective=0)
    photo = Image.open(io.BytesIO(scene.jpeg)).resize((4000, 3000))
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=92)
    assert len(buffer.getvalue()) > 64 * 1024   # far over the JSON limit
    answer = _read(client, game, buffer.getvalue())
    assert (answer["width"], answer["height"]) == (4000, 3000)
    assert sorted(c["card"] for c in answer["cards"]) == sorted(scene.cards)


def test_a_photo_taken_with_the_phone_turned_is_read_upright() -> None:
    game = PHOTO_GAMES[0]
    scene = photo_set.scene(game, photo_set.card_ids(game)[:2], 6.0, 3, perspective=0)
    turned = Image.open(io.BytesIO(scene.jpeg)).transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6  # the camera says: turn me 90° clockwise to show me
    buffer = io.BytesIO()
    turned.save(buffer, "JPEG", quality=90, exif=exif)
    reading = read_photo(buffer.getvalue(), game)
    assert (reading.width, reading.height) == scene.size
    assert sorted(card.card_id for card in reading.cards) == sorted(scene.cards)


# -- limits ---------------------------------------------------------------------------------------------

def _png(size: tuple[int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("1", size, 1).save(buffer, "PNG")
    return buffer.getvalue()


def test_photo_limits_each_answer_a_clear_4xx(client: FlaskClient) -> None:
    game = PHOTO_GAMES[0]
    url = f"/api/photo/{game}"
    cases = [
        (client.post(url, data=b"x" * (MAX_PHOTO_BYTES + 1), content_type="image/jpeg"), 413, "at most 20,971,520"),
        (client.post(url, data=_png((8000, 7000)), content_type="image/png"), 413, "8,000 x 7,000 pixels (56.0 MP); at most 50 MP"),
        (client.post(url, data=b"GIF89a", content_type="image/gif"), 415, "Content-Type image/jpeg"),
        (client.post(url, data=b"not a photo", content_type="image/jpeg"), 415, "JPEG, PNG or WebP"),
        (client.post(url, data=b"", content_type="image/jpeg"), 400, "no photo was sent"),
        (client.post(url, data=_jpeg_cut_short(), content_type="image/jpeg"), 400, "damaged or cut short"),
        # a PNG whose header is damaged (its CRC wrong) is a damaged photo, not another kind of file
        (client.post(url, data=_png((40, 30))[:29] + b"\x00\x00\x00\x00" + _png((40, 30))[33:], content_type="image/png"),
         400, "damaged or cut short"),
        (client.post(url, data=_jpeg_cut_short()[:4], content_type="image/jpeg"), 400, "damaged or cut short"),
        (client.post("/api/photo/no-such-game", data=b"x", content_type="image/jpeg"), 404, ""),
        (client.post(f"{url}/score", data=b"{" + b" " * 70000 + b"}", content_type="application/json"), 413,
         "at most 65,536"),
    ]
    for response, status, words in cases:
        body = response.get_json()
        assert response.status_code == status and body["status"] == status, body
        assert words.replace(",", "").lower() in body["error"].replace(",", "").lower(), body["error"]


def _scan_bomb(repeats: int, size: int = 2000) -> bytes:
    """A valid progressive JPEG whose last scan is repeated ``repeats`` times: each scan is decoded over the whole
    image, so at 20 MB such a file cost minutes of CPU (an audit's attack)."""
    buffer = io.BytesIO()
    Image.new("L", (size, size), 255).save(buffer, "JPEG", progressive=True, quality=90)
    data = buffer.getvalue()
    last = data.rindex(b"\xff\xda")  # the last scan, up to the end-of-image marker
    return data[:-2] + data[last:-2] * repeats + b"\xff\xd9"


def test_a_jpeg_of_thousands_of_scans_is_refused_before_it_is_decoded(client: FlaskClient) -> None:
    """A photo's decoding work is bounded before it starts: a JPEG of more scans than any camera writes is a 413
    (it was read, minutes of a core at the size limit, and answered 200); an ordinary progressive JPEG is read."""
    import time

    from companion.photo import MAX_JPEG_SCANS

    url = f"/api/photo/{PHOTO_GAMES[0]}"
    started = time.process_time()
    refused = client.post(url, data=_scan_bomb(5000), content_type="image/jpeg")
    assert refused.status_code == 413, refused.get_json()
    assert f"at most {MAX_JPEG_SCANS} are taken" in refused.get_json()["error"]
    assert time.process_time() - started < 5  # (decoding it took about 20 s of CPU here)
    assert client.post(url, data=_scan_bomb(2, 600), content_type="image/jpeg").status_code == 200
    # only the decoded image's scans count: not the bytes of what follows it (a phone's motion photo appends its
    # video), nor those inside its metadata segments
    motion = _scan_bomb(2, 600) + b"\xff\xda" * 400 + bytes(4000)
    assert client.post(url, data=motion, content_type="image/jpeg").status_code == 200


def _jpeg_cut_short() -> bytes:
    buffer = io.BytesIO()
    Image.effect_noise((600, 400), 40).save(buffer, "JPEG", quality=90)
    return buffer.getvalue()[:3000]


# -- filling the calculators ----------------------------------------------------------------------------

def _score(client: FlaskClient, game: str, cards: list[dict[str, Any]], extras: dict[str, int] | None = None) -> Any:
    return client.post(f"/api/photo/{game}/score", json={"cards": cards, "extras": extras or {}})


def _box(x: float, y: float, side: float = 80) -> list[list[float]]:
    return [[x, y], [x + side, y], [x + side, y + side], [x, y + side]]


def test_fillory_zone_fills_the_trait_calculator(client: FlaskClient) -> None:
    zone = ["quentin", "alice", "penny", "brakebills"]
    answer = _score(client, "fillory", [{"card": card, "corners": _box(100 * i, 0)} for i, card in enumerate(zone)])
    assert answer.status_code == 200
    body = answer.get_json()
    expected = rules_for("fillory").trait_points(zone, [])
    assert [row["points"] for row in body["breakdown"]] == [entry["points"] for entry in expected]
    assert body["total"] == expected[0]["points"] and body["request"] == {"zone": zone, "scored": []}
    calc = client.post("/api/calc/fillory", json=body["request"]).get_json()
    assert calc["traits"] == expected
    twice = _score(client, "fillory", [{"card": "quentin"}, {"card": "quentin"}])
    assert twice.status_code == 422 and "listed twice" in twice.get_json()["error"]


def test_mandragora_spells_pair_with_the_spellbook_beside_them(client: FlaskClient) -> None:
    game = content("mandragora")
    spell = next(c for c in game.cards if c.kind == "spell" and c.value == 3)
    book = next(c for c in game.cards if c.kind == "spellbook" and c.value == 2)
    far_book = next(c for c in game.cards if c.kind == "spellbook" and c.colour != book.colour)
    ingredient = next(c for c in game.cards if c.kind == "ingredient" and c.colour not in (far_book.colour,))
    cards = [{"card": spell.id, "corners": _box(100, 100)}, {"card": book.id, "corners": _box(200, 120)},
             {"card": far_book.id, "corners": _box(2000, 2000)}, {"card": ingredient.id, "corners": _box(2200, 2000)},
             {"card": "scroll-one-curse-1"}]
    body = _score(client, "mandragora", cards, {"curse_marker": 1}).get_json()
    colours = {far_book.colour, ingredient.colour}
    assert body["total"] == spell.value + book.value - len(colours) - 2
    assert sum(row["points"] for row in body["breakdown"]) == body["total"]
    assert body["request"]["spells"] == [{"spell_value": spell.value, "book_value": book.value}]
    assert sorted(body["request"]["hand_colours"]) == sorted(colours)
    calc = client.post("/api/calc/mandragora", json={"players": [body["request"], {"name": "Other"}]}).get_json()
    assert calc["players"][0]["total"] == body["total"]
    # the hand laid in a row beside the spell, as cards lie side by side (about 4 code sides apart): its spellbook
    # is not taken for the one the spell was cast with (it was, within 6 sides: a wrong total, silently)
    row = _score(client, "mandragora", [{"card": spell.id, "corners": _box(0, 0)},
                                        {"card": book.id, "corners": _box(340, 0)},
                                        {"card": ingredient.id, "corners": _box(680, 0)}]).get_json()
    assert row["total"] is None and [ask["card"] for ask in row["unseen"]] == [spell.id]
    # a spellbook face down under its spell: the photo cannot see it, so the answer asks (nothing scored yet)
    lonely = _score(client, "mandragora", [{"card": spell.id, "corners": _box(0, 0)},
                                           {"card": far_book.id, "corners": _box(2000, 2000)}]).get_json()
    label = game.label(spell)
    assert lonely["total"] is None and lonely["breakdown"] == [] and lonely["request"] == {}
    assert lonely["headline"].startswith(f"The photo cannot see the spellbook under {label}: it lies face down.")
    [ask] = lonely["unseen"]
    assert ask["card"] == spell.id and ask["question"] == f"Which spellbook is under {label}?"
    choices = {choice["id"] for choice in ask["choices"]}
    assert {c.id for c in game.cards if c.kind == "spellbook"} < choices and "mandrake-1" in choices
    told = _score(client, "mandragora", [{"card": spell.id, "corners": _box(0, 0), "under": book.id},
                                         {"card": far_book.id, "corners": _box(2000, 2000)}]).get_json()
    assert told["unseen"] == [] and told["request"]["spells"] == [{"spell_value": spell.value,
                                                                    "book_value": book.value}]
    assert told["request"]["hand_colours"] == [far_book.colour]   # the book in hand is not taken for the spell
    on_mandrake = _score(client, "mandragora", [{"card": spell.id, "under": "mandrake-1"}]).get_json()
    assert on_mandrake["request"]["spells"] == [{"spell_value": spell.value, "book_value": 0}]
    wrong = _score(client, "mandragora", [{"card": spell.id, "under": ingredient.id}])
    assert wrong.status_code == 422 and "Only a spellbook or a mandrake lies under a spell" in wrong.get_json()["error"]
    # the spellbook the photo shows beside its spell (too far to be paired), named as the one under it: one card,
    # the spell's (it was refused as "listed twice"); named under two spells, it is listed twice
    beside = _score(client, "mandragora", [{"card": spell.id, "under": book.id}, {"card": book.id}]).get_json()
    assert beside["request"]["spells"] == [{"spell_value": spell.value, "book_value": book.value}]
    assert beside["request"]["hand_colours"] == []
    other = next(c for c in game.cards if c.kind == "spell" and c.id != spell.id)
    twice = _score(client, "mandragora", [{"card": spell.id, "under": book.id}, {"card": other.id, "under": book.id}])
    assert twice.status_code == 422 and "listed twice" in twice.get_json()["error"]
    elsewhere = _score(client, "fillory", [{"card": "quentin", "under": "alice"}])
    assert elsewhere.status_code == 400 and "hides another" in elsewhere.get_json()["error"]


def test_jsmn_feats_books_and_pupil_fill_the_tally(client: FlaskClient) -> None:
    game = content("jsmn")
    feats = [c for c in game.cards if c.kind == "feat"][:2]
    books = [c for c in game.cards if c.kind == "book"][:3]
    pupil = next(c for c in game.cards if getattr(c, "connexion_type", None) == "pupil")
    cards = [{"card": c.id} for c in (*feats, *books, pupil)]
    body = _score(client, "jsmn", cards, {"fairy_strength": 12, "prestige": 4}).get_json()
    magicianship = game.magicianship
    assert body["total"] == sum(f.magicianship for f in feats) + 3 * magicianship.book + magicianship.pupil
    assert body["request"]["feats"] == [f.magicianship for f in feats] and body["request"]["pupil"] is True
    assert "fairy's strength of 12" in body["headline"]
    assert not any("not scored" in note for note in body["notes"])
    # a card that counts no magicianship at the end is named as read and not scored, not dropped in silence
    idle = [next(c for c in game.cards if c.kind == kind) for kind in ("invitation", "introduction", "marseilles")]
    idle.append(next(c for c in game.cards if c.kind == "connexion" and c.connexion_type != "pupil"))
    told = _score(client, "jsmn", [*cards, *({"card": c.id} for c in idle)], {"fairy_strength": 12, "prestige": 4})
    assert told.get_json()["total"] == body["total"]
    note = next(note for note in told.get_json()["notes"] if "not scored" in note)
    assert all(str(game.label(c)) in note for c in idle) and str(game.label(pupil)) not in note
    out_of_range = _score(client, "jsmn", cards, {"fairy_strength": 999})
    assert out_of_range.status_code == 400 and "fairy_strength" in out_of_range.get_json()["error"]


def test_jsmn_a_pupil_taken_on_the_prestige_track_is_asked_beside_the_photo(client: FlaskClient) -> None:
    """The rulebook's example: 11 from feats, 1 book and the pupil make 15. A pupil taken the ordinary way is a
    disc on the board, which no photo shows: the photo scored 12 and said 15 did not reach a fairy of 14."""
    game = content("jsmn")
    feats = [c for c in game.cards if c.kind == "feat"]
    chosen = next([a, b, c] for a in feats for b in feats for c in feats
                  if len({a.id, b.id, c.id}) == 3 and a.magicianship + b.magicianship + c.magicianship == 11)
    book = next(c for c in game.cards if c.kind == "book")
    cards = [{"card": c.id} for c in (*chosen, book)]
    without = _score(client, "jsmn", cards, {"fairy_strength": 14}).get_json()
    assert without["total"] == 12 and "does not reach" in without["headline"]
    told = _score(client, "jsmn", cards, {"fairy_strength": 14, "pupil": 1}).get_json()
    assert told["total"] == 15 and told["request"]["pupil"] is True and " reaches" in told["headline"]
    levy = next(c for c in game.cards if getattr(c, "connexion_type", None) == "pupil")
    both = _score(client, "jsmn", [*cards, {"card": levy.id}], {"fairy_strength": 14, "pupil": 1}).get_json()
    assert both["total"] == 15  # one pupil, however it is told
    page = client.get("/calc/jsmn/photo").get_data(as_text=True)
    assert 'data-extra="pupil"' in page


def test_barony_spells_are_checked_as_one_cast_and_extras_give_the_total(client: FlaskClient) -> None:
    body = _score(client, "barony-sorcery", [{"card": "velocity"}, {"card": "teleport"}],
                  {"base_points": 20, "control_tokens": 2}).get_json()
    assert body["total"] == 26 and "cost 2 Magic" in body["notes"][0]
    unknown = _score(client, "barony-sorcery", [], {"gold": 3})
    assert unknown.status_code == 400 and "'gold' is not an extra" in unknown.get_json()["error"]
    no_card = _score(client, "barony-sorcery", [{"card": "quentin"}])
    assert no_card.status_code == 422


# -- auditing a tracked game ----------------------------------------------------------------------------

BEN_HANDS = (["magic-missile", "shoot-flames", "levitation"], ["death", "ember", "djinn"])


def NAMES(card: str) -> str:
    return str(content("fillory").card(card).name)


def _fillory_game(client: FlaskClient, ben_cards: list[str]) -> tuple[dict[str, Any], list[str]]:
    """A Fillory game: Ann and Ben draw three each (Ben's are ``ben_cards``), Ann draws one more and plays her
    first card. The same public moves whatever Ben's cards are."""
    created = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}).get_json()
    ann_cards = ["moonstone-knife", "time-loop", "romance", "battle-magic"]
    url = f"/api/games/{created['id']}/moves"
    moves = [(0, {"type": "draw", "card": c}) for c in ann_cards[:3]]
    moves += [(1, {"type": "draw", "card": c}) for c in ben_cards]
    moves += [(0, {"type": "draw", "card": ann_cards[3]}), (0, {"type": "play", "card": "moonstone-knife"})]
    for version, (seat, move) in enumerate(moves):
        token = created["seats"][seat]["token"]
        done = client.post(url, headers={"Authorization": f"Bearer {token}"},
                           json={"version": version, "action_id": f"m{version}", "move": move})
        assert done.status_code == 200, done.get_json()
    return created, ann_cards


def test_the_audit_finds_a_planted_mis_report_and_its_one_tap_correction_fixes_it(client: FlaskClient) -> None:
    created, _ = _fillory_game(client, BEN_HANDS[0])
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    audit = f"/api/games/{created['id']}/audit"
    loop, knife = NAMES("time-loop"), NAMES("moonstone-knife")
    body = client.post(audit, headers=ann, json={"cards": ["time-loop"]}).get_json()   # she played Time Loop
    assert body["agree"] is False and len(body["differences"]) == 1
    difference = body["differences"][0]
    assert difference["text"] == (f"The app thinks {loop} is in your hand and {knife} in front of you; the photo "
                                  f"shows {loop} in front of you, not {knife}.")
    assert difference["fix"] == {"seq": 8, "move": {"type": "play", "card": "time-loop"}}
    fixed = client.post(f"/api/games/{created['id']}/correct", headers=ann,
                        json={"version": body["version"], "action_id": "fix", **difference["fix"]})
    assert fixed.status_code == 200
    assert fixed.get_json()["state"]["players"][0]["zone"] == ["time-loop"]
    again = client.post(audit, headers=ann, json={"cards": ["time-loop"]}).get_json()
    assert again == {"agree": True, "differences": [], "version": again["version"]}
    missing = client.post(audit, headers=ann, json={"cards": []}).get_json()["differences"]
    assert [d["text"] for d in missing] == [f"The app thinks {loop} is in front of you; the photo does not show it."]


def test_only_a_seat_audits_and_only_its_own_cards(client: FlaskClient) -> None:
    created, _ = _fillory_game(client, BEN_HANDS[0])
    audit = f"/api/games/{created['id']}/audit"
    assert client.post(audit, json={"cards": []}).status_code == 401
    assert client.post(audit, headers={"Authorization": "Bearer nope"}, json={"cards": []}).status_code == 401
    ben = {"Authorization": f"Bearer {created['seats'][1]['token']}"}
    knife = NAMES("moonstone-knife")
    body = client.post(audit, headers=ben, json={"cards": ["moonstone-knife"]}).get_json()
    assert body["differences"][0]["text"] == (f"The app thinks {knife} is in front of Ann; the photo shows {knife} "
                                              "in front of you.")
    assert body["differences"][0]["fix"] is None
    assert client.post("/api/games/nope/audit", headers=ben, json={"cards": []}).status_code == 404
    assert client.post(audit, headers=ben, json={"cards": ["gandalf"]}).status_code == 422


def test_no_audit_answer_depends_on_another_seats_secret(client: FlaskClient) -> None:
    """The same public moves, Ben holding other cards: Ann's answers are the same, whatever her photo shows
    (cards of Ben's hand in one game and of the deck in the other included)."""
    first, _ = _fillory_game(client, BEN_HANDS[0])
    second, _ = _fillory_game(client, BEN_HANDS[1])
    photos = [[], ["time-loop"], BEN_HANDS[0][:2], [BEN_HANDS[1][0], "moonstone-knife"],
              [BEN_HANDS[0][2], BEN_HANDS[1][1], "quentin", "romance"]]
    for cards in photos:
        answers = [client.post(f"/api/games/{game['id']}/audit", json={"cards": cards},
                               headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
                   for game in (first, second)]
        assert answers[0].status_code == answers[1].status_code == 200
        assert answers[0].get_data() == answers[1].get_data(), cards


def test_photos_read_are_limited_per_address(tmp_path: Path) -> None:
    from companion.web import create_app

    app = create_app({"DATABASE": str(tmp_path / "p.sqlite3"), "SECRET_KEY": "k", "TESTING": True,
                      "PHOTO_LIMIT": "3 per minute"})
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.0.2.9"
    url = f"/api/photo/{PHOTO_GAMES[0]}"
    answers = [phone.post(url, data=_png((40, 30)), content_type="image/png") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1].get_json()["error"].startswith("Too many photos read from your address (at most 3 per 1 minute)")
    assert 1 <= int(answers[-1].headers["Retry-After"]) <= 60
    scored = phone.post(f"{url}/score", json={"cards": []})  # filling the calculator is not a photo read
    assert scored.status_code == 200
    app.extensions["store"].close()


AUDIT_GAMES = [game for game in PHOTO_GAMES if hook(game).audit is not None]  # type: ignore[union-attr]


def _played(game: str, seed: int, moves: int) -> Any:
    rules = rules_for(game)
    state = rules.setup(["Ann", "Ben", "Cat"], {}, random.Random(seed))
    rng = random.Random(seed + 1)
    for _ in range(moves):
        for seat in range(3):
            move = rules.random_legal_move(state, seat, rng)
            if move:
                state = rules.apply(state, seat, move)
                break
        else:
            break
    return state


@pytest.mark.parametrize("game", AUDIT_GAMES)
def test_a_photo_of_what_the_app_has_in_front_of_the_seat_agrees(game: str) -> None:
    """What the audit misses in an empty photo is what the app has in front of the seat: a photo of exactly those
    cards agrees, and one without one of them names that card alone."""
    audit, rules = hook(game).audit, rules_for(game)  # type: ignore[union-attr]
    assert audit is not None
    checked = 0
    for seed in range(4):
        state = _played(game, seed, 150)
        view = rules.view(state, 0)
        missing = audit(view, 0, [], [])
        front = [difference.card for difference in missing]
        assert all(d.text.endswith("in front of you; the photo does not show it.") and d.fix is None for d in missing)
        assert audit(view, 0, front, []) == []
        if front:
            checked += 1
            assert [d.card for d in audit(view, 0, front[1:], [])] == [front[0]]
    assert checked, "no playout put a card in front of seat 0"


def test_a_photo_is_not_kept(client: FlaskClient, tmp_path: Path) -> None:
    """Reading a photo writes nothing: the instance's files (database, its WAL, the limits' counters) are the same
    bytes afterwards, and no answer carries the photo back."""
    game = PHOTO_GAMES[0]
    scene = photo_set.scene(game, photo_set.card_ids(game)[:2], 6.0, 4, perspective=0)
    client.get("/")  # the app's files made
    before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    answer = client.post(f"/api/photo/{game}", data=scene.jpeg, content_type="image/jpeg")
    assert answer.status_code == 200 and len(answer.get_data()) < 4096
    after = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    assert after == before
    assert all(scene.jpeg[1000:1064] not in data for data in after.values())


@pytest.mark.served
def test_the_real_server_reads_photos_off_its_event_loop_and_logs_refusals_as_answers(tmp_path: Path) -> None:
    """Through ``companion serve`` (gevent): a photo is decoded in gevent's thread pool; a refused one is a 4xx and
    no crash in the log, a good one is read."""
    import requests

    from companion.served import running_server

    game = PHOTO_GAMES[0]
    scene = photo_set.scene(game, photo_set.card_ids(game)[:2], 6.0, 5, perspective=0)
    with running_server(tmp_path, ("--workers", "1"), secret_key="photo-key") as server:
        url = f"{server.base}/api/photo/{game}"
        refused = requests.post(url, data=b"not a photo", headers={"Content-Type": "image/jpeg"}, timeout=60)
        read = requests.post(url, data=scene.jpeg, headers={"Content-Type": "image/jpeg"}, timeout=60)
        log = server.log()
    assert refused.status_code == 415 and read.status_code == 200
    assert sorted(card["card"] for card in read.json()["cards"]) == sorted(scene.cards)
    assert "Traceback" not in log and "[ERROR]" not in log
