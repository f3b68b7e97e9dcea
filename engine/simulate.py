"""Random legal play, for property tests and benchmarks (DESIGN example 9).

:func:`random_action` looks at the acting seat's cards (and the public table) and
returns a legal action chosen at random, preferring progress: it lays down melds it
finds, extends its side's melds, lays 3s and goes out when it can.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final

from engine.actions import Action
from engine.cards import ALL_FACES, Card
from engine.deal import apply, can
from engine.errors import IllegalAction
from engine.melds import SET, Meld, extends, meldable
from engine.memo import RulesMemo, facts
from engine.rules import Rules
from engine.state import DRAW, OVER, DealState, Event


def candidate_melds(hand: list[Card], rules: Rules) -> Iterator[list[Card]]:
    """Possible new melds of three cards (or two naturals and a wild) from ``hand``
    under ``rules``. A cheap generator, not exhaustive: sets by rank and runs of
    neighbouring ranks."""
    wilds: list[Card] = []
    by_rank: dict[int, list[Card]] = {}  # plain dicts, not defaultdicts: a miss there
    by_suit: dict[int, set[int]] = {}  # looks up __missing__ and calls it (issue 13)
    for c in hand:
        is_wild, rank, suit = _FACES[c]
        if is_wild:
            wilds.append(c)
            continue
        same = by_rank.get(rank)
        if same is None:
            by_rank[rank] = [c]
        else:
            same.append(c)
        suited = by_suit.get(suit)
        if suited is None:
            by_suit[suit] = {rank}
        else:
            suited.add(rank)
    known = facts(rules)  # plain fields: a pydantic field read is costly compiled
    if known.sets_allowed:
        only = known.set_ranks  # () = any rank; else apply refuses the others (meld_set_rank)
        for rank, cards in by_rank.items():
            if only and rank not in only:
                continue
            if len(cards) >= 3:
                yield cards[:3]
            if len(cards) >= 2 and wilds:
                yield [cards[0], cards[1], wilds[0]]
    wild = wilds[0] if wilds else None
    for suit, ranks in by_suit.items():
        row = _ROWS[suit]
        for r in ranks:
            up1, up2, up3 = _UPS[r]
            has1, has2 = up1 in ranks, up2 in ranks
            if not (has1 or has2):
                continue  # nothing one or two steps up: no run starts at r
            low = row[r]
            has3 = up3 in ranks
            if has1 and has2:
                yield [low, row[up1], row[up2]]
            if has1 and wild:
                yield [low, row[up1], wild]
            if has1 and has3 and wild:
                yield [low, row[up1], row[up3], wild]
            if has2 and has3 and wild:
                yield [low, row[up2], row[up3], wild]
            if has2 and wild:
                yield [low, row[up2], wild]


def _up(rank: int) -> int:
    """A rank a few steps up, the ace (1) standing for 14 above the king."""
    return 1 if rank == 14 else rank


_UPS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (_up(r + 1), _up(r + 2), _up(r + 3)) for r in range(14)
)
"""The ranks one, two and three steps above each rank (candidate runs)."""
_FACES: Final[dict[Card, tuple[bool, int, int]]] = {c: (c.wild, c.rank, c.suit) for c in ALL_FACES}
"""``(wild, rank, suit)`` of every face: one dict look-up (cards hash by identity, in C)
instead of three attribute reads of a Python class from compiled code."""
_ROWS: Final[tuple[tuple[Card, ...], ...]] = tuple(
    tuple(Card.of(max(r, 1), suit) for r in range(14)) for suit in range(4)
)
"""``_ROWS[suit][rank]``: the card (rank 1..13; index 0 unused)."""


def _may_fit(meld: Meld, card: Card) -> bool:
    """Cheap pre-check before :func:`extend_meld`: could ``card`` join ``meld``?"""
    if card.wild and meld.wild is None:
        return True
    if meld.kind == SET:
        return card.rank == meld.low
    if card.suit != meld.suit:
        return False
    ends = (meld.low - 1, meld.high + 1)
    return card.rank in ends or (card.rank == 1 and 14 in ends) or meld.wild is not None


_FITS: Final[RulesMemo[int, tuple[Meld, dict[Card, bool]]]] = RulesMemo(1_000)
"""Per rules and meld (by ``id``, the meld kept alongside), whether a card extends the
meld: a pure question the random player asks again at every turn of the same melds
and hand cards."""


def _fits(meld: Meld, card: Card, rules: Rules) -> bool:
    """``extend_meld(meld, [card], rules)`` succeeds."""
    return _may_fit(meld, card) and extends(meld, card, rules)


def _extensions(hand: list[Card], state: DealState, seat: int) -> Iterator[Action]:
    rules = state.rules
    memo = _FITS.of(rules)
    for i, m in enumerate(state.melds[state.side_of[seat]]):
        known = memo.get(id(m))
        if known is None or known[0] is not m:
            known = _FITS.put(memo, id(m), (m, {}))
        fits = known[1]
        for c in hand:
            fit = fits.get(c)
            if fit is None:
                fit = fits[c] = _fits(m, c, rules)
            if fit:
                yield Action.extend(seat, i, (c,))


def _draw_phase(state: DealState, rng: random.Random) -> Iterator[Action]:
    seat = state.turn
    if state.pile and rng.random() < 0.5 and not state.pile_blocked:  # blocked: refused
        rules = state.rules
        if not rules.pickup_justified:
            yield Action.take_pile(seat)
        else:
            top = state.pile[-1]
            hand = state.hands[seat]
            for i, meld in enumerate(state.melds[state.side_of[seat]]):
                if _may_fit(meld, top):  # cheap pre-check before the full verification
                    yield Action.take_pile(seat, meld=i)
            cards = [*hand, top]
            for trio in _meldable(candidate_melds(cards, rules), cards, rules):
                if top in trio:
                    rest = list(trio)
                    rest.remove(top)
                    yield Action.take_pile(seat, with_=rest)
    yield Action.draw(seat)


def _meldable(trios: Iterator[list[Card]], hand: list[Card], rules: Rules) -> Iterator[list[Card]]:
    """``trios`` (drawn from ``hand``) without those holding a 3 the variant keeps out of
    melds (RULES A32/A33, A6): ``make_meld`` refuses them whatever else the move holds,
    and a refusal raised through the compiled engine costs more than a whole move. The
    others come in the same order, so the random player makes the same choices."""
    if facts(rules).threes_meldable or all(meldable(c, rules) for c in hand):
        return trios
    return (t for t in trios if all(meldable(c, rules) for c in t))


def _choices(state: DealState, rng: random.Random) -> Iterator[Action]:
    """The random player's actions for ``state.turn`` in order of preference, legal or
    not: it plays the first legal one. ``rng`` is drawn from as the iteration goes on."""
    seat = state.turn
    if state.phase == DRAW:
        yield from _draw_phase(state, rng)
        return
    hand = state.hands[seat]
    if state.redraw_ok and rng.random() < 0.3:
        yield Action.redraw(seat)
    if state.rules.red_three != "ordinary":
        for c in hand:
            if c.rank == 3 and c.is_red and rng.random() < 0.9:
                yield Action.lay_three(seat, c)
    if rng.random() < 0.85:
        rules = state.rules
        for trio in _meldable(candidate_melds(hand, rules), hand, rules):
            yield Action(seat, "meld", melds=(tuple(trio),))  # Action.lay_down(seat, [trio])
        yield from _extensions(hand, state, seat)
    order = list(hand)
    _shuffle(order, rng)
    for c in order:
        yield Action.discard(seat, c)
    yield from _extensions(hand, state, seat)
    for c in hand:
        yield Action.lay_three(seat, c)


def _shuffle(cards: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: for a plain ``random.Random`` the same permutation from the
    same draws (CPython's Fisher-Yates, ``_randbelow`` by ``getrandbits``), with no
    method call per card."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def random_action(state: DealState, rng: random.Random) -> Action:
    """A legal action for ``state.turn``, chosen at random with a bias to progress.
    Raises ``IllegalAction("stuck")`` if it finds none (which would be an engine bug)."""
    for action in _choices(state, rng):
        if can(state, action):
            return action
    raise _stuck(state)


def _stuck(state: DealState) -> IllegalAction:
    return IllegalAction("stuck", "nenhuma ação legal para o assento {seat}", seat=state.turn)


def play_random_deal(
    state: DealState, rng: random.Random, max_actions: int = 5000
) -> tuple[list[Action], list[Event]]:
    """Play ``state`` to its end with :func:`random_action`'s choices; returns the actions
    and events. Each choice is tried by ``apply`` itself (which changes nothing when it
    refuses), not checked first and then applied. Raises ``IllegalAction("too_long")``
    past ``max_actions``, ``("stuck")`` when no choice is legal."""
    actions: list[Action] = []
    events: list[Event] = []
    while state.phase != OVER:
        if len(actions) >= max_actions:
            raise IllegalAction("too_long", "a mão não terminou")
        for action in _choices(state, rng):
            try:
                events.extend(apply(state, action))
            except IllegalAction:
                continue
            actions.append(action)
            break
        else:
            raise _stuck(state)
    return actions, events
