"""Run layouts on the table: which slot each laid card holds, and how a laid run grows.

A run's slots are numbered 1 (low ace) .. 14 (high ace): a natural card of rank r sits
in slot r, the ace in slot 1 or 14, a 2 of the run's own suit in slot 2 as a natural
card (RULES C5, where ``rules.natural_two``), and the run's one wild in the slot of the
card it stands for. Slots run from ``rules.run_lowest`` to 14 (13 without a high ace).

RULES C10: cards already laid keep their places and roles. :func:`extend_layout` adds
cards to a laid run without moving any of them, except the wild as RULES C4 says: when
the natural card it stands for is played into its slot, a same-suit 2 moves to its
natural slot 2 if that slot is then contiguous, otherwise the wild moves to the high end,
else the low end (no end open: illegal). An extension that does not touch the run as
laid is refused with the card that is missing (``meld_not_contiguous``, "falta o 5♥").

:func:`lay_run` lays out a new run (RULES C4, C5, C8, C9: an ace low first, the wild in
the one gap, else at the high end, else the low end). Pure arithmetic on cards;
:mod:`engine.melds` builds the :class:`~engine.melds.Meld`.
The decisions where RULES is silent are docs/rules-decisions.md D11 and D20.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from engine.cards import Card
from engine.errors import IllegalAction
from engine.rules import Rules

MAX_SLOT: Final = 14


class Layout:
    """A run as laid: ``cards`` in slot order from slot ``low``; ``wild_at`` the index in
    ``cards`` of the card acting as the run's wild, or -1 for none. Immutable (issue 37:
    no frozen dataclass, whose ``__init__`` stays Python under mypyc)."""

    __slots__ = ("cards", "low", "wild_at")

    def __init__(self, low: int, cards: tuple[Card, ...], wild_at: int) -> None:
        self.low: Final = low
        self.cards: Final = cards
        self.wild_at: Final = wild_at


def slot_bounds(rules: Rules) -> tuple[int, int]:
    """Lowest and highest slot a run of ``rules`` may use: (``run_lowest``, 14 or 13)."""
    return rules.run_lowest, MAX_SLOT if rules.ace_high else 13


def card_at(slot: int, suit: int) -> Card:
    """The natural card of ``suit`` for ``slot`` (1 and 14: the ace)."""
    return Card.of(1 if slot in (1, MAX_SLOT) else slot, suit)


def not_contiguous(slot: int, suit: int) -> IllegalAction:
    """``IllegalAction("meld_not_contiguous")`` naming the card of ``slot`` (RULES C10)."""
    return IllegalAction("meld_not_contiguous", "falta o {card}", card=str(card_at(slot, suit)))


def _repeated() -> IllegalAction:
    return IllegalAction("meld_repeated_rank", "uma sequência não pode repetir carta")


def _two_wilds() -> IllegalAction:
    return IllegalAction("meld_two_wilds", "só pode haver um curinga por jogo")


def _no_room() -> IllegalAction:
    return IllegalAction("meld_no_room", "não há lugar para o curinga nesta sequência")


def own_two(card: Card, suit: int, rules: Rules) -> bool:
    """True for a 2 of ``suit`` that may be natural in slot 2 (RULES C5)."""
    return (
        card.rank == 2
        and card.suit == suit
        and rules.natural_two
        and slot_bounds(rules)[0] <= 2
    )


def extend_layout(laid: Layout, suit: int, cards: Sequence[Card], rules: Rules,
                  wild_slot: int = 0) -> Layout:
    """``laid`` with ``cards`` (all of the run's suit, or wilds) added, by RULES C4, C5, C10.

    Laid cards keep their slots; a laid natural 2 stays natural. New naturals take
    their rank's slot (an ace: the end nearer the run first, low on a tie; a same-suit
    2: natural in slot 2 first, else a wild). A natural played into the laid wild's slot
    moves the wild (C4).
    A new wild (only when the run has none) bridges the one slot the new cards leave
    open, else goes to the high end, else the low end. Cards next to an end are added
    first, then one into the wild's slot, and again (docs/rules-decisions.md D20).
    ``wild_slot`` (issue 30): the slot the person chose for that new wild among
    :func:`wild_spots` (0: the default, the first of them).
    Raises ``IllegalAction``:
    ``meld_repeated_rank``, ``meld_two_wilds``, ``meld_no_room``, ``meld_not_contiguous``,
    ``meld_wild_slot`` (``wild_slot`` is not a place the new wild may take).
    """
    twos = [c for c in cards if own_two(c, suit, rules)]
    error: IllegalAction | None = None
    for natural_two in (twos[0], None) if twos else (None,):
        wilds = [c for c in cards if c.wild]
        naturals = [c for c in cards if not c.wild]
        if natural_two is not None:
            wilds.remove(natural_two)
        for placed in _placements(naturals, natural_two, laid, rules):
            try:
                return _extend_once(laid, suit, placed, wilds, rules, wild_slot)
            except IllegalAction as err:
                if error is None or error.code == "meld_two_wilds":
                    error = err
    assert error is not None
    raise error


def _placements(
    naturals: list[Card], natural_two: Card | None, laid: Layout, rules: Rules
) -> list[list[tuple[int, Card]]]:
    """The ways to give each new natural a slot (one ace: the end nearer the run as
    laid first, low on a tie, so 10 J Q + A tries the high ace first)."""
    fixed = [(c.rank, c) for c in naturals if c.rank != 1]
    if natural_two is not None:
        fixed.append((2, natural_two))
    aces = [c for c in naturals if c.rank == 1]
    if len(aces) > 2:
        raise _repeated()
    ends = [1] if rules.ace_low else []
    ends += [MAX_SLOT] if rules.ace_high else []
    high = laid.low + len(laid.cards) - 1
    ends.sort(key=lambda end: min(abs(end - laid.low), abs(end - high)))
    if not aces:
        return [fixed]
    if len(aces) == 2:
        if len(ends) < 2:
            raise _repeated()
        return [[*fixed, (1, aces[0]), (MAX_SLOT, aces[1])]]
    return [[*fixed, (end, aces[0])] for end in ends]


def _extend_once(
    laid: Layout, suit: int, placed: list[tuple[int, Card]], wilds: list[Card], rules: Rules,
    wild_slot: int = 0,
) -> Layout:
    slots = {laid.low + i: c for i, c in enumerate(laid.cards)}
    chosen, wild_slot = wild_slot, laid.low + laid.wild_at if laid.wild_at >= 0 else 0
    if len(wilds) + (wild_slot != 0) > 1:
        raise _two_wilds()
    pending: dict[int, Card] = {}
    for slot, card in placed:
        if slot in pending or (slot in slots and slot != wild_slot):
            raise _repeated()
        pending[slot] = card
    lo, hi = laid.low, laid.low + len(laid.cards) - 1
    if wild_slot and chosen:
        raise bad_slot()  # the laid wild moves as RULES C4 says: no choice
    if wild_slot:
        lo, hi, wild_slot = _grow_with_wild(slots, pending, lo, hi, wild_slot, suit, rules)
    else:
        lo, hi, wild_slot = _grow_plain(slots, pending, lo, hi, wilds, suit, rules, chosen)
    ordered = tuple(slots[s] for s in range(lo, hi + 1))
    return Layout(lo, ordered, wild_slot - lo if wild_slot else -1)


def _nearest_missing(pending: dict[int, Card], lo: int, hi: int) -> int:
    """The open slot next to the run as laid on the side of the nearest new card."""
    nearest = min(pending, key=lambda s: min(abs(s - lo), abs(s - hi)))
    return lo - 1 if nearest < lo else hi + 1


def _grow_with_wild(
    slots: dict[int, Card],
    pending: dict[int, Card],
    lo: int,
    hi: int,
    wild_slot: int,
    suit: int,
    rules: Rules,
) -> tuple[int, int, int]:
    """Add ``pending`` one card at a time: first every card next to an end, then a card
    into the wild's slot (RULES C4), and again, so a same-suit 2 reaches slot 2 when it
    can. Returns the new (low, high, wild slot or 0)."""
    while pending:
        step = next((s for s in sorted(pending) if s in (lo - 1, hi + 1)), None)
        if step is not None:
            slots[step] = pending.pop(step)
            lo, hi = min(lo, step), max(hi, step)
            continue
        if not wild_slot or wild_slot not in pending:
            raise not_contiguous(_nearest_missing(pending, lo, hi), suit)
        wild = slots[wild_slot]
        slots[wild_slot] = pending.pop(wild_slot)
        lo, hi, wild_slot = _move_wild(slots, pending, lo, hi, wild, suit, rules)
    return lo, hi, wild_slot


def _move_wild(
    slots: dict[int, Card],
    pending: dict[int, Card],
    lo: int,
    hi: int,
    wild: Card,
    suit: int,
    rules: Rules,
) -> tuple[int, int, int]:
    """RULES C4: the replaced wild goes to slot 2 (a same-suit 2, slot contiguous and
    free), else the high end, else the low end; no open end is ``meld_no_room``."""
    low_bound, high_bound = slot_bounds(rules)
    if own_two(wild, suit, rules) and lo == 3 and 2 not in pending:
        slots[2] = wild
        return 2, hi, 0  # natural now (C5, C6)
    if hi < high_bound:
        slots[hi + 1] = wild
        return lo, hi + 1, hi + 1
    if lo > low_bound:
        slots[lo - 1] = wild
        return lo - 1, hi, lo - 1
    raise _no_room()


def _grow_plain(
    slots: dict[int, Card],
    pending: dict[int, Card],
    lo: int,
    hi: int,
    wilds: list[Card],
    suit: int,
    rules: Rules,
    chosen: int = 0,
) -> tuple[int, int, int]:
    """A run with no wild: the new naturals must close up with it; a new wild bridges the
    one open slot, else sits at the high end, else the low end (docs D11), or in the
    ``chosen`` one of those places (:func:`wild_spots`)."""
    first, last = min([lo, *pending]), max([hi, *pending])
    missing = [s for s in range(first, last + 1) if s not in slots and s not in pending]
    slots.update(pending)
    if len(missing) > (1 if wilds else 0):
        nearest = min(missing, key=lambda s: min(abs(s - lo), abs(s - hi)))
        raise not_contiguous(nearest, suit)
    if not wilds:
        if chosen:
            raise bad_slot()
        return first, last, 0
    spot = _pick_spot(wild_spots(missing, first, last, rules), chosen)
    slots[spot] = wilds[0]
    return min(first, spot), max(last, spot), spot


def wild_spots(missing: Sequence[int], first: int, last: int, rules: Rules) -> list[int]:
    """The slots a run's new wild may take, the default first (RULES C4, docs D11): the
    one slot ``missing`` in the naturals' span ``first``..``last``, else the open ends,
    high then low; two places are the person's choice (issue 30: A-2-3 or 2-3-4)."""
    if missing:
        return [missing[0]]
    low_bound, high_bound = slot_bounds(rules)
    return ([last + 1] if last < high_bound else []) + ([first - 1] if first > low_bound else [])


