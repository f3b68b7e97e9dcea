"""Hand analysis for the AI players: which cards can meld, which runs and sets a hand
holds, and which hand cards fit a meld on the table.

Pure functions of cards and :class:`~engine.rules.Rules`. They propose candidates fast;
the AI confirms every candidate with the engine's own ``make_meld`` / ``extend_meld``
before playing it, so a bug here costs strength, never legality.

Run positions: a card of rank r sits at position r; the ace sits at 1 (``ace_low``) or
14 (``ace_high``); a 2 of the run's own suit at position 2 is natural (RULES C5, C9)
where ``rules.natural_two``; no run reaches below ``rules.run_lowest``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import Card
from engine.rules import Rules

MAX_RUN: Final = 14


def meldable(card: Card, rules: Rules) -> bool:
    """True when ``card`` may sit in a meld at all (tranca red/black 3s and Trancas may not;
    RULES A5, A6, A32, A33)."""
    if card.rank != 3 or card.is_joker:
        return True
    return rules.red_three_meldable if card.is_red else rules.black_three_meldable


def positions(card: Card, rules: Rules) -> tuple[int, ...]:
    """Run positions a natural ``card`` may take: the ace 1 and/or 14, others their rank."""
    if card.rank == 1:
        return ((1,) if rules.ace_low else ()) + ((MAX_RUN,) if rules.ace_high else ())
    return (card.rank,)


@dataclass(frozen=True)
class Candidate:
    """A proposed new meld: ``cards`` low to high for a run; ``kind`` "run" or "set";
    ``wild`` the card used as wild or None."""

    cards: tuple[Card, ...]
    kind: str
    wild: Card | None = None


class _CardFacts:
    """Per rules, by ``Card.index``: the run positions a card may take as a natural
    (:func:`_suit_slots`) and whether it may sit in a set as a natural."""

    def __init__(self, rules: Rules) -> None:
        self.slots: list[tuple[int, ...]] = [()] * 53
        self.set_ok: list[bool] = [False] * 53
        self.bits: list[int] = [0] * 53
        """The slots as a bit mask (bit p for position p)."""
        at = [(), *(positions(Card.of(rank, 0), rules) for rank in range(1, 14))]
        self.gap: list[list[int]] = [
            [min((abs(p - q) for p in at[a] for q in at[b]), default=99)
             for b in range(14)] for a in range(14)]
        """``gap[a][b]``: the fewest steps between run positions of ranks a and b."""
        for suit in range(4):
            for rank in range(1, 14):
                c = Card.of(rank, suit)
                if not meldable(c, rules):
                    continue
                self.set_ok[c.index] = not c.wild and (
                    not rules.set_ranks or rank in rules.set_ranks)
                if rank == 2 and not rules.natural_two:
                    continue
                places = positions(c, rules) if rank != 2 else (2,)
                self.slots[c.index] = tuple(p for p in places if p >= rules.run_lowest)
                self.bits[c.index] = sum(1 << p for p in self.slots[c.index])


_FACTS: Final[dict[int, tuple[Rules, _CardFacts]]] = {}


def _facts(rules: Rules) -> _CardFacts:
    """The :class:`_CardFacts` of ``rules``, looked up by identity (hashing a ``Rules``
    costs more than the scan it saves); the entry keeps its ``rules`` alive."""
    hit = _FACTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_FACTS) >= 64:
        _FACTS.clear()
    facts = _CardFacts(rules)
    _FACTS[id(rules)] = (rules, facts)
    return facts


def _suit_slots(cards: Iterable[Card], suit: int, rules: Rules) -> dict[int, Card]:
    """Position -> one natural card of ``suit`` (the suit's 2 taken as natural at 2)."""
    places = _facts(rules).slots
    slots: dict[int, Card] = {}
    for c in cards:
        if c.suit != suit:
            continue
        for p in places[c.index]:
            slots.setdefault(p, c)
    return slots


def _segments(slots: dict[int, Card], aces: int) -> list[list[int]]:
    """Maximal consecutive position runs; the ace may not fill 1 and 14 with one copy."""
    segs: list[list[int]] = []
    for p in sorted(slots):
        if segs and segs[-1][-1] == p - 1:
            segs[-1].append(p)
        else:
            segs.append([p])
    out: list[list[int]] = []
    for seg in segs:
        if seg[0] == 1 and seg[-1] == MAX_RUN and aces < 2:
            out.extend([seg[:-1], seg[1:]] if len(seg) > 1 else [seg])
        else:
            out.append(seg)
    return out


def _spare_wild(hand: Sequence[Card], used: Iterable[Card]) -> Card | None:
    """A wild from ``hand`` not among ``used`` (jokers first, then any 2)."""
    left = list(hand)
    for c in used:
        left.remove(c)
    wilds = sorted((c for c in left if c.wild), key=lambda c: (not c.is_joker, c.suit))
    return wilds[0] if wilds else None


def find_runs(hand: Sequence[Card], rules: Rules, with_wild: bool = True) -> list[Candidate]:
    """Candidate runs in ``hand``: every maximal natural run of 3+ cards, and (when
    ``with_wild``) two naturals plus a wild at an end, or two pieces bridged by a wild.

    Each candidate uses each physical card once; candidates may overlap each other.
    """
    out: list[Candidate] = []
    by_suit: list[list[Card]] = [[], [], [], [], []]
    for c in hand:
        by_suit[c.suit].append(c)
    for suit in range(4):
        if len(by_suit[suit]) < 2:
            continue
        slots = _suit_slots(by_suit[suit], suit, rules)
        if len(slots) < 2:
            continue
        aces = sum(1 for c in by_suit[suit] if c.rank == 1)
        segs = _segments(slots, aces)
        for seg in segs:
            if len(seg) >= 3:
                out.append(Candidate(tuple(slots[p] for p in seg), "run"))
        if not with_wild:
            continue
        for i, seg in enumerate(segs):
            nat = [slots[p] for p in seg]
            nxt = segs[i + 1] if i + 1 < len(segs) else None
            if nxt is not None and nxt[0] == seg[-1] + 2:
                both = nat + [slots[p] for p in nxt]
                wild = _spare_wild(hand, both)
                if wild is not None:
                    cards = (*nat, wild, *[slots[p] for p in nxt])
                    out.append(Candidate(cards, "run", wild))
            if len(seg) == 2:
                wild = _spare_wild(hand, nat)
                if wild is not None:
                    hi_ok = seg[-1] < MAX_RUN and not (seg[-1] == 13 and not rules.ace_high)
                    cards = (*nat, wild) if hi_ok else (wild, *nat)
                    out.append(Candidate(cards, "run", wild))
    return out


def find_sets(hand: Sequence[Card], rules: Rules, with_wild: bool = True) -> list[Candidate]:
    """Candidate sets (RULES §2 "set size"): 3..``set_max`` naturals of one rank, or two
    naturals and a wild. Empty when the variant has no sets. Tranca has no sets of 3s."""
    if not rules.sets_allowed:
        return []
    set_ok = _facts(rules).set_ok
    by_rank: dict[int, list[Card]] = defaultdict(list)
    for c in hand:
        if set_ok[c.index]:
            by_rank[c.rank].append(c)
    out: list[Candidate] = []
    for cards in by_rank.values():
        if len(cards) >= 3:
            out.append(Candidate(tuple(cards[: rules.set_max]), "set"))
        elif len(cards) == 2 and with_wild:
            wild = _spare_wild(hand, cards)
            if wild is not None:
                out.append(Candidate((*cards, wild), "set", wild))
    return out


def _may_meld(hand: Sequence[Card], rules: Rules) -> bool:
    """False when ``hand`` surely holds no natural meld: no three naturals of one rank
    (for sets) and no three natural cards of a suit at consecutive run positions. A
    cheap screen before :func:`find_runs` and :func:`find_sets` (most hands hold none)."""
    facts = _facts(rules)
    bits, set_ok = facts.bits, facts.set_ok
    masks = [0, 0, 0, 0, 0]
    ranks = [0] * 14
    sets = rules.sets_allowed
    for c in hand:
        masks[c.suit] |= bits[c.index]
        if sets and set_ok[c.index]:
            ranks[c.rank] += 1
            if ranks[c.rank] >= 3:
                return True
    return any(m & (m >> 1) & (m >> 2) for m in masks)


def greedy_partition(
    hand: Sequence[Card], rules: Rules, max_wilds: int = 0
) -> tuple[list[Candidate], list[Card]]:
    """Pick disjoint candidates from ``hand``, biggest natural first, then at most
    ``max_wilds`` wild-helped ones; return them and the cards left over."""
    left = list(hand)
    chosen: list[Candidate] = []
    wilds_used = 0
    while True:
        allow = wilds_used < max_wilds
        if not (allow and any(c.wild for c in left)) and not _may_meld(left, rules):
            return chosen, left
        cands = find_runs(left, rules, allow) + find_sets(left, rules, allow)
        if not cands:
            return chosen, left
        best = max(cands, key=lambda c: (c.wild is None, len(c.cards), c.kind == "run"))
        chosen.append(best)
        wilds_used += best.wild is not None
        for c in best.cards:
            left.remove(c)


def fits_run(card: Card, suit: int, low: int, high: int, rules: Rules) -> bool:
    """True when natural ``card`` extends the run of ``suit`` spanning ``low..high`` at
    either end (the wild-replacing case is left to the engine)."""
    if card.suit != suit or card.is_joker or not meldable(card, rules):
        return False
    if high - low + 1 >= MAX_RUN:
        return False
    if card.rank == 2 and not rules.natural_two:
        return False
    below = low - 1 if low > rules.run_lowest else -1  # the free ends (-1: none)
    above = high + 1 if high < MAX_RUN else -1
    for p in (2,) if card.rank == 2 else positions(card, rules):  # noqa: SIM110 (any() of a generator costs more)
        if p in (below, above):
            return True
    return False


def rank_neighbours(card: Card, hand: Sequence[Card], rules: Rules) -> tuple[int, int, int]:
    """How ``card`` connects with the rest of ``hand``: (same-suit cards one step away,
    same-suit cards two steps away, other cards of the same rank)."""
    near = far = same = 0
    mine = positions(card, rules)
    seen_self = False
    for c in hand:
        if c is card and not seen_self:
            seen_self = True
            continue
        if c.wild:
            continue
        if c.rank == card.rank:
            same += 1
            continue
        if c.suit != card.suit:
            continue
        gap = min(abs(p - q) for p in positions(c, rules) for q in mine) if mine else 99
        near += gap == 1
        far += gap == 2
    return near, far, same


class Neighbours:
    """:func:`rank_neighbours` of every card of one ``hand``, from counts made once: the
    hand's naturals by rank, and the ranks of its naturals by suit, one entry a card
    (``normal`` scores every card of the hand as a discard; card by card that is a scan
    of the hand for each)."""

    def __init__(self, hand: Sequence[Card], rules: Rules) -> None:
        self.gap = _facts(rules).gap
        ranks = self.ranks = [0] * 14
        suits: list[list[int]] = [[], [], [], [], []]
        self.suits = suits
        for c in hand:
            if not c.wild:
                ranks[c.rank] += 1
                suits[c.suit].append(c.rank)

    def of(self, card: Card) -> tuple[int, int, int]:
        """``rank_neighbours(card, hand, rules)`` for a natural ``card`` of the hand."""
        near = far = 0
        gaps = self.gap[card.rank]
        for rank in self.suits[card.suit]:
            gap = gaps[rank]  # 0 for the card's own rank: counted in ``same`` only
            if gap == 1:
                near += 1
            elif gap == 2:
                far += 1
        return near, far, self.ranks[card.rank] - 1
