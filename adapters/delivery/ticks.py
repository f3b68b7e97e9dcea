"""The tick loop every chat process runs: timers, AI moves and next deals of the service,
and the tables a dead worker left stale, delivered through the shared delivery; and the
clean stop both processes use on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import Any

from redis.exceptions import RedisError

from adapters import logcalm
from adapters.delivery.outbox import Delivery
from adapters.ops.metrics import REDIS_ERRORS
from adapters.ops.series import tick_round

log = logging.getLogger(__name__)

TICK_S = 0.5
STOP_WAIT_S = 10.0


async def tick_loop(service: Any, outbox: Delivery, every_s: float = TICK_S,
                    stop: asyncio.Event | None = None) -> None:
    """Call ``service.tick()`` until ``stop`` is set (forever without one) and deliver its
    effects (AI, timers, next deal); after a tick that did something, tick again at once
    (more may be due). Each round also re-renders the tables a dead worker left stale
    (:meth:`Delivery.redo`) and delivers what another platform's process handed to
    this platform (:meth:`Delivery.relayed`: a table shown in places on both, issue 35).
    A round in progress when ``stop`` is set is finished."""
    stop = stop or asyncio.Event()
    mine = frozenset({outbox.platform.name})  # games of other platforms are handed back
    while not stop.is_set():
        effects: list[Any] = []
        try:
            with tick_round() as round_:
                async with outbox.lock:  # same order rule as the handlers (Handlers.call)
                    effects = list(await service.tick(platforms=mine))
                    rest = outbox.stage(effects)
                round_.done(effects)
            if rest:
                await outbox.deliver(rest)
            await outbox.redo(service.table_of)
            if await outbox.relayed(service.table_of):
                effects.append(None)  # more may be waiting: round again at once
            logcalm.healthy("Redis")  # the round read Redis: an outage in the log ends
        except Exception as err:
            if isinstance(err, RedisError):
                REDIS_ERRORS.inc()
            log.exception("tick failed")
        if not effects:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every_s)


async def wind_down(ticking: asyncio.Task[None] | None, stop: asyncio.Event,
                    outbox: Delivery, wait_s: float = STOP_WAIT_S) -> None:
    """Stop cleanly (SIGTERM): let the tick round in progress finish, wait for the service
    call a handler is running (it holds :attr:`Delivery.lock` until its views are staged),
    then deliver every coalesced edit. A step that does not finish in ``wait_s`` is
    abandoned: nothing half-saved, since the store saves a step atomically, and a table
    left unshown stays in the stale set for another worker."""
    stop.set()
    if ticking is not None:
        try:
            await asyncio.wait_for(asyncio.shield(ticking), wait_s)
        except TimeoutError:
            ticking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticking
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(wait_s), outbox.lock:
            pass
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(outbox.flush(), wait_s)


def stop_on_signals() -> asyncio.Event:
    """An event set on SIGINT or SIGTERM (where the loop supports signal handlers): the
    bot processes stop on it and wind down (:func:`wind_down`)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    return stop
