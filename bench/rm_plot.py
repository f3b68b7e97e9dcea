"""docs/robots.md's table and picture: our robots against BotRafa, with 95 % intervals.

Usage: ``python bench/rm_plot.py RESULT.json [RESULT.json ...] [--out docs/img/vs_rm.png]``

Each RESULT is a ``bench/vs_rm.py --json-out`` file (its summary). Runs of the same
robot (``seat``) are added up: deals, wins, ties, point margins, moves and times (so
two processes on other decks make one figure). The win rate counts the deals won (a
tie is no win) and its interval is Wilson's. Prints the markdown table, then writes
the picture.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

TARGETS = {"dificil": 0.60, "normal": 0.50}
"""Issue 37's targets per robot."""
Z95 = 1.959963984540054


def wilson(wins: int, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of ``wins`` in ``n``."""
    p = wins / n
    den = 1 + Z95 * Z95 / n
    mid = (p + Z95 * Z95 / (2 * n)) / den
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / den
    return mid - half, mid + half


def combine(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One robot's runs added up (module docstring)."""
    deals = sum(r["deals"] for r in runs)
    wins = sum(int(r["wins"]) for r in runs)
    ours = sum(r["moves"]["ours"] for r in runs)
    rm = sum(r["moves"]["rm"] for r in runs)
    low, high = wilson(wins, deals)
    return {
        "seat": runs[0]["seat"], "budget": runs[0]["budget"], "deals": deals, "wins": wins,
        "ties": sum(r["ties"] for r in runs), "win_rate": wins / deals,
        "ci_low": low, "ci_high": high,
        "margin": sum(r["margin"] * r["deals"] for r in runs) / deals,
        "ms_ours": sum(r["ms_per_move"]["ours"] * r["moves"]["ours"] for r in runs) / ours,
        "ms_rm": sum(r["ms_per_move"]["rm"] * r["moves"]["rm"] for r in runs) / rm,
        "refused": sum(r["rm_refused_total"] for r in runs),
        "failures": sum(r["rm_failures"] for r in runs),
        "fallback_turns": sum(r["fallback_turns"] for r in runs),
        "rm_moves": rm,
    }


def table(rows: list[dict[str, Any]]) -> str:
    """The markdown table of docs/robots.md."""
    out = ["| our robot | deals | won | tied | win rate | 95% CI (Wilson) | target | "
           "margin (points/deal) | ms/move ours | ms/move BotRafa | RM moves refused "
           "/ made | RM failures | turns finished by facil |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        target = TARGETS.get(r["seat"])
        verdict = "—" if target is None else (
            f"≥ {target:.0%} {'met' if r['win_rate'] >= target else 'NOT met'}")
        budget = f" ({r['budget']} s)" if r["seat"] == "dificil" else ""
        out.append(
            f"| {r['seat']}{budget} | {r['deals']} | {r['wins']} | {r['ties']} | "
            f"{r['win_rate']:.1%} | {r['ci_low']:.1%}–{r['ci_high']:.1%} | {verdict} | "
            f"{r['margin']:+.0f} | {r['ms_ours']:.2f} | {r['ms_rm']:.2f} | "
            f"{r['refused']} / {r['rm_moves']} | {r['failures']} | {r['fallback_turns']} |")
    return "\n".join(out)


def picture(rows: list[dict[str, Any]], out: Path) -> None:
    """Win rates with their intervals and targets, and the mean margins."""
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(9, 1.4 + 0.8 * len(rows)),
                                 gridspec_kw={"width_ratios": [3, 2]})
    ys = list(range(len(rows)))
    rates = [100 * r["win_rate"] for r in rows]
    errs = [[100 * (r["win_rate"] - r["ci_low"]) for r in rows],
            [100 * (r["ci_high"] - r["win_rate"]) for r in rows]]
    ax.barh(ys, rates, xerr=errs, color="#4c72b0", capsize=4)
    for y, r in zip(ys, rows, strict=True):
        target = TARGETS.get(r["seat"])
        if target is not None:
            ax.plot([100 * target] * 2, [y - 0.4, y + 0.4], color="#c44e52", lw=2)
        ax.text(min(rates[y], 80) + 4, y + 0.25, f"{rates[y]:.1f}%", va="center")
    ax.axvline(50, color="grey", ls="--", lw=1)
    ax.set_yticks(ys, [f"{r['seat']} ({r['deals']} deals)" for r in rows])
    ax.set_xlim(0, 100)
    ax.set_xlabel("deals won against BotRafa, % (95% Wilson; red: target)")
    bx.barh(ys, [r["margin"] for r in rows], color="#55a868")
    bx.axvline(0, color="grey", lw=1)
    bx.set_yticks(ys, [""] * len(rows))
    bx.set_xlabel("mean margin, points per deal")
    fig.suptitle("Our robots vs BotRafa (rafaelmuylaert/buraco 1e89683) on its rules")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)


def main(argv: list[str] | None = None) -> int:
    """Print the table and draw the picture; returns the exit status."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("results", nargs="+", type=Path)
    p.add_argument("--out", type=Path, default=Path("docs/img/vs_rm.png"))
    args = p.parse_args(argv)
    by_seat: dict[str, list[dict[str, Any]]] = {}
    for path in args.results:
        run = json.loads(path.read_text(encoding="utf-8").strip().splitlines()[-1])
        by_seat.setdefault(run["seat"], []).append(run)
    order = ["dificil", "normal", "facil"]
    rows = [combine(by_seat[s]) for s in sorted(by_seat, key=order.index)]
    print(table(rows))
    picture(rows, args.out)
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