def _pick_spot(spots: list[int], chosen: int) -> int:
    """``chosen`` if among ``spots`` (0: the first); else ``meld_no_room``/``meld_wild_slot``."""
    if not spots:
        raise _no_room()
    if not chosen:
        return spots[0]
    if chosen not in spots:
        raise bad_slot()
    return chosen


def bad_slot() -> IllegalAction:
    """``meld_wild_slot``: the chosen slot is no place the wild may take (issue 30)."""
    return IllegalAction("meld_wild_slot", "o curinga não pode ficar nesse lugar")


def read_layout(cards: Sequence[Card], rules: Rules) -> Layout | None:
    """``cards`` read as a run in table order (slot by slot, low to high), or None when
    they are not one: the inverse of a laid run's ``cards`` (docs/record-format.md).

    A 2 of the run's suit in slot 2 is natural (RULES C5); any other 2 or joker is the
    wild. Checks C9 (one suit, slots in bounds, at most one wild, >= 2 naturals) but not
    which cards the variant keeps out of melds (the caller does).
    """
    naturals = [c for c in cards if not c.wild]
    if len(cards) < 3 or not naturals or any(c.suit != naturals[0].suit for c in naturals):
        return None
    suit = naturals[0].suit
    low = _anchor(cards)
    low_bound, high_bound = slot_bounds(rules)
    if low is None or low < low_bound or low + len(cards) - 1 > high_bound:
        return None
    wild_at, natural = -1, 0
    for i, c in enumerate(cards):
        slot = low + i
        if c.wild and not (slot == 2 and own_two(c, suit, rules)):
            if wild_at >= 0:
                return None
            wild_at = i
            continue
        if c.rank != (1 if slot in (1, MAX_SLOT) else slot):
            return None
        natural += 1
    return Layout(low, tuple(cards), wild_at) if natural >= 2 else None


