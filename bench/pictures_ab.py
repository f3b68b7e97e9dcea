"""Same-run drawing time of the season pictures at two commits (issue 38: the pictures
redrawn for a phone, 720 pixels wide at 200 dpi).

Usage: ``python bench/pictures_ab.py BASE NEW [--rounds N]`` (commits or branches).
``bot/`` and ``engine/`` of each commit are exported with ``git archive`` into a
temporary directory; each round draws the match picture (a dupla's four deals) and a
profile (10 ratings, 4 variants) once per commit in a fresh process after one warm-up
draw, alternating which commit goes first (the machine is shared: each figure of one is
measured within seconds of the other's). Prints the median milliseconds, the PNG sizes
and NEW / BASE (below 1 is faster). Needs matplotlib (the ``chat`` extra).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DRAW = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
from bot.season import picture, profile_picture
match = picture.Chart("Partida de Tranca", ("Dupla 1 (Ana, Caio) (vencedor)",
                      "Dupla 2 (Bia, Dani)"), ((0, 620, 1130, 1520, 1700),
                      (0, 410, 690, 830, 1200)), 1500, "mão", "pontos")
profile = profile_picture.ProfileChart(
    "Perfil de Ana neste grupo", tuple(range(1000, 1100, 10)),
    ("Tranca", "Buraco", "Buraco Bossa Nova", "Biriba com Tranca de Altaneira"),
    (6, 3, 2, 1), (4, 1, 1, 0), "Rating nas últimas partidas", "partida", "Por variante",
    "partidas", "vitórias")
out = {}
for name, draw in (("match", lambda: picture._draw(match)),
                   ("profile", lambda: profile_picture._draw(profile))):
    draw()
    start = time.perf_counter()
    png = draw()
    out[name] = [(time.perf_counter() - start) * 1000, len(png)]
print(json.dumps(out))
'''


def export(commit: str, into: Path) -> Path:
    """``bot/`` and ``engine/`` of ``commit`` under ``into``."""
    into.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "bot", "engine"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> None:
    """Run the rounds and print the medians (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"base": export(args.base, Path(tmp) / "base"),
                 "new": export(args.new, Path(tmp) / "new")}
        runs: dict[str, list[dict[str, list[float]]]] = {"base": [], "new": []}
        for k in range(args.rounds):
            for side in (["base", "new"] if k % 2 == 0 else ["new", "base"]):
                done = subprocess.run([sys.executable, "-c", DRAW, str(trees[side])],
                                      capture_output=True, text=True, check=True)
                runs[side].append(json.loads(done.stdout))
    for kind in ("match", "profile"):
        base = statistics.median(r[kind][0] for r in runs["base"])
        new = statistics.median(r[kind][0] for r in runs["new"])
        print(f"{kind}: {args.base} {base:.0f} ms ({runs['base'][0][kind][1]:.0f} B), "
              f"{args.new} {new:.0f} ms ({runs['new'][0][kind][1]:.0f} B), "
              f"new/base {new / base:.2f}")


if __name__ == "__main__":
    main()
