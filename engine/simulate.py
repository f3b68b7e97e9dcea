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
    under ``rules``. A cheap generator, not exhaustive: sets by rank (first seen first;
    only the ranks ``rules.set_ranks`` allows, where it is set) and runs of neighbouring
    ranks (suits first seen first; in a suit, the ranks in the order a Python ``set`` of
    them iterates: :func:`_set_order`). The order is the random player's preference, so
    it stays the one the earlier dict-and-set version gave (issue 37: the sets became
    bit masks; ``tests/test_engine_fast_paths.py`` compares the two)."""
    known = facts(rules)  # plain fields: a pydantic field read is costly compiled
    sets_on, only = known.sets_allowed, known.set_rank_bits
    wild: Card | None = None
    by_rank: dict[int, list[Card]] = {}
    masks = [0, 0, 0, 0]  # per suit, bit r set for a natural card of rank r
    seen: list[int] = []  # suit * 16 + rank of each natural face, in hand order, once
    for c in hand:
        is_wild, rank, suit = _FACES[c]
        if is_wild:
            if wild is None:
                wild = c
            continue
        if sets_on and (not only or only >> rank & 1):
            same = by_rank.get(rank)
            if same is None:
                by_rank[rank] = [c]
            else:
                same.append(c)
        mask = masks[suit]
        if not mask >> rank & 1:
            masks[suit] = mask | 1 << rank
            seen.append(suit * 16 + rank)
    for cards in by_rank.values():
        if len(cards) >= 3:
            yield cards[:3]
        if len(cards) >= 2 and wild is not None:
            yield [cards[0], cards[1], wild]
    walked = 0  # bit s: suit s done
    for key in seen:
        suit = key >> 4
        if walked >> suit & 1:
            continue
        walked |= 1 << suit
        ranks, row = masks[suit], _ROWS[suit]
        order = _set_order(seen, suit, ranks)
        while order:
            r = order & 15
            order >>= 4
            up1 = 1 if r == 13 else r + 1  # the ace (1) stands for 14 above the king
            up2 = 1 if r == 12 else r + 2
            has1, has2 = ranks >> up1 & 1 == 1, ranks >> up2 & 1 == 1
            if not (has1 or has2):
                continue  # nothing one or two steps up: no run starts at r
            up3 = 1 if r == 11 else r + 3
            low, has3 = row[r], ranks >> up3 & 1 == 1
            if has1 and has2:
                yield [low, row[up1], row[up2]]
            if wild is None:
                continue
            if has1:
                yield [low, row[up1], wild]
            if has1 and has3:
                yield [low, row[up1], row[up3], wild]
            if has2 and has3:
                yield [low, row[up2], row[up3], wild]
            if has2:
                yield [low, row[up2], wild]


def _set_order(seen: list[int], suit: int, ranks: int) -> int:
    """The ranks of ``suit`` (bits of ``ranks``; ``seen``: ``suit * 16 + rank`` in the
    order they were first seen), four bits each from the lowest, in the order CPython
    (3.11) iterates a ``set`` of those ints built by adding them in that order: hash(r)
    = r; up to 4 ints the table has 8 slots, an int goes to slot r & 7, or on a taken
    slot to (5 * slot + 1) & 7 (no linear probes in so small a table, no perturbation
    below 32), and the set iterates by slot; from 5 ints it has 32 slots: ascending."""
    table = 0  # slot i: bits 4i..4i+3
    n = 0
    for key in seen:
        if key >> 4 != suit:
            continue
        n += 1
        if n > 4:
            table = 0
            for r in range(13, 0, -1):
                if ranks >> r & 1:
                    table = table << 4 | r
            return table
        r = key & 15
        i = r & 7
        while table >> 4 * i & 15:
            i = (5 * i + 1) & 7
        table |= r << 4 * i
    order = 0
    for i in range(7, -1, -1):
        r = table >> 4 * i & 15
        if r:
            order = order << 4 | r
    return order


_FACES: Final[dict[Card, tuple[bool, int, int]]] = {c: (c.wild, c.rank, c.suit) for c in ALL_FACES}
"""``(wild, rank, suit)`` of every face: one dict look-up (cards hash by identity, in C)
instead of three attribute reads of a Python class from compiled code."""
_ROWS: Final[tuple[tuple[Card, ...], ...]] = tuple(
    tuple(Card.of(max(r, 1), suit) for r in range(14)) for suit in range(4)
)
"""``_ROWS[suit][rank]``: the card (rank 1..13; index 0 unused)."""


def _may_fit(meld: Meld, card: Card) -> bool:
    """Cheap pre-check before :func:`extend_meld`: could ``card`` join ``meld``?"""
    is_wild, rank, suit = _FACES[card]  # one look-up, not three slot reads (issue 37)
    if is_wild and meld.wild is None:
        return True
    if meld.kind == SET:
        return rank == meld.low
    if suit != meld.suit:
        return False
    below, above = meld.low - 1, meld.low + len(meld.cards)  # the run's open ends
    return rank in (below, above) or (rank == 1 and 14 in (below, above)) or meld.wild is not None


_FITS: Final[RulesMemo[int, tuple[Meld, dict[Card, bool]]]] = RulesMemo(1_000)
"""Per rules and meld (by ``id``, the meld kept alongside), whether a card extends the
meld: a pure question the random player asks again at every turn of the same melds
and hand cards."""


def _fits(meld: Meld, card: Card, rules: Rules) -> bool:
    """``extend_meld(meld, [card], rules)`` succeeds."""
    return _may_fit(meld, card) and extends(meld, card, rules)


def _fits_of(memo: dict[int, tuple[Meld, dict[Card, bool]]], meld: Meld) -> dict[Card, bool]:
    """The remembered answers of :func:`_fits` for ``meld`` (``memo``: ``_FITS.of(rules)``)."""
    known = memo.get(id(meld))
    if known is None or known[0] is not meld:
        known = _FITS.put(memo, id(meld), (meld, {}))
    return known[1]


def _extensions(hand: list[Card], state: DealState, seat: int) -> Iterator[Action]:
    rules = state.rules
    memo = _FITS.of(rules)
    for i, m in enumerate(state.melds[state.side_of[seat]]):
        fits = _fits_of(memo, m)
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
        if not facts(rules).pickup_justified:
            yield Action.take_pile(seat)
        else:
            top = state.pile[-1]
            hand = state.hands[seat]
            memo = _FITS.of(rules)
            for i, meld in enumerate(state.melds[state.side_of[seat]]):
                # apply extends the meld by the top card alone (pile._justify): where it
                # cannot, apply refuses the pick-up, so it is not offered (issue 37)
                fits = _fits_of(memo, meld)
                fit = fits.get(top)
                if fit is None:
                    fit = fits[top] = _fits(meld, top, rules)
                if fit:
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
    if not facts(state.rules).red_ordinary:  # not a pydantic read a turn (issue 37)
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
