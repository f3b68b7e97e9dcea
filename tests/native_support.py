"""Worker for tests/test_engine_native.py: plays seeded deals and prints what happened.

``python tests/native_support.py DEALS`` prints one JSON line per preset and player
count: whether the engine ran compiled (``engine.NATIVE``), then for each of ``DEALS``
seeded random deals the actions (``Action.to_json``), the events, the final
``to_json`` and the ``to_json`` after replaying the actions on a copy of the first
state; and one line per two-player preset of a seeded ``normal`` deal with ``dificil``'s
answer (fixed samples, no deadline) at some of its positions. The test runs it once
with ``BURACO_NATIVE=0`` and once compiled and compares the output.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine import apply, make_rules
from engine.ai import dificil, normal
from engine.cards import full_deck
from engine.deal import new_deal
from engine.rules import PRESETS
from engine.scoring import score_deal
from engine.simulate import play_random_deal
from engine.view import view_for


def _start(preset: str, players: int, seed: int) -> Any:
    rules = make_rules(preset)
    deck = full_deck(rules.jokers)
    random.Random(seed).shuffle(deck)
    return new_deal(rules, players, deck, reshuffle=list(range(len(deck))))


def random_deals(preset: str, players: int, deals: int) -> list[Any]:
    """Actions, events, final state and replayed state of ``deals`` seeded deals."""
    out = []
    for d in range(deals):
        state = _start(preset, players, 1000 * players + d)
        first = state.clone()
        actions, events = play_random_deal(state, random.Random(d))
        for action in actions:
            apply(first, action)
        out.append({
            "actions": [a.to_json() for a in actions],
            "events": [[e.kind, e.seat, e.public] for e in events],
            "final": state.to_json(),
            "replayed": first.to_json(),
            "score": score_deal(state).totals,
        })
    return out


def ai_deal(preset: str) -> dict[str, Any]:
    """A seeded ``normal`` deal and ``dificil``'s answers at every 20th position."""
    state = _start(preset, 2, 7)
    rng = random.Random(11)
    moves, picks = [], []
    while not state.over and len(moves) < 2000:
        view = view_for(state, state.turn)
        if len(moves) % 20 == 5:
            pick = dificil.choose(view, 100.0, random.Random(len(moves)), max_samples=3)
            picks.append(pick.to_json())
        action = normal.choose(view, rng)
        moves.append(action.to_json())
        apply(state, action)
    return {"moves": moves, "dificil": picks, "final": state.to_json()}


def main() -> None:
    """Print the lines described in the module docstring."""
    deals = int(sys.argv[1])
    print(json.dumps({"native": engine.NATIVE}))
    for preset, rules in PRESETS.items():
        for players in (2, 4):
            if players in rules.players_allowed:
                line = {"preset": preset, "players": players,
                        "deals": random_deals(preset, players, deals)}
                print(json.dumps(line, sort_keys=True, default=repr))
        if 2 in rules.players_allowed:
            print(json.dumps({"preset": preset, "ai": ai_deal(preset)}, sort_keys=True,
                             default=repr))


if __name__ == "__main__":
    main()
