"""The worker process's garbage collector, tuned for many games at once (issue 36).

CPython's cyclic collector runs a young collection every 700 net allocations of
container objects and every tenth one an older one, each walking every object of its
generations; a worker that serves a hundred games keeps tens of thousands of live objects
(the cached games, their views, the Redis connections) and allocates a few thousand per
press (pydantic models, effects, the replies parsed), so the collector ran about twice a
press and its full collections took 50 ms each: a fifth to a quarter of the worker's CPU
(bench/concurrency.py with a collector callback: 1.0 s of 4.8 s, 1,240 young, 113 middle
and 10 full collections in one run). :func:`tune` makes the young generation
:data:`YOUNG` allocations long (a few MB of cyclic garbage at most before it is
collected; the press path makes little, its objects are freed by reference counting) and
moves what start-up made (modules, classes, pydantic's schemas, settings) out of the
collector's sight (``gc.freeze``): it lives as long as the process, and a full collection
no longer walks it (a frozen object that does become garbage is freed by reference
counting only, as in any cycle-free code). Nothing is turned off: cycles made after
start-up are still found and freed.
"""

from __future__ import annotations

import gc

YOUNG = 50_000
"""Net container allocations between two young collections (CPython's default: 700)."""
OLDER = (20, 10)
"""Young collections per middle one, middle ones per full one (defaults: 10, 10); a
full one also waits, as CPython always does, until a quarter of the long-lived objects
are new since the last."""


def tune() -> tuple[int, int, int]:
    """Set the collector's thresholds (:data:`YOUNG`, :data:`OLDER`) and freeze what is
    alive now; call it once start-up has imported and built what the process keeps.
    Returns the thresholds as they were (tests put them back)."""
    was = gc.get_threshold()
    gc.collect()  # what start-up left as garbage is freed, not frozen
    gc.freeze()
    gc.set_threshold(YOUNG, *OLDER)
    return (was[0], was[1], was[2])