def _anchor(cards: Sequence[Card]) -> int | None:
    """The slot of ``cards[0]``, from the first natural card of rank 3..K (or an ace at
    an end)."""
    for i, c in enumerate(cards):
        if not c.wild and c.rank >= 3:
            return c.rank - i
    if cards[0].rank == 1:
        return 1
    if cards[-1].rank == 1:
        return MAX_SLOT - len(cards) + 1
    return None


def _ace_choices(naturals: list[Card], rules: Rules) -> list[list[int]]:
    ranks = [c.rank for c in naturals]
    aces = ranks.count(1)
    rest = [r for r in ranks if r != 1]
    if aces == 0:
        return [rest]
    if aces == 2:
        if not (rules.ace_low and rules.ace_high):
            raise _repeated()
        return [[1, *rest, 14]]
    if aces > 2:
        raise _repeated()
    options = []
    if rules.ace_low:
        options.append([1, *rest])
    if rules.ace_high:
        options.append([*rest, 14])
    return options


def lay_run(
    naturals: list[Card], natural_two: Card | None, wild: Card | None, rules: Rules,
    wild_slot: int = 0,
) -> Layout:
    """A new run laid out from its ``naturals`` (one suit), the same-suit 2 played as its
    natural 2 (or None) and its ``wild`` (or None), by RULES C4, C5, C8, C9: an ace low
    first, then high; the wild in the one gap, else at the high end, else the low end
    (docs/rules-decisions.md D11), or in the ``wild_slot`` the person chose among
    :func:`wild_spots` (issue 30; 0: the default). Raises ``IllegalAction``
    (``meld_repeated_rank``, ``meld_gap``, ``meld_no_room``, ``meld_all_wild``,
    ``meld_ace``, ``meld_wild_slot``)."""
    error: IllegalAction | None = None
    for positions in _ace_choices(naturals, rules):
        if natural_two is not None:
            positions = [*positions, 2]
        positions.sort()
        try:
            return _place(positions, naturals, natural_two, wild, rules, wild_slot)
        except IllegalAction as err:
            error = err if error is None or error.code == "meld_wild_slot" else error
    if error is None:  # pragma: no cover - _ace_choices never returns an empty list
        raise IllegalAction("meld_gap", "as cartas não formam sequência")
    raise error


