"""A failover costs a delay, not a press (issue 36): Redis retries bounded by a time
budget counted from the update's arrival (:mod:`adapters.deadline`), not by a count.

redis-py retries a failed command itself: a Sentinel client's connection asks the
sentinels where the primary is on every reconnect; a cluster client asks for a topology
refresh after a ``CLUSTERDOWN``, an uncovered slot or a dead node, follows ``MOVED`` /
``ASK`` and waits out ``TRYAGAIN``. What it lacks is when to stop: its ``Retry`` counts
attempts, and ten quick refusals of a dead address could use them up before the
sentinels had promoted the replica (issue 36: the generic error 2.5 s *after* the
promotion). :class:`BudgetBackoff` is the backoff that redis-py's own loops (``Retry``
for one connection, the cluster's command and pipeline loops) consult between attempts:
it spaces them (exponential with jitter, :data:`BASE_S` to :data:`CAP_S`) and, once the
next pause would end past the budget, ends the retries with :class:`RetryBudgetSpent`
instead. :func:`budget_retry` is the ``Retry`` built on it, with a count high enough that
the budget is what binds.

Outside an update (the tick loop, the CLI) there is no arrival to count from: the budget
then counts from the start of the current run of failures (failures less than
:data:`STREAK_GAP_S` apart) of the retry policy's copy (redis-py copies it into each
connection; a cluster client keeps its own), so retry loops that nest on one connection
(redis-py's Sentinel connection retries its connect inside the command's retry) still
end within the budget, and while Redis stays down a new call on it fails at once instead
of waiting the budget again.

A node that is up but silent (a stopped process, a machine whose TCP peer never answers)
fails no attempt: it lets one read wait. :func:`budgeted` makes a connection class wait
for a reply no longer than the budget has left, but at least :data:`SLOW_REPLY_S`
(:func:`read_timeout`), so a call to such a node ends with the budget, not after the
socket timeout (10 s, longer than the budget: issue 36), while a slow node's replies
are still read.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from redis.asyncio.connection import AbstractConnection
from redis.asyncio.retry import Retry
from redis.backoff import AbstractBackoff
from redis.exceptions import (
    ClusterDownError,
    MasterDownError,
    RedisClusterUnreachableError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from adapters import deadline

BUDGET_S = 6.0
"""Seconds from an update's arrival within which a Redis call is retried over a failover.
A failover takes 2-4 s with the settings of docs/deploy.md (measured there); a Telegram
button's spinner is answered at 2 s whatever happens (adapters/telegram/handlers.py
``ANSWER_S``) and Discord's interaction is deferred at once (15 min to answer), so the
person waits at most this long for the press's outcome."""
BASE_S = 0.05
CAP_S = 0.25
"""The longest pause between two attempts: once the replica is promoted (and the
sentinels name it), a waiting press tries again within this (it was 0.5 s: some presses
of a Sentinel failover were answered 1.1 s after the promotion, issue 36 asks for 1 s;
tests/cluster/test_failover_isolation.py)."""
STREAK_GAP_S = 2.0
"""Seconds without a failed attempt after which the next failure starts a new run."""
MAX_RETRIES = 1000
"""The count redis-py's loops are given: never the binding limit (the budget is)."""
SLOW_REPLY_S = 5.5
"""Seconds a read waits at least, however little of the budget is left: a node that
answers, however slowly (up to 5 s a request: tests/cluster/test_slow_redis.py, what a
failover or a slow network looks like), still gets its reply read, and the press its
real outcome; a silent node costs a read this much past the budget at most, and the
first read of an update (the common case: the node went silent before it arrived) no
more than the budget."""


class RetryBudgetSpent(RedisConnectionError):
    """Redis did not serve within the retry budget (its cause: the last failure). The
    press was not confirmed: the person is told to press again
    (:data:`adapters.delivery.commands.TRY_AGAIN`)."""


