"""Same-run engine speed ratios of two commits (issue 13).

Usage: ``python bench/compare.py BASE NEW [--rounds N] [--deals N] [--replays N]``
(commits, branches or ``WORKTREE`` for the files as they are now, each optionally
followed by ``:native`` or ``:pure``). The ``engine`` of
each is exported with ``git archive`` into a temporary directory and one worker
process is started on each (one process pair, one core each). The driver then hands
the two workers the same tasks one at a time, alternating which goes first, for
``--rounds`` rounds: the machine is shared, so each figure of one commit is measured
within a second of the same figure of the other. Each worker runs the workload of
*this* file:

- ``moves/s`` and ``deals/s``: random legal deals (``engine.simulate``) of every preset
  with 2 and 4 players where the preset allows them, from decks and a player seeded
  alike in both, so both commits play the very same deals when their random player
  consumes the seed the same way (the ``actions`` row is that checksum);
- ``replay moves/s``: ``apply`` of the recorded actions of those deals on fresh copies
  of their first state (set-up not timed);
- ``discard µs``: median ``verify`` + ``apply`` of one discard on a fixed position;
- ``rollouts/s``: ``dificil``'s rollouts (``normal`` playing two rounds) from seeded
  mid-deal positions of two-player buraco_morto and tranca;
- ``rollouts/move``: rollouts ``dificil.choose`` plays within its 0.1 s budget, mean
  over seeded play-phase positions of the same presets.

A side named ``COMMIT:native`` is compiled first (``tools/build_native.py`` of this
checkout, into the exported tree's ``.native/``; the commit must have the loader,
``engine/_native.py``) and its worker checks that ``engine.NATIVE`` is true; a side
named ``COMMIT:pure`` runs with ``BURACO_NATIVE=0``. Without a suffix an exported tree
has no build and runs pure Python, and ``WORKTREE`` runs as ``import engine`` would here.
So ``compare.py HEAD:pure HEAD:native`` is the compiled path's gain at one commit and
``compare.py 209ff44 HEAD:native`` the whole of issue 13's.

It prints the median over the rounds of each figure and the ratio NEW / BASE (for
``discard µs`` BASE / NEW, so above 1 is faster everywhere).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from _args import positive_int  # bench/ is first on sys.path

ROOT = Path(__file__).resolve().parent.parent


def _split(side: str) -> tuple[str, str]:
    """``"HEAD:native"`` -> ``("HEAD", "native")``; no suffix -> ``(side, "")``."""
    commit, _, mode = side.partition(":")
    if mode not in ("", "native", "pure"):
        sys.exit(f"compare.py: unknown mode {mode!r} in {side!r} (native or pure)")
    return commit, mode


def _export(side: str, into: Path) -> Path:
    """The files of ``side``'s commit (or of the work tree for ``WORKTREE``) under
    ``into``, compiled when ``side`` ends in ``:native`` (exits when that fails)."""
    commit, mode = _split(side)
    if commit == "WORKTREE":
        tree = ROOT
    else:
        tree = into
        into.mkdir(parents=True)
        done = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "engine"],
                              capture_output=True)
        if done.returncode:
            last = (done.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1]
            sys.exit(f"compare.py: cannot read engine/ at {commit!r} ({last})")
        archive = done.stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    if mode == "native":
        if not (tree / "engine" / "_native.py").exists():
            sys.exit(f"compare.py: {commit} has no compiled path (engine/_native.py)")
        sys.path.insert(0, str(ROOT / "tools"))
        from build_native import build

        print(f"compiling {side} ...", file=sys.stderr)
        if not build(tree, quiet=True, config=ROOT / "pyproject.toml"):
            sys.exit(f"compare.py: the build of {side} failed")
    return tree


class _Worker:
    """One worker process on one exported tree; :meth:`run` hands it one task."""

    def __init__(self, tree: Path, mode: str, args: argparse.Namespace) -> None:
        cmd = [sys.executable, __file__, "--worker", str(tree), "--deals", str(args.deals),
               "--replays", str(args.replays), "--rollouts", str(args.rollouts),
               "--mode", mode]
        env = dict(os.environ, BURACO_NATIVE="0") if mode == "pure" else None
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=env)

    def run(self, task: list[Any]) -> dict[str, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(task) + "\n")
        self.proc.stdin.flush()
        result: dict[str, float] = json.loads(self.proc.stdout.readline())
        return result

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def _tasks() -> list[list[Any]]:
    sys.path.insert(0, str(ROOT))
    from engine.rules import PRESETS

    tasks: list[list[Any]] = []
    for preset, rules in PRESETS.items():
        tasks += [["play", preset, n] for n in (2, 4) if n in rules.players_allowed]
    tasks += [["discard"]]
    tasks += [["rollouts", p] for p in ("buraco_morto", "tranca")]
    tasks += [["dificil", p] for p in ("buraco_morto", "tranca")]
    return tasks


def main() -> None:
    """Parse the arguments, alternate the workers task by task, print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("base", nargs="?")
    parser.add_argument("new", nargs="?")
    parser.add_argument("--rounds", type=positive_int, default=5)
    parser.add_argument("--deals", type=positive_int, default=20)
    parser.add_argument("--replays", type=positive_int, default=5)
    parser.add_argument("--rollouts", type=positive_int, default=40)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _serve(Path(args.worker), args, sys.stdin, sys.stdout)
        return
    if not args.base or not args.new:
        parser.error("give two commits (BASE NEW)")
    tasks = _tasks()
    with tempfile.TemporaryDirectory(prefix="compare-") as tmp:
        trees = [_export(c, Path(tmp) / str(i)) for i, c in enumerate((args.base, args.new))]
        modes = [_split(side)[1] for side in (args.base, args.new)]
        workers = [_Worker(t, m, args) for t, m in zip(trees, modes, strict=True)]
        runs: list[list[dict[str, float]]] = [[{} for _ in range(args.rounds)] for _ in workers]
        for task in tasks[:1]:  # untimed: imports, bytecode, caches
            for w in workers:
                w.run(task)
        for r in range(args.rounds):
            for k, task in enumerate(tasks):
                for side in ((r + k) % 2, 1 - (r + k) % 2):
                    runs[side][r].update(workers[side].run(task))
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
        for w in workers:
            w.close()
    _report(args.base, args.new, runs)


