"""Full-text search over rule entries and cards: prefixes, rule ids, hostile input, filters, snippets."""

from __future__ import annotations

import time

import pytest

from cardgen.catalog import GAMES, content
from companion.search import MAX_LIMIT, build_index, corrections, fts_query, rulebook_aliases, search


def ids(results: list[dict[str, object]]) -> list[object]:
    return [r["id"] for r in results]


def test_prefix_finds_summon() -> None:
    results = search("summ")
    assert results[0] == {
        "kind": "rule", "id": "fillory.summon", "game": "fillory", "title": content("fillory").rule("fillory.summon").title,
        "snippet": results[0]["snippet"], "snippet_html": results[0]["snippet_html"],
        "url": "/rules/fillory#fillory.summon"}
    assert "<mark>Summon" in results[0]["snippet_html"] or "<mark>summon" in results[0]["snippet_html"]


def test_a_rule_id_finds_that_rule_first() -> None:
    assert ids(search("fillory.score.square"))[0] == "fillory.score.square"
    assert ids(search("FILLORY.END.HAND-LIMIT"))[0] == "fillory.end.hand-limit"


def test_every_rule_entry_is_found_by_its_id() -> None:
    for rule in content("fillory").rules:
        assert ids(search(rule.id, limit=1)) == [rule.id]


def test_a_card_name_finds_the_card_with_its_page_url() -> None:
    first = search("Kady’s Mother")[0]
    assert (first["kind"], first["id"], first["url"]) == ("card", "kadys-mother", "/c/fillory/kadys-mother")
    assert search("quentin")[0]["id"] == "quentin"


def test_cards_are_found_by_trait_and_ability_text() -> None:
    plover = {r["id"] for r in search("plover", limit=50) if r["kind"] == "card"}
    assert {"christopher-plover", "plover-estate", "martin-chatwin", "magic-button"} <= plover
    assert "moonstone-knife" in ids(search("banish the beast", limit=50))


@pytest.mark.parametrize("hostile", ['"', "'", "*", "(", ")", "AND", "OR NOT", "NEAR(a b)", "col:summon", "^x",
                                     '"unterminated', "a AND (b OR", "-", "+", "{}", "\\", "%", "_", "..", "\x00"])
def test_fts_syntax_in_queries_never_crashes(hostile: str) -> None:
    assert isinstance(search(hostile), list)
    assert isinstance(search(f"summon {hostile}"), list)


def test_queries_are_quoted_prefix_phrases() -> None:
    assert fts_query('summ "x" OR (beast') == '"summ"* AND "x"* AND "OR"* AND "beast"*'
    assert fts_query("banishh beast", fixes={"banishh": ["banish"]}) == '("banishh"* OR "banish"*) AND "beast"*'
    assert fts_query("fillory.score.square") == '"fillory score square"*'
    assert fts_query("  ") == "" and fts_query("*()") == ""


def test_no_entry_with_every_word_falls_back_to_any_word() -> None:
    results = search("summon zzzzqqq")
    assert ids(results)[:1] == ["fillory.summon"] and len(results) > 5
    assert search("zzzzqqq") == []


def test_empty_query_gives_nothing() -> None:
    assert search("") == [] and search("   ") == []


def test_limit_and_game_filter() -> None:
    assert len(search("card", limit=3)) == 3
    assert len(search("card", limit=10_000)) <= MAX_LIMIT
    assert all(r["game"] == "fillory" for r in search("card", game="fillory"))
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        search("card", game="chess")


def test_snippets_are_plain_text_and_escaped_html() -> None:
    for result in search("fillory", limit=50):
        assert "\x02" not in result["snippet"] and "<mark>" not in result["snippet"]
        assert result["snippet_html"].replace("<mark>", "").replace("</mark>", "").count("<") == 0
    card = search("Fillory & Further")[0]
    assert card["id"] == "fillory-further" and "&amp;" not in card["snippet"]


def test_index_covers_every_rule_and_card_and_builds_fast() -> None:
    started = time.perf_counter()
    db = build_index()
    elapsed = time.perf_counter() - started
    counts = dict(db.execute("SELECT kind, count(*) FROM entries GROUP BY kind").fetchall())
    # one entry per distinct card: identical copies (same name, value and text) share one
    distinct = sum(len({(c.name, getattr(c, "value", None), getattr(c, "curses", None), getattr(c, "colour", None))
                        for c in content(game).cards}) for game in GAMES)
    assert counts == {"rule": sum(len(content(game).rules) for game in GAMES), "card": distinct}
    assert elapsed < 10.0  # a ceiling against a pathological build, not a timing (about 0.2 s on a quiet machine)
    db.close()


def test_identical_copies_of_a_card_are_one_result() -> None:
    results = search("blue ingredient", game="mandragora", limit=50)
    titles = [r["title"] for r in results if r["kind"] == "card"]
    assert titles.count("Blue Ingredient") == 1 and "Blue Spellbook (2)" in titles, titles
    assert len(titles) == len(set(titles)), titles


# -- typos and the rulebooks' own spellings -----------------------------------------------------

def test_a_typo_finds_the_word_meant() -> None:
    assert corrections("banishh") == {"banishh": ["banish"]}
    assert "fillory.banish" in ids(search("banishh"))[:3]
    assert "fillory.banish" in ids(search("bansh", game="fillory"))[:2]  # one letter missing
    assert "moonstone-knife" in ids(search("banishh the beast", limit=50))
    assert ids(search("Quenton"))[:1] == ["quentin"]  # a name mistyped


def test_words_in_the_index_and_short_words_are_never_corrected() -> None:
    assert corrections("summon the beast plover") == {}
    assert corrections("summ") == {}  # a word's beginning is not a typo
    assert corrections("xqz") == {} and corrections("zzzzqqq") == {}  # too short, or nothing near
    assert search("zzzzqqq") == []


def test_corrections_come_from_the_game_searched() -> None:
    # "Mandrak" begins words of Mandragora only; searched in Fillory it is nearest to nothing
    assert corrections("mandrak", game="mandragora") == {}
    assert all(r["game"] == "fillory" for r in search("banishh", game="fillory"))


def test_the_rulebooks_misspellings_are_aliases() -> None:
    fillory = rulebook_aliases(content("fillory"))
    assert fillory["professor mayakovsky"] == {"Mayakowski"}
    assert fillory["creature"] == {"Creatures"} and fillory["josh hoberman"] == {"Josh"}
    assert rulebook_aliases(content("jsmn"))["vinculus"] == {"Viniculus"}
    # sentences the data normalised are not names: no alias from them
    assert not any(len(p.split()) > 3 for spelled in rulebook_aliases(content("mandragora")).values() for p in spelled)
    assert ids(search("Mayakowski"))[:1] == ["professor-mayakovsky"]
    assert ids(search("Viniculus"))[:1] == ["vinculus"]


def test_plural_and_singular_find_each_other() -> None:
    creatures = {r["id"] for r in search("creatures", game="fillory", limit=50)}
    assert {"golem", "djinn", "mercenaries"} <= creatures