class BudgetBackoff(AbstractBackoff):
    """Exponential backoff with full jitter (``BASE_S * 2**failures`` capped at
    ``CAP_S``) that raises :class:`RetryBudgetSpent` when the pause would end past
    ``budget_s`` from the update's arrival (outside one: from the start of the current
    run of failures)."""

    def __init__(self, budget_s: float = BUDGET_S, base_s: float = BASE_S,
                 cap_s: float = CAP_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.budget_s = budget_s
        self.base_s = base_s
        self.cap_s = cap_s
        self._clock = clock
        self._streak = (0.0, -STREAK_GAP_S)  # (run started, last failure)

    def reset(self) -> None:
        """Nothing to reset: the budget lives in the update's context."""

    def compute(self, failures: int) -> float:
        """The pause before attempt ``failures + 1`` (seconds); raises
        :class:`RetryBudgetSpent` when there is no time left for it."""
        pause = random.uniform(0, min(self.cap_s, self.base_s * 2 ** min(failures, 16)))
        now = self._clock()
        began, last = self._streak
        if now - last > STREAK_GAP_S:
            began = now
        self._streak = (began, now)
        if deadline.arrived() is None:
            if now + pause - began >= self.budget_s:
                raise RetryBudgetSpent(
                    f"redis unavailable for {now - began:.1f} s (attempt {failures})")
        elif deadline.left(self.budget_s, now) <= pause:
            raise RetryBudgetSpent(
                f"redis unavailable for {deadline.waited():.1f} s since the update arrived")
        return pause


def budget_retry(budget_s: float = BUDGET_S) -> Retry:
    """A redis-py ``Retry`` on :class:`BudgetBackoff`: connection and timeout errors
    (a dead node, a sentinel with no primary yet: ``MasterNotFoundError`` is one) are
    retried until the budget is spent."""
    return Retry(BudgetBackoff(budget_s), MAX_RETRIES,
                 supported_errors=(RedisConnectionError, RedisTimeoutError, OSError))


UNREACHABLE: tuple[type[BaseException], ...] = (
    RedisConnectionError, RedisTimeoutError, ClusterDownError, TryAgainError,
    MasterDownError, RedisClusterUnreachableError, SlotNotCoveredError)
"""What redis-py raises when the store could not be reached or could not serve (the
budget spent included): nothing was saved by the call that raised it, unless the
connection died between a write and its reply, which the idempotency key of the save
(adapters/storage/scripts.py ``SAVE_GAME``) makes harmless to press again."""


def unavailable(error: BaseException) -> bool:
    """Whether ``error`` (or what it was raised from) says the store was unreachable,
    not that the call was wrong."""
    seen: BaseException | None = error
    for _ in range(5):
        if seen is None:
            return False
        if isinstance(seen, UNREACHABLE):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def read_timeout(socket_timeout: float, budget_s: float = BUDGET_S,
                 now: float | None = None) -> float:
    """Seconds one read may wait for a reply: what is left of ``budget_s`` since the
    update's arrival (outside an update: the whole budget), never below
    :data:`SLOW_REPLY_S`, never above the connection's ``socket_timeout``."""
    return min(socket_timeout, max(SLOW_REPLY_S, deadline.left(budget_s, now)))


class FollowsBudget(AbstractConnection):
    """Mixin for a redis-py connection class: a read that names no timeout of its own
    waits :func:`read_timeout` (the budget of the connection's :class:`BudgetBackoff`,
    else :data:`BUDGET_S`) instead of the whole ``socket_timeout``; a read that names one
    (a pub/sub poll) is left as it is. A read that times out raises redis-py's
    ``TimeoutError``, which the retry then counts against the same budget."""

    async def read_response(self, disable_decoding: bool = False,
                            timeout: float | None = None, **kwargs: Any) -> Any:
        """redis-py's read, with the timeout above. The cut is made to ``socket_timeout``
        for this one read (a connection serves one call at a time), not passed as
        ``timeout``: redis-py answers a read that outlives a ``timeout`` of the caller's
        with None (a pub/sub poll's "nothing yet"), where a command must fail."""
        full = self.socket_timeout
        if timeout is not None or not full:
            return await super().read_response(disable_decoding, timeout, **kwargs)
        backoff = getattr(self.retry, "_backoff", None)
        budget_s = backoff.budget_s if isinstance(backoff, BudgetBackoff) else BUDGET_S
        self.socket_timeout = read_timeout(full, budget_s)
        try:
            return await super().read_response(disable_decoding, None, **kwargs)
        finally:
            self.socket_timeout = full


_MADE: dict[type[Any], type[Any]] = {}


def budgeted(cls: type[Any]) -> type[Any]:
    """``cls`` (a redis-py connection class) with :class:`FollowsBudget` first; the same
    class object for the same ``cls`` every time."""
    if issubclass(cls, FollowsBudget):
        return cls
    made = _MADE.get(cls)
    if made is None:
        made = _MADE[cls] = type(f"Budgeted{cls.__name__}", (FollowsBudget, cls), {})
    return made
