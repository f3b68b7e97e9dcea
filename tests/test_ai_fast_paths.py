"""Differential tests for the AI's fast paths (issue 13: ``normal`` must play as before).

At the positions of seeded deals of every preset (two players, four for altaneira):

- ``rollout_view`` (the view ``dificil``'s rollouts build, sharing the state's lists)
  equals ``view_for`` field for field at every seat, and ``normal`` changes nothing in
  it; ``can_take_pile`` and ``threes_to_lay`` answer as ``legal_moves``, ``table_of``
  as before; ``discard_options`` lists the cards ``discardable`` allows, in hand order;
- ``discard_scores`` (one inlined loop) equals ``keep_value + danger`` to the bit;
- where the all-in plan lays nothing, no wild policy's plan lays anything;
- the engine refuses a natural pile top on a set of another rank or a run of another
  suit (``pile_take`` does not ask it);
- ``sample_state`` deals the same with the unseen cards given as counted;
- ``normal`` leaves the memo's shared plans (``shared_plan``) as they were.

And for any hand: ``Neighbours`` counts what ``rank_neighbours`` scans; ``fits_run``
answers as it did with a set of the run's free ends; ``determinize.shuffle`` gives
``Random.shuffle's`` permutation from the same draws; ``dificil`` pauses the collector
only while it samples.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import apply, make_rules
from engine.ai import normal
from engine.ai.danger import Table, danger, discard_scores, keep_value
from engine.ai.determinize import sample_state, shuffle, unseen
from engine.ai.hand import MAX_RUN, Neighbours, fits_run, meldable, positions, rank_neighbours
from engine.ai.moves import discard_options, discardable
from engine.ai.normal import ALL_IN
from engine.ai.plan import WildPolicy, plan_laydown, shared_plan, try_extend
from engine.ai.seat import opp_sides, opponents, table_of
from engine.ai.weights import NORMAL, Weights, tuned
from engine.cards import Card, full_deck, parse_cards
from engine.deal import new_deal
from engine.melds import Meld
from engine.rules import PRESETS, Rules
from engine.view import (
    SeatView,
    can_take_pile,
    legal_moves,
    rollout_view,
    threes_to_lay,
    view_for,
)


def _deal(preset: str, players: int, seed: int):  # type: ignore[no-untyped-def]
    rules = make_rules(preset)
    deck = full_deck(rules.jokers)
    random.Random(seed).shuffle(deck)
    return new_deal(rules, players, deck, reshuffle=list(range(len(deck))))


def _table_before(view: SeatView) -> Table:
    """``seat.table_of`` as it was (generators over every side and opponent)."""
    return Table(
        opp_melds=tuple(m for s in opp_sides(view) for m in view.melds[s]),
        opp_taken=tuple(c for s in opponents(view) for c in view.seen_taken[s]),
        pile_size=view.pile_size, pile_open=view.rules.pile_open,
        next_hand=view.hand_counts[(view.seat + 1) % len(view.hand_counts)])


@pytest.mark.parametrize(("preset", "players"), [
    (preset, n) for preset in sorted(PRESETS) for n in (2, 4)
    if n in PRESETS[preset].players_allowed])
def test_rollout_view_equals_view_for_at_every_seat(preset: str, players: int) -> None:
    checked = 0
    for seed in range(3):
        state = _deal(preset, players, seed)
        rng = random.Random(seed)
        steps = 0
        while not state.over and steps < 400:
            for seat in range(players):
                fast, slow = rollout_view(state, seat), view_for(state, seat)
                for f in fields(SeatView):
                    assert getattr(fast, f.name) == getattr(slow, f.name), f.name
                assert fast == slow
                assert table_of(slow) == _table_before(slow)
                moves = legal_moves(slow)
                assert can_take_pile(slow) == moves.can_take_pile
                assert threes_to_lay(slow) == moves.threes_to_lay
                checked += 1
            view = rollout_view(state, state.turn)
            if view.phase == "play":
                assert discard_options(view) == [c for c in view.hand if discardable(view, c)]
            # the view shares the state's lists: the state's JSON and the view's own hand
            # show any change (compiled views and melds, engine/_native.py, cannot be
            # deep-copied)
            before = (state.to_json(), list(view.hand))
            action = normal.choose(view, rng, tuned(preset))
            assert (state.to_json(), list(view.hand)) == before  # normal changed none
            apply(state, action)
            steps += 1
    assert checked > 100


def test_rollout_view_shares_the_state_lists_and_copies_the_hand() -> None:
    state = _deal("buraco_morto", 2, 1)
    view = rollout_view(state, 0)
    assert view.melds is state.melds and view.scores is state.scores
    assert view.seen_taken is state.seen
    assert view.hand is not state.hands[0]
    assert view.hand == sorted(state.hands[0], key=lambda c: c.index)
    assert isinstance(view, SeatView) and view.pile_size == len(state.pile)


_FACES = full_deck(jokers=True, decks=1)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(PRESETS)),
       st.lists(st.sampled_from(_FACES), min_size=1, max_size=22))
def test_neighbours_counts_as_rank_neighbours_scans(preset: str, hand: list[Card]) -> None:
    """``Neighbours.of`` (counts made once per hand) gives each natural card of the hand
    the same (near, far, same) as :func:`rank_neighbours`'s scan of the hand."""
    rules = make_rules(preset)
    links = Neighbours(hand, rules)
    for card in hand:
        if not card.wild:
            assert links.of(card) == rank_neighbours(card, hand, rules)


