"""Whether cards re-laid as a new run form one, without raising (issue 37).

With ``Rules.legacy_relayout`` (RM's rules, ``engine.comparison.RM``; older records) an
extension re-lays the whole run from all its cards (``engine.melds._make_run``), so a
meld extended once is a new meld and no memo of its answers can hit again. The random
player asks, for every meld of its side and hand card, whether the card extends the
meld (``engine.melds.extends``); on those rules most answers are "no", and each came
from an ``IllegalAction`` raised and caught three times (about 40 % of a random deal's
instructions, compiled). :func:`run_lays` answers the same question by counting: it
walks the same steps as ``_make_run`` -> ``engine.runs.lay_run`` -> ``_place`` (RULES
C4, C5, C8, C9: an own-suit 2 tried natural first, then as the wild; one ace low first,
then high; no repeated slot; gaps no more than wilds; the wild in the one gap, else the
high end, else the low end; slots within ``run_lowest``..14 or 13) and says whether one
of them lays the run. ``tests/test_engine_fast_paths.py`` checks it against
``make_meld`` on random card lists.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import JOKER_SUIT, Card
from engine.memo import facts
from engine.rules import Rules


def run_lays(cards: Sequence[Card], rules: Rules) -> bool:
    """True when ``engine.melds._make_run(cards, naturals, rules)`` (no chosen wild slot)
    returns a meld, False when it raises ``IllegalAction``. ``cards``: any order, at
    least one natural (non-wild) card; the 3s the variant keeps out of melds are the
    caller's check (``meldable``), as for ``_make_run``."""
    known = facts(rules)
    ranks: list[int] = []
    suit = -1
    jokers = 0
    twos = 0
    own = False
    two_suits: list[int] = []
    for c in cards:
        if c.suit == JOKER_SUIT:
            jokers += 1
        elif c.rank == 2:
            twos += 1
            two_suits.append(c.suit)
        else:
            if suit < 0:
                suit = c.suit
            elif c.suit != suit:
                return False  # meld_mixed_suits
            ranks.append(c.rank)
    if suit < 0:
        return False  # no natural card (the caller's precondition; _make_run fails too)
    if known.natural_two and suit in two_suits:
        own = True
    for natural_two in (True, False) if own else (False,):
        wilds = jokers + twos - (1 if natural_two else 0)
        if wilds > 1:
            continue  # meld_two_wilds
        if _lays(ranks, natural_two, wilds == 1, rules):
            return True
    return False


def _lays(ranks: list[int], natural_two: bool, wild: bool, rules: Rules) -> bool:
    """``engine.runs.lay_run`` succeeds for naturals of ``ranks`` (1 = ace), a natural 2
    or not, one wild or none."""
    known = facts(rules)
    aces = ranks.count(1)
    rest = [r for r in ranks if r != 1]
    options: list[list[int]]
    if aces == 0:
        options = [rest]
    elif aces == 2:
        if not (known.ace_low and known.ace_high):
            return False  # meld_repeated_rank
        options = [[1, *rest, 14]]
    elif aces > 2:
        return False  # meld_repeated_rank
    else:
        options = []
        if known.ace_low:
            options.append([1, *rest])
        if known.ace_high:
            options.append([*rest, 14])
    for positions in options:
        if natural_two:
            positions.append(2)
        positions.sort()
        if _places(positions, wild, known.run_lowest, 14 if known.ace_high else 13):
            return True
    return False


def _places(positions: list[int], wild: bool, lo_bound: int, hi_bound: int) -> bool:
    """``engine.runs._place`` succeeds for natural slots ``positions`` (sorted) and one
    wild or none, no chosen slot; ``lo_bound``..``hi_bound``: ``slot_bounds``."""
    n = len(positions)
    for i in range(1, n):
        if positions[i] == positions[i - 1]:
            return False  # meld_repeated_rank
    lo, hi = positions[0], positions[-1]
    gaps = hi - lo + 1 - n
    if gaps > (1 if wild else 0):
        return False  # meld_gap
    first, last = lo, hi
    if wild and gaps == 0:  # no gap: the high end, else the low end (wild_spots)
        if hi < hi_bound:
            last = hi + 1
        elif lo > lo_bound:
            first = lo - 1
        else:
            return False  # meld_no_room
    if n < 2:
        return False  # meld_all_wild
    return first >= lo_bound and last <= hi_bound  # else meld_ace
