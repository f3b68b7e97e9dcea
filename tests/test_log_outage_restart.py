"""Issue 36, the operator's view: a Redis killed and restarted writes one "unreachable"
line and one "back" line, the latter only once Redis has answered again. Before, the
tick round declared Redis back whenever it ended without an error: during the outage the
timer sets' claims were set aside (adapters/storage/timers.py ``ASIDE_S``), so a round
read nothing from Redis, ended "well", and the upkeep's next failure opened a new outage:
"Redis is back after 0.5 s" then "Redis unreachable" every tick (16 lines in 4 s, log of
a ``python -m bot telegram`` run whose redis-server was killed for 9.6 s)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio
import redis.exceptions
from net_support import free_port
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from test_log_outages import log_lines  # noqa: F401 - the fixture

from adapters import logcalm
from adapters.delivery.ticks import tick_loop
from adapters.storage import connect
from adapters.storage.connect import RedisTarget, client_for, open_store
from adapters.storage.observe import LISTENERS

BUDGET_S = 1.0
"""The store's retry budget here (6 s in production): the flapping began once it was
spent, a call then failing at its first attempt."""


def _start(port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            subprocess.run(["redis-cli", "-p", str(port), "ping"], check=True,
                           capture_output=True, timeout=2)
            return server
        except subprocess.CalledProcessError:
            time.sleep(0.05)
    server.kill()
    raise RuntimeError("redis-server did not start")


@pytest.fixture
def spare_redis() -> Iterator[tuple[int, list[subprocess.Popen[bytes]]]]:
    """A redis-server of its own on a spare port (its process in the list, which a
    restart replaces)."""
    port = free_port()
    servers = [_start(port)]
    try:
        yield port, servers
    finally:
        for server in servers:
            server.kill()
            server.wait()


class ClaimService:
    """The tick loop's service as bot.ticking's: ``due`` claims the store's timer sets."""

    def __init__(self, store: Any) -> None:
        self.store = store

    async def due(self, limit: int) -> list[str]:
        return list(await self.store.claim_due(time.time(), limit))

    async def table_of(self, game_id: str) -> Any:
        return None


class PingOutbox:
    """A delivery whose upkeep reads Redis, as :meth:`Delivery.redo` reads the stale
    set."""

    class platform:
        name = "tg"

    def __init__(self, client: Any) -> None:
        self.client = client

    def stage(self, effects: list[Any]) -> list[Any]:
        return []

    async def deliver(self, effects: list[Any]) -> None:
        return None

    async def redo(self, table_of: Any, **kw: Any) -> None:
        await self.client.ping()

    async def relayed(self, table_of: Any, **kw: Any) -> bool:
        return False