def test_neighbours_on_a_known_hand() -> None:
    rules = make_rules("buraco")
    hand = parse_cards("5h 6h 7h 7h 9h Ah 7c 2h")
    links = Neighbours(hand, rules)
    assert links.of(hand[1]) == (3, 0, 0)  # 6h: 5h and both 7h one step away; 9h three
    assert links.of(hand[2]) == (1, 2, 2)  # 7h: 6h near; 5h, 9h far; 7h, 7c same rank
    assert links.of(hand[5]) == (0, 0, 0)  # Ah: the 2h is wild, not a neighbour


def _fits_run_before(card: Card, suit: int, low: int, high: int, rules: Rules) -> bool:
    """``hand.fits_run`` as it was (a set of the free ends per call)."""
    if card.suit != suit or card.is_joker or not meldable(card, rules):
        return False
    if high - low + 1 >= MAX_RUN:
        return False
    if card.rank == 2 and not rules.natural_two:
        return False
    ends = set()
    if low > rules.run_lowest:
        ends.add(low - 1)
    if high < MAX_RUN:
        ends.add(high + 1)
    return any(p in ends for p in ((2,) if card.rank == 2 else positions(card, rules)))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_fits_run_as_before_for_every_face_and_span(preset: str) -> None:
    rules = make_rules(preset)
    fits = 0
    for card in _FACES:
        for low in range(1, MAX_RUN + 1):
            for high in range(low, MAX_RUN + 1):
                for suit in range(4):
                    now = fits_run(card, suit, low, high, rules)
                    assert now == _fits_run_before(card, suit, low, high, rules)
                    fits += now
    assert fits > 500


@pytest.mark.parametrize(("preset", "players"),
                         [("buraco_morto", 2), ("tranca", 2), ("altaneira", 4)])
def test_sample_state_with_the_pool_given_deals_as_without(preset: str, players: int) -> None:
    """``dificil`` passes ``unseen(view)`` once per decision: the sampled deals are the
    same as when each sample counts the unseen cards itself, and the pool is untouched."""
    state = _deal(preset, players, 4)
    rng = random.Random(4)
    for _ in range(30):
        apply(state, normal.choose(view_for(state, state.turn), rng))
    view = view_for(state, state.turn)
    pool = unseen(view)
    kept = list(pool)
    for seed in range(5):
        given_pool = sample_state(view, random.Random(seed), pool)
        counted = sample_state(view, random.Random(seed))
        assert given_pool.to_json() == counted.to_json()
    assert pool == kept and len(pool) > 20


