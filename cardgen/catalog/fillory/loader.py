"""The Magicians of Fillory loader: reads ``data/fillory/*.toml``, checks every fact, builds the content.

Problems are collected per file (file, record, field) and raised together as one DataError.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..base import DataError, Problem, Reader, load_notes, load_rules, player_range
from .content import FilloryContent
from .types import GAME_ID, TRICK_KINDS, AbilityOption, Card, Trait, TrickEffect

_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")

#: The fields each kind of record may have; any other is reported (a misspelt field would be ignored).
GAME_FIELDS = ("title", "source", "min_players", "max_players", "players_provenance", "victory_points",
               "starting_hand", "hand_limit", "setup_neutral")
TRAIT_FIELDS = ("name", "trick", "scorable", "provenance")
TRICK_FIELDS = ("kind", "text", "count", "trait", "zones")
CARD_FIELDS = ("number", "id", "name", "traits", "ability", "provenance")
ABILITY_FIELDS = ("action", "card", "trait")


def load(root: Path) -> FilloryContent:
    """Load and validate a Fillory data folder; raises DataError listing every problem."""
    problems: list[Problem] = []

    game_r = Reader(root, "game.toml")
    game = game_r.load()
    game_r.unknown_fields(game, "game", GAME_FIELDS)
    title = game_r.text(game, "game", "title")
    source = game_r.text(game, "game", "source", required=False)
    min_p, max_p = player_range(game_r, game, default_max=2)
    vp = game_r.integer(game, "game", "victory_points", minimum=1, default=100)
    hand = game_r.integer(game, "game", "starting_hand", minimum=0, maximum=20, default=3)
    limit = game_r.integer(game, "game", "hand_limit", minimum=1, maximum=50, default=5)
    players_prov = game_r.provenance(game, "game", "players_provenance", "authored")
    neutral_refs = game_r.strings(game, "game", "setup_neutral")

    trait_r = Reader(root, "traits.toml")
    traits: list[Trait] = []
    for i, rec in enumerate(trait_r.records(trait_r.load(), "trait"), 1):
        name = trait_r.text(rec, f"trait #{i}", "name")
        label = f"trait #{i} '{name}'"
        trait_r.unknown_fields(rec, label, TRAIT_FIELDS)
        if any(t.name.casefold() == name.casefold() for t in traits):
            trait_r.problem(label, "name", "duplicate trait")
        trick = None
        raw = rec.get("trick")
        if raw is not None:
            if not isinstance(raw, dict):
                trait_r.problem(label, "trick", "expected a table with kind and text")
            else:
                trait_r.unknown_fields(raw, label, TRICK_FIELDS, "trick.")
                kind = trait_r.text(raw, label, "trick.kind")
                if kind and kind not in TRICK_KINDS:
                    trait_r.problem(label, "trick.kind", f"unknown effect '{kind}' (known: {', '.join(TRICK_KINDS)})")
                zones = trait_r.strings(raw, label, "trick.zones", required=False)
                for z in zones:
                    if z not in ("neutral", "control", "discard"):
                        trait_r.problem(label, "trick.zones", f"unknown zone '{z}'")
                trick = TrickEffect(
                    kind=kind, text=trait_r.text(raw, label, "trick.text"),
                    count=trait_r.integer(raw, label, "trick.count", minimum=0, required=False),
                    trait=trait_r.text(raw, label, "trick.trait", required=False), zones=zones,
                )
        scorable = rec.get("scorable", True)
        if not isinstance(scorable, bool):
            trait_r.problem(label, "scorable", f"expected true or false, got {scorable!r}")
            scorable = True
        traits.append(Trait(name=name, trick=trick, scorable=scorable, provenance=trait_r.provenance(rec, label)))
    trait_names = {t.name for t in traits}
    for t in traits:
        if t.trick and t.trick.trait and t.trick.trait not in trait_names:
            trait_r.problem(f"trait '{t.name}'", "trick.trait", f"unknown trait '{t.trick.trait}'")

    note_r = Reader(root, "notes.toml")
    notes = load_notes(note_r)

    card_r = Reader(root, "cards.toml")
    card_recs = card_r.records(card_r.load(), "card")
    # first pass: ids and names, so that abilities can point forwards
    by_name: dict[str, str] = {}
    ids: set[str] = set()
    for rec in card_recs:
        raw_id, raw_name = rec.get("id"), rec.get("name")
        if isinstance(raw_id, str) and isinstance(raw_name, str):
            by_name.setdefault(raw_name.strip().casefold(), raw_id)
            by_name.setdefault(raw_id, raw_id)
    # When traits.toml itself is broken, every trait reference would fail too; report the file once
    # instead of burying it under hundreds of follow-on "unknown trait" lines.
    traits_ok = bool(traits)
    cards: list[Card] = []
    numbers: set[int] = set()
    names: set[str] = set()
    for i, rec in enumerate(card_recs, 1):
        name = card_r.text(rec, f"card #{i}", "name")
        label = f"card #{i} '{name}'" if name else f"card #{i}"
        card_r.unknown_fields(rec, label, CARD_FIELDS)
        if name and name.casefold() in names:
            card_r.problem(label, "name", f"duplicate card name '{name}'")
        names.add(name.casefold())
        cid = card_r.text(rec, label, "id")
        if cid and not _ID.match(cid):
            card_r.problem(label, "id", f"'{cid}' must be lower-case letters, digits and hyphens (max 40)")
        if cid in ids:
            card_r.problem(label, "id", f"duplicate card id '{cid}'")
        ids.add(cid)
        number = card_r.integer(rec, label, "number", minimum=1, maximum=999)
        if number in numbers:
            card_r.problem(label, "number", f"duplicate card number {number}")
        numbers.add(number)
        before = len(card_r.problems)
        card_traits = card_r.strings(rec, label, "traits")
        if not card_traits and len(card_r.problems) == before:  # the rulebook: every card has 2 or more
            card_r.problem(label, "traits", "a card has at least one trait (the rulebook gives every card 2 or more)")
        for trait_name in card_traits:
            if traits_ok and trait_name not in trait_names:
                card_r.problem(label, "traits", f"unknown trait '{trait_name}'")
        if len(set(card_traits)) != len(card_traits):
            card_r.problem(label, "traits", "a trait is listed twice")
        options: list[AbilityOption] = []
        raw_ability = rec.get("ability", [])
        if not isinstance(raw_ability, list):
            card_r.problem(label, "ability", "expected a list of {action, card|trait} tables")
            raw_ability = []
        for j, opt in enumerate(raw_ability, 1):
            field = f"ability[{j}]"
            if not isinstance(opt, dict):
                card_r.problem(label, field, "expected a table {action = ..., card = ... or trait = ...}")
                continue
            card_r.unknown_fields(opt, label, ABILITY_FIELDS, field + ".")
            action = opt.get("action")
            if action not in ("summon", "banish"):
                card_r.problem(label, field + ".action", f"must be 'summon' or 'banish', got {action!r}")
                continue
            if ("card" in opt) == ("trait" in opt):
                card_r.problem(label, field, "give exactly one of 'card' or 'trait'")
                continue
            if "card" in opt:
                ref = str(opt["card"])
                target = by_name.get(ref.strip().casefold()) or by_name.get(ref)
                if target is None:
                    card_r.problem(label, field + ".card", f"'{ref}' does not name a card")
                    continue
                options.append(AbilityOption(action, "card", target))
            else:
                ref = str(opt["trait"])
                if traits_ok and ref not in trait_names:
                    card_r.problem(label, field + ".trait", f"'{ref}' does not name a trait")
                    continue
                options.append(AbilityOption(action, "trait", ref))
        cards.append(Card(game=GAME_ID, id=cid, number=number, name=name, traits=card_traits,
                          ability=tuple(options), provenance=card_r.provenance(rec, label),
                          notes=tuple(n for n in notes if n.subject == cid)))

    missing = sorted(set(range(1, len(card_recs) + 1)) - numbers)
    if missing and not any(p.field == "number" for p in card_r.problems):  # a card taken out leaves a gap
        card_r.problem("", "card", f"no card number {missing[0]}: the {len(card_recs)} cards are numbered 1 to "
                                   f"{len(card_recs)} in the rulebook's order")

    neutral: list[str] = []
    for ref in neutral_refs:
        found = by_name.get(ref.strip().casefold()) or by_name.get(ref)
        if found is None:
            if by_name:  # an unreadable cards.toml is reported once, not once per set-up card
                game_r.problem("game", "setup_neutral", f"'{ref}' does not name a card")
        elif found in neutral:
            game_r.problem("game", "setup_neutral", f"'{ref}' is listed twice")
        else:
            neutral.append(found)

    for n in notes:
        if n.subject == "rulebook":
            continue
        if n.subject.startswith("trait:"):
            if n.subject[6:] not in trait_names:
                note_r.problem(f"note '{n.id}'", "subject", f"unknown trait '{n.subject[6:]}'")
        elif by_name and n.subject not in ids:
            note_r.problem(f"note '{n.id}'", "subject", f"unknown card id '{n.subject}'")

    rules_r = Reader(root, "rules.toml")
    rules = load_rules(rules_r, GAME_ID)
    for r in (game_r, trait_r, note_r, card_r, rules_r):
        problems.extend(r.problems)
    if problems:
        raise DataError(problems)
    return FilloryContent(
        game=GAME_ID, title=title, source=source, min_players=min_p, max_players=max_p,
        victory_points=vp, starting_hand=hand, hand_limit=limit, cards=tuple(cards),
        traits=tuple(traits), setup_neutral=tuple(neutral), rules=rules, notes=notes,
        players_provenance=players_prov,
    )
