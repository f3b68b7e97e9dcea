"""The operator's series beyond the presses and timers (issue 36), in
:data:`adapters.ops.metrics.REGISTRY`; none of them needs Redis to be read:

* the process (``prometheus_client``'s own collectors): ``process_cpu_seconds_total``,
  ``process_resident_memory_bytes``, ``process_open_fds``, ...,
  ``python_gc_collections_total``, ``python_info``; and
  ``buraco_build_info{version,python,redis_py}``;
* Redis by node (every round trip of every connection: :mod:`adapters.storage.observe`):
  ``buraco_redis_roundtrip_seconds{node}`` (histogram) and
  ``buraco_redis_failures_total{node,error}`` (a refused or silent node, ``CLUSTERDOWN``,
  ``TRYAGAIN``, ...);
* update intake: ``buraco_intake_in_flight`` (updates being handled) and
  ``buraco_intake_oldest_seconds`` (the age of the oldest, from its arrival),
  ``buraco_intake_pending_updates`` (Telegram: fetched, not yet handled);
* delivery backlog: ``buraco_delivery_queued_edits{kind}`` (table and hand edits waiting
  in this worker's coalescers) and ``buraco_delivery_in_flight`` (edits being sent);
* tick health: ``buraco_tick_seconds`` (histogram of one round),
  ``buraco_ticks_total{outcome}``, ``buraco_tick_steps_total`` (games a round changed:
  robot moves, timeouts, next deals) and ``buraco_tick_last_success_timestamp_seconds``
  (``time() - ...`` is the time since the last good round);
* ``buraco_ready``: 1 while ``/health/ready`` would answer 200, 0 while it answers 503
  (:class:`adapters.ops.health.Readiness`, read at each scrape);
* ``buraco_metric_samples_skipped_total{gauge}``: a Redis-sampled gauge
  (:func:`adapters.ops.metrics.sample_timers`) left out of a scrape because Redis did
  not answer in time.
"""

from __future__ import annotations

import contextlib
import contextvars
import platform
import time
import weakref
from collections.abc import Callable, Iterator
from importlib import metadata
from typing import Any

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    Counter,
    Gauge,
    Histogram,
    Info,
)
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

from adapters import deadline
from adapters.ops.metrics import REGISTRY
from adapters.storage.observe import LISTENERS

del GC_COLLECTOR, PLATFORM_COLLECTOR, PROCESS_COLLECTOR  # those are the default registry's
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


BUILD = Info("buraco_build", "The bot's build", registry=REGISTRY)
BUILD.info({"version": _version("buraco-bot"), "python": platform.python_version(),
            "redis_py": _version("redis")})

ROUNDTRIP = Histogram("buraco_redis_roundtrip_seconds",
                      "Redis round trips (a command or a pipeline), by node", ["node"],
                      buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                               0.5, 1.0, 2.5), registry=REGISTRY)
FAILURES = Counter("buraco_redis_failures", "Redis calls that failed, by node and error",
                   ["node", "error"], registry=REGISTRY)
SKIPPED = Counter("buraco_metric_samples_skipped",
                  "Redis-sampled gauges left out of a scrape (Redis did not answer)",
                  ["gauge"], registry=REGISTRY)
SKIPPED.labels("timers")
READY = Gauge("buraco_ready", "1 while this worker can serve (/health/ready), else 0",
              registry=REGISTRY)


class RedisByNode:
    """Turns the connections' reports into :data:`ROUNDTRIP` and :data:`FAILURES`."""

    def __init__(self) -> None:
        self._children: dict[str, Any] = {}

    def roundtrip(self, node: str, seconds: float) -> None:
        """One round trip of ``node``."""
        child = self._children.get(node)
        if child is None:
            child = self._children[node] = ROUNDTRIP.labels(node)
        child.observe(seconds)

    def failed(self, node: str, error: BaseException) -> None:
        """One failure of ``node``."""
        FAILURES.labels(node, type(error).__name__).inc()


LISTENERS.append(RedisByNode())

# -- intake --------------------------------------------------------------------------
IN_FLIGHT = Gauge("buraco_intake_in_flight", "Updates being handled", registry=REGISTRY)
OLDEST = Gauge("buraco_intake_oldest_seconds",
               "Age of the oldest update being handled, from its arrival",
               registry=REGISTRY)
