"""Helpers for the tranca and altaneira rule tests (issue 3): exact positions, explicit
decks, refusal checks, and the two example records of ``docs/examples/``.

Positions use the record ``position`` form of :meth:`engine.DealState.from_json`:
hands per seat, melds per side (cards in table order), pile bottom->top, stock top
first, mortos per side. Cards are written as space-separated codes (``"7h 8h 9h"``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine import Action, Card, DealState, IllegalAction, Match, Rules, apply, make_rules
from engine.cards import full_deck, parse_cards

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"


def cards(text: str) -> list[Card]:
    """``"7h 8h 9h"`` -> the three cards."""
    return parse_cards(text)


def codes_of(text: str) -> list[str]:
    """``"7h 8h"`` -> ``["7h", "8h"]`` (record form)."""
    return text.split()


def position(
    rules: Rules,
    hands: list[str],
    melds: list[list[str]] | None = None,
    pile: str = "",
    stock: str = "",
    mortos: list[str] | None = None,
    turn: int = 0,
    phase: str = "play",
    **extra: Any,
) -> DealState:
    """A deal in the exact position given (strings of card codes); ``extra`` keys go to
    :meth:`DealState.from_json` as they are (``laid_threes``, ``morto_taken``, ...)."""
    sides = len(rules.teams(len(hands)))
    data: dict[str, Any] = {
        "hands": [codes_of(h) for h in hands],
        "melds": [[codes_of(m) for m in side] for side in (melds or [[] for _ in range(sides)])],
        "pile": codes_of(pile),
        "stock": codes_of(stock),
        "mortos": [codes_of(m) for m in (mortos or ["" for _ in range(sides)])],
        "turn": turn,
        "phase": phase,
    }
    data.update(extra)
    return DealState.from_json(rules, data)


def refused(state: DealState, action: Action, code: str, message: str) -> None:
    """Assert ``action`` raises ``IllegalAction(code, message)`` and changes nothing."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    got = (info.value.code, info.value.message)
    assert got == (code, message), f"refused with {got!r}, expected {(code, message)!r}"
    assert state.to_json() == before, "a refused action changed the state"


def make_deck(
    n_players: int,
    hands: list[str],
    mortos: tuple[str, ...] | list[str] = (),
    stock: str = "",
    first: int = 0,
) -> list[Card]:
    """A full two-deck deck (top first) that :func:`engine.state.deal_cards` deals as
    ``hands`` (per seat), ``mortos`` (per side) and a stock starting with ``stock``;
    the rest of the stock is the remaining cards in face order."""
    per_seat = [cards(h) for h in hands]
    size = len(per_seat[0])
    assert all(len(h) == size for h in per_seat)
    dealt: list[Card] = []
    for i in range(size):
        for k in range(n_players):
            dealt.append(per_seat[(first + k) % n_players][i])
    for m in mortos:
        dealt.extend(cards(m))
    dealt.extend(cards(stock))
    rest = Counter(full_deck()) - Counter(dealt)
    assert sum(rest.values()) + len(dealt) == 104, "a card is used more than twice"
    return dealt + sorted(rest.elements())


def act(state: DealState, *actions: dict[str, Any]) -> None:
    """Apply record-form actions in order."""
    for raw in actions:
        apply(state, Action.from_json(raw))


# Example records (docs/examples) -------------------------------------------------
TRANCA_HANDS = [
    # seat 0: a red 3 from the deal, a black 3, hearts 6..A (ace high) and 4h 5h
    "3d 3c 4h 5h 6h 7h 8h 9h 10h Jh Qh",
    "4c 5c 6c 7c 8c 9c 10c Jc Qc Kc 6d",
]
TRANCA_MORTOS = ["4s 5s 6s 7s 8s 9s 10s Js Qs Ks As", "4d 5d 7d 8d 9d 10d Jd Qd Kd Ad 2d"]
TRANCA_STOCK = "Kh Ah 4c 9c"
TRANCA_ACTIONS: list[dict[str, Any]] = [
    {"seat": 0, "do": "draw"},  # Kh
    {"seat": 0, "do": "lay_three", "card": "3d"},  # A32: from the deal, first turn
    {"seat": 0, "do": "discard", "card": "3c"},  # A33: the pile is blocked for seat 1
    {"seat": 1, "do": "draw"},  # Ah (the pile may not be taken)
    {"seat": 1, "do": "discard", "card": "Ah"},  # covers the 3c: the pile is open again
    # A10: the top card Ah justified with Qh Kh from the hand; the 3c comes to the hand
    {"seat": 0, "do": "take_pile", "with": ["Qh", "Kh"]},
    # Q-K-A becomes 4..A (11 cards, clean canastra); the 3c is left alone in the hand
    {
        "seat": 0,
        "do": "extend",
        "meld": 0,
        "cards": ["4h", "5h", "6h", "7h", "8h", "9h", "10h", "Jh"],
    },
    # A33: a black 3 may be the last card: indirect going-out, the morto waits (C12)
    {"seat": 0, "do": "discard", "card": "3c"},
    {"seat": 1, "do": "draw"},  # 4c
    {"seat": 1, "do": "discard", "card": "4c"},
    {"seat": 0, "do": "draw"},  # 9c; the morto is in the hand from this turn (C12)
    {
        "seat": 0,
        "do": "meld",
        "melds": [["4s", "5s", "6s", "7s", "8s", "9s", "10s", "Js", "Qs", "Ks", "As"]],
    },
    {"seat": 0, "do": "discard", "card": "9c"},  # the final going-out (clean canastra)
]


