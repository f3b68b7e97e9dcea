"""The reliability suite's harness: worker processes on one Redis, and a random player.

:class:`Cluster` starts ``tests/reliability/worker.py`` processes on a Redis URL and a
fresh key prefix, sends them requests through the shared list (as a load balancer
would), collects replies and tick effects, and kills or restarts workers. :class:`Table`
is one group chat with one person (playing random legal moves through the hand buttons,
plus injected duplicate deliveries, double, stale and out-of-turn presses) against one
robot. :mod:`tests.reliability.invariants` checks the stored games afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
import redis.exceptions
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from adapters.storage.keys import StoreKeys
from engine.cards import Card
from engine.errors import IllegalAction
from engine.melds import make_meld
from engine.rules import make_rules
from engine.simulate import candidate_melds

WORKER = Path(__file__).with_name("worker.py")
ROOT = Path(__file__).resolve().parents[2]
T0 = 1_800_000_000.0
STALE = "Esse botão é antigo: use a mão mais recente (/mao)."
NOT_YOUR_TURN = "Não é a sua vez."
VARIANT = "buraco target=0 timer=15"  # one deal decides: games finish within the suite
RULES = make_rules("buraco", {"target": "0"})


def percentile(values: list[float], q: float) -> float:
    """The ``q`` (0..1) percentile of ``values`` (nearest rank), 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


@dataclass
class Stats:
    """What one run injected and measured (the bench/README table)."""

    requests: int = 0
    actions: int = 0
    duplicates: int = 0
    doubles: int = 0
    stale: int = 0
    out_of_turn: int = 0
    redelivered: int = 0
    faults: int = 0
    errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    latency_ms: list[float] = field(default_factory=list)
    service_ms: list[float] = field(default_factory=list)

    def violate(self, what: str) -> None:
        self.violations.append(what)


