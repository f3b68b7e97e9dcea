"""When the update being served arrived (issue 36): the start of the wait a person sees.

A chat adapter marks the arrival of an update or interaction (:func:`arrive`) before any
queueing of its own (the per-game order, the concurrency bound), in the context of the
task that serves it; everything that runs in that task, or in tasks it creates, reads it:

- the press histogram (:mod:`adapters.ops.metrics`) times from it to the answer sent;
- a Redis retry layer counts its budget from it (:func:`waited`, :func:`left`), so a
  press retried over a failover still answers inside the platform's window.

Times are :func:`time.monotonic` seconds. Outside any marked update (the tick loop, a
test, the CLI) :data:`ARRIVED` is None: :func:`waited` is then 0 and :func:`left` the
whole budget.
"""

from __future__ import annotations

import time
from contextvars import ContextVar, Token

ARRIVED: ContextVar[float | None] = ContextVar("arrived", default=None)
"""Monotonic time the update being served arrived at this worker (None: no update)."""


def arrive(at: float | None = None) -> Token[float | None]:
    """Mark the current context's update as arrived ``at`` (monotonic seconds; default:
    now). Returns the token :meth:`ContextVar.reset` takes to unmark it."""
    return ARRIVED.set(time.monotonic() if at is None else at)


def arrived() -> float | None:
    """The arrival time of the update being served (monotonic seconds), or None."""
    return ARRIVED.get()


def waited(now: float | None = None) -> float:
    """Seconds since the update being served arrived (0.0 outside an update)."""
    at = ARRIVED.get()
    if at is None:
        return 0.0
    return max(0.0, (time.monotonic() if now is None else now) - at)


def left(budget_s: float, now: float | None = None) -> float:
    """Seconds left of a ``budget_s`` counted from the update's arrival (never below 0;
    the whole budget outside an update)."""
    return max(0.0, budget_s - waited(now))
