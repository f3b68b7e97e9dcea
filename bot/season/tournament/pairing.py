"""Pairing a tournament's rounds (issue 29, docs/season.md "Torneios"). Pure.

Sides are numbered ``0..n-1`` in sign-up order, which is also their seed (side 0 is the
first seed). A pairing is ``(a, b)``; ``b`` None is a bye (``a`` rests, round robin, or
goes through, knockout).
"""

from __future__ import annotations

Pair = tuple[int, int | None]


def round_robin(n: int) -> list[list[Pair]]:
    """Every round of an ``n``-side round robin by the circle method: side 0 stays, the
    others turn one place a round; an odd ``n`` adds a phantom side whose opponent rests
    (a bye). ``n - 1`` rounds for even ``n``, ``n`` for odd; each pair meets exactly
    once. ``ValueError`` for ``n < 2``."""
    if n < 2:
        raise ValueError("a round robin needs two sides")
    ring: list[int | None] = [*range(n), *([None] if n % 2 else [])]
    m = len(ring)
    rounds: list[list[Pair]] = []
    for _r in range(m - 1):
        pairs: list[Pair] = []
        for i in range(m // 2):
            a, b = ring[i], ring[m - 1 - i]
            if a is None:
                a, b = b, None
            assert a is not None
            pairs.append((a, b))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def bracket_size(n: int) -> int:
    """The next power of two at or above ``n`` (the bracket's slots)."""
    size = 1
    while size < n:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """The seeds (1-based) of a ``size``-slot bracket from top to bottom, so that seed 1
    and 2 can only meet in the final, 1 to 4 in the semifinals: ``[1, 4, 2, 3]`` for 4,
    ``[1, 8, 4, 5, 2, 7, 3, 6]`` for 8. ``size`` a power of two."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def knockout_first_round(n: int) -> list[Pair]:
    """The first round of an ``n``-side knockout (``n >= 2``): the seeded bracket of the
    next power of two, a slot without a side being a bye for its opponent (so byes go
    to the best seeds). ``ValueError`` for ``n < 2``."""
    if n < 2:
        raise ValueError("a knockout needs two sides")
    order = seed_order(bracket_size(n))
    pairs: list[Pair] = []
    for i in range(0, len(order), 2):
        a, b = order[i] - 1, order[i + 1] - 1
        pairs.append((a, b if b < n else None))
    return pairs


def next_round(winners: list[int]) -> list[Pair]:
    """The next knockout round from the previous round's winners in bracket order:
    the winner of match 1 meets the winner of match 2, and so on."""
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]
