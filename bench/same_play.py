"""Does the AI still play move for move as it did? (issue 13: ``normal`` must not change)

Plays ``--deals`` seeded deals of every two-player preset, ``normal`` against ``normal``
(one seat with ``normal``'s weights, the other with the tuned weights ``dificil``'s own
side plays by in its rollouts, alternating), and at a few seeded positions of the first
three deals asks ``dificil`` with a fixed number of samples (``max_samples=6``, no
deadline, so its answer does not depend on the machine's speed). Prints per preset the
number of actions and a hash of every action and final score, one for ``normal`` and
one for ``dificil``. Run it on two commits and compare the lines::

    .venv/bin/python bench/same_play.py > /tmp/after.txt
    git stash; .venv/bin/python bench/same_play.py > /tmp/before.txt; git stash pop
    diff /tmp/before.txt /tmp/after.txt && echo same play
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import dificil, normal
from engine.ai.weights import NORMAL, tuned
from engine.cards import full_deck
from engine.deal import apply, new_deal
from engine.rules import make_rules
from engine.scoring import score_deal
from engine.view import view_for

PRESETS = ("buraco", "buraco_morto", "bossa_nova", "tranca", "justificado")


def check(preset: str, deals: int) -> str:
    """One line: preset, actions played, the ``normal`` hash and the ``dificil`` hash."""
    rules = make_rules(preset)
    plays, picks = hashlib.sha256(), hashlib.sha256()
    actions = 0
    for d in range(deals):
        deck = full_deck(rules.jokers)
        random.Random(d).shuffle(deck)
        state = new_deal(rules, 2, deck, reshuffle=list(range(len(deck))))
        rng = random.Random(1000 + d)
        weights = (NORMAL, tuned(preset)) if d % 2 else (tuned(preset), NORMAL)
        steps = 0
        while not state.over and steps < 3000:
            view = view_for(state, state.turn)
            action = normal.choose(view, rng, weights[view.seat])
            plays.update(repr(action).encode())
            if d < 3 and steps % 15 == 7:
                pick = dificil.choose(view, 100.0, random.Random(d * 7 + steps), max_samples=6)
                picks.update(repr(pick).encode())
            apply(state, action)
            steps += 1
            actions += 1
        plays.update(repr(score_deal(state).totals).encode())
    return (f"{preset} {actions} normal {plays.hexdigest()[:16]} "
            f"dificil {picks.hexdigest()[:16]}")


def main() -> None:
    """Parse ``--deals`` and print one line per preset."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100)
    args = parser.parse_args()
    for preset in PRESETS:
        print(check(preset, args.deals), flush=True)


if __name__ == "__main__":
    main()
