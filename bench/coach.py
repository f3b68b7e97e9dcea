"""The coach's cost (issue 37): CPU seconds of a ``/revisao`` per deal, and of a hint.

Plays ``--deals`` seeded deals per preset (``facil`` in seat 0, the person under review,
``normal`` elsewhere), then times :func:`engine.ai.coach.review` of seat 0 on each with
``time.process_time`` (the CPU of this process: the criterion is at most 3 s of CPU per
deal), and :func:`engine.ai.coach.hint` at seat 0's decisions of the first deal (CPU
seconds too: a hint is a fixed amount of search, :data:`engine.ai.coach.HINT_SAMPLES`
samples, never cut by the clock; issue 37 asks about 0.3-0.5 s at most). Prints one
line per preset and players, then a JSON line::

    .venv/bin/python bench/coach.py --deals 10 --players 2 4

Run it under ``nice -n 10`` on a shared machine; the figures and the command are in
bench/README.md ("The coach").
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import NATIVE
from engine.ai import choose, coach
from engine.cards import full_deck
from engine.errors import IllegalAction
from engine.match import Match
from engine.rules import make_rules
from engine.view import view_for

PRESETS = ("buraco", "buraco_morto", "bossa_nova", "tranca", "justificado", "altaneira")


def _deal(preset: str, players: int, seed: int) -> tuple[Match, dict[str, object], list[float]]:
    """One finished deal (seat 0 ``facil``) and the CPU seconds of seat 0's hints in it."""
    rules = make_rules(preset)
    match = Match.new(rules, [f"p{i}" for i in range(players)])
    deck = full_deck(rules.jokers)
    random.Random(seed).shuffle(deck)
    match.start_deal(deck)
    rng = random.Random(seed)
    hints: list[float] = []
    while not match.deal_state.over:
        st = match.deal_state
        view = view_for(st, st.turn)
        if st.turn == 0 and seed == 0:
            t0 = time.process_time()
            coach.hint(view)
            hints.append(time.process_time() - t0)
        match.act(choose(view, "facil" if st.turn == 0 else "normal", None, rng))
    return match, match.logs[-1].to_json(), hints


def main(argv: list[str] | None = None) -> int:
    """Run the bench (see the module docstring); 0 when every review fits 3 s of CPU."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--presets", nargs="+", default=list(PRESETS))
    args = parser.parse_args(argv)
    rows = []
    worst = 0.0
    for preset in args.presets:
        for players in args.players:
            try:
                make_rules(preset).teams(players)
            except IllegalAction:
                continue  # altaneira: four players only
            cpu: list[float] = []
            hints: list[float] = []
            for seed in range(args.deals):
                match, deal, h = _deal(preset, players, seed)
                hints += h
                t0 = time.process_time()
                coach.review(match.rules, players, deal, 0)
                cpu.append(time.process_time() - t0)
            worst = max(worst, max(cpu))
            row = {"preset": preset, "players": players, "deals": len(cpu),
                   "review_cpu_mean_s": round(statistics.fmean(cpu), 3),
                   "review_cpu_max_s": round(max(cpu), 3),
                   "hint_cpu_mean_s": round(statistics.fmean(hints), 3) if hints else None,
                   "hint_cpu_max_s": round(max(hints), 3) if hints else None}
            rows.append(row)
            print(f"{preset:13} {players}p  review CPU mean {row['review_cpu_mean_s']:.2f} s"
                  f"  max {row['review_cpu_max_s']:.2f} s   hint CPU mean "
                  f"{row['hint_cpu_mean_s']} s  max {row['hint_cpu_max_s']} s", flush=True)
    print(json.dumps({"native": NATIVE, "review_budget_s": coach.REVIEW_BUDGET_S,
                      "hint_samples": coach.HINT_SAMPLES,
                      "worst_review_cpu_s": round(worst, 3), "rows": rows}))
    return 0 if worst <= 3.0 else 1


if __name__ == "__main__":
    sys.exit(main())
