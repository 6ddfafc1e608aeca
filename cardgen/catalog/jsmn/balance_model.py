"""The balance model of Jonathan Strange & Mr Norrell: one seeded game of simple strategies.

The model plays whole games with the catalog's own cards, map and tracks: the fairy rises by each year's
card of Marseilles, players choose actions (study, books, the King's Roads, their unique action, stilling
the waters), travel the real map to fulfil invitations and introductions (two moves, two engagements,
the London rule), gain prestige and connexions (the pupil first), do magic with the elements the year
and their action allow (books in their three forms), complete feats and play spells that grant
magicianship. It is a model, not the rules module: three simple strategies, no bluffing, no interaction
beyond shared decks and rows, spells other than magicianship ones simply discarded for prestige, and
no limit on element tokens. :mod:`cardgen.catalog.jsmn.balance` runs many games and reports the figures.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from .content import JsmnContent
from .types import Book, Feat, Introduction, Invitation, MarseillesCard, NamedConnexion

#: Strategy name -> (prestige weight, feats wanted in progress, keeps introductions for visits).
STRATEGIES: dict[str, tuple[float, int, bool]] = {
    "scholar": (0.6, 4, False),     # magic first: many feats open, engagements only when they beat a token
    "balanced": (1.0, 3, True),
    "socialite": (1.6, 2, True),    # prestige first: connexions early, magic with what is left
}
CONNEXION_PRIORITY = ("pupil", "coachman", "man-of-business", "confidant", "street-magician", "advisor")
EngagementCard = Invitation | Introduction


class _Deck:
    def __init__(self, cards: Sequence[Any], rng: random.Random):
        self.cards, self.rng = list(cards), rng
        self.discards: list[Any] = []
        rng.shuffle(self.cards)

    def draw(self) -> Any:
        if not self.cards:
            self.cards, self.discards = self.discards, []
            self.rng.shuffle(self.cards)
        return self.cards.pop() if self.cards else None


@dataclass
class _Player:
    strategy: str
    magician: str
    arrival: int
    hand: list[EngagementCard] = field(default_factory=list)
    feats: list[tuple[Feat, Counter[str]]] = field(default_factory=list)
    completed: int = 0
    books: list[Book] = field(default_factory=list)
    prestige: int = 0
    connexions: set[str] = field(default_factory=set)
    covered: set[str] = field(default_factory=set)
    location: str | None = None
    spell_magicianship: int = 0
    free_tokens: int = 0

    def magicianship(self, content: JsmnContent) -> int:
        m = content.magicianship
        return (self.completed + m.book * len(self.books) + self.spell_magicianship
                + (m.pupil if "pupil" in self.connexions else 0))


@dataclass
class _Game:
    content: JsmnContent
    rng: random.Random
    moves: dict[str | None, dict[str, dict[str, int]]]   # ability -> from -> to -> moves needed
    decks: dict[str, _Deck]
    books_row: list[Book]
    feats_row: list[Feat]
    named_row: list[NamedConnexion]
    players: list[_Player]
    arrivals: int = 0


def _needs(player: _Player) -> Counter[str]:
    need: Counter[str] = Counter()
    for feat, placed in player.feats:
        for element, count in feat.requires:
            need[element] += count - placed[element]
    return need


def _place(game: _Game, player: _Player, element: str) -> None:
    """Put one token on the feat closest to completion that still needs ``element``."""
    open_feats = [(f, p) for f, p in player.feats if p[element] < dict(f.requires).get(element, 0)]
    feat, placed = max(open_feats, key=lambda fp: (sum(fp[1].values()) - fp[0].tokens, -fp[0].magicianship))
    placed[element] += 1
    if all(placed[e] == n for e, n in feat.requires):
        player.feats.remove((feat, placed))
        player.completed += feat.magicianship
        spell = game.decks["spell"].draw()
        if spell is not None and spell.magicianship:
            player.spell_magicianship += spell.magicianship
        elif spell is not None:
            _gain_prestige(game, player, spell.discard_prestige)


def _magic(game: _Game, player: _Player, allowed: set[str], book_uses: int, commit: bool) -> int:
    """Do magic with the hand (cards, then books, free tokens, street magician); returns tokens placed.

    ``allowed`` is gone through in the elements' order of the data, never a set's: a set of strings iterates
    in an order that changes with each process's hash seed, and ties went to whichever came first, so the
    same ``--seed`` gave other figures from one run to the next."""
    allowed_in_order = [e.id for e in game.content.elements if e.id in allowed]
    need, hand = _needs(player), list(player.hand)
    placed: list[str] = []

    def use(element: str) -> None:
        need[element] -= 1
        placed.append(element)

    uses = {id(book): book_uses for book in player.books}

    def use_books(form: str) -> None:
        for book in (b for b in player.books if b.form == form):
            while uses[id(book)] and hand:
                wanted = [e for e in allowed_in_order if need[e] > 0]
                if form == "double" and book.element in allowed and need[book.element] >= 2:
                    fuel, gives = [c for c in hand if c.element == book.element], [book.element] * 2
                elif form == "any" and wanted:
                    fuel, gives = [c for c in hand if c.element == book.element], [max(wanted, key=need.__getitem__)]
                elif form == "convert" and book.element in wanted:
                    fuel, gives = list(hand), [book.element]
                else:
                    return
                if not fuel:
                    break
                uses[id(book)] -= 1
                hand.remove(min(fuel, key=lambda c: (c.element in allowed and need[c.element] > 0)))
                for element in gives:
                    use(element)

    use_books("double")
    for card in sorted(hand, key=lambda c: need[c.element]):
        if card.element in allowed and need[card.element] > 0:
            hand.remove(card)
            use(card.element)
    use_books("any")
    use_books("convert")
    for _ in range(player.free_tokens):
        wanted = [e for e in allowed_in_order if need[e] > 0]
        if wanted:
            use(max(wanted, key=lambda e: need[e]))
    if "street-magician" in player.connexions:
        pairs = [e for e, n in Counter(c.element for c in hand).items() if n >= 2]
        wanted = [e for e in allowed_in_order if need[e] > 0]
        if pairs and wanted:
            for _ in range(2):
                hand.remove(next(c for c in hand if c.element == pairs[0]))
            use(wanted[0])
    if commit:
        for card in player.hand:
            if card not in hand:
                game.decks[card.kind].discards.append(card)
        player.hand, player.free_tokens = hand, 0
        for element in placed:
            _place(game, player, element)
    return len(placed)


def _gain_prestige(game: _Game, player: _Player, amount: int) -> None:
    tracks = game.content.tracks
    before, player.prestige = player.prestige, min(tracks.prestige_length, player.prestige + amount)
    game.arrivals += 1
    player.arrival = game.arrivals
    for _ in range(tracks.connexions_passed(before, player.prestige)):
        free = [t for t in CONNEXION_PRIORITY if t not in player.connexions]
        if not free:
            return
        named = next((n for n in game.named_row if n.connexion_type == free[0]), None)
        player.connexions.add(free[0])
        if named is not None:
            game.named_row.remove(named)
            _named_effect(game, player, named)
            replacement = game.decks["connexion"].draw()
            if replacement is not None:
                game.named_row.append(replacement)


def _named_effect(game: _Game, player: _Player, named: NamedConnexion) -> None:
    if named.effect in ("draw_invitations", "draw_introductions"):
        kind = "invitation" if named.effect == "draw_invitations" else "introduction"
        player.hand += [c for c in (game.decks[kind].draw(), game.decks[kind].draw()) if c is not None]
    elif named.effect == "take_book" and game.books_row:
        _take_book(game, player)
    elif named.effect == "place_any_element":
        player.free_tokens += 1
    elif named.effect == "draw_spell":
        spell = game.decks["spell"].draw()
        if spell is not None and spell.magicianship:
            player.spell_magicianship += spell.magicianship


def _take_book(game: _Game, player: _Player) -> None:
    elements = Counter(c.element for c in player.hand)
    book = max(game.books_row, key=lambda b: (b.form == "convert", elements[b.element]))
    game.books_row.remove(book)
    player.books.append(book)
    new = game.decks["book"].draw()
    if new is not None:
        game.books_row.append(new)


def _moves(distance: int, ability: str | None) -> int:
    if ability == "kings" and distance:
        return 1
    if ability == "coach" and distance >= 2:
        return distance - 1
    return distance


def move_table(content: JsmnContent) -> dict[str | None, dict[str, dict[str, int]]]:
    """Moves needed between every two locations, plainly, with the King's Roads and with a coachman."""
    steps = {loc.id: content.map.steps_from(loc.id) for loc in content.map.occupiable}
    return {ability: {a: {b: _moves(d, ability) for b, d in row.items()} for a, row in steps.items()}
            for ability in (None, "kings", "coach")}


