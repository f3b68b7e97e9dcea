"""A fixed ``dificil`` workload for instruction counts (issue 13, ``engine/ai/``).

``dificil.choose`` with ``max_samples=N`` (no deadline, so the same rollouts on every
tree) at the 12 seeded positions ``compare.py`` uses for ``rollouts/move`` (6 of
buraco_morto, 6 of tranca). Run it under cachegrind twice, with N and with 0 (imports,
positions and candidates only), and subtract::

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python bench/dificil_work.py 20
    valgrind ... .venv/bin/python bench/dificil_work.py 0

It prints a hash of the 12 choices, which must not change between trees.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import apply, make_rules
from engine.ai import dificil
from engine.cards import full_deck
from engine.deal import new_deal
from engine.simulate import random_action
from engine.state import DealState
from engine.view import view_for


def positions(preset: str, count: int = 6, steps: int = 14) -> list[DealState]:
    """``compare.py``'s ``_positions(preset, 6, 14, True)`` (copied so that the script
    also runs in trees older than ``compare.py``): seeded two-player positions in the
    play phase, ``steps`` random actions into a deal."""
    rules = make_rules(preset)
    deck_rng, rng = random.Random(5), random.Random(11)
    out: list[DealState] = []
    while len(out) < count:
        deck = full_deck(rules.jokers)
        deck_rng.shuffle(deck)
        state = new_deal(rules, 2, deck, reshuffle=list(range(len(deck))))
        for _ in range(steps):
            if state.over:
                break
            apply(state, random_action(state, rng))
        if not state.over and state.phase == "draw":
            apply(state, random_action(state, rng))
        if not state.over:
            out.append(state)
    return out


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    digest = hashlib.sha256()
    for preset in ("buraco_morto", "tranca"):
        for state in positions(preset):
            pick = dificil.choose(view_for(state, state.turn), 1e9, random.Random(1),
                                  max_samples=samples)
            digest.update(repr(pick).encode())
    print(samples, digest.hexdigest()[:16])


if __name__ == "__main__":
    main()
