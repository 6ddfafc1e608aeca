"""Facts a Fillory card page shows (templates/pages/card.html): its ability as linkable pieces, the rules it
touches, who names it."""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.catalog import RuleEntry
from cardgen.catalog.fillory import Card, FilloryContent


@dataclass(frozen=True)
class Segment:
    """A piece of the ability sentence: plain text, or a card/trait the page links to."""

    text: str
    kind: str = "text"  # "text" | "card" | "trait"
    target: str = ""    # card id or trait name


def _listed(items: list[Segment]) -> list[Segment]:
    """'A', 'A or B', 'A, B or C' with the names kept as link segments."""
    out: list[Segment] = []
    for i, item in enumerate(items):
        if i and i == len(items) - 1:
            out.append(Segment(" or "))
        elif i:
            out.append(Segment(", "))
        out.append(item)
    return out


def ability_segments(catalog: FilloryContent, card: Card) -> list[Segment]:
    """The ability sentence (same words as ``catalog.ability_text``) split into linkable pieces."""
    groups: list[tuple[str, list[Segment]]] = []
    for option in card.ability:
        label = option.label(catalog)
        piece = Segment(label, option.kind, option.target)
        if groups and groups[-1][0] == option.action:
            groups[-1][1].append(piece)
        else:
            groups.append((option.action, [piece]))
    if len(groups) == 2 and len(groups[0][1]) == 1 and groups[0][1] == groups[1][1]:
        return [Segment(f"{groups[0][0].title()} or {groups[1][0].title()} "), groups[0][1][0]]
    out: list[Segment] = []
    for i, (action, pieces) in enumerate(groups):
        out.append(Segment((" or " if i else "") + action.title() + " "))
        out.extend(_listed(pieces))
    return out


def card_rules(catalog: FilloryContent, card: Card) -> list[RuleEntry]:
    """The rule entries this card touches: its ability, its traits' card tricks, scoring."""
    wanted: list[str] = []
    actions = {option.action for option in card.ability}
    if actions:
        wanted += ["fillory.action.play", "fillory.ability.when", "fillory.ability.target"]
    wanted += [f"fillory.{action}" for action in ("summon", "banish") if action in actions]
    for name in card.traits:
        if catalog.trait(name).trick is not None:
            wanted += ["fillory.trick.discard", f"fillory.trick.{name.casefold()}"]
    if any(catalog.trait(name).scorable for name in card.traits):
        wanted += ["fillory.score.square", "fillory.score.once"]
    if any(not catalog.trait(name).scorable for name in card.traits):
        wanted.append("fillory.score.no-character")
    if card.id in catalog.setup_neutral:
        wanted.append("fillory.setup.neutral")
    known = {rule.id: rule for rule in catalog.rules}
    return [known[rule_id] for rule_id in dict.fromkeys(wanted) if rule_id in known]


def named_by(catalog: FilloryContent, card: Card) -> list[tuple[Card, str]]:
    """Other cards whose ability names this card itself: (card, 'summon' | 'banish')."""
    found: list[tuple[Card, str]] = []
    for other in catalog.cards:
        for option in other.ability:
            if option.kind == "card" and option.target == card.id and other.id != card.id:
                found.append((other, option.action))
    return found


def card_context(catalog: FilloryContent, card: Card) -> dict[str, object]:
    """What templates/pages/card.html shows for a Fillory card (``GamePages.card_context``)."""
    return {"segments": ability_segments(catalog, card), "rules": card_rules(catalog, card),
            "named_by": named_by(catalog, card), "traits": [catalog.trait(t) for t in card.traits],
            "title": card.name}