def _visit_plan(game: _Game, player: _Player, ability: str | None,
                engagements: int) -> tuple[float, list[EngagementCard]]:
    """The most valuable engagements reachable in two moves (one move ``ability`` may stretch), with their
    value to this player's strategy; moves the player to the plan's last location."""
    weight, wanted_feats, keeps = STRATEGIES[player.strategy]
    spaces = game.content.tracks.connexion_spaces
    short_of_feats = max(0, wanted_feats - len(player.feats))

    def value(card: EngagementCard) -> float:
        if isinstance(card, Introduction):
            bonus = 3.0 if any(player.prestige < s <= player.prestige + card.prestige for s in spaces) else 0.0
            return weight * card.prestige + bonus - (0.0 if keeps else 0.8)
        return (1.6 if keeps else 1.2) + short_of_feats

    here = player.location
    by_place: dict[str, list[tuple[float, int, EngagementCard]]] = {}
    for n, card in enumerate(player.hand):
        worth = value(card)
        if worth > 0:
            by_place.setdefault(card.location, []).append((worth, n, card))
    for cards in by_place.values():
        cards.sort(reverse=True)
    plain, stretched = game.moves[None], game.moves[ability]
    best: tuple[float, list[tuple[float, int, EngagementCard]], str | None] = (0.0, [], here)
    limit = game.content.limits.max_moves
    for first, at_first in by_place.items():
        to_first = (1, 1) if here is None else (plain[here][first], stretched[here][first])
        if to_first[1] > limit:
            continue
        chosen = at_first[:engagements]
        total = sum(c[0] for c in chosen)
        if total > best[0]:
            best = (total, chosen, first)
        for second, at_second in by_place.items():
            if second == first or min(to_first[1] + plain[first][second],
                                      to_first[0] + stretched[first][second]) > limit:
                continue
            chosen = sorted(at_first + at_second, reverse=True)[:engagements]
            total = sum(c[0] for c in chosen)
            if total > best[0]:
                best = (total, chosen, second)
    player.location = best[2] if best[1] else (here or game.rng.choice(list(plain)))
    return best[0], [card for _, _, card in best[1]]


