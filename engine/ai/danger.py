"""Discard danger and keep value: how much a discard helps the opponents, and how much
a card is worth keeping for the AI's own side.

Pure functions of public facts (the opponents' melds, the cards they took from the
pile, the pile size) and the AI's own hand. Units are rough "points of harm"; only the
order between candidate discards matters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from engine.ai.hand import Neighbours, fits_run, positions, rank_neighbours
from engine.ai.weights import NORMAL, Weights
from engine.cards import RED_SUITS, Card
from engine.melds import Meld
from engine.rules import BlackThree, Rules
from engine.scoring import card_points

WILD_DANGER: Final = 1000.0
"""A discarded wild: almost never right (it feeds the pile and the opponents)."""


def fits_meld(card: Card, meld: Meld, rules: Rules) -> bool:
    """True when natural ``card`` could be added to ``meld`` right now (an end of a run,
    the slot its wild stands in, or a set of its rank with room)."""
    if card.wild:
        return meld.wild is None and len(meld) < (rules.set_max if meld.kind == "set" else 14)
    if meld.kind == "set":
        return card.rank == meld.low and len(meld) < rules.set_max
    if card.suit != meld.suit:
        return False
    if fits_run(card, meld.suit, meld.low, meld.high, rules):
        return True
    if meld.wild is not None and card.suit == meld.suit:
        slot = meld.wild_slot  # the laid wild moves only when replaced (RULES C4, C10)
        if card.rank == 2:
            return rules.natural_two and slot == 2
        return slot in positions(card, rules)
    return False


def same_line(card: Card, meld: Meld) -> bool:
    """A cheap first screen before :func:`fits_meld`: ``card`` is of the run's suit or of
    the set's rank (a natural that fails it never fits)."""
    return card.rank == meld.low if meld.kind == "set" else card.suit == meld.suit


def fitting(card: Card, melds: Sequence[Meld], rules: Rules) -> list[Meld]:
    """The melds natural ``card`` could be added to now (:func:`fits_meld`), asking only
    about those it passes :func:`same_line` with."""
    rank, suit = card.rank, card.suit  # same_line, inline: this runs per card and meld
    return [m for m in melds if (rank == m.low if m.kind == "set" else suit == m.suit)
            and fits_meld(card, m, rules)]


class Table(NamedTuple):
    """The public facts the danger estimate reads, taken from a seat's view (a named
    tuple: ``normal`` builds one for every discard, and a tuple is built in C).

    ``opp_melds``: melds of every opposing side; ``opp_taken``: cards opponents took
    from the pile and may still hold; ``pile_size``: cards in the pile now;
    ``pile_open``: whole pile takeable without justification; ``next_hand``: cards in
    the next player's hand; ``dead``: faces whose every copy is already out of play.
    """

    opp_melds: tuple[Meld, ...]
    opp_taken: tuple[Card, ...]
    pile_size: int
    pile_open: bool
    next_hand: int
    dead: frozenset[Card] = frozenset()


def danger(card: Card, table: Table, rules: Rules, w: Weights = NORMAL) -> float:
    """Harm of discarding ``card`` for the AI's side: feeds an opposing meld (most when
    it would make a canastra, more when a special canastra is within reach), lets the
    next player justify the pile, or matches what they took from the pile. A black 3
    that blocks or kills the pile is safe (A6, A33). ``w``: the weights (``danger_*``)."""
    if card.wild:
        return WILD_DANGER
    if card.rank == 3 and not card.is_red and rules.black_three != BlackThree.ORDINARY:
        return 0.0
    harm = 0.0
    for meld in fitting(card, table.opp_melds, rules):
        harm += w.danger_fit + w.special_pull * special_reach(meld, rules)
        if len(meld) == 6:
            harm += w.danger_six_clean if meld.wild is None else w.danger_six_dirty
        if not table.pile_open:
            harm += w.danger_closed_pile * table.pile_size  # justifies the pick-up (A10)
    for taken in table.opp_taken:
        if taken.rank == card.rank and rules.sets_allowed:
            harm += w.danger_taken_rank
        elif taken.suit == card.suit and not taken.is_joker:
            gap = min(abs(p - q) for p in positions(taken, rules) for q in positions(card, rules))
            harm += w.danger_taken_near if gap == 1 else w.danger_taken_far if gap == 2 else 0.0
    if table.pile_open:
        harm += w.danger_open_pile * table.pile_size
    if table.next_hand <= 2:
        harm *= w.danger_next_out
    if card in table.dead:
        harm *= 0.5
    return harm


def special_reach(meld: Meld, rules: Rules) -> int:
    """Cards beyond five in ``meld`` when it is a clean run that can still grow into a
    special canastra of ``rules`` (its suit qualifies and it is not complete); else 0.
    A run reaches A..K or A..A by its ends, so any clean run of the suit can (A12, C8)."""
    if meld.kind != "run" or meld.wild is not None:
        return 0
    three_ok = rules.red_three_meldable if meld.suit in RED_SUITS else rules.black_three_meldable
    if not three_ok:
        return 0  # every special canastra starts A-2-3 (A12: never in black altaneira suits)
    longest = max((s.length for s in rules.special_canastras if meld.suit in s.suits),
                  default=0)
    if len(meld) >= longest:
        return 0
    return max(0, len(meld) - 5)


