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
from engine.runs import Layout

_CODES: Final[dict[Card, int]] = {c: c.suit * 16 + c.rank for c in ALL_FACES}
"""``suit * 16 + rank`` of every face (the joker: 64): one dict look-up in C instead of
reading two slots of the Python class ``Card`` from compiled code."""


def run_lays(cards: Sequence[Card], rules: Rules, extra: Card | None = None) -> bool:
    """True when ``engine.melds._make_run(cards + [extra], naturals, rules)`` (no chosen
    wild slot; no ``extra``: ``cards`` alone) returns a meld, False when it raises
    ``IllegalAction``. ``cards``: any order, at least one natural (non-wild) card; the
    3s the variant keeps out of melds are the caller's check (``meldable``), as for
    ``_make_run``."""
    known = facts(rules)
    suit = -1
    wilds = 0
    two_suits = 0  # bit s: a 2 of suit s
    lo, hi, n, aces, seen = 99, 0, 0, 0, 0  # naturals other than aces: lowest, highest...
    for k in range(len(cards) + (0 if extra is None else 1)):
        c = cards[k] if k < len(cards) else extra
        assert c is not None
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


_SLOTS: Final[tuple[tuple[Card, ...], ...]] = tuple(
    tuple(Card.of(1 if slot in (0, 1, 14) else slot, suit) for slot in range(15))
    for suit in range(4)
)
"""``_SLOTS[suit][slot]``: the natural card of a run's slot 1..14 (1 and 14: the ace)."""


def relay_run(cards: Sequence[Card], rules: Rules) -> Layout | None:
    """The layout ``engine.melds._make_run(cards, naturals, rules)`` (no chosen wild
    slot) lays ``cards`` out in, or None where it raises (the caller runs it then, for
    its refusal). The same choices in the same order: the own-suit 2 natural first, then
    as the wild; one ace low first, then high; the wild in the one gap, else the high
    end, else the low end; the first that lays wins (``engine.runs.lay_run``,
    ``_place``). Cards are interned, so a slot's card is the one of its rank and suit;
    the wild is the one wild card left (jokers first, then 2s, in ``cards`` order)."""
    known = facts(rules)
    suit = -1
    wild_cards: list[Card] = []
    jokers = 0
    two_suits = 0
    lo, hi, n, aces, seen = 99, 0, 0, 0, 0
    for c in cards:
        code = _CODES[c]
        rank = code & 15
        if code >= 64:
            wild_cards.insert(jokers, c)
            jokers += 1
            continue
        if rank == 2:
            wild_cards.append(c)
            two_suits |= 1 << (code >> 4)
            continue
        if suit < 0:
            suit = code >> 4
        elif code >> 4 != suit:
            return None
        if rank == 1:
            aces += 1
            continue
        if seen >> rank & 1:
            return None
        seen |= 1 << rank
        n += 1
        lo = min(lo, rank)
        hi = max(hi, rank)
    if suit < 0 or aces > 2:
        return None
    row = _SLOTS[suit]
    lo_bound, hi_bound = known.run_lowest, 14 if known.ace_high else 13
    own = known.natural_two and two_suits >> suit & 1 == 1
    for natural_two in (True, False) if own else (False,):
        wilds = list(wild_cards)
        if natural_two:
            wilds.remove(row[2])
        if len(wilds) > 1:
            continue
        wild = wilds[0] if wilds else None
        bits, plo, phi, pn = seen, lo, hi, n
        if natural_two:
            bits, plo, phi, pn = bits | 4, min(plo, 2), max(phi, 2), pn + 1
        ends: tuple[int, ...] = ()
        if aces == 2:
            ends = (1, 14) if known.ace_low and known.ace_high else ()
            if not ends:
                continue
        elif aces == 1:
            ends = ((1,) if known.ace_low else ()) + ((14,) if known.ace_high else ())
        for end in ends if aces == 1 else (0,):
            b, a, z, m = bits, plo, phi, pn
            if aces == 2:
                b, a, z, m = b | 2 | 1 << 14, 1, 14, m + 2
            elif aces == 1:
                b, a, z, m = b | 1 << end, min(a, end), max(z, end), m + 1
            laid = _lay(b, a, z, m, wild is not None, lo_bound, hi_bound)
            if laid < 0:
                continue
            first, last, spot = laid >> 8 & 15, laid >> 4 & 15, laid & 15
            ordered = tuple(wild if p == spot and wild is not None else row[p]
                            for p in range(first, last + 1))
            return Layout(first, ordered, spot - first if wild is not None else -1)
    return None


def _lay(bits: int, lo: int, hi: int, n: int, wild: bool, lo_bound: int, hi_bound: int) -> int:
    """``_place`` for the natural slots ``bits`` (``n`` of them, ``lo``..``hi``) and one
    wild or none: ``first << 8 | last << 4 | wild slot`` (0: none), or -1 (refused)."""
    gaps = hi - lo + 1 - n
    if gaps > (1 if wild else 0) or n < 2:
        return -1
    first, last, spot = lo, hi, 0
    if wild and gaps == 1:
        spot = lo + 1
        while bits >> spot & 1:  # the one gap
            spot += 1
    elif wild:
        if hi < hi_bound:
            spot = last = hi + 1
        elif lo > lo_bound:
            spot = first = lo - 1
        else:
            return -1
    if first < lo_bound or last > hi_bound:
        return -1
    return first << 8 | last << 4 | spot
