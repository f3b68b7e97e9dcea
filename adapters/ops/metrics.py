"""The worker's Prometheus metrics (``prometheus_client``), in one registry of their own.

* ``buraco_presses_total{outcome}``: button presses served, by outcome: ``applied`` (the
  game changed: a table or hand view came back), ``answered`` (shown or told, nothing
  changed: a hand, a refusal), ``error`` (the call failed);
* ``buraco_press_seconds``: the wait a person sees per press (histogram): from the
  update's or interaction's arrival at the worker (:mod:`adapters.deadline`, marked
  before any queueing) to its answer sent (:func:`answered`); a service called outside
  any chat update (no arrival marked: the reliability worker, a benchmark) times its
  own call instead;
* ``buraco_timers_due`` / ``buraco_timers_overdue``: deadlines due now, and due for
  more than :data:`OVERDUE_S` (a worker fleet that falls behind), over every timer set;
* ``buraco_live_games``: games with a deadline (every live game has exactly one);
* ``buraco_redis_errors_total``: Redis errors met by presses, ticks and health checks;
* ``buraco_platform_api_errors_total{platform}`` and
  ``buraco_platform_rate_limited_total{platform}``: chat platform calls that failed, and
  the 429 answers (Telegram ``RetryAfter``; discord.py's own rate-limit waits).

The process, Redis-by-node, intake, delivery and tick series are in
:mod:`adapters.ops.series` (issue 36).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from redis.exceptions import RedisError

from adapters import deadline

log = logging.getLogger(__name__)
OVERDUE_S = 30.0
REGISTRY = CollectorRegistry()
PRESSES = Counter("buraco_presses", "Button presses served, by outcome", ["outcome"],
                  registry=REGISTRY)
PRESS_SECONDS = Histogram("buraco_press_seconds",
                          "Wait per button press, from its arrival to its answer",
                          buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0,
                                   5.0, 10.0), registry=REGISTRY)
TIMERS_DUE = Gauge("buraco_timers_due", "Deadlines due now", registry=REGISTRY)
TIMERS_OVERDUE = Gauge("buraco_timers_overdue", f"Deadlines due for over {OVERDUE_S:g} s",
                       registry=REGISTRY)
LIVE_GAMES = Gauge("buraco_live_games", "Games with a deadline", registry=REGISTRY)
REDIS_ERRORS = Counter("buraco_redis_errors", "Redis errors met", registry=REGISTRY)
API_ERRORS = Counter("buraco_platform_api_errors", "Chat platform calls that failed",
                     ["platform"], registry=REGISTRY)
RATE_LIMITED = Counter("buraco_platform_rate_limited", "Chat platform 429 answers",
                       ["platform"], registry=REGISTRY)
for _outcome in ("applied", "answered", "error"):
    PRESSES.labels(_outcome)
for _platform in ("tg", "dc"):
    API_ERRORS.labels(_platform)
    RATE_LIMITED.labels(_platform)


def outcome_of(effects: list[Any]) -> str:
    """``applied`` when a table view came back (the game changed), else ``answered``."""
    return "applied" if any(getattr(e, "kind", "") == "table" for e in effects) else "answered"


def answered() -> None:
    """Observe the wait of the press being served (:data:`PRESS_SECONDS`): the seconds
    since its arrival (:func:`adapters.deadline.waited`). The adapter calls it once the
    press's answer is sent; nothing is observed outside a marked arrival."""
    if deadline.arrived() is not None:
        PRESS_SECONDS.observe(deadline.waited())


class MeteredService:
    """The service with its presses counted, Redis errors counted, and timed when no
    adapter marked the arrival (else the adapter times the press to its answer:
    :func:`answered`); every other attribute is the service's own."""

    def __init__(self, service: Any) -> None:
        self._service = service

    def __getattr__(self, name: str) -> Any:
        return getattr(self._service, name)

    async def press(self, *args: Any, **kw: Any) -> list[Any]:
        """``Service.press`` (same arguments, same result or error), measured (and in
        the intake gauges while it runs: :func:`adapters.ops.series.handling`)."""
        from adapters.ops.series import handling  # it registers on REGISTRY: after it

        began = time.perf_counter()
        marked = deadline.arrived() is not None
        try:
            with handling():
                effects = list(await self._service.press(*args, **kw))
        except Exception as err:
            PRESSES.labels("error").inc()
            if isinstance(err, RedisError):
                REDIS_ERRORS.inc()
            raise
        finally:
            if not marked:
                PRESS_SECONDS.observe(time.perf_counter() - began)
        PRESSES.labels(outcome_of(effects)).inc()
        return effects


SAMPLE_TIMEOUT_S = 0.5
"""Seconds a scrape waits for the Redis-sampled gauges before leaving them out."""


async def sample_timers(store: Any, now: float) -> bool:
    """Set the timer and live-game gauges from the store's timer sets (one ``ZCOUNT``
    pair and a ``ZCARD`` per set walked, pipelined), within :data:`SAMPLE_TIMEOUT_S`.
    Any failure (a Redis error, a cluster that cannot be reached, the time out) is
    counted, the gauges keep their last values and False is returned: a scrape always
    answers (issue 36)."""
    try:
        async with asyncio.timeout(SAMPLE_TIMEOUT_S), \
                store.client.pipeline(transaction=False) as pipe:
            for key in store.timers.walked_keys:
                pipe.zcard(key)
                pipe.zcount(key, "-inf", now)
                pipe.zcount(key, "-inf", now - OVERDUE_S)
            got = [int(n) for n in await pipe.execute()]
    except Exception as err:  # RedisClusterException is no RedisError
        if isinstance(err, RedisError):
            REDIS_ERRORS.inc()
        log.warning("timer gauges skipped (%s)", type(err).__name__)
        return False
    LIVE_GAMES.set(sum(got[0::3]))
    TIMERS_DUE.set(sum(got[1::3]))
    TIMERS_OVERDUE.set(sum(got[2::3]))
    return True


class RateLimitLog(logging.Handler):
    """Counts discord.py's rate-limit warnings (it waits out a 429 itself and logs it)."""

    def emit(self, record: logging.LogRecord) -> None:
        if "rate limit" in record.getMessage().lower():
            RATE_LIMITED.labels("dc").inc()


def watch_discord_rate_limits() -> None:
    """Install :class:`RateLimitLog` on the ``discord.http`` logger (once)."""
    logger = logging.getLogger("discord.http")
    if not any(isinstance(h, RateLimitLog) for h in logger.handlers):
        logger.addHandler(RateLimitLog(logging.WARNING))
