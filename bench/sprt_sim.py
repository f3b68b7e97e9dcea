"""Error rates of ``selfplay --sprt`` (:func:`engine.ai.stats.sprt_verdict`) by
simulation (issue 37).

    .venv/bin/python bench/sprt_sim.py [MINIMUMS...]     # default: 10 20 30

For each minimum number of pairs (:data:`engine.ai.stats.SPRT_MIN`), 4,000 simulated
runs (seed 1) of pairs of two independent deals, each won with probability p, stopped at
the first verdict or at 200 pairs, with P0, P1 = 0.65, 0.75: the share of runs that
accept H1 when p = 0.65 (nominal 5%), H0 when p = 0.75, and H1 when p = 0.60.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.ai.stats as st


def share(p: float, minimum: int, want: str, runs: int = 4000, cap: int = 200) -> float:
    """Share of ``runs`` simulated runs at rate ``p`` whose verdict is ``want``."""
    rng = random.Random(1)
    st.SPRT_MIN = minimum
    hits = 0
    for _ in range(runs):
        scores: list[float] = []
        for _ in range(cap):
            scores.append(((rng.random() < p) + (rng.random() < p)) / 2)
            verdict = st.sprt_verdict(scores, 0.65, 0.75)
            if verdict is not None:
                hits += verdict == want
                break
    return hits / runs


if __name__ == "__main__":
    for m in [int(a) for a in sys.argv[1:]] or [10, 20, 30]:
        print(f"minimum {m}: p=0.65 -> H1 {share(0.65, m, 'H1'):.4f}; "
              f"p=0.75 -> H0 {share(0.75, m, 'H0'):.4f}; p=0.60 -> H1 {share(0.60, m, 'H1'):.4f}",
              flush=True)
