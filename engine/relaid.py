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
from typing import Final

from engine.cards import ALL_FACES, Card
from engine.memo import facts
from engine.rules import Rules

_CODES: Final[dict[Card, int]] = {c: c.suit * 16 + c.rank for c in ALL_FACES}
"""``suit * 16 + rank`` of every face (the joker: 64): one dict look-up in C instead of
reading two slots of the Python class ``Card`` from compiled code."""


def run_lays(cards: Sequence[Card], rules: Rules) -> bool:
    """True when ``engine.melds._make_run(cards, naturals, rules)`` (no chosen wild slot)
    returns a meld, False when it raises ``IllegalAction``. ``cards``: any order, at
    least one natural (non-wild) card; the 3s the variant keeps out of melds are the
    caller's check (``meldable``), as for ``_make_run``."""
    known = facts(rules)
    suit = -1
    wilds = 0
    two_suits = 0  # bit s: a 2 of suit s
    lo, hi, n, aces, seen = 99, 0, 0, 0, 0  # naturals other than aces: lowest, highest...
    for c in cards:
        code = _CODES[c]
        rank = code & 15
        if code >= 64:
            wilds += 1  # the joker
            continue
        if rank == 2:
            wilds += 1
            two_suits |= 1 << (code >> 4)
            continue
        if suit < 0:
            suit = code >> 4
        elif code >> 4 != suit:
            return False  # meld_mixed_suits
        if rank == 1:
            aces += 1
            continue
        if seen >> rank & 1:
            return False  # meld_repeated_rank, whatever the aces and 2s
        seen |= 1 << rank
        n += 1
        lo = min(lo, rank)
        hi = max(hi, rank)
    if suit < 0:
        return False  # no natural card (the caller's precondition; _make_run fails too)
    own = known.natural_two and two_suits >> suit & 1 == 1
    bounds = (known.run_lowest, 14 if known.ace_high else 13)
    for natural_two in (True, False) if own else (False,):
        if wilds - (1 if natural_two else 0) > 1:
            continue  # meld_two_wilds
        wild = wilds - (1 if natural_two else 0) == 1
        if natural_two:  # slot 2 taken by the natural 2 (``lay_run``'s positions + [2])
            if _lays(min(lo, 2), max(hi, 2), n + 1, aces, wild, known.ace_low,
                     known.ace_high, bounds):
                return True
        elif _lays(lo, hi, n, aces, wild, known.ace_low, known.ace_high, bounds):
            return True
    return False


def _lays(lo: int, hi: int, n: int, aces: int, wild: bool, ace_low: bool, ace_high: bool,
          bounds: tuple[int, int]) -> bool:
    """``engine.runs.lay_run`` succeeds for ``n`` distinct natural slots other than the
    aces' from ``lo`` to ``hi`` (99, 0 for none), ``aces`` aces and one wild or none:
    ``_ace_choices`` (one ace: low, then high; two: both ends, where the variant has
    both; more: repeated) then ``_place``."""
    if aces == 0:
        return _places(lo, hi, n, wild, bounds)
    if aces == 2:
        return ace_low and ace_high and _places(1, 14, n + 2, wild, bounds)
    if aces > 2:
        return False  # meld_repeated_rank
    if ace_low and _places(1, max(hi, 1), n + 1, wild, bounds):
        return True
    return ace_high and _places(min(lo, 14), 14, n + 1, wild, bounds)


def _places(lo: int, hi: int, n: int, wild: bool, bounds: tuple[int, int]) -> bool:
    """``engine.runs._place`` succeeds for ``n`` distinct natural slots ``lo``..``hi`` and
    one wild or none, no chosen slot; ``bounds``: ``slot_bounds``."""
    gaps = hi - lo + 1 - n
    if gaps > (1 if wild else 0):
        return False  # meld_gap
    lo_bound, hi_bound = bounds
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