def test_dificil_pauses_the_collector_only_while_it_samples() -> None:
    import gc

    from engine.ai import dificil

    state = _deal("buraco_morto", 2, 2)
    rng = random.Random(2)
    while state.phase != "play":
        apply(state, normal.choose(view_for(state, state.turn), rng))
    seen: list[bool] = []

    class Spy(random.Random):  # the samples draw from it (works compiled too)
        def random(self) -> float:
            seen.append(gc.isenabled())
            return super().random()

    was_enabled = gc.isenabled()  # another test may have left it off: set it here
    gc.enable()
    try:
        dificil.choose(view_for(state, state.turn), 1e9, Spy(1), max_samples=2)
        assert gc.isenabled() and seen and not any(seen)
        gc.disable()
        dificil.choose(view_for(state, state.turn), 1e9, Spy(1), max_samples=2)
        assert not gc.isenabled()  # a caller's own choice stays
    finally:
        if was_enabled:
            gc.enable()


_ODD = Weights(keep_fit=40.3, keep_near=11.7, keep_far=5.1, keep_same=9.3, keep_points=0.37,
               special_pull=7.9, danger_fit=25.1, danger_six_clean=149.3,
               danger_six_dirty=80.7, danger_closed_pile=6.1, danger_open_pile=0.53,
               danger_taken_rank=10.1, danger_taken_near=7.7, danger_taken_far=4.3,
               danger_next_out=1.37)
"""Weights whose sums round in floats: an inlined loop that added in another order would
give other last bits."""


