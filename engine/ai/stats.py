"""Small statistics for self-play reports: Wilson score intervals and running means.

Pure functions over counts; no randomness, no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval ``(low, high)`` for a proportion, both in ``[0, 1]``.

    ``successes`` may be fractional (a tie counted as half a win). ``trials`` 0 gives
    ``(0.0, 1.0)``. Raises ``ValueError`` when ``successes`` is outside ``[0, trials]``.
    """
    if trials == 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes {successes} outside [0, {trials}]")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Mean:
    """Running mean and population standard deviation of a stream of numbers."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        """Count one more observation ``x``."""
        self.n += 1
        self.total += x
        self.squares += x * x

    @property
    def mean(self) -> float:
        """Mean so far (0.0 before any observation)."""
        return self.total / self.n if self.n else 0.0

    @property
    def std(self) -> float:
        """Population standard deviation so far (0.0 with fewer than two observations)."""
        if self.n < 2:
            return 0.0
        return math.sqrt(max(0.0, self.squares / self.n - self.mean**2))


@dataclass
class SideTally:
    """Results of one side over many deals: wins, ties, losses and deal scores."""

    label: str
    wins: int = 0
    ties: int = 0
    losses: int = 0
    score: Mean = field(default_factory=Mean)

    @property
    def deals(self) -> int:
        """Deals counted."""
        return self.wins + self.ties + self.losses

    def win_rate(self) -> float:
        """Share of deals won outright (ties count as not won), 0.0 with no deals."""
        return self.wins / self.deals if self.deals else 0.0

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of :meth:`win_rate`."""
        return wilson(self.wins, self.deals)


def percent(x: float) -> str:
    """``0.8123`` -> ``"81.2%"``."""
    return f"{100 * x:.1f}%"
