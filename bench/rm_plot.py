"""The picture of docs/robots.md: win rates against BotRafa with their 95 % intervals.

Usage: ``python bench/rm_plot.py RESULT.json [RESULT.json ...] --out docs/img/vs_rm.png``
(each RESULT is a ``bench/vs_rm.py --json-out`` file: its summary line).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

TARGETS = {"dificil": 0.60, "normal": 0.50}
"""Issue 37's targets per robot."""


def main(argv: list[str] | None = None) -> int:
    """Draw the picture; returns the exit status."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("results", nargs="+", type=Path)
    p.add_argument("--out", type=Path, default=Path("docs/img/vs_rm.png"))
    args = p.parse_args(argv)
    rows = [json.loads(r.read_text(encoding="utf-8").strip().splitlines()[-1])
            for r in args.results]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(9, 1.2 + 0.8 * len(rows)),
                                 gridspec_kw={"width_ratios": [3, 2]})
    names = [f"{r['seat']} ({r['deals']} deals)" for r in rows]
    ys = list(range(len(rows)))
    rates = [100 * r["win_rate"] for r in rows]
    errs = [[100 * (r["win_rate"] - r["ci_low"]) for r in rows],
            [100 * (r["ci_high"] - r["win_rate"]) for r in rows]]
    ax.barh(ys, rates, xerr=errs, color="#4c72b0", capsize=4)
    for y, r in zip(ys, rows, strict=True):
        target = TARGETS.get(r["seat"])
        if target is not None:
            ax.plot([100 * target] * 2, [y - 0.4, y + 0.4], color="#c44e52", lw=2)
        ax.text(2, y, f"{100 * r['win_rate']:.1f}%", va="center", color="white")
    ax.axvline(50, color="grey", ls="--", lw=1)
    ax.set_yticks(ys, names)
    ax.set_xlim(0, 100)
    ax.set_xlabel("deals won against BotRafa, % (95% Wilson interval; red: target)")
    bx.barh(ys, [r["margin"] for r in rows], color="#55a868")
    bx.set_yticks(ys, [""] * len(rows))
    bx.set_xlabel("mean point margin per deal")
    fig.suptitle("Our robots against BotRafa (rafaelmuylaert/buraco 1e89683), its rules")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=100)
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
