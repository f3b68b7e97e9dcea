"""The review's cost of not charging hinted moves (issue 37, coachfix): CPU seconds of
:func:`engine.ai.coach.review` of seat 0 on the same seeded deals (``facil`` in seat 0,
``normal`` elsewhere, as ``bench/coach.py``), once with the hint check patched out
(``coach._is_hint`` returning False: the code before) and once as it is, in one run::

    nice -n 10 .venv/bin/python bench/coach_hint_check.py

Prints, per preset and variant, (CPU seconds, lessons) per deal and the maximum."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import coach as bench_coach  # bench/coach.py

from engine.ai import coach


def main() -> None:
    real = coach._is_hint
    out: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for preset in ("buraco", "tranca", "bossa_nova"):
        for seed in range(5):
            match, deal, _ = bench_coach._deal(preset, 2, seed)
            for name, check in (("without", lambda v, a: False), ("with", real)):
                coach._is_hint = check
                start = time.process_time()
                costs = coach.review(match.rules, 2, deal, 0)
                out.setdefault((preset, name), []).append(
                    (round(time.process_time() - start, 2), len(costs)))
            coach._is_hint = real
    for (preset, name), runs in out.items():
        print(preset, name, runs, "max", max(t for t, _ in runs), flush=True)


if __name__ == "__main__":
    main()