async def test_a_killed_redis_is_back_in_the_log_once_and_only_after_it_answers(
        log_lines: io.StringIO,  # noqa: F811 - the fixture
        spare_redis: tuple[int, list[subprocess.Popen[bytes]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    port, servers = spare_redis
    monkeypatch.setattr(connect, "FAILOVER_BUDGET_S", BUDGET_S)
    store = await open_store(f"redis://127.0.0.1:{port}/0")
    stop = asyncio.Event()
    ticking = asyncio.create_task(tick_loop(ClaimService(store), PingOutbox(store.client),  # type: ignore[arg-type]
                                            every_s=0.1, stop=stop))
    test_log = logging.getLogger("test")
    try:
        await asyncio.sleep(0.5)
        servers[0].kill()
        servers[0].wait()
        test_log.info("killed")
        await asyncio.sleep(4 * BUDGET_S)  # the budget spent: each call fails at once
        test_log.info("restarting")
        servers.append(_start(port))
        for _ in range(100):
            await asyncio.sleep(0.1)
            if "is back" in log_lines.getvalue():
                break
        await asyncio.sleep(0.5)  # more rounds that reach Redis: nothing more written
    finally:
        stop.set()
        await ticking
        await store.close()
    lines = [line for line in log_lines.getvalue().splitlines()
             if "timer set" not in line]  # "skipped" warnings: rate-limited, not outages
    assert len(lines) == 4, "\n".join(lines)
    assert lines[0] == "INFO test: killed"
    assert lines[1].startswith("WARNING adapters.delivery.ticks: Redis unreachable ("), lines[1]
    assert lines[2] == "INFO test: restarting"
    assert re.fullmatch(r"WARNING outage: Redis is back after \d+\.\d s \(\d+ errors not "
                        r"shown\)", lines[3]), lines[3]
    took = float(re.findall(r"after (\d+\.\d) s", lines[3])[0])
    # the whole outage (opened about BUDGET_S after the kill, later on a loaded machine,
    # ended after the restart 4 BUDGET_S after it), not the 0.1 s since its last error
    assert took >= 2 * BUDGET_S
    assert int(re.findall(r"\((\d+) errors", lines[3])[0]) >= 5  # rounds left out


class PingService:
    """A service whose tick reads Redis (a PING) through ``client``."""

    def __init__(self, client: Any) -> None:
        self.client = client

    async def due(self, limit: int) -> list[str]:
        await self.client.ping()
        return []

    async def table_of(self, game_id: str) -> Any:
        return None


async def test_redis_unreachable_for_the_tick_loop_writes_one_warning_and_one_line_back(
        log_lines: io.StringIO,  # noqa: F811 - the fixture
        spare_redis: tuple[int, list[subprocess.Popen[bytes]]]) -> None:
    """Nothing listens on port 1 for 1.2 s of rounds (one every 0.05 s, each a
    ConnectionError with its traceback: 1,196 lines before issue 38), then the service
    reads the spare redis-server, which answers."""
    port, _ = spare_redis
    down = redis.asyncio.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2,
                               retry=Retry(NoBackoff(), 0))  # each round fails at once
    up = client_for(RedisTarget(url=f"redis://127.0.0.1:{port}/0"))
    service = PingService(down)
    outbox = PingOutbox(down)
    stop = asyncio.Event()
    loop = asyncio.create_task(tick_loop(service, outbox, every_s=0.05,  # type: ignore[arg-type]
                                         stop=stop))
    await asyncio.sleep(1.2)
    service.client = outbox.client = up  # Redis answers again
    for _ in range(100):  # the round in progress may still be trying the old address
        await asyncio.sleep(0.05)
        if "is back" in log_lines.getvalue():
            break
    await asyncio.sleep(0.3)  # more good rounds: nothing more is written
    stop.set()
    await loop
    await down.aclose()
    await up.aclose()
    lines = log_lines.getvalue().splitlines()
    assert len(lines) == 2, "\n".join(lines)
    assert lines[0].startswith("WARNING adapters.delivery.ticks: Redis unreachable "
                               "(ConnectionError: Error ")
    assert lines[0].endswith("from adapters.delivery.ticks); further errors are summarised, "
                             "one line when it is back")
    assert re.fullmatch(r"WARNING outage: Redis is back after \d+\.\d s \((\d+) errors not "
                        r"shown\)", lines[1]), lines[1]
    assert int(re.findall(r"\((\d+) errors", lines[1])[0]) >= 20  # rounds left out


def test_a_reply_ends_a_redis_outage_unless_another_node_still_fails() -> None:
    """:class:`logcalm.RedisAnswers` fed what the connections report: a cluster with one
    dead node is not back while that node keeps failing; it is once it has been quiet
    for QUIET_S (its failover done), and a restarted single Redis is back at its first
    reply."""
    now = [0.0]
    handler = logging.NullHandler()
    calm = logcalm.install([handler], logcalm.Calm(clock=lambda: now[0]))
    try:
        answers = next(a for a in LISTENERS if isinstance(a, logcalm.RedisAnswers))
        record = logging.LogRecord("adapters.delivery.ticks", logging.ERROR, __file__, 1,
                                   "tick failed", (), None)
        record.error = redis.exceptions.ConnectionError("Error 111 connecting")
        assert calm.filter(record)  # the outage opens
        answers.failed("a:7000", ConnectionError())
        now[0] = 0.1
        answers.roundtrip("a:7000", 0.001)  # the node that failed answers: back
        assert calm.outages == {}
        now[0] = 10.0
        assert calm.filter(record)  # a new outage
        answers.failed("b:7001", ConnectionError())
        now[0] = 11.0
        answers.roundtrip("a:7000", 0.001)
        assert "Redis" in calm.outages  # b failed 1 s ago
        answers.roundtrip("b:7001", 0.001)  # b itself answers: back
        assert "Redis" not in calm.outages
        assert calm.filter(record)  # a new outage
        answers.failed("c:7002", ConnectionError())
        now[0] = 11.0 + logcalm.QUIET_S
        answers.roundtrip("a:7000", 0.001)  # c quiet for QUIET_S: back
        assert calm.outages == {}
    finally:
        logcalm.uninstall()


def test_install_puts_one_redis_listener_and_uninstall_takes_it_off() -> None:
    handler = logging.NullHandler()
    before = len(LISTENERS)
    logcalm.install([handler], logcalm.Calm())
    logcalm.install([handler], logcalm.Calm())
    assert len(LISTENERS) == before + 1
    logcalm.uninstall()
    assert len(LISTENERS) == before