PENDING = Gauge("buraco_intake_pending_updates",
                "Updates fetched from the platform and not yet handled", registry=REGISTRY)
_HANDLING: dict[int, float] = {}
_PENDING: list[Callable[[], int]] = []


_COUNTED: contextvars.ContextVar[bool] = contextvars.ContextVar("intake_counted",
                                                               default=False)


@contextlib.contextmanager
def handling() -> Iterator[None]:
    """Count the update being served (its arrival from :mod:`adapters.deadline`, else
    now) as in flight until the block ends; once per update (the Telegram update
    processor counts it from its arrival, the service wrapper then does not again)."""
    if _COUNTED.get():
        yield
        return
    token, counted = object(), _COUNTED.set(True)
    arrived = deadline.arrived()
    _HANDLING[id(token)] = time.monotonic() if arrived is None else arrived
    try:
        yield
    finally:
        del _HANDLING[id(token)]
        _COUNTED.reset(counted)


def pending_from(count: Callable[[], int]) -> None:
    """Read :data:`PENDING` from ``count()`` (Telegram: its update queue's size); the
    counts of several sources add up."""
    _PENDING.append(count)


IN_FLIGHT.set_function(lambda: len(_HANDLING))
OLDEST.set_function(lambda: time.monotonic() - min(_HANDLING.values()) if _HANDLING else 0.0)
PENDING.set_function(lambda: sum(count() for count in _PENDING))

# -- delivery backlog ----------------------------------------------------------------
QUEUED = Gauge("buraco_delivery_queued_edits", "Edits waiting in this worker's coalescers",
               ["kind"], registry=REGISTRY)
SENDING = Gauge("buraco_delivery_in_flight", "Coalesced edits being sent now",
                registry=REGISTRY)
_DELIVERIES: weakref.WeakSet[Any] = weakref.WeakSet()


def watch_delivery(delivery: Any) -> None:
    """Count ``delivery``'s (an :class:`adapters.delivery.outbox.Delivery`) coalescers
    in :data:`QUEUED` and :data:`SENDING` while it lives."""
    _DELIVERIES.add(delivery)


def _queued(attr: str) -> int:
    return sum(getattr(d, attr).queued() for d in list(_DELIVERIES))


QUEUED.labels("table").set_function(lambda: _queued("group_edits"))
QUEUED.labels("hand").set_function(lambda: _queued("dm_edits"))
SENDING.set_function(lambda: sum(d.group_edits.running() + d.dm_edits.running()
                                 for d in list(_DELIVERIES)))

# -- tick health ---------------------------------------------------------------------
TICK_SECONDS = Histogram("buraco_tick_seconds", "One tick round (timers, robots, deals)",
                         buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                                  10.0), registry=REGISTRY)
TICKS = Counter("buraco_ticks", "Tick rounds, by outcome", ["outcome"], registry=REGISTRY)
TICK_STEPS = Counter("buraco_tick_steps",
                     "Games a tick round changed (robot moves, timeouts, next deals)",
                     registry=REGISTRY)
LAST_TICK = Gauge("buraco_tick_last_success_timestamp_seconds",
                  "Unix time of the last tick round that succeeded", registry=REGISTRY)
for _outcome in ("ok", "failed"):
    TICKS.labels(_outcome)


class TickRound:
    """One tick round, timed (:func:`tick_round`); :meth:`done` with its effects."""

    def __init__(self) -> None:
        self.effects: list[Any] | None = None

    def done(self, effects: list[Any]) -> None:
        """The round succeeded with ``effects``."""
        self.effects = effects


@contextlib.contextmanager
def tick_round() -> Iterator[TickRound]:
    """Time a tick round into :data:`TICK_SECONDS` and count it: ``ok`` (with the games
    its table views changed in :data:`TICK_STEPS`) once :meth:`TickRound.done` was
    called, ``failed`` when the block raised or never said so."""
    began, got = time.perf_counter(), TickRound()
    try:
        yield got
    finally:
        TICK_SECONDS.observe(time.perf_counter() - began)
        if got.effects is None:
            TICKS.labels("failed").inc()
        else:
            TICKS.labels("ok").inc()
            LAST_TICK.set(time.time())
            games = {getattr(e, "game_id", None) for e in got.effects
                     if getattr(e, "kind", "") == "table"}
            TICK_STEPS.inc(len(games - {None}))