def _fulfil(game: _Game, player: _Player, cards: list[EngagementCard]) -> None:
    _, wanted_feats, _ = STRATEGIES[player.strategy]
    for card in cards:
        player.hand.remove(card)
        game.decks[card.kind].discards.append(card)
        if isinstance(card, Introduction):
            _gain_prestige(game, player, card.prestige)
            continue
        for _ in range(game.content.limits.invitation_takes):
            if len(player.feats) < wanted_feats and game.feats_row:
                in_hand = Counter(c.element for c in player.hand)
                feat = max(game.feats_row, key=lambda f: (f.magicianship / f.tokens
                                                          + 0.1 * sum(in_hand[e] for e, _ in f.requires)))
                game.feats_row.remove(feat)
                player.feats.append((feat, Counter()))
                new = game.decks["feat"].draw()
                if new is not None:
                    game.feats_row.append(new)
            else:
                intro = game.decks["introduction"].draw()
                if intro is not None:
                    player.hand.append(intro)


def _choose_action(game: _Game, player: _Player, year: MarseillesCard) -> str:
    """The available action that gains most over no action this turn, or stilling the waters."""
    base = set(year.elements)
    plain_magic = _magic(game, player, base, 1, False)
    own = "coach" if "coachman" in player.connexions else None
    plain_visit = _visit_probe(game, player, own, 2)
    gains: dict[str, float] = {}
    for action in game.content.actions:
        if action.id in player.covered:
            continue
        if action.study:
            gains[action.id] = _magic(game, player, base | set(action.study), 1, False) - plain_magic
        elif action.id == "acquire-book":
            gains[action.id] = (2.2 if player.strategy == "scholar" else 1.6) if game.books_row else 0.0
        else:
            gains[action.id] = _visit_probe(game, player, "kings", 2) - plain_visit
    unique = game.content.magician(player.magician).unique_effect
    if "unique" not in player.covered:
        if unique == "extra_element":
            gains["unique"] = max((_magic(game, player, base | {e}, 1, False) for e in _needs(player)),
                                  default=plain_magic) - plain_magic
        elif unique == "books_twice":
            gains["unique"] = _magic(game, player, base, 2, False) - plain_magic
        elif unique == "extra_engagement":
            gains["unique"] = _visit_probe(game, player, own, 3) - plain_visit
        else:
            gains["unique"] = _visit_probe(game, player, "coach", 2) - plain_visit
    best = max(gains, key=lambda a: gains[a], default="still")
    if best == "still" or (len(player.covered) >= 2 and gains[best] < 0.5):
        return "still"
    return best


def _visit_probe(game: _Game, player: _Player, ability: str | None, engagements: int) -> float:
    where = player.location
    value, _ = _visit_plan(game, player, ability, engagements)
    player.location = where
    return value


