"""Engine benchmark (issue 2): random-legal deals per second and verify+apply latency.

Usage: ``python bench/engine.py [--deals N] [--samples N]``. For every preset it plays
N complete deals with the random legal player of ``engine.simulate`` (four players
where the preset allows four, else its default) and reports deals per second on one
core, then the median time of ``apply`` (which verifies every rule before it changes
anything) for a discard and for a 7-card meld, measured on fresh copies of a fixed
position. Targets: >= 100 four-player deals/s, <= 50 µs median verify+apply.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# This file is named like the package it measures: run from bench/, Python would
# import it as ``engine``. Put the repository root first instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import (  # noqa: E402
    Action,
    DealState,
    Match,
    apply,
    make_rules,
    parse_cards,
    verify,
)
from engine.rules import PRESETS  # noqa: E402
from engine.simulate import play_random_deal  # noqa: E402

SEVEN = "4h 5h 6h 7h 8h 9h 10h"


def deals_per_second(preset: str, n_deals: int, seed: int = 7) -> tuple[int, float, float]:
    """Play ``n_deals`` random deals; returns (players, deals/s, mean actions per deal)."""
    rules = make_rules(preset)
    players = 4 if 4 in rules.players_allowed else rules.default_players
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(n_deals):
        state = Match.new(rules, [f"p{i}" for i in range(players)]).start_deal()
        done, _ = play_random_deal(state, rng)
        actions += len(done)
    elapsed = time.perf_counter() - start
    return players, n_deals / elapsed, actions / n_deals


def _position(preset: str) -> DealState:
    rules = make_rules(preset)
    hand = parse_cards("4h 5h 6h 7h 8h 9h 10h Kc Kd Qs Js 5c")
    n = 2 if 2 in rules.players_allowed else 4
    position = {
        "hands": [[c.code for c in hand]] + [[f"{r}s", f"{r}d", f"{r}c"] for r in "A98"[: n - 1]],
        "melds": [[] for _ in rules.teams(n)],
        "pile": ["9c"],
        "stock": ["8c", "8d", "7c", "6c"],
        "mortos": [["Jc"] if rules.morto else [] for _ in rules.teams(n)],
        "turn": 0,
        "phase": "play",
        "scores": [0 for _ in rules.teams(n)],
    }
    return DealState.from_json(rules, position)


def median_apply_us(preset: str, action: Action, samples: int) -> tuple[float, float]:
    """Median µs of ``verify`` alone and of ``apply`` (which verifies, then applies)."""
    base = _position(preset)
    verify(base, action)
    copies = [base.clone() for _ in range(samples)]
    t_apply: list[float] = []
    for state in copies:
        t0 = time.perf_counter_ns()
        apply(state, action)
        t_apply.append((time.perf_counter_ns() - t0) / 1000)
    t_verify: list[float] = []
    for _ in range(samples):
        t0 = time.perf_counter_ns()
        verify(base, action)
        t_verify.append((time.perf_counter_ns() - t0) / 1000)
    return statistics.median(t_verify), statistics.median(t_apply)


def main() -> None:
    """Print one table row per preset."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'preset':<13} {'players':>7} {'deals/s':>8} {'actions':>8} "
          f"{'discard µs (verify / apply)':>28} {'7-card meld µs (verify / apply)':>32}")
    for preset in PRESETS:
        players, rate, length = deals_per_second(preset, args.deals)
        discard = Action.discard(0, parse_cards("5c")[0])
        meld = Action.lay_down(0, [parse_cards(SEVEN)])
        dv, da = median_apply_us(preset, discard, args.samples)
        mv, ma = median_apply_us(preset, meld, args.samples)
        print(f"{preset:<13} {players:>7} {rate:>8.0f} {length:>8.0f} "
              f"{dv:>13.1f} / {da:<12.1f} {mv:>15.1f} / {ma:<14.1f}")


if __name__ == "__main__":
    main()
