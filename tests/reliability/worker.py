"""One game worker of the reliability suite, run as its own process.

    python tests/reliability/worker.py --url REDIS_URL --prefix P --name w1 \
        --t0 GAME_T0 --real0 REAL_T0 --speed 10 [--crash point:n,...] [--log-level DEBUG]

It is what a webhook worker behind a load balancer is, with a Redis list standing in
for the balancer: a :class:`bot.service.Service` over
``adapters.storage.connect.open_store(url, prefix)`` takes requests from the list
``<P>:q`` (shared by every worker) and ``<P>:q:<name>`` (this worker only), serves each
one in its own task (so a burst puts many calls in flight at once, as a webhook server
does) and pushes ``{"id", "worker", "effects", "error", "ms"}`` to ``<P>:replies``; a
tick loop every 0.1 s pushes its effects to ``<P>:events``. Every successful save is
logged to ``<P>:saves`` as ``"<game id> <version>"`` (so the suite can check versions
have no gaps or doubles).

The clock is game time ``t0 + (time.time() - real0) * speed``, the same in every worker,
so a 15 s turn timer or the 10 s claim lease pass in a fraction of the real time.

``--crash point:n`` makes the process SIGKILL itself at the n-th occurrence of
``before_save`` (a save about to be sent), ``after_save`` (a save acknowledged, nothing
after it done), ``after_save_over`` (the save that ended a match acknowledged, its
record, ranking and chat follow-ups not done) or ``robot`` (an AI thinking).
``--history`` also pushes every stored state to ``<P>:history`` as ``[game id,
version, text]``. ``--store-mode cluster --store-url URL`` or
``--store-mode sentinel --sentinels h:p,... --master NAME`` (with ``--timer-sets S``) put
the games on a Redis Cluster or a Sentinel-watched primary, while ``--url`` stays the
control plane (the request lists and the save log, whose lines are
``"<game id> <version> <Unix time>"``). ``--metrics-base B`` serves the operator's
endpoints (adapters/ops) of worker ``w<k>`` on port ``B + k``. ``--product-ticks`` runs
the chat processes' own tick loop (:func:`adapters.delivery.ticks.tick_loop`: due games
stepped concurrently, the stale tables' and the relay's claims, the queue's formation
rounds; the service has the Telegram process's queue) over a :class:`EventsOutbox`, and
serves each press in its game's line of the same :class:`KeyedOrder` as a Telegram
worker does (issue 36); every save is then also logged to ``<P>:moves`` as ``"<game id>
<version> <Unix time> <update key or -> <r or p>"`` (``-``: a timer step; ``r``: the
state saved leaves a robot's move due at once, ``p``: it waits for a person).
SIGTERM stops taking requests, lets the ones in flight finish (up to 10 s) and exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import redis.asyncio as aioredis

from adapters import deadline
from adapters.delivery.order import KeyedOrder, press_key
from adapters.delivery.outbox import CALLS_AT_ONCE, Delivery, Staged
from adapters.delivery.refs import GameRefs
from adapters.delivery.stale import StaleTables
from adapters.delivery.ticks import tick_loop
from adapters.ops.metrics import MeteredService, answered
from adapters.ops.series import tick_round
from adapters.ops.server import start_ops
from adapters.storage.connect import RedisTarget, open_store
from adapters.storage.queue import RedisQueue
from bot import play, robot
from bot.effects import ChatRef, PlayerRef
from bot.model import decode
from bot.service import Service
from bot.settings import sentinel_addresses

log = logging.getLogger("reliability.worker")


class SpeedClock:
    """Game time running ``speed`` times faster than the wall clock (shared by workers)."""

    def __init__(self, t0: float, real0: float, speed: float) -> None:
        self.t0, self.real0, self.speed = t0, real0, speed

    def now(self) -> float:
        return self.t0 + (time.time() - self.real0) * self.speed


class Crashes:
    """Counts the crash points and kills this process at the n-th one asked for."""

    def __init__(self, spec: str) -> None:
        self.left: dict[str, int] = {}
        for part in filter(None, spec.split(",")):
            point, _, n = part.partition(":")
            self.left[point] = int(n or 1)

    def hit(self, point: str) -> None:
        if point not in self.left:
            return
        self.left[point] -= 1
        if self.left[point] <= 0:
            os.kill(os.getpid(), signal.SIGKILL)


class LoggedStore:
    """The real store, with every acknowledged save logged and the crash points."""

    def __init__(self, inner: Any, control: aioredis.Redis, prefix: str,
                 crashes: Crashes, history: bool = False, moves: bool = False) -> None:
        self.inner, self.control, self.prefix, self.crashes = inner, control, prefix, crashes
        self.history = history
        self.moves = moves

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def save_game(self, game_id: str, expected_version: int, state: str, ttl_s: int,
                        update: str | None = None, now_ts: float = 0.0, **kw: Any) -> bool:
        """The store's save (any further keyword, e.g. a deadline sent with the save, is
        passed on), logged once acknowledged, with the save crash points around it."""
        self.crashes.hit("before_save")
        done: bool = await self.inner.save_game(game_id, expected_version, state, ttl_s,
                                                update, now_ts, **kw)
        if done:
            await self.control.rpush(f"{self.prefix}:saves",
                                     f"{game_id} {expected_version + 1} {time.time():.3f}")
            if self.moves:  # who moved, and who is owed the next move
                await self.control.rpush(f"{self.prefix}:moves", f"{game_id} "
                                         f"{expected_version + 1} {time.time():.3f} "
                                         f"{update or '-'} {_owed(state)}")
            if self.history:  # every stored state, for the secrecy checks
                await self.control.rpush(f"{self.prefix}:history", json.dumps(
                    [game_id, expected_version + 1, state]))
            self.crashes.hit("after_save")
            if decode(state).status == "over":
                self.crashes.hit("after_save_over")
        return done


def _owed(state: str) -> str:
    """``r`` when the saved state leaves a move to the timers at once (a robot's turn in
    a deal), else ``p`` (a person's turn, a lobby, between deals, over)."""
    game = decode(state)
    if game.status != "playing":
        return "p"
    return "r" if game.seats[play.deal_of(game).turn].robot_plays else "p"


def _chooser(crashes: Crashes) -> robot.Chooser | None:
    inner = robot.engine_chooser()
    if inner is None:
        return None

    def choose(view: Any, level: str, **kw: Any) -> Any:
        crashes.hit("robot")
        return inner(view, level, **kw)

    return choose


async def serve_one(svc: Service, req: dict[str, Any]) -> list[Any]:
    """Call ``svc.<req["call"]>(*pre, [chat], user, *extra, **kw, update=...)``."""
    args: list[Any] = list(req.get("pre", []))
    if req.get("chat") is not None:
        args.append(ChatRef(**req["chat"]))
    args.append(PlayerRef(**req["user"]))
    args += req.get("extra", [])
    kw = dict(req.get("kw", {}))
    if req.get("update") is not None:
        kw["update"] = req["update"]
    return list(await getattr(svc, req["call"])(*args, **kw))


class EventsOutbox(Delivery):
    """The chat processes' delivery with its Redis parts (the stale tables' sets, the
    relay, the per-game order) and no chat platform: every effect a tick step or a
    relay yields is pushed to ``<P>:events`` as the old tick loop pushed them."""

    def __init__(self, client: Any, prefix: str, sets: int, push: Any) -> None:
        from types import SimpleNamespace

        super().__init__(SimpleNamespace(name="tg"), GameRefs(client, prefix),  # type: ignore[arg-type]
                         stale=StaleTables(client, prefix, "tg", sets=sets),
                         order=KeyedOrder(CALLS_AT_ONCE))
        self._push_effects = push

    def stage(self, effects: list[Any], origin: Any = None, fresh: bool = False) -> Staged:
        return Staged(list(effects), False)

    async def deliver(self, effects: list[Any], origin: Any = None) -> None:
        await self._push_effects(effects)


def _target(o: argparse.Namespace) -> RedisTarget:
    """The store's Redis: the control URL's one Redis unless ``--store-mode`` says a
    cluster (``--store-url`` names a node) or sentinels (``--sentinels h:p,...``)."""
    sentinels = sentinel_addresses(o.sentinels) if o.sentinels else []
    return RedisTarget(url=o.store_url or (None if sentinels else o.url), mode=o.store_mode,
                       sentinels=sentinels, master=o.master, timer_sets=o.timer_sets)


class Worker:
    def __init__(self, opts: argparse.Namespace) -> None:
        self.opts = opts
        self.stop = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        o = self.opts
        self.control = aioredis.from_url(o.url, decode_responses=True)
        self.reader = aioredis.from_url(o.url, decode_responses=True)
        store = await open_store(o.url, o.prefix, _target(o))
        crashes = Crashes(o.crash)
        clock = SpeedClock(o.t0, o.real0, o.speed)
        queue = RedisQueue(store.client, o.prefix) if o.product_ticks else None
        self.svc = MeteredService(Service(
            LoggedStore(store, self.control, o.prefix, crashes, o.history, o.product_ticks),
            clock,
            turn_timer_s=15, ai_pace_s=0.0, next_deal_s=30.0, chooser=_chooser(crashes),
            queue=queue))
        self.outbox = EventsOutbox(store.client, o.prefix, o.timer_sets,
                                   self._push_effects) if o.product_ticks else None
        if o.metrics_base:  # the operator's endpoints, scraped by tests/cluster
            await start_ops(store, o.metrics_base + int(o.name.lstrip("w") or 0), "127.0.0.1",
                            clock=clock.now)
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, self.stop.set)
        await self.control.set(f"{o.prefix}:ready:{o.name}", os.getpid())
        lagging = asyncio.create_task(self._lag()) if os.environ.get(
            "WORKER_LAG_LOG") else None  # diagnosis: the event loop's stalls, logged
        ticker = asyncio.create_task(
            tick_loop(self.svc, self.outbox, every_s=0.1, stop=self.stop)
            if self.outbox is not None else self.tick_loop())
        await self.read_loop()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=10)
        await ticker
        if lagging is not None:
            await lagging
        log.info("worker %s: stopped", o.name)

    async def read_loop(self) -> None:
        queues = [f"{self.opts.prefix}:q:{self.opts.name}", f"{self.opts.prefix}:q"]
        while not self.stop.is_set():
            try:
                got = await self.reader.blpop(queues, timeout=0.2)
            except Exception as err:  # Redis restarting: try again
                log.warning("worker %s: queue read failed (%s)", self.opts.name,
                            type(err).__name__)
                await asyncio.sleep(0.2)
                continue
            if got is None:
                continue
            task = asyncio.create_task(self.handle(json.loads(got[1])))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def handle(self, req: dict[str, Any]) -> None:
        deadline.arrive()  # the request reached this worker: the Redis retry budget's start
        began = time.perf_counter()
        error = None
        effects: list[Any] = []
        try:
            if self.outbox is None:
                effects = await serve_one(self.svc, req)
            else:  # in its game's line, as a Telegram worker serves a press
                data = (req.get("extra") or [""])[0] if req.get("call") == "press" else ""
                chat = (req.get("chat") or {}).get("chat_id")
                async with self.outbox.order.ticket(press_key(str(data), chat)):
                    effects = await serve_one(self.svc, req)
        except Exception as err:
            error = f"{type(err).__name__}: {err}"
            log.error("request %s failed: %s", req.get("id"), type(err).__name__)
        out = {"id": req["id"], "worker": self.opts.name, "error": error,
               "ms": (time.perf_counter() - began) * 1000,
               "effects": [e.model_dump(mode="json") for e in effects]}
        await self._push(f"{self.opts.prefix}:replies", json.dumps(out))
        if req.get("call") == "press":
            answered()  # the reply is out: the press's wait from its arrival (as an adapter)

    async def tick_loop(self) -> None:
        while not self.stop.is_set():
            try:
                with tick_round() as round_:  # the tick series, as adapters/delivery/ticks
                    effects = await self.svc.tick()
                    round_.done(effects)
            except Exception as err:
                log.warning("worker %s: tick failed (%s)", self.opts.name, type(err).__name__)
                effects = []
            if effects:
                out = {"worker": self.opts.name,
                       "effects": [e.model_dump(mode="json") for e in effects]}
                await self._push(f"{self.opts.prefix}:events", json.dumps(out))
            await asyncio.sleep(0.1)

    async def _lag(self) -> None:
        while not self.stop.is_set():
            began = time.monotonic()
            await asyncio.sleep(0.05)
            late = time.monotonic() - began - 0.05
            if late > 0.15:
                log.warning("loop lag %.3f s at %.3f", late, time.time())

    async def _push_effects(self, effects: list[Any]) -> None:
        if effects:
            await self._push(f"{self.opts.prefix}:events", json.dumps({
                "worker": self.opts.name,
                "effects": [e.model_dump(mode="json") for e in effects]}))

    async def _push(self, key: str, text: str) -> None:
        for _ in range(50):  # the Redis server may be restarting
            try:
                await self.control.rpush(key, text)
                return
            except Exception:
                await asyncio.sleep(0.2)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--prefix", required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--t0", type=float, required=True)
    p.add_argument("--real0", type=float, required=True)
    p.add_argument("--speed", type=float, default=10.0)
    p.add_argument("--crash", default="")
    p.add_argument("--log-level", default="INFO")
    p.add_argument("--history", action="store_true")
    p.add_argument("--store-mode", default="single", choices=["single", "cluster", "sentinel"])
    p.add_argument("--store-url", default="")
    p.add_argument("--sentinels", default="")
    p.add_argument("--master", default="mymaster")
    p.add_argument("--timer-sets", type=int, default=1)
    p.add_argument("--metrics-base", type=int, default=0)
    p.add_argument("--product-ticks", action="store_true")
    p.add_argument("--linger", type=float, default=0.0,
                   help="seconds the process takes to exit once stopped (a loaded "
                        "machine's slow teardown; no tick runs meanwhile)")
    opts = p.parse_args()
    logging.basicConfig(level=opts.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    asyncio.run(Worker(opts).run())
    time.sleep(opts.linger)


if __name__ == "__main__":
    main()
