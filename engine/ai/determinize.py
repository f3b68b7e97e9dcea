"""Determinization for ``dificil``: a full :class:`~engine.state.DealState` built from a
seat's view by dealing the unseen cards at random (issue 5, determinized Monte Carlo).

The unseen cards are the decks minus everything the view shows (own hand, melds, the
visible pile, laid 3s) and minus the cards other seats are publicly known to hold
(``seen_taken``, which go back to those hands). They are shuffled and dealt to the other
hands, the hidden part of a closed pile, the stock, the mortos still on the table and
the killed pile, in the sizes the view states. Facts the view does not give (another
seat's vulnerability, a morto someone took by discard) are filled with plain guesses.
The sample is only for the AI's own rollouts; it never leaves the AI.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from operator import attrgetter
from typing import Final, TypeVar

from engine.cards import Card, full_deck
from engine.state import DealState
from engine.view import SeatView

_ORDER: Final = attrgetter("index")


T = TypeVar("T")


@cache
def _deck_size(jokers: bool) -> int:
    return len(full_deck(jokers))


def unseen(view: SeatView) -> list[Card]:
    """The cards ``view.seat`` cannot place: the decks minus what the view shows or
    publicly assigns to a seat. Sorted, so a seeded shuffle is reproducible."""
    pool = Counter(full_deck(view.rules.jokers))
    shown: Counter[Card] = Counter(view.hand)
    for side in view.melds:
        for meld in side:
            shown.update(meld.cards)
    shown.update(view.pile)
    for threes in view.laid_threes:
        shown.update(threes)
    for seat, cards in enumerate(view.seen_taken):
        if seat != view.seat:
            shown.update(cards)
    pool.subtract(shown)
    return sorted(pool.elements(), key=_ORDER)  # sort_hand's order, without Card.__lt__


def shuffle(cards: list[T], rng: random.Random) -> None:
    """``rng.shuffle(cards)``, the same permutation from the same draws, inlined: Python's
    ``Random.shuffle`` calls ``_randbelow`` (a Python method) once per element, and
    ``dificil`` shuffles the unseen cards and the restock order of every sample. A
    subclass of ``Random`` (which may draw otherwise) gets its own ``shuffle``."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(cards))):
        n = i + 1  # pick an element of cards[:i + 1] for place i (Random._randbelow)
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def sample_state(view: SeatView, rng: random.Random,
                 pool: list[Card] | None = None) -> DealState:
    """One full deal consistent with ``view`` (see the module docstring). ``pool``:
    ``unseen(view)`` when the caller has it already (``dificil`` samples one view many
    times; the list is copied, not changed)."""
    rules = view.rules
    cards = unseen(view) if pool is None else list(pool)
    shuffle(cards, rng)

    def take(k: int) -> list[Card]:
        k = max(0, min(k, len(cards)))
        out = cards[len(cards) - k:]
        del cards[len(cards) - k:]
        return out

    n = view.n_players
    hands: list[list[Card]] = []
    for seat in range(n):
        if seat == view.seat:
            hands.append(list(view.hand))
            continue
        known = list(view.seen_taken[seat]) if seat < len(view.seen_taken) else []
        known = known[: view.hand_counts[seat]]
        hands.append(known + take(view.hand_counts[seat] - len(known)))
    hidden_pile = take(view.pile_size - len(view.pile))
    mortos = [take(rules.hand_size) if left else [] for left in view.mortos_left]
    pending: list[list[Card]] = [[] for _ in range(n)]
    pending[view.seat] = take(view.pending_morto)
    stock = take(view.stock_size)
    killed = take(view.killed_count)
    side_of = [0] * n
    for i, team in enumerate(view.teams):
        for s in team:
            side_of[s] = i
    if cards:  # unplaced cards: a morto another seat took by discard (C12), not yet shown
        holder = next((s for s in range(n) if s != view.seat and view.morto_taken[side_of[s]]),
                      None)
        if holder is None:
            killed += cards
        else:
            pending[holder] = list(cards)
    own_pickup = view.taken_top is not None and view.rules.pile_open
    from_pile = list(view.seen_taken[view.seat]) if own_pickup and view.seen_taken else []
    reshuffle = list(range(_deck_size(rules.jokers)))
    shuffle(reshuffle, rng)
    return DealState(
        rules=rules, n_players=n, teams=view.teams, side_of=side_of, hands=hands,
        melds=[list(m) for m in view.melds], pile=hidden_pile + list(view.pile), stock=stock,
        mortos=mortos, first=view.first, turn=view.turn, phase=view.phase,
        scores=list(view.scores), laid_threes=[list(t) for t in view.laid_threes],
        morto_taken=list(view.morto_taken), pending_morto=pending, killed=killed,
        pile_reused=view.pile_reused, pile_blocked=view.pile_blocked, reshuffle=reshuffle,
        turn_count=view.turn_count,
        seen=[list(s) for s in view.seen_taken],
        has_laid=[view.has_laid if s == view.seat else bool(view.melds[side_of[s]])
                  for s in range(n)],
        vuln_min=[view.vuln_min if s == view.seat else 0 for s in range(n)],
        relancinhos=[0] * len(view.teams), went_out=-1, taken_top=view.taken_top,
        drawn=view.drawn, drawn_more=list(view.drawn_more), redraw_ok=view.can_redraw,
        laid_this_turn=False, from_pile=from_pile,
        laid_before_turn=view.has_laid,
    )
