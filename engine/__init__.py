"""The rules engine: cards, melds, variant rules as data, deals, scoring, views, records.

Pure Python (standard library + pydantic): no I/O, no asyncio, no logging setup.
See docs/engine-api.md for the contract the service and the AI build on.

The hot modules may run compiled with mypyc (issue 13; ``tools/build_native.py``, run by
``make venv``): :data:`NATIVE` says whether they do; ``BURACO_NATIVE=0`` forces pure
Python, which stays the reference (``engine._native``).
"""

from engine import _native

NATIVE: bool = _native.activate(__path__)
"""True when the engine's hot modules are the compiled build in ``.native/``."""


from engine.actions import Action
from engine.cards import Card, codes, parse_cards, show, shuffled_deck, sort_hand
from engine.deal import apply, can, new_deal, play, verify
from engine.errors import IllegalAction
from engine.match import Match
from engine.melds import Meld, canastra_bonus, canastra_label, extend_meld, make_meld
from engine.rules import ALIASES, PRESETS, Rules, make_rules, preset_name
from engine.scoring import DealScore, card_points, score_deal
from engine.state import DRAW, OVER, PLAY, DealState, Event
from engine.view import MoveOptions, SeatView, legal_moves, view_for

__all__ = [
    "ALIASES",
    "DRAW",
    "NATIVE",
    "OVER",
    "PLAY",
    "PRESETS",
    "Action",
    "Card",
    "DealScore",
    "DealState",
    "Event",
    "IllegalAction",
    "Match",
    "Meld",
    "MoveOptions",
    "Rules",
    "SeatView",
    "apply",
    "can",
    "canastra_bonus",
    "canastra_label",
    "card_points",
    "codes",
    "extend_meld",
    "legal_moves",
    "make_meld",
    "make_rules",
    "new_deal",
    "parse_cards",
    "play",
    "preset_name",
    "score_deal",
    "show",
    "shuffled_deck",
    "sort_hand",
    "verify",
    "view_for",
]