def keep_value(card: Card, hand: Sequence[Card], own_melds: Sequence[Meld], rules: Rules,
               pile_size: int, w: Weights = NORMAL, links: Neighbours | None = None) -> float:
    """Worth of keeping ``card`` in ``hand`` for the AI's own side: wilds most, then cards
    that fit the side's melds (more for a clean run on its way to a special canastra,
    :func:`special_reach`), then cards that connect with the hand. Points held
    count against at the end, so heavy loose cards are cheaper to keep out. ``w``: the
    weights (``keep_*``; ``special_pull`` per card beyond five of such a run, C7, A12).
    ``links``: the hand's :class:`~engine.ai.hand.Neighbours` when ``card`` is one of its
    cards (the same value, faster)."""
    if card.wild:
        return 200.0
    if card.rank == 3 and not card.is_red and rules.black_three != BlackThree.ORDINARY:
        return -5.0 - 1.5 * pile_size  # a Tranca only ever leaves as a discard
    value = 0.0
    fits = fitting(card, own_melds, rules)
    if fits:
        value += w.keep_fit + w.special_pull * max(special_reach(m, rules) for m in fits)
    near, far, same = rank_neighbours(card, hand, rules) if links is None else links.of(card)
    value += w.keep_near * min(near, 2) + w.keep_far * min(far, 2)
    if rules.sets_allowed:
        value += w.keep_same * min(same, 2)
    return value - w.keep_points * card_points(card, rules)


def discard_score(card: Card, hand: Sequence[Card], own_melds: Sequence[Meld], table: Table,
                  rules: Rules, w: Weights = NORMAL) -> float:
    """Lower is a better discard: keep value plus danger (both with weights ``w``)."""
    return (keep_value(card, hand, own_melds, rules, table.pile_size, w)
            + danger(card, table, rules, w))


def discard_scores(cards: Sequence[Card], hand: Sequence[Card], own_melds: Sequence[Meld],
                   table: Table, rules: Rules, w: Weights = NORMAL) -> list[float]:
    """:func:`discard_score` of each of ``cards`` (cards of ``hand``), to the last bit:
    :func:`keep_value` plus :func:`danger`, inlined into one loop (``normal`` scores every
    card of its hand at every discard) with the same float operations in the same order;
    the hand's neighbours counted once (:class:`~engine.ai.hand.Neighbours`), two copies
    of a face scored once."""
    links = Neighbours(hand, rules)
    gap = links.gap
    tranca_three = rules.black_three != BlackThree.ORDINARY
    sets = rules.sets_allowed
    opp_melds, taken_cards = table.opp_melds, table.opp_taken
    pile_size, pile_open = table.pile_size, table.pile_open
    seen: dict[Card, float] = {}
    out: list[float] = []
    for card in cards:
        score = seen.get(card)
        if score is None:
            if card.wild:
                score = 200.0 + WILD_DANGER
            elif card.rank == 3 and not card.is_red and tranca_three:
                score = -5.0 - 1.5 * pile_size + 0.0
            else:
                rank, suit = card.rank, card.suit
                # keep_value
                value = 0.0
                reach = -1
                for m in own_melds:
                    if ((rank == m.low if m.kind == "set" else suit == m.suit)
                            and fits_meld(card, m, rules)):
                        reach = max(reach, special_reach(m, rules))
                if reach >= 0:
                    value += w.keep_fit + w.special_pull * reach
                near, far, same = links.of(card)
                value += w.keep_near * min(near, 2) + w.keep_far * min(far, 2)
                if sets:
                    value += w.keep_same * min(same, 2)
                value = value - w.keep_points * card_points(card, rules)
                # danger
                harm = 0.0
                for m in opp_melds:
                    if ((rank == m.low if m.kind == "set" else suit == m.suit)
                            and fits_meld(card, m, rules)):
                        harm += w.danger_fit + w.special_pull * special_reach(m, rules)
                        if len(m) == 6:
                            harm += w.danger_six_clean if m.wild is None else w.danger_six_dirty
                        if not pile_open:
                            harm += w.danger_closed_pile * pile_size
                for taken in taken_cards:
                    if taken.rank == rank and sets:
                        harm += w.danger_taken_rank
                    elif taken.suit == suit and not taken.is_joker:
                        g = gap[taken.rank][rank]  # the fewest steps between positions
                        harm += (w.danger_taken_near if g == 1
                                 else w.danger_taken_far if g == 2 else 0.0)
                if pile_open:
                    harm += w.danger_open_pile * pile_size
                if table.next_hand <= 2:
                    harm *= w.danger_next_out
                if card in table.dead:
                    harm *= 0.5
                score = value + harm
            seen[card] = score
        out.append(score)
    return out
