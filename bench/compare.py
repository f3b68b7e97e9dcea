"""Same-run engine speed ratios of two commits (issue 13).

Usage: ``python bench/compare.py BASE NEW [--rounds N] [--deals N] [--replays N]``
(commits, branches or ``WORKTREE`` for the files as they are now). Each commit is
exported with ``git archive`` into a temporary directory; then worker processes of
the two alternate, ``--rounds`` times each (the machine is shared: alternating puts
both under the same load), and each runs the same workload, the one in *this* file:

- ``moves/s`` and ``deals/s``: random legal deals (``engine.simulate``) of every preset
  with 2 and 4 players where the preset allows them, from decks and a player seeded
  alike in both, so both commits play the very same deals when their random player
  consumes the seed the same way (the ``actions`` column is that checksum);
- ``replay moves/s``: ``apply`` of the recorded actions of those deals on fresh copies
  of their first state (set-up not timed);
- ``discard µs``: median ``verify`` + ``apply`` of one discard on a fixed position;
- ``rollouts/s``: ``dificil``'s rollouts (``normal`` playing two rounds) from seeded
  mid-deal positions of two-player buraco_morto and tranca.

It prints the median over the rounds of each figure and the ratio NEW / BASE (for
``discard µs`` BASE / NEW, so above 1 is faster everywhere). One core per worker.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _export(commit: str, into: Path) -> Path:
    """The files of ``commit`` (or of the work tree for ``WORKTREE``) under ``into``."""
    if commit == "WORKTREE":
        return ROOT
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "engine"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def _run_worker(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--worker", str(tree), "--deals", str(args.deals),
           "--replays", str(args.replays), "--rollouts", str(args.rollouts)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def main() -> None:
    """Parse the arguments, alternate the workers, print the medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("base", nargs="?")
    parser.add_argument("new", nargs="?")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--replays", type=int, default=5)
    parser.add_argument("--rollouts", type=int, default=40)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(_workload(Path(args.worker), args)))
        return
    if not args.base or not args.new:
        parser.error("give two commits (BASE NEW)")
    with tempfile.TemporaryDirectory(prefix="compare-") as tmp:
        trees = [_export(c, Path(tmp) / str(i)) for i, c in enumerate((args.base, args.new))]
        for tree in trees:  # untimed: compiles the bytecode, warms the disk cache
            _run_worker(tree, argparse.Namespace(deals=1, replays=1, rollouts=1))
        runs: list[list[dict[str, float]]] = [[], []]
        for r in range(args.rounds):
            for side in (r % 2, 1 - r % 2):
                runs[side].append(_run_worker(trees[side], args))
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    _report(args.base, args.new, runs)


def _report(base: str, new: str, runs: list[list[dict[str, float]]]) -> None:
    print(f"{'figure':<34} {base[:12]:>12} {new[:12]:>12} {'ratio':>7}")
    ratios: dict[str, list[float]] = {}
    for key in runs[0][0]:
        a = statistics.median(run[key] for run in runs[0])
        b = statistics.median(run[key] for run in runs[1])
        if key.endswith("actions"):
            same = "same" if a == b else "DIFFERENT"
            print(f"{key:<34} {a:>12.0f} {b:>12.0f} {same:>7}")
            continue
        ratio = a / b if key.endswith("µs") else b / a
        ratios.setdefault(key.split()[-1], []).append(ratio)
        print(f"{key:<34} {a:>12.1f} {b:>12.1f} {ratio:>7.2f}")
    for unit, values in ratios.items():
        print(f"{'geometric mean ratio, ' + unit:<60} {statistics.geometric_mean(values):>7.2f}")


# Worker ----------------------------------------------------------------------
def _workload(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    sys.path[:] = [str(tree)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
    import engine

    assert Path(engine.__file__).resolve().is_relative_to(tree.resolve()), engine.__file__
    out: dict[str, float] = {}
    _random_play(args.deals, args.replays, out)
    out["discard verify+apply µs"] = _discard_us(3000)
    _rollouts(args.rollouts, out)
    return out


def _random_play(n_deals: int, n_replays: int, out: dict[str, float]) -> None:
    import random

    from engine import apply, make_rules
    from engine.cards import full_deck
    from engine.deal import new_deal
    from engine.rules import PRESETS
    from engine.simulate import play_random_deal

    for preset in PRESETS:
        rules = make_rules(preset)
        for players in (2, 4):
            if players not in rules.players_allowed:
                continue
            deck_rng, rng = random.Random(13), random.Random(7)
            decks = []
            for _ in range(n_deals):
                deck = full_deck(rules.jokers)
                deck_rng.shuffle(deck)
                decks.append(deck)
            starts = [new_deal(rules, players, deck, reshuffle=list(range(len(deck))))
                      for deck in decks]
            firsts = [s.clone() for s in starts]
            t0 = time.perf_counter()
            played = [play_random_deal(s, rng)[0] for s in starts]
            elapsed = time.perf_counter() - t0
            moves = sum(len(p) for p in played)
            tag = f"{preset} {players}p"
            out[f"{tag} actions"] = moves
            out[f"{tag} moves/s"] = moves / elapsed
            out[f"{tag} deals/s"] = n_deals / elapsed
            copies = [f.clone() for f in firsts for _ in range(n_replays)]
            t0 = time.perf_counter()
            for i, state in enumerate(copies):
                for action in played[i // n_replays]:
                    apply(state, action)
            out[f"{tag} replay moves/s"] = moves * n_replays / (time.perf_counter() - t0)


def _discard_us(samples: int) -> float:
    from engine import Action, DealState, apply, make_rules, parse_cards, verify

    rules = make_rules("buraco_morto")
    position = {
        "hands": [[c.code for c in parse_cards("4h 5h 6h 7h 8h 9h 10h Kc Kd Qs Js 5c")],
                  ["As", "Ad", "Ac"]],
        "melds": [[], []], "pile": ["9c"], "stock": ["8c", "8d", "7c", "6c"],
        "mortos": [["Jc"], ["Jd"]], "turn": 0, "phase": "play", "scores": [0, 0],
    }
    base = DealState.from_json(rules, position)
    action = Action.discard(0, parse_cards("5c")[0])
    copies = [base.clone() for _ in range(samples)]
    times: list[float] = []
    for state in copies:
        t0 = time.perf_counter_ns()
        verify(state, action)
        apply(state, action)
        times.append((time.perf_counter_ns() - t0) / 1000)
    return statistics.median(times)


def _rollouts(n: int, out: dict[str, float]) -> None:
    import random

    from engine import apply, make_rules
    from engine.ai.dificil import rollout
    from engine.cards import full_deck
    from engine.deal import new_deal
    from engine.simulate import random_action

    for preset in ("buraco_morto", "tranca"):
        rules = make_rules(preset)
        deck_rng, rng = random.Random(5), random.Random(11)
        positions: list[Any] = []
        while len(positions) < 4:
            deck = full_deck(rules.jokers)
            deck_rng.shuffle(deck)
            state = new_deal(rules, 2, deck, reshuffle=list(range(len(deck))))
            for _ in range(12):
                if state.over:
                    break
                apply(state, random_action(state, rng))
            if not state.over:
                positions.append(state)
        t0 = time.perf_counter()
        for i in range(n):
            world = positions[i % len(positions)]
            rollout(world.clone(), random_action(world, rng), world.side_of[world.turn], rng)
        out[f"{preset} 2p dificil rollouts/s"] = n / (time.perf_counter() - t0)


if __name__ == "__main__":
    main()