def tranca_record() -> dict[str, Any]:
    """The tranca example record, built by playing it through :class:`engine.Match`."""
    rules = make_rules("tranca")
    match = Match.new(rules, ["Ana", "Bruno"])
    match.dealer = 1
    match.start_deal(make_deck(2, TRANCA_HANDS, TRANCA_MORTOS, TRANCA_STOCK))
    for raw in TRANCA_ACTIONS:
        match.act(Action.from_json(raw))
    return match.record()


def example_text(record: dict[str, Any]) -> str:
    """A record as the JSON text of ``docs/examples``: one key per line, one action per
    line (the files are written with this and compared with :func:`json.loads`)."""
    lines = []
    for key, value in record.items():
        if key == "actions":
            acts = ",\n".join("    " + json.dumps(a, ensure_ascii=False) for a in value)
            lines.append(f'  "actions": [\n{acts}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def load_example(name: str) -> dict[str, Any]:
    """The JSON of ``docs/examples/<name>.json``."""
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return data


ALTANEIRA_HANDS = [
    "2h 7h 8h 9h 10h Jh Jd Kd 5c 6c 7c",  # seat 0
    "3s 4s 5s 6s 7s 8s 9c 10c Jc Qc Kc",  # seat 1: a Tranca (black 3)
    "Qd 4c 5d 6d 7d 8d 9d 10d 9c 10s Js",  # seat 2
    "Qh 4h 5h 6h 9s Qs Ks As 8c 10c Jc",  # seat 3
]
ALTANEIRA_MORTOS = [
    "4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad",  # side 0 (seats 0, 2)
    "Ac 2c 2d 2s 4s 5s 6s 7s 8s Qc Kc",  # side 1 (seats 1, 3)
]
ALTANEIRA_STOCK = "9s 3h Kh"
ALTANEIRA_ACTIONS: list[dict[str, Any]] = [
    {"seat": 0, "do": "draw"},  # 9s
    {"seat": 0, "do": "redraw"},  # A9: the 9s starts the pile, seat 0 draws the 3h
    {"seat": 0, "do": "lay_three", "card": "3h"},  # A4: a Dólar, replacement draw Kh
    {"seat": 0, "do": "discard", "card": "Kh"},
    {"seat": 1, "do": "draw"},
    {"seat": 1, "do": "discard", "card": "3s"},  # A6: the pile (9s Kh 3s) leaves the deal
    {"seat": 2, "do": "draw"},
    {"seat": 2, "do": "discard", "card": "Qd"},  # a new pile starts
    {"seat": 3, "do": "draw"},
    {"seat": 3, "do": "discard", "card": "Qh"},
    # A10/A11: the top Qh with the Jh and the 2h (a 2 of the top card's suit); Qd to hand
    {"seat": 0, "do": "take_pile", "with": ["Jh", "2h"]},
    # the rest of the hand melded: a direct going-out takes the morto (A1, first side)
    {
        "seat": 0,
        "do": "meld",
        "melds": [["Jd", "Qd", "Kd"], ["5c", "6c", "7c"]],
        "extend": [{"meld": 0, "cards": ["7h", "8h", "9h", "10h"]}],
    },
    # the morto melded whole: the side has a canastra, so the deal ends (seed 000 §8.3)
    {
        "seat": 0,
        "do": "meld",
        "melds": [["4d", "5d", "6d", "7d", "8d", "9d", "10d", "Jd", "Qd", "Kd", "Ad"]],
    },
]


def altaneira_record() -> dict[str, Any]:
    """The altaneira example record, built by playing it through :class:`engine.Match`
    (``reshuffle=[]``: the pile would be reused in its own order, A26)."""
    rules = make_rules("altaneira")
    match = Match.new(rules, ["Ana", "Bruno", "Carla", "Davi"])
    match.start_deal(make_deck(4, ALTANEIRA_HANDS, ALTANEIRA_MORTOS, ALTANEIRA_STOCK), [])
    for raw in ALTANEIRA_ACTIONS:
        match.act(Action.from_json(raw))
    return match.record()


def replay_example(name: str) -> dict[str, Any]:
    """Run ``python -m engine replay docs/examples/<name>.json`` and return its JSON
    output; fails the test unless it exits 0."""
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", f"docs/examples/{name}.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return out