def _turn(game: _Game, player: _Player, year: MarseillesCard) -> None:
    limits = game.content.limits
    if "confidant" in player.connexions:
        card = game.decks["introduction"].draw()
        if card is not None:
            player.hand.append(card)
    action = _choose_action(game, player, year)
    allowed, book_uses, ability, engagements = set(year.elements), 1, None, limits.max_engagements
    if "coachman" in player.connexions:
        ability = "coach"
    if action == "still":
        player.covered.clear()
    else:
        study = next((a.study for a in game.content.actions if a.id == action), ())
        allowed |= set(study)
        unique = game.content.magician(player.magician).unique_effect
        if action == "acquire-book" and game.books_row:
            _take_book(game, player)
        elif action == "kings-roads":
            ability = "kings"
        elif action == "unique" and unique == "extra_element":
            missing = [e for e, n in _needs(player).items() if n > 0 and e not in allowed]
            if missing:
                allowed.add(max(missing, key=lambda e: _magic(game, player, allowed | {e}, 1, False)))
        elif action == "unique" and unique == "books_twice":
            book_uses = 2
        elif action == "unique" and unique == "extra_engagement":
            engagements += 1
        elif action == "unique":
            ability = "coach"
    _fulfil(game, player, _visit_plan(game, player, ability, engagements)[1])
    _magic(game, player, allowed, book_uses, True)
    for _ in range(year.invitations):
        card = game.decks["invitation"].draw()
        if card is not None:
            player.hand.append(card)
    _tidy(game, player)
    if action != "still":
        player.covered.add(action)


def _tidy(game: _Game, player: _Player) -> None:
    limit, need = game.content.limits.hand_limit, _needs(player)
    player.hand.sort(key=lambda c: (need[c.element] > 0, isinstance(c, Invitation)), reverse=True)
    while len(player.hand) > limit:
        card = player.hand.pop()
        game.decks[card.kind].discards.append(card)
    if "man-of-business" in player.connexions and len(player.hand) < limit:
        card = game.decks["invitation"].draw()
        if card is not None:
            player.hand.append(card)


def _new_game(content: JsmnContent, rng: random.Random, lineup: Sequence[str],
              moves: dict[str | None, dict[str, dict[str, int]]]) -> _Game:
    decks = {kind: _Deck(content.deck(kind), rng) for kind in ("invitation", "introduction", "feat", "spell",
                                                              "connexion", "book")}
    lim = content.limits
    game = _Game(content, rng, moves, decks, [decks["book"].draw() for _ in range(lim.available_books)],
                 [decks["feat"].draw() for _ in range(lim.available_feats)],
                 [decks["connexion"].draw() for _ in range(lim.available_named_connexions)], [])
    magicians = [m.id for m in content.magicians]
    rng.shuffle(magicians)
    order = list(range(len(lineup)))
    rng.shuffle(order)
    for seat, strategy in enumerate(lineup):
        player = _Player(strategy=strategy, magician=magicians[seat], arrival=order[seat])
        player.hand = ([decks["invitation"].draw() for _ in range(lim.start_invitations)]
                       + [decks["introduction"].draw() for _ in range(lim.start_introductions)])
        player.feats = [(decks["feat"].draw(), Counter()) for _ in range(lim.start_feats)]
        game.players.append(player)
    game.arrivals = len(lineup)
    return game


@dataclass(frozen=True)
class GameResult:
    defeated_in: int | None          # the raven year of the first defeat, None if the fairy reigned
    fairy: tuple[int, ...]           # the fairy's strength, year by year
    best: tuple[int, ...]            # the best player's magicianship at the end of each year


def play_game(content: JsmnContent, rng: random.Random, lineup: Sequence[str], difficulty: int,
              moves: dict[str | None, dict[str, dict[str, int]]] | None = None) -> GameResult:
    """One game of the model. All twelve years are played so later years' figures exist; ``defeated_in`` is
    the first raven year at whose end of a turn some player's magicianship reached the fairy."""
    game = _new_game(content, rng, lineup, moves or move_table(content))
    marseilles = list(content.marseilles)
    rng.shuffle(marseilles)
    fairy, defeated_in = difficulty, None
    fairy_by_year: list[int] = []
    best_by_year: list[int] = []
    for index, (year, card) in enumerate(zip(content.tracks.years, marseilles, strict=False)):
        fairy += card.strength
        if index and game.books_row:
            game.decks["book"].discards.append(game.books_row.pop(0))
            new = game.decks["book"].draw()
            if new is not None:
                game.books_row.append(new)
        waiting = list(game.players)
        while waiting:
            player = max(waiting, key=lambda p: (p.prestige, p.arrival))
            waiting.remove(player)
            _turn(game, player, card)
            if (defeated_in is None and year in content.tracks.raven_years
                    and player.magicianship(content) >= fairy):
                defeated_in = year
        fairy_by_year.append(fairy)
        best_by_year.append(max(p.magicianship(content) for p in game.players))
    return GameResult(defeated_in, tuple(fairy_by_year), tuple(best_by_year))
