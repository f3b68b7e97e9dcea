"""The tick loop every chat process runs: timers, AI moves and next deals of the service,
and the tables a dead worker left stale, delivered through the shared delivery; and the
clean stop both processes use on SIGTERM.

Due games are claimed (leased, DESIGN "Timers": a claim is a lease) and stepped
concurrently, at most :data:`TICK_CONCURRENCY` at once, each in its game's line of the
delivery's :class:`adapters.delivery.order.KeyedOrder`, so a game's timer step keeps its
order with its presses while one slow game (a dying Redis node, a robot that thinks)
holds no other (issue 36). The upkeep of each round (the stale tables, the other
platforms' hand-over, the queue's formation: keys in slots of their own) runs beside the
claims, never in their way: a Redis node that dies holds up the upkeep's keys on it, not
the robots' moves of the games on the other nodes (before, a stale-table set on a dead
primary held every round, so no robot of the worker moved until the promotion;
tests/cluster/test_failover_isolation.py measures the pauses now)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections import Counter
from typing import Any

from redis.exceptions import RedisError

from adapters.delivery.order import game_key
from adapters.delivery.outbox import Delivery
from adapters.ops.metrics import REDIS_ERRORS
from adapters.ops.series import TICK_STEPS, tick_round
from bot.later import FollowUps

log = logging.getLogger(__name__)

TICK_S = 0.5
STOP_WAIT_S = 10.0
TICK_CONCURRENCY = 8
"""Games one worker steps at once. Only as many are claimed as there is room for, so a
claimed game starts at once, well within its lease (:data:`bot.ports.LEASE_S`); robot
moves think in threads (they share the worker's CPU: more at once would make each one
slower, not the whole faster)."""
_SERVED: Counter[str] = Counter()
"""The platforms whose tick loops run in this process (``python -m bot serve`` runs one
per platform): each loop steps the games of all of them (:func:`served`)."""
SLOW_STEP_S = 1.0
"""A step still running after this long leaves the bound (it goes on): it waits on
Redis (a dying node, a failover), not on the CPU, and must not keep the due games of
the other nodes waiting."""


async def tick_loop(service: Any, outbox: Delivery, every_s: float = TICK_S,
                    stop: asyncio.Event | None = None, bound: int = TICK_CONCURRENCY,
                    slow_s: float = SLOW_STEP_S) -> None:
    """Until ``stop`` is set (forever without one): claim due games
    (``service.due(limit=)``, as many as there is room for under ``bound``) and step each
    in a task of its own (:func:`step`); claim again at once while games come due and
    there is room, else every ``every_s`` seconds or when a step ends. A step running for
    ``slow_s`` stops counting against ``bound``. Each round (timed and counted:
    :func:`adapters.ops.series.tick_round`) also starts its :func:`upkeep` when the last
    one is done (beside the claims: a dead node's keys hold it up, not them). Steps and
    the upkeep in progress when ``stop`` is set are finished before this returns."""
    stop = stop or asyncio.Event()
    _SERVED[outbox.platform.name] += 1
    try:
        await _ticking(service, outbox, every_s, stop, bound, slow_s)
    finally:
        _SERVED[outbox.platform.name] -= 1


def served(platform: str) -> frozenset[str]:
    """The platforms a tick loop of ``platform`` steps games for: its own and those of
    the other loops running in this process (``python -m bot serve``: a Discord loop
    that claims a Telegram table's due robot move plays it and hands its views to the
    Telegram loop beside it, adapters/delivery/relay.py, instead of handing the game
    back a second later, which slowed every one-platform table's robots, issue 35).
    A game of a platform no loop here serves is handed back, for its own processes."""
    return frozenset({platform, *(p for p, n in _SERVED.items() if n > 0)})


async def _ticking(service: Any, outbox: Delivery, every_s: float, stop: asyncio.Event,
                   bound: int, slow_s: float) -> None:
    """:func:`tick_loop`'s rounds."""
    loop = asyncio.get_running_loop()
    busy: set[asyncio.Task[None]] = set()  # counted against the bound
    alive: set[asyncio.Task[None]] = set()  # every step not finished
    chores: asyncio.Task[None] | None = None  # the rounds' upkeep, one at a time
    while not stop.is_set():
        claimed: list[str] = []
        try:
            with tick_round() as round_:
                if len(busy) < bound:
                    claimed = list(await service.due(limit=bound - len(busy)))
                mine = served(outbox.platform.name)  # other platforms' games: handed back
                for gid in claimed:
                    task = loop.create_task(step(service, outbox, gid, mine))
                    busy.add(task)
                    alive.add(task)
                    task.add_done_callback(busy.discard)
                    task.add_done_callback(alive.discard)
                    loop.call_later(slow_s, busy.discard, task)
                round_.done([])  # the steps count their own changes (step)
        except Exception as err:
            if isinstance(err, RedisError):
                REDIS_ERRORS.inc()
            log.exception("tick failed")
        if chores is None or chores.done():
            chores = loop.create_task(upkeep(service, outbox))
        if not claimed or len(busy) >= bound:
            await _pause(stop, busy, every_s)
    if chores is not None:
        await chores
    if alive:
        await asyncio.gather(*alive, return_exceptions=True)


RELAY_ROUNDS = 20
"""Hand-over batches (:meth:`Delivery.relayed`, 10 each) one upkeep takes at most while
more are waiting."""


async def upkeep(service: Any, outbox: Delivery) -> None:
    """One round's upkeep, beside the claims (the module docstring): re-render the tables
    and hands a dead worker left stale (:meth:`Delivery.redo`), deliver what another platform's
    process handed to this platform (:meth:`Delivery.relayed`: a table shown in places
    on both, issue 35; again at once while a batch found work, up to
    :data:`RELAY_ROUNDS`), form the queue's tables (:func:`_form`). A failure is logged
    (as a round's), never raised."""
    try:
        rehand = getattr(service, "show_hand_of", None)
        await outbox.redo(service.table_of, rehand=rehand)
        for _ in range(RELAY_ROUNDS):
            if not await outbox.relayed(service.table_of, rehand=rehand):
                break
        await _form(service, outbox)
    except Exception as err:
        if isinstance(err, RedisError):
            REDIS_ERRORS.inc()
        log.exception("tick failed")


async def _form(service: Any, outbox: Delivery) -> None:
    """A formation round of the queue to find players (issue 35,
    ``service.form_round``, once a second at most): the new games' views staged (no other
    call knows those games yet), the rest delivered or handed to their platform."""
    form = getattr(service, "form_round", None)
    if form is None:
        return
    effects = list(await form())
    if effects:
        rest = outbox.stage(effects).rest
        if rest:
            await outbox.deliver(rest)


async def _pause(stop: asyncio.Event, running: set[asyncio.Task[None]],
                 every_s: float) -> None:
    """Wait ``every_s`` seconds, or less: until ``stop`` is set or a step ends."""
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({stopping, *running}, timeout=every_s,
                           return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()


async def step(service: Any, outbox: Delivery, gid: str,
               platforms: frozenset[str] | None) -> None:
    """Step the claimed game ``gid`` (``service.tick_game``) in its line of
    :attr:`Delivery.order` and stage its views there, then deliver the rest. A failure is
    logged (the service keeps the game's deadline: :meth:`bot.runner.GameRunner.
    tick_game`)."""
    try:
        async with outbox.order.ticket(game_key(gid)):
            effects = list(await service.tick_game(gid, platforms=platforms))
            rest = outbox.stage(effects).rest
        if any(getattr(e, "kind", "") == "table" for e in effects):
            TICK_STEPS.inc()  # a game the step changed
        if rest:
            await outbox.deliver(rest)
    except Exception as err:
        if isinstance(err, RedisError):
            REDIS_ERRORS.inc()
        log.exception("game %s: tick failed", gid)


async def wind_down(ticking: asyncio.Task[None] | None, stop: asyncio.Event,
                    outbox: Delivery, wait_s: float = STOP_WAIT_S,
                    follow_ups: FollowUps | None = None) -> None:
    """Stop cleanly (SIGTERM): let the steps in progress finish, wait for every call in
    :attr:`Delivery.order` (presses in hand: running, or waiting for their game's turn)
    to be done with its service call, and for the service's ``follow_ups`` (the coach's
    reviews, :class:`bot.later.FollowUps`), then deliver every coalesced edit. A step that
    does not finish in ``wait_s`` is abandoned: nothing half-saved, since the store saves
    a step atomically, and a table left unshown stays in the stale set for another
    worker."""
    stop.set()
    if ticking is not None:
        try:
            await asyncio.wait_for(asyncio.shield(ticking), wait_s)
        except TimeoutError:
            ticking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticking
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(outbox.order.drained(), wait_s)
    if follow_ups is not None:
        await follow_ups.done(wait_s)
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
