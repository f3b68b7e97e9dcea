"""Screen variations of ``dificil``'s search side by side on the same decks (issue 37).

    .venv/bin/python bench/dificil_screen.py PRESET DECKS BUDGET VARIANT...
    PLAYERS=2 .venv/bin/python bench/dificil_screen.py bossa_nova 40 0.1 "" confidence=0.5

A variant is a ``--tune`` text (:func:`engine.ai.dificil.parse_tuning`; ``""`` or
``rounds=2`` is the default), optionally prefixed ``w0:`` to play without the
table-size weights of :data:`engine.ai.weights.TUNED_AT`, or ``e0:`` without the
table-size leaf evaluations of :data:`engine.ai.evaluate.WEIGHTS_AT`. Every shuffled deck is played
by every variant (in a random order per deck, so a change of load hits them alike),
each as a mirrored pair of ``dificil,normal`` at the preset's table (or ``$PLAYERS``).
Prints one JSON line per deck: per variant ``[deals, deals won outright]`` so far.
Small screens only point at what deserves a decisive run (``selfplay --sprt``).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import dificil, evaluate, weights
from engine.ai.selfplay import lineups, play_deal
from engine.cards import shuffled_deck
from engine.rules import make_rules


def main(argv: list[str]) -> int:
    """Entry point; returns the exit status."""
    preset, decks, budget, *variants = argv
    rules = make_rules(preset)
    players = int(os.environ.get("PLAYERS", rules.default_players))
    table = lineups(rules, players, ["dificil", "normal"], True)
    saved = dict(weights.TUNED_AT)
    fits = dict(evaluate.WEIGHTS_AT)
    tally = {v: [0, 0] for v in variants}
    try:
        for d in range(int(decks)):
            deck = shuffled_deck(rules.jokers)
            for v in random.sample(variants, len(variants)):
                weights.TUNED_AT.clear()
                evaluate.WEIGHTS_AT.clear()
                if not v.startswith("w0:"):
                    weights.TUNED_AT.update(saved)
                if not v.startswith("e0:"):
                    evaluate.WEIGHTS_AT.update(fits)
                dificil.TUNING[0] = dificil.parse_tuning(v.removeprefix("w0:").removeprefix("e0:"))
                for levels in table:
                    out = play_deal(rules, levels, d % players, deck, float(budget))
                    hero, best = out.labels.index("dificil"), max(out.totals)
                    tally[v][0] += 1
                    tally[v][1] += out.totals[hero] == best and out.totals.count(best) == 1
            print(json.dumps({"deck": d + 1, "t": time.strftime("%H:%M:%S"), **tally}),
                  flush=True)
    finally:
        weights.TUNED_AT.clear()
        weights.TUNED_AT.update(saved)
        evaluate.WEIGHTS_AT.clear()
        evaluate.WEIGHTS_AT.update(fits)
        dificil.TUNING[0] = dificil.DEFAULT_TUNING
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