class Cluster:
    """Worker processes sharing one Redis URL and key prefix (see module docstring)."""

    def __init__(self, url: str, tmp: Path, speed: float = 10.0, log_level: str = "INFO",
                 prefix: str | None = None, history: bool = False,
                 store: Any = None, worker_args: list[str] | None = None) -> None:
        self.url, self.tmp, self.speed, self.log_level = url, tmp, speed, log_level
        self.history = history
        self.worker_args = worker_args or []
        self.prefix = prefix or f"rel-{uuid.uuid4().hex[:12]}"
        self.real0 = time.time()
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        # retried for a while: the suite kills and restarts the Redis server itself
        self.client = aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
            url, decode_responses=True, max_connections=32, timeout=30,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 40),
            retry_on_error=[redis.exceptions.ConnectionError, redis.exceptions.TimeoutError]))
        self.store = store or self.client
        """The client of the Redis the games are in (``url``'s unless the workers were
        given another store with ``worker_args``, tests/cluster)."""
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.on_event: Callable[[dict[str, Any]], None] = lambda effect: None
        self.events: list[dict[str, Any]] = []
        self.answers: list[list[dict[str, Any]]] = []
        self.batches: list[list[dict[str, Any]]] = []
        self.stats = Stats()
        self._ids = itertools.count()
        self._readers: list[asyncio.Task[None]] = []
        self.keys = StoreKeys(self.prefix)

    def tolerate(self, error: str) -> bool:
        """Errors a worker may answer while the suite breaks Redis on purpose (the
        platform then redelivers); none by default."""
        return False

    def now(self) -> float:
        """The workers' game time."""
        return T0 + (time.time() - self.real0) * self.speed

    # processes ------------------------------------------------------------------
    def spawn(self, name: str, crash: str = "") -> None:
        """Start worker ``name`` (its log goes to ``<tmp>/<name>.log``, appended)."""
        logfile = (self.tmp / f"{name}.log").open("ab")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.procs[name] = subprocess.Popen(
            [sys.executable, str(WORKER), "--url", self.url, "--prefix", self.prefix,
             "--name", name, "--t0", repr(T0), "--real0", repr(self.real0),
             "--speed", repr(self.speed), "--crash", crash, "--log-level", self.log_level,
             *(["--history"] if self.history else []), *self.worker_args],
            stdout=logfile, stderr=logfile, env=env, cwd=ROOT)

    async def start(self, names: list[str], crash: dict[str, str] | None = None) -> None:
        """Spawn ``names`` and wait until each answers (its ready key is set)."""
        if not self._readers:
            self._readers = [asyncio.create_task(self._read("replies", self._reply)),
                             asyncio.create_task(self._read("events", self._event))]
        for name in names:
            await self.client.delete(f"{self.prefix}:ready:{name}")
            self.spawn(name, (crash or {}).get(name, ""))
        for name in names:
            await self.ready(name)

    async def ready(self, name: str, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with contextlib.suppress(Exception):
                if await self.client.get(f"{self.prefix}:ready:{name}"):
                    return
            if self.procs[name].poll() is not None:
                raise RuntimeError(f"worker {name} exited with {self.procs[name].returncode}")
            await asyncio.sleep(0.1)
        raise TimeoutError(f"worker {name} not ready")

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to worker ``name``."""
        self.procs[name].send_signal(sig)
        self.stats.faults += 1

    def wait_exit(self, name: str, timeout: float = 30.0) -> int:
        return self.procs[name].wait(timeout)

    async def stop(self, names: list[str] | None = None) -> float:
        """SIGTERM the workers (``names`` or all) and wait until they exit; the game time
        the stop was asked at. From then on a stopping worker claims no deadline (by
        design), so a deadline that falls due while they exit waits for the next worker:
        "overdue" (:func:`invariants.check_all`) is measured from the SIGTERM, not from the
        exit, which on a loaded machine may come seconds later (tens of game seconds at
        the suite's 10x clock)."""
        names = names or [n for n, p in self.procs.items() if p.poll() is None]
        asked_at = self.now()
        for name in names:
            self.procs[name].send_signal(signal.SIGTERM)
        for name in names:
            await asyncio.to_thread(self.procs[name].wait, 30)
        return asked_at

    def log_text(self) -> str:
        """Every worker's log so far."""
        return "".join(p.read_text(errors="replace") for p in sorted(self.tmp.glob("*.log")))

    async def close(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for task in self._readers:
            task.cancel()
        with contextlib.suppress(Exception):
            keys = [k async for k in self.client.scan_iter(match=self.keys.pattern(), count=1000)]
            for i in range(0, len(keys), 500):
                await self.client.delete(*keys[i:i + 500])
        await self.client.aclose()

    # requests -------------------------------------------------------------------
    async def call(self, req: dict[str, Any], timeout: float = 30.0,
                   to: str | None = None) -> dict[str, Any] | None:
        """Send one request (``to`` a worker, or to whichever takes it first); the reply
        ``{"effects", "error", "worker", "ms"}`` or None when none came in ``timeout``."""
        rid = f"r{next(self._ids)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        queue = f"{self.prefix}:q" + (f":{to}" if to else "")
        began = time.perf_counter()
        await self.client.rpush(queue, json.dumps({**req, "id": rid}))
        self.stats.requests += 1
        try:
            reply = await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            return None
        finally:
            self.waiting.pop(rid, None)
        self.stats.latency_ms.append((time.perf_counter() - began) * 1000)
        if self.history:
            self.answers.append(reply["effects"])
        self.stats.service_ms.append(reply["ms"])
        if reply["error"] and not self.tolerate(reply["error"]):
            self.stats.errors.append(reply["error"])
        return reply

    async def deliver(self, req: dict[str, Any], timeout: float = 15.0,
                      tries: int = 40) -> dict[str, Any]:
        """Deliver like a platform: redeliver the same update until a worker answers
        without an error (a worker killed mid-request, a Redis restarting)."""
        for _ in range(tries):
            try:
                reply = await self.call(req, timeout)
            except Exception:  # the Redis server itself is down: deliver again
                reply = None
            if reply is not None and reply["error"] is None:
                return reply
            self.stats.redelivered += 1
            await asyncio.sleep(0.3)
        raise AssertionError(f"no worker served {req}")

    def _reply(self, data: dict[str, Any]) -> None:
        fut = self.waiting.get(data["id"])
        if fut is not None and not fut.done():
            fut.set_result(data)

    def _event(self, data: dict[str, Any]) -> None:
        if self.history:
            self.batches.append(data["effects"])
        for effect in data["effects"]:
            self.events.append(effect)
            self.on_event(effect)

    async def _read(self, name: str, sink: Callable[[dict[str, Any]], None]) -> None:
        reader = aioredis.from_url(self.url, decode_responses=True)
        try:
            while True:
                try:
                    got = await reader.blpop([f"{self.prefix}:{name}"], timeout=0.5)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    await asyncio.sleep(0.2)
                    continue
                if got is not None:
                    sink(json.loads(got[1]))
        finally:
            await reader.aclose()


def buttons(view: dict[str, Any]) -> dict[str, str]:
    """``{"<code>" or "<code>|<arg>": data}`` of a view's buttons."""
    out: dict[str, str] = {}
    for row in view["buttons"]:
        for b in row:
            _gid, _ver, code, arg = b["data"].split("|")
            out[code if code not in ("t", "e") else f"{code}|{arg}"] = b["data"]
    return out


def applied(reply: dict[str, Any] | None) -> bool:
    """True when the reply shows an engine move applied (a table view came back)."""
    return reply is not None and any(e["kind"] == "table" for e in reply["effects"])


def replies(reply: dict[str, Any] | None) -> list[str]:
    return [] if reply is None else [e["text"] for e in reply["effects"] if e["kind"] == "reply"]


class Table:
    """One group, one person (``P<k>``) against one ``facil`` robot (see module doc)."""

    updates = itertools.count(1)

    def __init__(self, cluster: Cluster, k: int, rng: random.Random, chaos: bool = True,
                 variant: str = VARIANT) -> None:
        self.c, self.k, self.rng, self.chaos, self.variant = cluster, k, rng, chaos, variant
        self.chat = {"platform": "tg", "chat_id": str(-10_000 - k), "title": f"Mesa {k}"}
        self.user = {"platform": "tg", "user_id": str(50_000 + k), "name": f"P{k}"}
        self.gid = ""
        self.hand: dict[str, Any] | None = None
        self.old_hands: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self.over = False
        self.turns = 0

    def request(self, call: str, **kw: Any) -> dict[str, Any]:
        return {"call": call, "user": self.user, "update": f"tg:u:{next(self.updates)}", **kw}

    def see(self, effect: dict[str, Any], from_reply: bool) -> None:
        """Take a hand view of this person (replies always win; events only when newer)."""
        if effect["kind"] == "closed":
            self.over = True
            self.changed.set()
        if effect["kind"] != "hand" or effect["player"]["user_id"] != self.user["user_id"]:
            return
        view = effect["view"]
        if self.hand is not None and not from_reply and view["version"] <= self.hand["version"]:
            return
        if self.hand is not None and view["version"] > self.hand["version"]:
            self.old_hands = [*self.old_hands[-3:], self.hand]
        self.hand = view
        self.changed.set()

    def take(self, reply: dict[str, Any] | None) -> dict[str, Any] | None:
        for effect in [] if reply is None else reply["effects"]:
            self.see(effect, True)
            if effect["kind"] == "closed" or (effect["kind"] == "reply" and effect["text"] in (
                    "Esta partida terminou.", "Este jogo não existe mais.")):
                self.over = True
        return reply

    async def open(self) -> None:
        """``/novojogo``, ``/robo facil``, ``/iniciar``."""
        reply = await self.c.deliver(self.request("new_game", chat=self.chat, extra=[self.variant]))
        tables = [e["game_id"] for e in reply["effects"] if e["kind"] == "table"]
        # [] when a redelivery found the first delivery done (its answer was late)
        self.gid = tables[0] if tables else await self.c.store.get(
            self.c.keys.chat(f"tg:{self.chat['chat_id']}"))
        await self.c.deliver(self.request("add_ai", chat=self.chat, extra=["facil"]))
        self.take(await self.c.deliver(self.request("start", chat=self.chat)))

    async def press(self, data: str) -> dict[str, Any] | None:
        """Press one button (with chaos: duplicate delivery or double press of an engine
        button, an old button afterwards); returns the reply that counts."""
        code = data.split("|")[2]
        req = self.request("press", extra=[data])
        engine = code in ("c", "p", "m", "d")
        roll = self.rng.random() if self.chaos and engine else 1.0
        if roll < 0.10:  # the platform delivers the same update twice, at once
            self.c.stats.duplicates += 1
            first, second = await asyncio.gather(self.c.deliver(req), self.c.deliver(req))
            if applied(first) and applied(second):
                self.c.stats.violate(f"{self.gid}: update {req['update']} applied twice")
            reply = first if applied(first) or not applied(second) else second
        elif roll < 0.18:  # a double tap: two updates, same button
            self.c.stats.doubles += 1
            twin = self.request("press", extra=[data])
            first, second = await asyncio.gather(self.c.deliver(req), self.c.deliver(twin))
            if applied(first) and applied(second):
                self.c.stats.violate(f"{self.gid}: double press {data} applied twice")
            reply = first if applied(first) or not applied(second) else second
        else:
            reply = await self.c.deliver(req)
        self.take(reply)
        if applied(reply):
            self.c.stats.actions += 1
        elif reply is not None and (reply["effects"] == [] or {STALE, NOT_YOUR_TURN} & set(
                replies(reply))):
            # [] : applied by a worker that died before it answered; a refusal: a timer
            # moved the game on meanwhile. Either way the person looks at the hand again.
            await self.refresh()
        if self.chaos and engine and self.old_hands and self.rng.random() < 0.08:
            await self.stale_press()
        return reply

    async def stale_press(self) -> None:
        """A button of an older hand message: refused, nothing applied."""
        old = self.rng.choice(self.old_hands)
        data = self.rng.choice(list(buttons(old).values()))
        if data.split("|")[2] in ("t", "z", "g"):
            return  # card picks carry the version too, but do not change it
        self.c.stats.stale += 1
        reply = await self.c.deliver(self.request("press", extra=[data]))
        if applied(reply) or replies(reply) not in ([STALE], ["Esta partida terminou."],
                                                    ["A mão terminou: espere a próxima."]):
            self.c.stats.violate(f"{self.gid}: stale {data} answered {replies(reply)}")

    async def out_of_turn(self) -> None:
        """Draw while the robot is to play: refused."""
        if self.hand is None:
            return
        self.c.stats.out_of_turn += 1
        data = f"{self.gid}|{self.hand['version']}|c|"
        reply = await self.c.deliver(self.request("press", extra=[data]))
        if applied(reply) or not set(replies(reply)) <= {NOT_YOUR_TURN, STALE,
                                                         "Esta partida terminou.",
                                                         "A mão terminou: espere a próxima."}:
            self.c.stats.violate(f"{self.gid}: out-of-turn draw answered {replies(reply)}")

    async def refresh(self) -> None:
        """``Minha mão``: the current hand view."""
        self.take(await self.c.deliver({"call": "press", "user": self.user,
                                        "extra": [f"{self.gid}|0|h|"]}))

    async def wait_turn(self, timeout: float = 3.0) -> None:
        self.changed.clear()
        if self.chaos and self.rng.random() < 0.05:
            await self.out_of_turn()
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except TimeoutError:
            await self.refresh()
            self.over = self.over or await self.stored_over()
            if not self.over and self.hand is not None and not {"c", "d"} & set(
                    buttons(self.hand)):
                # two turn timeouts made the person away, and a table with nobody
                # present waits: /voltar, as the notice in the group says
                await self.c.deliver(self.request("come_back", chat=self.chat))

    async def step(self) -> None:
        """One move of the person if it is their turn, else wait for it."""
        if self.hand is None:
            await self.refresh()
            return
        b = buttons(self.hand)
        if "c" in b:
            code = "p" if "p" in b and self.rng.random() < 0.2 else "c"
            await self.press(b[code])
            self.turns += 1
        elif "d" in b:
            if self.rng.random() < 0.6:
                await self.meld()
            await self.discard()
        else:
            await self.wait_turn()

    async def meld(self) -> None:
        assert self.hand is not None
        cards = [Card.parse(f["code"]) for f in self.hand["cards"]]
        for trio in candidate_melds(cards, RULES):
            try:
                make_meld(trio, RULES)
            except IllegalAction:
                continue
            picks = _indices(cards, trio)
            for i in picks:
                if self.hand is None or f"t|{i}" not in buttons(self.hand):
                    return
                await self.press(buttons(self.hand)[f"t|{i}"])
            if self.hand is not None and "m" in buttons(self.hand):
                reply = await self.press(buttons(self.hand)["m"])
                if not applied(reply) and self.hand is not None and "z" in buttons(self.hand):
                    await self.press(buttons(self.hand)["z"])
            return

    async def discard(self) -> None:
        for _ in range(3):
            if self.hand is None or "d" not in buttons(self.hand):
                return
            n = len(self.hand["cards"])
            i = self.rng.randrange(n)
            b = buttons(self.hand)
            if "z" in b:
                await self.press(b["z"])
                if self.hand is None:
                    return
                b = buttons(self.hand)
            if f"t|{i}" not in b:
                return
            await self.press(b[f"t|{i}"])
            if self.hand is None or "d" not in buttons(self.hand):
                return
            if applied(await self.press(buttons(self.hand)["d"])):
                return

    async def play(self, until: float, turns: int = 10**9) -> None:
        """Play until the game is over, ``turns`` draws made, or ``until`` (monotonic)."""
        while not self.over and self.turns < turns and time.monotonic() < until:
            await self.step()
            if not self.over and self.rng.random() < 0.02:
                self.over = await self.stored_over()

    async def stored_over(self) -> bool:
        from bot.model import decode

        try:
            got = await self.c.store.hmget(self.c.keys.state(self.gid), ["v", "s"])
        except (redis.exceptions.RedisError, redis.exceptions.RedisClusterException):
            # the Redis under test fails over (a cluster client may find no node for a
            # moment): look later
            return False
        return got[1] is None or decode(got[1]).status == "over"


def _indices(cards: list[Card], picked: list[Card]) -> list[int]:
    """Distinct hand indices of ``picked`` cards (duplicates of a card take two)."""
    left = Counter(picked)
    out = []
    for i, card in enumerate(cards):
        if left[card] > 0:
            left[card] -= 1
            out.append(i)
    return out


def route(cluster: Cluster, tables: dict[str, Table]) -> None:
    """Tick effects (a robot's move, a timeout) reach the table they belong to
    (``cluster.on_event``)."""

    def on_event(effect: dict[str, Any]) -> None:
        table = tables.get(str(effect.get("game_id", "")))
        if table is not None:
            table.see(effect, False)

    cluster.on_event = on_event
