"""Small helpers for the rule tests of issue 2 (tests/test_rules_*.py).

Cards are written as space-separated record codes (``"7h 8h 9h"``); positions follow
``DealState.from_json`` (hands per seat, melds per side, pile bottom->top, stock top
first, mortos per side). Nothing here decides a rule: the tests assert the rules.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine import Action, DealState, IllegalAction, apply, make_rules, parse_cards
from engine.cards import Card, full_deck
from engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def cards(text: str) -> list[Card]:
    """``"7h 8h"`` -> [Card(7h), Card(8h)]."""
    return parse_cards(text)


def split(text: str) -> list[str]:
    """``"7h 8h"`` -> ["7h", "8h"] (the record form)."""
    return text.split()


def position(
    hands: list[str],
    melds: list[list[str]] | None = None,
    pile: str = "",
    stock: str = "",
    mortos: list[str] | None = None,
    turn: int = 0,
    phase: str = "play",
    scores: list[int] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A record ``position`` from card strings; ``melds[side]`` is a list of meld strings."""
    sides = 2 if len(hands) in (4, 6) else len(hands)
    out: dict[str, Any] = {
        "hands": [split(h) for h in hands],
        "melds": [[split(m) for m in side] for side in (melds or [[] for _ in range(sides)])],
        "pile": split(pile),
        "stock": split(stock),
        "turn": turn,
        "phase": phase,
        "laid_threes": [[] for _ in range(sides)],
        "scores": scores if scores is not None else [0] * sides,
    }
    if mortos is not None:
        out["mortos"] = [split(m) for m in mortos]
    out.update(extra)
    return out


def state_of(
    preset: str, *args: Any, options: dict[str, Any] | None = None, **kw: Any
) -> DealState:
    """``DealState`` of ``preset`` at the :func:`position` built from the arguments."""
    return DealState.from_json(make_rules(preset, options), position(*args, **kw))


def act(state: DealState, record: dict[str, Any]) -> list[str]:
    """Apply one record-form action; returns the kinds of the events."""
    return [e.kind for e in apply(state, Action.from_json(record))]


def refused(state: DealState, record: dict[str, Any], code: str, message: str) -> None:
    """The action is refused with ``code`` and the exact pt-BR ``message``, and the
    state is left exactly as it was (issue 2 "Bad input")."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        apply(state, Action.from_json(record))
    assert (err.value.code, err.value.message) == (code, message)
    assert state.to_json() == before


def meld_codes(state: DealState, side: int) -> list[list[str]]:
    """The side's melds as lists of codes in table order."""
    return [[c.code for c in m.cards] for m in state.melds[side]]


def hand_codes(state: DealState, seat: int) -> list[str]:
    """The seat's hand as sorted codes."""
    return sorted(c.code for c in state.hands[seat])


def build_deck(
    rules: Rules,
    n_players: int,
    hands: list[str],
    mortos: list[str] | None = None,
    stock_top: str = "",
    first: int = 0,
) -> list[Card]:
    """A full deck (top first) that ``deal_cards(rules, n, deck, first)`` deals as asked.

    ``hands[seat]`` lists that seat's 11 cards; ``mortos[side]`` each morto's 11 cards;
    ``stock_top`` the first stock cards, top first. Every other card follows in face
    order. The dealing procedure is the one of ``engine.state.deal_cards``: one card at
    a time from ``first`` round the table, then the mortos in side order, then the stock.
    """
    wanted = [c for h in hands for c in cards(h)]
    wanted += [c for m in (mortos or []) for c in cards(m)] + cards(stock_top)
    rest = Counter(full_deck(rules.jokers))
    rest.subtract(wanted)
    assert min(rest.values()) >= 0, "build_deck: a card is asked for too many times"
    filler = sorted(rest.elements())
    per_seat = [cards(h) for h in hands]
    deck: list[Card] = []
    for i in range(rules.hand_size):
        for k in range(n_players):
            deck.append(per_seat[(first + k) % n_players][i])
    for m in mortos or []:
        deck.extend(cards(m))
    deck.extend(cards(stock_top))
    deck.extend(filler)
    return deck


def replay_many(folder: Path, records: dict[str, Any]) -> dict[str, tuple[int, Any, str]]:
    """Run ``python -m engine replay FILE`` on every record at once (in parallel, to keep
    the suite fast). A ``str`` value is written as the raw file text, anything else as
    JSON. Returns name -> (exit code, parsed stdout JSON or None, stderr)."""
    procs: dict[str, subprocess.Popen[str]] = {}
    for name, record in records.items():
        path = folder / f"{name}.json"
        path.write_text(record if isinstance(record, str) else json.dumps(record), "utf-8")
        procs[name] = subprocess.Popen(
            [sys.executable, "-m", "engine", "replay", str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
    results: dict[str, tuple[int, Any, str]] = {}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=120)
        results[name] = (proc.returncode, json.loads(out) if out.strip() else None, err)
    return results
