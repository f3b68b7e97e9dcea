"""AI strength and speed benchmark (issue 5). Not a test: it takes minutes.

    .venv/bin/python bench/ai.py [--part normal|dificil|all] [--deals N] [--jobs J]

Part ``normal``: 500 two-player deals of every preset (altaneira: 4 players, a pair of
``normal`` against a pair of ``facil``), ``normal`` against ``facil``; target: normal
wins >= 80% of deals. Part ``dificil``: 200 two-player deals of buraco_morto and
tranca, ``dificil`` with 0.1 s per move against ``normal``; target >= 60%. Every deck is
played twice with the lineups swapped (``--mirror`` in selfplay). Prints one Markdown
row per matchup as soon as it is done (so a cut-off run still reports), then the
``normal`` decision-time p99 (target <= 20 ms).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai.selfplay import Summary, p99, run
from engine.ai.stats import percent
from engine.rules import make_rules

PRESETS = ["buraco", "buraco_morto", "bossa_nova", "tranca", "justificado", "altaneira"]
HEADER = ("| preset | players | matchup | deals | wins | ties | win rate | 95% CI (Wilson) "
          "| avg deal score (first lineup / second) | target | minutes |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")


def row(preset: str, players: int, hero: str, foe: str, s: Summary, target: float,
        minutes: float) -> str:
    """One Markdown row for ``hero`` against ``foe``."""
    h, f = s.sides[hero], s.sides[foe]
    lo, hi = h.interval()
    verdict = "met" if h.win_rate() >= target else "NOT met"
    if s.fallbacks:
        verdict += f"; {s.fallbacks} AI moves refused by the engine"
    return (f"| {preset} | {players} | {hero} vs {foe} | {h.deals} | {h.wins} | {h.ties} | "
            f"{percent(h.win_rate())} | {percent(lo)}–{percent(hi)} | "
            f"{h.score.mean:+.0f} / {f.score.mean:+.0f} | ≥ {percent(target)} {verdict} | "
            f"{minutes:.1f} |")


def part_normal(deals: int, jobs: int, times: list[float]) -> None:
    """normal vs facil over ``deals`` deals of every preset."""
    for preset in PRESETS:
        players = 4 if preset == "altaneira" else 2
        t0 = time.perf_counter()
        s = run(make_rules(preset), players, ["normal", "facil"], deals, mirror=True, jobs=jobs)
        times.extend(s.times.get("normal", []))
        print(row(preset, players, "normal", "facil", s, 0.8, (time.perf_counter() - t0) / 60),
              flush=True)


def part_dificil(deals: int, jobs: int, budget: float) -> None:
    """dificil (``budget`` s per move) vs normal over ``deals`` deals."""
    for preset in ("buraco_morto", "tranca"):
        t0 = time.perf_counter()
        s = run(make_rules(preset), 2, ["dificil", "normal"], deals, budget_s=budget,
                mirror=True, jobs=jobs)
        print(row(preset, 2, "dificil", "normal", s, 0.6, (time.perf_counter() - t0) / 60),
              flush=True)
        ts = s.times.get("dificil", [])
        if ts:
            print(f"\ndificil decision time ({preset}): mean {1000 * sum(ts) / len(ts):.1f} ms, "
                  f"p99 {1000 * p99(ts):.1f} ms, max {1000 * max(ts):.1f} ms\n", flush=True)


def main() -> int:
    """Run the parts asked for; print Markdown to stdout."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--part", choices=["normal", "dificil", "all"], default="all")
    p.add_argument("--deals", type=int, default=None, help="deals per matchup (500 / 200)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--budget", type=float, default=0.1, help="dificil seconds per move")
    args = p.parse_args()
    print(HEADER, flush=True)
    if args.part in ("normal", "all"):
        times: list[float] = []
        part_normal(args.deals or 500, args.jobs, times)
        if times:
            print(f"\nnormal decision time over {len(times)} decisions: mean "
                  f"{1000 * sum(times) / len(times):.2f} ms, p99 {1000 * p99(times):.2f} ms, "
                  f"max {1000 * max(times):.2f} ms (target p99 <= 20 ms)\n", flush=True)
    if args.part in ("dificil", "all"):
        part_dificil(args.deals or 200, args.jobs, args.budget)
    return 0


if __name__ == "__main__":
    sys.exit(main())
