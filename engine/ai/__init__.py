"""AI players (issue 5): ``choose(view, level)`` returns the next action of a seat.

The AI sees only what :func:`engine.view.view_for` gives the seat (its hand, the
table, counts, the public pick-ups), never the hidden deal state. Levels:

* ``facil``: legal and simple (:mod:`engine.ai.facil`);
* ``normal``: heuristic (:mod:`engine.ai.normal`), p99 under 20 ms per action;
* ``dificil``: determinized Monte Carlo over ``normal`` rollouts within a time budget
  per move (:mod:`engine.ai.dificil`, default 1 s).

``view_for(state, seat)`` includes which cards each seat took from an open pile and
still holds (public facts, kept in the deal state), which the AI reads when it judges
its discards; :class:`engine.ai.tracker.SeenTracker` rebuilds the same lists from the
events for a caller that keeps its own.
``python -m engine selfplay`` (:mod:`engine.ai.selfplay`) plays AI against AI.
"""

from __future__ import annotations

import random
import secrets

from engine import _native
from engine.actions import Action
from engine.errors import IllegalAction
from engine.view import SeatView

_native.activate_subpackage(__path__, "ai")  # the compiled AI modules, when engine.NATIVE

LEVELS: tuple[str, ...] = ("facil", "normal", "dificil")
"""AI strengths, weakest first (the names the service and ``/robo`` accept)."""

DEFAULT_BUDGET_S = 1.0
"""Seconds per move ``dificil`` spends when no budget is given."""


def choose(view: SeatView, level: str = "normal", budget_s: float | None = None,
           rng: random.Random | None = None) -> Action:
    """The next action of ``view.seat`` at strength ``level`` (one of :data:`LEVELS`).

    ``budget_s``: seconds ``dificil`` may think (default :data:`DEFAULT_BUDGET_S`);
    ``rng``: randomness (default ``secrets.SystemRandom``; tests pass a seeded one).
    Raises ``TypeError`` for anything but a ``SeatView`` (the AI never sees the hidden
    state), ``IllegalAction("unknown_level")`` for another level and
    ``IllegalAction("not_your_turn")`` when the view is not this seat's turn.
    """
    if not isinstance(view, SeatView):
        raise TypeError(f"the AI takes a SeatView (view_for), not {type(view).__name__}")
    if not view.my_turn:
        raise IllegalAction("not_your_turn", "não é a vez deste assento")
    rand = rng if rng is not None else secrets.SystemRandom()
    if level == "facil":
        from engine.ai import facil

        return facil.choose(view, rand)
    if level == "normal":
        from engine.ai import normal

        return normal.choose(view, rand)
    if level == "dificil":
        from engine.ai import dificil

        return dificil.choose(view, DEFAULT_BUDGET_S if budget_s is None else budget_s, rand)
    raise IllegalAction(
        "unknown_level", f"nível desconhecido: {level!r} (use facil, normal ou dificil)"
    )
