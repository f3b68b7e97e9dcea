"""Fit the weights of ``dificil``'s leaf evaluation (:mod:`engine.ai.evaluate`).

    .venv/bin/python bench/fit_eval.py [--deals N] [--jobs J] [--presets a,b] [--players P]

Plays ``N`` deals per preset of ``normal`` against ``normal`` (two players, altaneira
four, unless ``--players``: the fits of ``engine.ai.evaluate.WEIGHTS_AT``), records
:func:`engine.ai.evaluate.features` at the start of every turn from the
point of view of the side about to draw, and the final deal-score lead of that side.
A least-squares fit (tiny ridge) of lead on features gives one weight per feature.
Prints the ``WEIGHTS`` table to paste into ``engine/ai/evaluate.py``, and for each
preset the R² on the second half of the deals of a fit on the first half (held out) and
the spread (standard deviation, points) of the final lead around the fit, from which
``engine.ai.dificil.WIN_SCALE`` is set.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import textwrap
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai.evaluate import FEATURES, features
from engine.ai.selfplay import play_deal
from engine.cards import full_deck
from engine.rules import make_rules
from engine.state import DRAW, DealState

PRESETS = ["buraco", "buraco_morto", "bossa_nova", "tranca", "justificado", "altaneira"]
Row = tuple[list[float], float]


def deal_rows(args: tuple[str, int, int]) -> list[Row]:
    """Play one ``normal`` deal of ``preset`` (seed ``seed``) at ``players`` seats (0: two,
    altaneira four); its (features, lead) rows."""
    preset, seed, players = args
    rules = make_rules(preset)
    players = players or (4 if preset == "altaneira" else 2)
    rng = random.Random(seed)
    deck = full_deck(rules.jokers)
    rng.shuffle(deck)
    marks: list[tuple[list[float], int]] = []

    def mark(state: DealState) -> None:
        if state.phase == DRAW:
            side = state.side_of[state.turn]
            marks.append((features(state, side), side))

    totals = play_deal(rules, ["normal"] * players, seed % players, deck, rng=rng,
                       before=mark).totals
    return [(x, float(totals[s] - max(t for i, t in enumerate(totals) if i != s)))
            for x, s in marks]


def solve(rows: list[Row], ridge: float = 1e-3) -> list[float]:
    """Least squares weights for ``rows`` (normal equations, Gaussian elimination)."""
    k = len(rows[0][0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in rows:
        for i in range(k):
            b[i] += x[i] * y
            for j in range(k):
                a[i][j] += x[i] * x[j]
    for i in range(k):
        a[i][i] += ridge * len(rows)
    for col in range(k):
        piv = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[piv] = a[piv], a[col]
        b[col], b[piv] = b[piv], b[col]
        for r in range(k):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [u - f * v for u, v in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if a[i][i] else 0.0 for i in range(k)]


def r2(rows: list[Row], w: list[float]) -> float:
    """Share of the variance of the lead that ``w`` explains on ``rows``."""
    ys = [y for _, y in rows]
    mean = sum(ys) / len(ys)
    tot = sum((y - mean) ** 2 for y in ys)
    res = sum((y - sum(a * b for a, b in zip(w, x, strict=True))) ** 2 for x, y in rows)
    return 1 - res / tot if tot else 0.0


def main(argv: list[str] | None = None) -> None:
    """Run the fits and print the table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--presets", default=",".join(PRESETS))
    p.add_argument("--players", type=int, default=0, help="seats (default two; altaneira four)")
    args = p.parse_args(argv)
    print("WEIGHTS = {")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for preset in args.presets.split(","):
            deals = list(pool.map(deal_rows, [(preset, s, args.players) for s in range(args.deals)],
                                  chunksize=8))
            half = len(deals) // 2
            first = [r for d in deals[:half] for r in d]
            second = [r for d in deals[half:] for r in d]
            held = r2(second, solve(first))
            base = r2(second, [1.0 if n == "score" else 0.0 for n in FEATURES])
            w = solve(first + second)
            rows = first + second
            spread = math.sqrt(sum((y - sum(a * b for a, b in zip(w, x, strict=True))) ** 2
                                   for x, y in rows) / len(rows))
            print(f"    # {args.deals} deals, {len(rows)} positions; held-out "
                  f"R² {held:.3f} (score now alone: {base:.3f}); spread {spread:.0f} "
                  f"(dificil.WIN_SCALE about 1.2 x spread)")
            head = f'    "{preset}": ('
            body = textwrap.wrap(", ".join(f"{v:.4g}" for v in w) + "),", 96 - len(head))
            print(head + f"\n{' ' * len(head)}".join(body), flush=True)
    print("}")


if __name__ == "__main__":
    main()
