"""Whether this worker can serve now (issue 36): what ``/health/ready`` answers.

:class:`Readiness` says not ready (with the reason) when

* its recent Redis calls are failing: of the round trips of the last :data:`WINDOW_S`
  seconds (every connection of the process reports, :mod:`adapters.storage.observe`), at
  least :data:`MIN_FAILURES` failed and they are at least half;
* one Redis: it does not answer ``PING`` within :data:`PROBE_TIMEOUT_S`;
* a Redis Cluster: no node it knows answers, a node says ``cluster_state:fail``, a slot
  has no primary (``CLUSTER SLOTS`` of a node that answers), or a primary that owns
  slots does not answer ``PING``: a SIGKILLed primary refuses at once, so the worker is
  unready from its death until the replica that takes its slots answers;
* Sentinel: fewer than a majority of the sentinels answer, they disagree on the
  primary's address, one of them flags it down (``s_down``, ``o_down``) or a failover
  in progress, or the primary they name does not answer ``PING``.

The probes use connections of their own (:data:`PROBE_TIMEOUT_S`, no retry), never the
store's pool with its failover budget. A verdict is kept :data:`CACHE_S` seconds counted
from the start of its probe (what it saw is as old as that), and concurrent requests
share one probe, so a scrape every 100 ms costs one probe per :data:`CACHE_S`. A Redis
call of this process that fails (:attr:`CallWindow.failures_seen` moves) ends a "ready"
verdict at once, and a request does not join a probe that began before that failure:
it starts a fresh one. Before, a verdict taken while every node was alive answered 200
for up to :data:`CACHE_S` after they had all died, though the store's own calls (the
scrape's timer sample) had failed meanwhile (tests/cluster/test_ops_failover.py: 200 in
3 of 4 runs on a read 0.243 s after that verdict).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import fakeredis
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from adapters.storage.observe import LISTENERS

WINDOW_S = 5.0
MIN_FAILURES = 3
PROBE_TIMEOUT_S = 0.4
CACHE_S = 0.25
SLOTS = 16384
_CREDENTIALS = ("username", "password", "ssl", "ssl_ca_certs", "ssl_certfile",
                "ssl_keyfile", "ssl_cert_reqs", "credential_provider")


class CallWindow:
    """The outcomes of this process's Redis round trips over the last ``window_s``
    seconds (a :class:`adapters.storage.observe.Listener`)."""

    def __init__(self, window_s: float = WINDOW_S, clock: Any = time.monotonic) -> None:
        self.window_s = window_s
        self._clock = clock
        self._events: deque[tuple[float, bool]] = deque()
        self._failures = 0
        self.failures_seen = 0
        """Failed round trips reported since this window was made (never decreases)."""

    def _add(self, ok: bool) -> None:
        self._events.append((self._clock(), ok))
        self._failures += not ok
        self.failures_seen += not ok
        self._trim()

    def _trim(self) -> None:
        oldest = self._clock() - self.window_s
        while self._events and self._events[0][0] < oldest:
            self._failures -= not self._events.popleft()[1]
        if len(self._events) > 10_000:  # a busy worker: the newest half is enough
            for _ in range(5_000):
                self._failures -= not self._events.popleft()[1]

    def clear(self) -> None:
        """Forget the round trips seen so far (:attr:`failures_seen` stays: it never
        decreases); for tests that share one process's window."""
        self._events.clear()
        self._failures = 0

    def roundtrip(self, node: str, seconds: float) -> None:
        """A round trip that succeeded."""
        self._add(True)

    def failed(self, node: str, error: BaseException) -> None:
        """A round trip (or a connect) that failed."""
        self._add(False)

    def failing(self) -> str | None:
        """The reason the recent calls say not ready, or None."""
        self._trim()
        failures, calls = self._failures, len(self._events)
        if failures >= MIN_FAILURES and failures * 2 >= calls:
            return f"{failures} of {calls} redis calls failed in {self.window_s:g} s"
        return None


WINDOW = CallWindow()
LISTENERS.append(WINDOW)


@dataclass(frozen=True)
class Verdict:
    """What one probe found: ``reason`` (None: ready), the clock's time when the probe
    began (``started``, seconds) and the window's :attr:`CallWindow.failures_seen` then
    (``seen``)."""

    started: float
    seen: int
    reason: str | None


