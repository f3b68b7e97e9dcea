"""Our engine against RM's (rafaelmuylaert/buraco, ``GameEngines/Buraco.js``) in one run,
on RM's rules (issue 37: "engine ratios against RM in one run").

Usage::

    .venv/bin/python bench/rm_engine.py --rm PATH [--rounds 5] [--deals 50] [--replays 3]

Two figures per player count (2 and 4), each side on its own seeded decks and its own
random player, alternating which side goes first, for ``--rounds`` rounds; the table
shows the medians and the ratio ours / RM:

- ``deals/s``: complete random legal deals per second. Ours: ``engine.simulate.
  play_random_deal`` on ``engine.comparison.RM`` (as ``bench/compare.py`` plays it).
  RM's: ``bench/rm_engine.mjs``, a random player over RM's own move generation
  (``generateAllValidMelds``) and moves (``moveDrawCard``, ``movePickUpDiscard``,
  ``moveMeld``, ``moveDiscardCard``, ``checkGameOver`` after each).
- ``replay moves/s`` and ``replay deals/s``: those deals' recorded moves applied to
  fresh copies of their first states (copies made before the clock starts), ``--replays``
  times each deal. Ours ``engine.apply``; RM's the same move functions + ``checkGameOver``.

Our engine runs in this process (compiled if ``engine.NATIVE``; the table says which),
RM's in one Node subprocess (Node >= 18). RM's checkout is read only (``fetch`` it:
``git clone https://github.com/rafaelmuylaert/buraco``; measured at 1e89683).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import apply  # noqa: E402
from engine.cards import full_deck  # noqa: E402
from engine.comparison import RM  # noqa: E402
from engine.deal import new_deal  # noqa: E402
from engine.simulate import play_random_deal  # noqa: E402
from engine.state import DealState  # noqa: E402

FIGURES = ("deals/s", "replay moves/s", "replay deals/s", "moves/deal")


def seeded_starts(players: int, deals: int, seed: int) -> tuple[list[DealState], random.Random]:
    """``deals`` first states of RM's rules for ``players`` seats, their decks shuffled by
    ``Random(seed + 1)``, and the random player's generator, ``Random(seed)``."""
    deck_rng, rng = random.Random(seed + 1), random.Random(seed)
    starts = []
    for _ in range(deals):
        deck = full_deck(RM.jokers)
        deck_rng.shuffle(deck)
        starts.append(new_deal(RM, players, deck, reshuffle=list(range(len(deck)))))
    return starts, rng


def ours(players: int, deals: int, replays: int, seed: int) -> dict[str, float]:
    """Random play then replay of ``deals`` seeded deals of RM's rules with our engine."""
    starts, rng = seeded_starts(players, deals, seed)
    firsts = [s.clone() for s in starts]
    t0 = time.perf_counter()
    played = [play_random_deal(s, rng)[0] for s in starts]
    play_s = time.perf_counter() - t0
    moves = sum(len(p) for p in played)
    copies = [f.clone() for f in firsts for _ in range(replays)]
    t0 = time.perf_counter()
    for i, state in enumerate(copies):
        for action in played[i // replays]:
            apply(state, action)
    replay_s = time.perf_counter() - t0
    return {"deals/s": deals / play_s, "replay moves/s": moves * replays / replay_s,
            "replay deals/s": deals * replays / replay_s, "moves/deal": moves / deals}


class RMWorker:
    """``bench/rm_engine.mjs`` in a Node subprocess: one task a line, one answer a line."""

    def __init__(self, checkout: Path) -> None:
        self.proc = subprocess.Popen(
            ["node", str(ROOT / "bench" / "rm_engine.mjs"), str(checkout)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, players: int, deals: int, replays: int, seed: int) -> dict[str, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(["play", players, deals, replays, seed]) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            sys.exit("rm_engine.mjs stopped (is PATH an RM checkout, Node >= 18?)")
        got = json.loads(line)
        if got["replay_refused"]:
            sys.exit(f"RM refused {got['replay_refused']} recorded moves on replay")
        return {"deals/s": got["deals_s"], "replay moves/s": got["replay_moves_s"],
                "replay deals/s": got["replay_deals_s"], "moves/deal": got["moves"] / deals}

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _commit(checkout: Path) -> str:
    out = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True, check=False)
    return out.stdout.strip() or "(no git metadata)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rm", type=Path, required=True, help="RM's checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--replays", type=int, default=3)
    args = parser.parse_args()
    if not (args.rm / "GameEngines" / "Buraco.js").is_file():
        sys.exit(f"{args.rm} is no RM checkout (no GameEngines/Buraco.js)")
    worker = RMWorker(args.rm)
    runs: dict[tuple[str, int], list[dict[str, float]]] = {}
    try:
        for players in (2, 4):  # untimed warm-up of both sides
            ours(players, 5, 1, 99)
            worker.run(players, 5, 1, 99)
        for rnd in range(args.rounds):
            for players in (2, 4):
                sides: list[Any] = [("ours", ours), ("rm", worker.run)]
                if rnd % 2:
                    sides.reverse()
                for name, fn in sides:
                    seed = 1000 * rnd + players
                    runs.setdefault((name, players), []).append(
                        fn(players, args.deals, args.replays, seed))
    finally:
        worker.close()
    print(f"our engine {'compiled' if getattr(engine, 'NATIVE', False) else 'pure Python'}, "
          f"RM {_commit(args.rm)}, {args.rounds} rounds x {args.deals} deals, "
          f"replays x{args.replays}; medians, ratio = ours / RM")
    print(f"{'figure':<28}{'ours':>12}{'RM':>12}{'ratio':>8}")
    for players in (2, 4):
        for fig in FIGURES:
            a = statistics.median(r[fig] for r in runs[("ours", players)])
            b = statistics.median(r[fig] for r in runs[("rm", players)])
            print(f"{f'{players}p {fig}':<28}{a:>12.1f}{b:>12.1f}{a / b:>8.2f}")


if __name__ == "__main__":
    main()