def _decisions(preset: str, players: int, seeds: int, steps: int,
               weights: bool = True) -> Iterator[SeatView]:
    """The view of every decision (up to ``steps`` a deal) of the seeded deals 0 to
    ``seeds - 1`` that ``normal`` plays (with ``preset``'s tuned weights, or its own when
    ``weights`` is False); its move is applied once the caller is done with the view."""
    for seed in range(seeds):
        state = _deal(preset, players, seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if state.over:
                break
            view = view_for(state, state.turn)
            yield view
            if weights:
                apply(state, normal.choose(view, rng, tuned(preset)))
            else:
                apply(state, normal.choose(view, rng))


@pytest.mark.parametrize(("preset", "players"),
                         [(p, 2) for p in ("buraco", "buraco_morto", "bossa_nova", "tranca",
                                           "justificado")] + [("altaneira", 4)])
def test_discard_scores_are_keep_value_plus_danger_to_the_bit(preset: str, players: int) -> None:
    """At every play-phase decision of seeded deals, ``discard_scores`` (one inlined loop)
    equals ``keep_value + danger`` card by card, exactly, with three sets of weights and a
    table that also lists dead faces."""
    checked = 0
    for view in _decisions(preset, players, seeds=4, steps=300):
        if view.phase == "play":
            side = view.melds[view.side]
            plain = table_of(view)
            dead = plain._replace(dead=frozenset(view.hand[::3]))
            for table in (plain, dead):
                for w in (NORMAL, tuned(preset), _ODD):
                    got = discard_scores(view.hand, view.hand, side, table, view.rules, w)
                    want = [keep_value(c, view.hand, side, view.rules, table.pile_size, w)
                            + danger(c, table, view.rules, w) for c in view.hand]
                    assert got == want
                    checked += 1
    assert checked > 200


_POLICIES = [WildPolicy(n, c, e) for n in range(4) for c in (False, True) for e in (False, True)]


@pytest.mark.parametrize(("preset", "players"),
                         [(p, 2) for p in ("buraco", "buraco_morto", "bossa_nova", "tranca",
                                           "justificado")] + [("altaneira", 4)])
def test_no_policy_lays_what_all_in_cannot(preset: str, players: int) -> None:
    """``normal.choose_laydown`` stops when the :data:`~engine.ai.normal.ALL_IN` plan is
    empty: at every play-phase decision (and with the pile's cards added, as
    ``pile_worth`` plans), every wild policy's plan is then empty too."""
    empty = 0
    for view in _decisions(preset, players, seeds=4, steps=300):
        side, rules = view.melds[view.side], view.rules
        for hand in (view.hand, [*view.hand, *view.pile]):
            if plan_laydown(hand, side, rules, ALL_IN).empty:
                empty += 1
                assert all(plan_laydown(hand, side, rules, p).empty for p in _POLICIES)
    assert empty > 100


def _snapshot(plan: Any) -> tuple[Any, ...]:
    """A plan's lists and dict copied (its melds are frozen, so sharing them is a copy;
    compiled melds, engine/_native.py, cannot be deep-copied)."""
    return (list(plan.new), {k: (list(cards), meld) for k, (cards, meld) in plan.ext.items()},
            list(plan.left))


def test_normal_leaves_the_shared_plans_as_they_were() -> None:
    """``normal`` reads the memo's own plans (``shared_plan``): after each decision they
    are what they were, and ``plan_laydown`` still hands out equal fresh copies."""
    for preset in ("buraco_morto", "tranca"):
        state = _deal(preset, 2, 5)
        rng = random.Random(5)
        steps = 0
        while not state.over and steps < 300:
            view = view_for(state, state.turn)
            side = view.melds[view.side]
            policy = normal.wild_policy(view, len(view.hand), tuned(preset))
            plans = [shared_plan(view.hand, side, view.rules, p) for p in (ALL_IN, policy)]
            before = [_snapshot(plan) for plan in plans]
            apply(state, normal.choose(view, rng, tuned(preset)))
            assert [_snapshot(plan) for plan in plans] == before
            fresh = plan_laydown(view.hand, side, view.rules, ALL_IN)
            assert fresh == plans[0] and fresh is not plans[0]
            steps += 1


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 120))
def test_shuffle_is_random_shuffle(seed: int, size: int) -> None:
    """``determinize.shuffle`` gives the permutation ``Random.shuffle`` gives, and leaves
    the generator where it leaves it (the same draws)."""
    ours, theirs = list(range(size)), list(range(size))
    a, b = random.Random(seed), random.Random(seed)
    shuffle(ours, a)
    b.shuffle(theirs)
    assert ours == theirs
    assert a.random() == b.random()


def test_shuffle_leaves_a_random_subclass_to_its_own_shuffle() -> None:
    class Fixed(random.Random):
        def shuffle(self, x):  # type: ignore[no-untyped-def]
            x.reverse()

    cards = [1, 2, 3]
    shuffle(cards, Fixed(1))
    assert cards == [3, 2, 1]


@pytest.mark.parametrize(("preset", "players"),
                         [(p, 2) for p in ("buraco", "buraco_morto", "bossa_nova", "tranca",
                                           "justificado")] + [("altaneira", 4)])
def test_pile_take_screen_skips_only_refused_extensions(preset: str, players: int) -> None:
    """``moves.pile_take`` tries the pile's top on a side meld only when it is a wild, or
    a natural of the set's rank or of the run's suit: the engine refuses every other
    face on every meld of seeded deals."""
    rules = make_rules(preset)
    melds: dict[tuple[object, ...], Meld] = {}
    for view in _decisions(preset, players, seeds=3, steps=400, weights=False):
        for side in view.melds:
            for m in side:
                melds[(m.kind, m.cards, m.wild_at)] = m
    refused = 0
    for meld in melds.values():
        for face in _FACES:
            if not face.wild and (face.rank != meld.low if meld.kind == "set"
                                  else face.suit != meld.suit):
                assert try_extend(meld, [face], rules) is None
                refused += 1
    assert len(melds) > 20 and refused > 1000