def _report(base: str, new: str, runs: list[list[dict[str, float]]]) -> None:
    print(f"{'figure':<34} {base[:14]:>14} {new[:14]:>14} {'ratio':>7}")
    ratios: dict[str, list[float]] = {}
    for key in runs[0][0]:
        a = statistics.median(run[key] for run in runs[0])
        b = statistics.median(run[key] for run in runs[1])
        if key.endswith("actions"):
            same = "same" if a == b else "DIFFERENT"
            print(f"{key:<34} {a:>14.0f} {b:>14.0f} {same:>7}")
            continue
        ratio = a / b if key.endswith("µs") else b / a
        words = key.split()
        figure = " ".join(words[2:]) if words[1][:-1].isdigit() else key  # "<preset> 4p ..."
        ratios.setdefault(figure, []).append(ratio)
        print(f"{key:<34} {a:>14.1f} {b:>14.1f} {ratio:>7.2f}")
    for figure, values in ratios.items():
        if len(values) > 1 and min(values) > 0:
            mean = statistics.geometric_mean(values)
            print(f"{'geometric mean ratio, ' + figure:<64} {mean:>7.2f}  (min {min(values):.2f})")


# Worker ----------------------------------------------------------------------
def _serve(tree: Path, args: argparse.Namespace, inp: IO[str], out: IO[str]) -> None:
    """Answer one JSON task a line with one JSON line of figures, until ``inp`` ends."""
    sys.path[:] = [str(tree)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
    import engine

    assert Path(engine.__file__).resolve().is_relative_to(tree.resolve()), engine.__file__
    native = getattr(engine, "NATIVE", False)
    assert args.mode != "native" or native, "the compiled build did not load"
    assert args.mode != "pure" or not native, "BURACO_NATIVE=0 did not force pure Python"
    for line in inp:
        kind, *params = json.loads(line)
        if kind == "play":
            result = _random_play(params[0], params[1], args.deals, args.replays)
        elif kind == "discard":
            result = {"discard verify+apply µs": _discard_us(3000)}
        elif kind == "rollouts":
            result = _rollouts(params[0], args.rollouts)
        else:
            result = _dificil(params[0])
        out.write(json.dumps(result) + "\n")
        out.flush()


def _random_play(preset: str, players: int, n_deals: int, n_replays: int) -> dict[str, float]:
    import random

    from engine import apply, make_rules
    from engine.cards import full_deck
    from engine.deal import new_deal
    from engine.simulate import play_random_deal

    rules = make_rules(preset)
    deck_rng, rng = random.Random(13), random.Random(7)
    decks = []
    for _ in range(n_deals):
        deck = full_deck(rules.jokers)
        deck_rng.shuffle(deck)
        decks.append(deck)
    starts = [new_deal(rules, players, deck, reshuffle=list(range(len(deck)))) for deck in decks]
    firsts = [s.clone() for s in starts]
    t0 = time.perf_counter()
    played = [play_random_deal(s, rng)[0] for s in starts]
    elapsed = time.perf_counter() - t0
    moves = sum(len(p) for p in played)
    tag = f"{preset} {players}p"
    copies = [f.clone() for f in firsts for _ in range(n_replays)]
    t0 = time.perf_counter()
    for i, state in enumerate(copies):
        for action in played[i // n_replays]:
            apply(state, action)
    return {
        f"{tag} actions": moves,
        f"{tag} moves/s": moves / elapsed,
        f"{tag} deals/s": n_deals / elapsed,
        f"{tag} replay moves/s": moves * n_replays / (time.perf_counter() - t0),
    }


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


def _positions(preset: str, count: int, steps: int, play_phase: bool) -> list[Any]:
    """Seeded two-player positions ``steps`` random actions into a deal."""
    import random

    from engine import apply, make_rules
    from engine.cards import full_deck
    from engine.deal import new_deal
    from engine.simulate import random_action

    rules = make_rules(preset)
    deck_rng, rng = random.Random(5), random.Random(11)
    positions: list[Any] = []
    while len(positions) < count:
        deck = full_deck(rules.jokers)
        deck_rng.shuffle(deck)
        state = new_deal(rules, 2, deck, reshuffle=list(range(len(deck))))
        for _ in range(steps):
            if state.over:
                break
            apply(state, random_action(state, rng))
        if play_phase and not state.over and state.phase == "draw":
            apply(state, random_action(state, rng))
        if not state.over:
            positions.append(state)
    return positions


def _rollouts(preset: str, n: int) -> dict[str, float]:
    import random

    from engine.ai.dificil import rollout
    from engine.simulate import random_action

    positions = _positions(preset, 4, 12, False)
    rng = random.Random(3)
    t0 = time.perf_counter()
    for i in range(n):
        world = positions[i % len(positions)]
        rollout(world.clone(), random_action(world, rng), world.side_of[world.turn], rng)
    return {f"{preset} 2p dificil rollouts/s": n / (time.perf_counter() - t0)}


def _dificil(preset: str) -> dict[str, float]:
    import random

    from engine.ai import dificil
    from engine.view import view_for

    if hasattr(dificil, "ROLLOUTS_PLAYED"):  # its own count (works compiled)
        played = dificil.ROLLOUTS_PLAYED
    else:  # older trees: count the calls of the module-level function
        played = [0]
        real = dificil.rollout

        def counted(*args: Any) -> float:
            played[0] += 1
            return real(*args)

        dificil.rollout = counted  # type: ignore[assignment]
    counts = []
    for state in _positions(preset, 6, 14, True):
        before = played[0]
        dificil.choose(view_for(state, state.turn), 0.1, random.Random(1))
        if played[0] > before:
            counts.append(played[0] - before)
    if not hasattr(dificil, "ROLLOUTS_PLAYED"):
        dificil.rollout = real  # type: ignore[assignment]
    return {f"{preset} 2p rollouts/move": statistics.fmean(counts) if counts else 0.0}


if __name__ == "__main__":
    main()