def _place(
    positions: list[int],
    naturals: list[Card],
    natural_two: Card | None,
    wild: Card | None,
    rules: Rules,
    wild_slot: int = 0,
) -> Layout:
    lo_bound, hi_bound = slot_bounds(rules)
    for a, b in itertools.pairwise(positions):
        if a == b:
            raise _repeated()
    lo, hi = positions[0], positions[-1]
    gaps = hi - lo + 1 - len(positions)
    n_wild = 1 if wild is not None else 0
    if gaps > n_wild:
        raise IllegalAction("meld_gap", "as cartas não formam sequência")
    wild_pos = 0
    if wild is not None:
        missing = [p for p in range(lo, hi) if p not in positions]
        wild_pos = _pick_spot(wild_spots(missing, lo, hi, rules), wild_slot)
    elif wild_slot:
        raise bad_slot()
    if len(positions) < 2:
        raise IllegalAction("meld_all_wild", "um jogo precisa de pelo menos 2 cartas naturais")
    first = min(lo, wild_pos) if wild is not None else lo
    last = max(hi, wild_pos)
    if first < lo_bound or last > hi_bound:
        raise IllegalAction("meld_ace", "nesta variante o ás só vale acima do rei")
    by_pos: dict[int, Card] = {}
    for c in naturals:
        by_pos[14 if c.rank == 1 and (1 in by_pos or 1 not in positions) else c.rank] = c
    if natural_two is not None:
        by_pos[2] = natural_two
    if wild is not None:
        by_pos[wild_pos] = wild
    ordered = tuple(by_pos[p] for p in range(first, last + 1))
    return Layout(first, ordered, wild_pos - first if wild is not None else -1)
