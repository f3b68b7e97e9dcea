"""Instructions our engine spends on RM's rules, for valgrind (issue 37): the timed parts
of ``bench/rm_engine.py``'s ``ours`` without the clock, so a count inside one function
compares two builds where the shared machine's timing cannot.

Usage (compiled: ``tools/build_native.py`` in the work tree first)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.play \\
        --toggle-collect=CPyDef_simulate___play_random_deal \\
        .venv/bin/python bench/rm_instructions.py play 2 30
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.replay \\
        --toggle-collect=CPyDef_deal___apply \\
        .venv/bin/python bench/rm_instructions.py replay 2 30

``play PLAYERS DEALS``: ``DEALS`` seeded random deals of ``engine.comparison.RM``
(``engine.simulate.play_random_deal``, ``rm_engine.seeded_starts(PLAYERS, DEALS, 7)``).
``replay``: the same, then their recorded moves applied 3 times each to fresh copies of
the first states (``engine.apply``). valgrind's "I refs" line is the count inside the
toggled function (``--toggle-collect``: compiled names; the pure engine has none).
Prints the moves played (or replayed) and whether the engine ran compiled.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rm_engine import seeded_starts  # bench/ is on sys.path

import engine
from engine import apply
from engine.simulate import play_random_deal

SEED = 7
REPLAYS = 3


def main() -> None:
    what, players, deals = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if what not in ("play", "replay"):
        sys.exit("usage: rm_instructions.py play|replay PLAYERS DEALS")
    starts, rng = seeded_starts(players, deals, SEED)
    firsts = [s.clone() for s in starts]
    played = [play_random_deal(s, rng)[0] for s in starts]
    moves = sum(len(p) for p in played)
    if what == "replay":
        copies = [f.clone() for f in firsts for _ in range(REPLAYS)]
        for i, state in enumerate(copies):
            for action in played[i // REPLAYS]:
                apply(state, action)
        moves *= REPLAYS
    print(f"{what}: {moves} moves, {'compiled' if engine.NATIVE else 'pure Python'}")


if __name__ == "__main__":
    main()
