"""Pairing a tournament's rounds (issue 29, docs/season.md "Torneios"): round robin by
the circle method with a bye for an odd count, a knockout's seeded bracket with byes to
the next power of two."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.season.tournament.pairing import (
    bracket_size,
    knockout_first_round,
    next_round,
    round_robin,
    seed_order,
)


def test_round_robin_of_four_by_the_circle_method() -> None:
    assert round_robin(4) == [[(0, 3), (1, 2)], [(0, 2), (3, 1)], [(0, 1), (2, 3)]]


def test_round_robin_of_three_gives_each_side_one_bye() -> None:
    assert round_robin(3) == [[(0, None), (1, 2)], [(0, 2), (1, None)], [(0, 1), (2, None)]]


@pytest.mark.parametrize("n", range(2, 17))
def test_round_robin_pairs_every_two_sides_exactly_once(n: int) -> None:
    rounds = round_robin(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = [frozenset((a, b)) for r in rounds for a, b in r if b is not None]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(range(n), 2)), key=sorted)
    for r in rounds:  # nobody plays twice in a round; odd counts rest once each
        sides = [s for pair in r for s in pair if s is not None]
        assert len(sides) == len(set(sides)) == n  # the side resting is listed with None
    byes = [a for r in rounds for a, b in r if b is None]
    assert sorted(byes) == ([] if n % 2 == 0 else list(range(n)))


def test_round_robin_needs_two_sides() -> None:
    with pytest.raises(ValueError):
        round_robin(1)


def test_seed_order_keeps_the_best_seeds_apart() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@pytest.mark.parametrize(("n", "size"), [(2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16)])
def test_bracket_size_is_the_next_power_of_two(n: int, size: int) -> None:
    assert bracket_size(n) == size


def test_knockout_of_five_gives_the_byes_to_the_three_best_seeds() -> None:
    assert knockout_first_round(5) == [(0, None), (3, 4), (1, None), (2, None)]


def test_knockout_of_four_pairs_first_with_fourth_and_second_with_third() -> None:
    assert knockout_first_round(4) == [(0, 3), (1, 2)]


@pytest.mark.parametrize("n", range(2, 33))
def test_knockout_first_round_places_every_side_once(n: int) -> None:
    pairs = knockout_first_round(n)
    sides = [s for pair in pairs for s in pair if s is not None]
    assert sorted(sides) == list(range(n))
    assert len(pairs) == bracket_size(n) // 2
    assert sum(1 for _a, b in pairs if b is None) == bracket_size(n) - n


def test_next_round_pairs_winners_in_bracket_order() -> None:
    assert next_round([0, 2, 1, 5]) == [(0, 2), (1, 5)]
    assert next_round([3]) == []