class Readiness:
    """The readiness of a worker whose store client is ``client`` (a redis-py asyncio
    ``Redis``, ``RedisCluster`` or sentinel ``master_for`` client; fakeredis alike).
    :meth:`check` gives None (ready) or the reason it is not."""

    def __init__(self, client: Any, window: CallWindow = WINDOW,
                 clock: Any = time.monotonic) -> None:
        self.client = client
        self.window = window
        self._clock = clock
        self._probes: dict[tuple[str, int], aioredis.Redis] = {}
        self._verdict: Verdict | None = None
        self._running: tuple[int, asyncio.Task[Verdict]] | None = None

    async def check(self) -> str | None:
        """None when ready, else why not: the newest verdict while it is younger than
        :data:`CACHE_S` (from its probe's start) and, if it says ready, no Redis call
        of this process failed since its probe began; else a probe's verdict, that
        probe shared with concurrent requests unless a failure came after its start."""
        seen, verdict = self.window.failures_seen, self._verdict
        if verdict is not None and self._clock() - verdict.started < CACHE_S and (
                verdict.reason is not None or verdict.seen == seen):
            return verdict.reason
        if self._running is None or self._running[1].done() or self._running[0] != seen:
            self._running = (seen, asyncio.ensure_future(self._judge(seen)))
        return (await asyncio.shield(self._running[1])).reason

    async def _judge(self, seen: int) -> Verdict:
        """One probe as a :class:`Verdict`, kept as the newest unless a probe that
        began later already gave one."""
        started = self._clock()
        verdict = Verdict(started, seen, await self._probe())
        if self._verdict is None or self._verdict.started <= started:
            self._verdict = verdict
        return verdict

    async def _probe(self) -> str | None:
        try:
            reason = await self._topology()
        except Exception as err:  # a probe that breaks says so, never a 500
            reason = f"probe failed: {type(err).__name__}"
        return reason or self.window.failing()

    async def _topology(self) -> str | None:
        client = self.client
        if isinstance(client, RedisCluster):
            return await self._cluster(client)
        pool = getattr(client, "connection_pool", None)
        manager = getattr(pool, "sentinel_manager", None)
        if manager is not None:
            return await self._sentinel(manager, str(getattr(pool, "service_name", "")))
        kwargs = getattr(pool, "connection_kwargs", {})
        if "host" in kwargs and not isinstance(client, fakeredis.FakeAsyncRedis):
            host, port = str(kwargs["host"]), int(kwargs.get("port", 6379))
            pong = await self._ask(host, port, "PING")
            return None if not isinstance(pong, Exception) else (
                f"redis {host}:{port} not answering")
        try:  # the embedded fakeredis server, a unix socket: the store's own client
            async with asyncio.timeout(PROBE_TIMEOUT_S):
                await client.ping()
        except Exception:
            return "redis not answering"
        return None

    def _probe_client(self, host: str, port: int) -> aioredis.Redis:
        probe = self._probes.get((host, port))
        if probe is None:
            kwargs = getattr(self.client, "connection_kwargs", None) or getattr(
                getattr(self.client, "connection_pool", None), "connection_kwargs", {})
            extra = {k: kwargs[k] for k in _CREDENTIALS if kwargs.get(k) is not None}
            probe = aioredis.Redis(host=host, port=port, socket_timeout=PROBE_TIMEOUT_S,
                                   socket_connect_timeout=PROBE_TIMEOUT_S,
                                   retry=Retry(NoBackoff(), 0), decode_responses=True,
                                   **extra)
            self._probes[(host, port)] = probe
        return probe

    async def _ask(self, host: str, port: int, *command: Any) -> Any:
        """``command`` on ``host:port`` within :data:`PROBE_TIMEOUT_S`; the exception
        instead of raising it."""
        try:
            async with asyncio.timeout(PROBE_TIMEOUT_S):
                return await self._probe_client(host, port).execute_command(  # type: ignore[no-untyped-call]
                    *command)
        except Exception as err:
            return err

    async def _cluster(self, client: RedisCluster) -> str | None:
        known = [(str(n.host), int(n.port)) for n in client.get_nodes()]
        if not known:
            return "no cluster node known"
        infos = await asyncio.gather(*(self._ask(h, p, "CLUSTER", "INFO") for h, p in known))
        alive = [addr for addr, got in zip(known, infos, strict=True)
                 if not isinstance(got, Exception)]
        if not alive:
            return "no cluster node answering"
        for (host, port), got in zip(known, infos, strict=True):
            if not isinstance(got, Exception) and "cluster_state:fail" in str(got):
                return f"cluster_state:fail at {host}:{port}"
        slots = await self._ask(alive[0][0], alive[0][1], "CLUSTER", "SLOTS")
        if isinstance(slots, Exception):
            return f"cluster slots unreadable ({type(slots).__name__})"
        covered, owners = 0, set()
        for row in slots:
            covered += int(row[1]) - int(row[0]) + 1
            owners.add((str(row[2][0]) or alive[0][0], int(row[2][1])))
        if covered < SLOTS:
            return f"{SLOTS - covered} slots without a node"
        pongs = await asyncio.gather(*(self._ask(h, p, "PING") for h, p in sorted(owners)))
        for (host, port), got in zip(sorted(owners), pongs, strict=True):
            if isinstance(got, Exception):
                return f"primary {host}:{port} not answering ({type(got).__name__})"
        return None

    async def _sentinel(self, manager: Any, name: str) -> str | None:
        async def ask(sentinel: Any) -> Any:
            try:
                async with asyncio.timeout(PROBE_TIMEOUT_S):
                    return await sentinel.sentinel_master(name)
            except Exception as err:
                return err

        views = await asyncio.gather(*(ask(s) for s in manager.sentinels))
        answered = [v for v in views if isinstance(v, dict)]
        if len(answered) * 2 <= len(views):
            return f"{len(answered)} of {len(views)} sentinels answering"
        addresses = {(str(v.get("ip")), int(v.get("port", 0))) for v in answered}
        if len(addresses) > 1:
            return "sentinels disagree on the primary (a failover in progress)"
        for view in answered:
            flags = str(view.get("flags", ""))
            if any(f in flags for f in ("s_down", "o_down", "failover_in_progress")):
                return f"primary flagged {flags}"
        host, port = addresses.pop()
        pong = await self._ask(host, port, "PING")
        if isinstance(pong, Exception):
            return f"primary {host}:{port} not answering ({type(pong).__name__})"
        return None

    async def close(self) -> None:
        """Close the probes' connections."""
        for probe in self._probes.values():
            with contextlib.suppress(Exception):
                await probe.aclose()
        self._probes.clear()
