"""Whether another preset's tuned weights help ``normal`` here (issue 37).

    .venv/bin/python bench/weights_transfer.py PRESET DECKS FIRST_SEED [CANDIDATE...]
    PLAYERS=2 .venv/bin/python bench/weights_transfer.py bossa_nova 300 0 buraco_morto

``normal`` thinking with a candidate's weights plays plain ``normal`` on ``DECKS``
seeded decks (seeds ``FIRST_SEED``..), each deck twice with the seats swapped (mirrored;
at four seats the pairs alternate: candidate, normal, candidate, normal). A candidate
is a preset of :data:`engine.ai.weights.TUNED` (its weights), or ``key=value,...``
changes to ``normal``'s weights, or ``PRESET:key=value,...`` changes to a preset's.
Prints one line per candidate: deals won (a tie counts half) of the deals played, the
rate and the seconds taken. A deal the engine refuses to finish (``RuntimeError`` from
``play_deal``) counts half and is printed. The table size is the preset's default or
``$PLAYERS``. This is how ``TUNED["justificado"]`` and ``TUNED_AT`` were chosen
(docs/robots.md "dificil against normal").
"""

from __future__ import annotations

import dataclasses
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import normal
from engine.ai.selfplay import play_deal
from engine.ai.weights import NORMAL, TUNED, Weights
from engine.cards import full_deck
from engine.rules import make_rules


def candidate(text: str) -> Weights:
    """The weights a command-line candidate names (see the module docstring)."""
    if "=" not in text:
        return TUNED[text]
    base, _, changes = text.rpartition(":")
    start = TUNED[base] if base else NORMAL
    values = {}
    for item in changes.split(","):
        key, _, raw = item.partition("=")
        values[key] = type(getattr(NORMAL, key))(float(raw))
    return dataclasses.replace(start, **values)


def won(preset: str, w: Weights, seeds: range, players: int) -> float:
    """Deals won by ``normal`` with ``w`` against plain ``normal`` (ties count half)."""
    rules = make_rules(preset)
    chooser = {"tuned": lambda view, rng: normal.choose(view, rng, w)}
    total = 0.0
    for seed in seeds:
        deck = full_deck(rules.jokers)
        random.Random(seed).shuffle(deck)
        for pair in (["tuned", "normal"], ["normal", "tuned"]):
            levels = [pair[i % 2] for i in range(players)]
            try:
                totals = play_deal(rules, levels, seed % players, deck,
                                   rng=random.Random(seed), players=chooser).totals
            except RuntimeError as err:
                print("refused", seed, levels, str(err)[:120], flush=True)
                total += 0.5
                continue
            me = 0 if levels[0] == "tuned" else 1
            lead = totals[me] - totals[1 - me]
            total += 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
    return total


def main(argv: list[str]) -> int:
    """Entry point; returns the exit status."""
    preset, decks, first, *names = argv
    players = int(os.environ.get("PLAYERS", make_rules(preset).default_players))
    for name in names or list(TUNED):
        t0 = time.perf_counter()
        score = won(preset, candidate(name), range(int(first), int(first) + int(decks)),
                    players)
        deals = 2 * int(decks)
        print(f"{preset} {players}p {name}: {score}/{deals} {100 * score / deals:.1f}% "
              f"{time.perf_counter() - t0:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
