"""Tune the heuristic weights ``dificil`` starts from (:data:`engine.ai.weights.TUNED`).

    .venv/bin/python bench/tune_weights.py --preset buraco_morto [--decks 600] [--jobs 2]

A coordinate search against ``normal`` (two players): starting from ``normal``'s own
weights (or ``--start tuned``: the preset's current ``TUNED`` ones), each weight in turn
is tried times ``--down`` and ``--up`` (whole numbers: ``--step`` less and more); a
change is kept when ``normal`` playing with it wins more than half a point more of the
deals than the best so far. Every candidate plays the
same ``--decks`` shuffled decks (seeds 0..decks-1), each deck twice with the seats
swapped, so the comparisons are paired. The search picks the luckiest of many
candidates on those decks, so the last line replays the winner on decks it has not
seen (seeds from 100,000): that figure is the honest one. Prints one line per
candidate, then the weights that differ from ``normal`` (to paste into ``TUNED``).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import normal
from engine.ai.selfplay import play_deal
from engine.ai.weights import NORMAL, Weights, tuned
from engine.cards import full_deck
from engine.rules import make_rules

FRESH_SEED = 100_000


def score(args: tuple[str, Weights, list[int]]) -> float:
    """Deals won (a tie counts half) by ``normal`` with weights ``w`` against ``normal``,
    over the decks of ``seeds``, each played from both seats."""
    preset, w, seeds = args
    rules = make_rules(preset)
    players = {"tuned": lambda view, rng: normal.choose(view, rng, w)}
    won = 0.0
    for seed in seeds:
        deck = full_deck(rules.jokers)
        random.Random(seed).shuffle(deck)
        for levels in (["tuned", "normal"], ["normal", "tuned"]):
            totals = play_deal(rules, levels, seed % 2, deck, rng=random.Random(seed),
                               players=players).totals
            me = levels.index("tuned")
            lead = totals[me] - totals[1 - me]
            won += 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
    return won


def win_rate(pool: ProcessPoolExecutor, preset: str, w: Weights, first: int, decks: int,
             jobs: int) -> float:
    """Share of the ``2 * decks`` deals (seeds ``first``..) that weights ``w`` win."""
    seeds = list(range(first, first + decks))
    parts = [(preset, w, seeds[j::jobs]) for j in range(jobs)]
    return sum(pool.map(score, parts)) / (2 * decks)


def variations(w: Weights, name: str, down: float, up: float, step: int) -> list[Weights]:
    """``w`` with weight ``name`` lowered and raised: times ``down`` and ``up``, or for a
    whole number ``step`` less (not below 0) and more."""
    v = getattr(w, name)
    if isinstance(v, int):
        values: list[float] = [max(0, v - step), v + step]
    else:
        values = [v * down, v * up]
    return [dataclasses.replace(w, **{name: value}) for value in values]


def main() -> int:
    """Run the search for one preset and print it."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--preset", required=True)
    p.add_argument("--decks", type=int, default=600)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--down", type=float, default=0.5, help="factor of the lower try")
    p.add_argument("--up", type=float, default=1.6, help="factor of the higher try")
    p.add_argument("--step", type=int, default=4, help="step of a whole-number weight")
    p.add_argument("--only", default="", help="comma-separated weights to try (default: all)")
    p.add_argument("--start", choices=["normal", "tuned"], default="normal",
                   help="search from normal's weights or from the preset's TUNED ones")
    args = p.parse_args()
    make_rules(args.preset)  # an unknown preset fails here, before any work
    with ProcessPoolExecutor(args.jobs) as pool:
        best = tuned(args.preset) if args.start == "tuned" else NORMAL
        best_rate = win_rate(pool, args.preset, best, 0, args.decks, args.jobs)
        print(f"start: {100 * best_rate:.1f}%", flush=True)
        names = [f.name for f in dataclasses.fields(Weights)]
        only = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = sorted(set(only) - set(names))
        if unknown:
            p.error(f"unknown weights: {', '.join(unknown)}")
        for name in only or names:
            for cand in variations(best, name, args.down, args.up, args.step):
                r = win_rate(pool, args.preset, cand, 0, args.decks, args.jobs)
                kept = r > best_rate + 0.005
                if kept:
                    best, best_rate = cand, r
                print(f"{name} = {getattr(cand, name):g}: {100 * r:.1f}%"
                      + ("  kept" if kept else ""), flush=True)
        fresh = win_rate(pool, args.preset, best, FRESH_SEED, args.decks, args.jobs)
    changed = {n: getattr(best, n) for n in names if getattr(best, n) != getattr(NORMAL, n)}
    print(f"\n{args.preset}: Weights({', '.join(f'{k}={v:g}' for k, v in changed.items())})")
    print(f"search decks: {100 * best_rate:.1f}%; fresh decks: {100 * fresh:.1f}% "
          f"of {2 * args.decks} deals against normal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
