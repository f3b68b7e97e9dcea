"""Placeholder replaced below."""
from __future__ import annotations

import random

from engine.actions import Action
from engine.ai import normal
from engine.view import SeatView


def choose(view: SeatView, budget_s: float, rng: random.Random) -> Action:
    """Temporary: plays like normal."""
    return normal.choose(view, rng)
