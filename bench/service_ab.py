"""Same-run service speed ratios of two commits (issue 13): bench/service.py on each.

Usage: ``python bench/service_ab.py BASE NEW [--rounds N] [--actions N] [--cold]
[--procs 2 | --procs 1,2]`` (commits, branches or ``WORKTREE`` for the files as they are
now).

``engine/``, ``bot/`` and ``adapters/`` of each commit are exported with ``git archive``
into a temporary directory beside a copy of *this* work tree's ``bench/`` (so both
commits serve the very same presses, seeded alike), and ``bench/service.py --json`` runs
on each in turn, alternating which goes first, for ``--rounds`` rounds: the machine is
shared, so each figure of one commit is measured within seconds of the other's. With
``--procs 2`` each run is that many processes at once (one table set each, their own
key prefixes) and ``actions/s`` is their sum; ``--procs 1,2`` gives BASE one process and
NEW two, so ``HEAD HEAD --procs 1,2`` measures how one commit scales to two processes.
Prints the median over the rounds of each figure and the ratio (BASE / NEW for times,
NEW / BASE for actions/s: above 1 is faster).
Needs the Redis at ``REDIS_URL`` (default database 15) as bench/service.py does.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _args import positive_int  # bench/ is first on sys.path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bot", "adapters")
HIGHER_IS_BETTER = {"actions_s"}


def export(commit: str, into: Path) -> Path:
    """The packages of ``commit`` (the work tree's for ``WORKTREE``) and this ``bench/``."""
    into.mkdir(parents=True)
    if commit == "WORKTREE":
        for name in PACKAGES:
            shutil.copytree(ROOT / name, into / name, ignore=shutil.ignore_patterns("__pycache__"))
    else:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, *PACKAGES],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    shutil.copytree(ROOT / "bench", into / "bench", ignore=shutil.ignore_patterns("__pycache__"))
    return into


def run(tree: Path, args: argparse.Namespace, tag: str, procs: int) -> dict[str, float]:
    """One run of ``procs`` bench processes on ``tree``; their figures (summed
    actions/s, the other figures of the first process)."""
    cmd = [sys.executable, str(tree / "bench" / "service.py"), "--actions", str(args.actions),
           "--games", str(args.games), "--seed", str(args.seed)]
    cmd += ["--cold"] if args.cold else []
    outs = [tree / f"{tag}-{k}.json" for k in range(procs)]
    procs = [subprocess.Popen([*cmd, "--json", str(out)], stdout=subprocess.DEVNULL)
             for out in outs]
    if any(p.wait() != 0 for p in procs):
        raise SystemExit(f"bench/service.py failed on {tree}")
    figures = [json.loads(out.read_text()) for out in outs]
    first: dict[str, float] = figures[0]
    first["actions_s"] = sum(f["actions_s"] for f in figures)
    return first


def report(names: tuple[str, str], runs: list[list[dict[str, float]]]) -> None:
    """Medians per commit and the ratio of each figure."""
    print(f"{'figure':<16} {names[0][:12]:>12} {names[1][:12]:>12} {'ratio':>7}")
    for key in runs[0][0]:
        a = statistics.median(r[key] for r in runs[0])
        b = statistics.median(r[key] for r in runs[1])
        if key in HIGHER_IS_BETTER:
            ratio = b / a if a else float("nan")
        else:
            ratio = a / b if b else float("nan")
        print(f"{key:<16} {a:>12.3f} {b:>12.3f} {ratio:>7.2f}")


def main() -> None:
    """Export both commits, alternate the runs, print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=positive_int, default=5)
    parser.add_argument("--actions", type=positive_int, default=500)
    parser.add_argument("--games", type=positive_int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--procs", default="1", help="processes per run: N, or BASE,NEW")
    parser.add_argument("--cold", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="service-ab-") as tmp:
        trees = [export(c, Path(tmp) / str(i)) for i, c in enumerate((args.base, args.new))]
        procs = [int(n) for n in args.procs.split(",")] * 2
        runs: list[list[dict[str, float]]] = [[], []]
        for r in range(args.rounds):
            for side in (r % 2, 1 - r % 2):
                runs[side].append(run(trees[side], args, f"r{r}", procs[side]))
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    report((args.base, args.new), runs)


if __name__ == "__main__":
    main()
