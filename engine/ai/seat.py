"""What the AI derives from a seat's view: its side, the opponents, and the going-out
rules as they apply to a planned lay-down (RULES C11, C13, A1, A16, A17).

Reads only the :class:`~engine.view.SeatView` handed to the AI.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.danger import Table
from engine.ai.weights import NORMAL, Weights
from engine.cards import Card
from engine.melds import Meld, canastra_bonus
from engine.rules import Requirement, Rules
from engine.scoring import card_points
from engine.view import SeatView


def opponents(view: SeatView) -> list[int]:
    """Seats of the other sides, in play order from the next seat."""
    n = len(view.hand_counts)
    return [s for k in range(1, n) if (s := (view.seat + k) % n) not in view.teams[view.side]]


def opp_sides(view: SeatView) -> list[int]:
    """Side indexes other than the AI's own."""
    return [i for i in range(len(view.teams)) if i != view.side]


def table_of(view: SeatView) -> Table:
    """The public facts :func:`engine.ai.danger.danger` reads, from ``view``."""
    own, melds, seen = view.side, view.melds, view.seen_taken
    if len(melds) == 2:  # two sides (most tables): the other side's melds as they lie
        opp_melds = tuple(melds[1 - own])
    else:
        opp_melds = tuple([m for s in opp_sides(view) for m in melds[s]])
    taken: tuple[Card, ...] = ()
    for s in opponents(view):
        if seen[s]:
            taken += tuple(seen[s])
    nxt = (view.seat + 1) % len(view.hand_counts)
    return Table(
        opp_melds=opp_melds,
        opp_taken=taken,
        pile_size=view.pile_size,
        pile_open=view.rules.pile_open,
        next_hand=view.hand_counts[nxt],
    )


def meets(req: Requirement, melds: Sequence[Meld]) -> bool:
    """True when ``melds`` satisfy a going-out requirement (RULES §2 "going out")."""
    if req == Requirement.NONE:
        return True
    if req == Requirement.ANY_CANASTRA:
        return any(m.is_canastra for m in melds)
    return any(m.is_clean_canastra for m in melds)


def morto_open(view: SeatView) -> bool:
    """True when a going-out by this seat would take the side's morto now."""
    return bool(view.rules.morto and view.mortos_left[view.side])


def out_allowed(view: SeatView, melds_after: Sequence[Meld], direct: bool) -> bool:
    """May this seat empty its hand with ``melds_after`` on its side's table?
    ``direct``: by melding (no discard). Taking the morto follows ``morto_requires`` and
    A1 (the second morto of altaneira only directly); ending the deal ``end_requires``."""
    rules = view.rules
    if morto_open(view):
        if rules.second_morto_direct_only and not direct:
            others = opp_sides(view)
            if any(not view.mortos_left[s] for s in others):
                return False
        return meets(rules.morto_requires, melds_after)
    return meets(rules.end_requires, melds_after)


def side_value(melds: Sequence[Meld], rules: Rules) -> int:
    """Table points of a side: melded card points plus canastra bonuses (C14)."""
    return sum(sum(card_points(c, rules) for c in m.cards) + canastra_bonus(m, rules)
               for m in melds)


def ending_pays(view: SeatView, melds_after: Sequence[Meld], w: Weights = NORMAL) -> bool:
    """Would ending the deal now leave the AI's side ahead (a rough C14 estimate)?"""
    rules = view.rules
    n = len(view.hand_counts)
    mine = float(side_value(melds_after, rules) + rules.batida_bonus)
    mine -= sum(view.hand_counts[s] * w.out_hand_card for s in view.teams[view.side]
                if s != view.seat)
    if rules.morto and not view.morto_taken[view.side]:
        mine -= rules.morto_penalty
    best_opp = -1e9
    for side in opp_sides(view):
        theirs = float(side_value(view.melds[side], rules))
        theirs -= sum(view.hand_counts[s] * w.out_hand_card for s in view.teams[side])
        if rules.morto and not view.morto_taken[side]:
            theirs -= rules.morto_penalty
        best_opp = max(best_opp, theirs)
    close = min(view.hand_counts[s] for s in range(n) if s not in view.teams[view.side])
    return mine > best_opp or view.stock_size < w.out_stock or close <= w.out_close
