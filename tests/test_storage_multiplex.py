"""adapters/storage/multiplex.py: the commands of many coroutines share one connection
(issue 36, branch pipe) and each gets its own reply, in order; a connection that dies or
goes silent under a batch fails every call waiting on it, and the next call reconnects.

Real Redis (``REDIS_URL``); the connection is cut or held up by a small proxy in the
test's own event loop (:class:`HoldingProxy`), never by blocking the shared server."""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis.asyncio as aioredis
from redis._parsers import _AsyncHiredisParser, _AsyncRESP2Parser
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.utils import HIREDIS_AVAILABLE

from adapters.storage import multiplex, observe
from adapters.storage.budget import RetryBudgetSpent, budget_retry
from adapters.storage.connect import open_store
from adapters.storage.multiplex import Line, Multiplexer
from adapters.storage.mux_client import MuxRedis
from adapters.storage.pool import BoundedPool

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                reason="the shared connection needs a real Redis (REDIS_URL)")


class HoldingProxy:
    """A TCP proxy to the test's Redis in this event loop: while ``hold`` is set, what
    clients send is kept back (the server never sees it); ``cut()`` closes every
    connection it carries."""

    def __init__(self) -> None:
        self.hold = asyncio.Event()
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        parts = urlsplit(os.environ["REDIS_URL"])
        up_reader, up_writer = await asyncio.open_connection(parts.hostname or "127.0.0.1",
                                                             parts.port or 6379)
        self._writers += [writer, up_writer]

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter,
                       held: bool) -> None:
            with contextlib.suppress(Exception):
                while chunk := await src.read(65536):
                    while held and self.hold.is_set():
                        await asyncio.sleep(0.005)
                    dst.write(chunk)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pump(reader, up_writer, True), pump(up_reader, writer, False))

    def cut(self) -> None:
        for writer in self._writers:
            writer.close()
        self._writers.clear()

    async def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()


def url_via(port: int) -> str:
    db = urlsplit(os.environ["REDIS_URL"]).path.strip("/") or "0"
    return f"redis://127.0.0.1:{port}/{db}"


PARSERS: dict[str, Any] = {"python": _AsyncRESP2Parser}
if HIREDIS_AVAILABLE:
    PARSERS["hiredis"] = _AsyncHiredisParser
PARSER: list[Any] = [_AsyncRESP2Parser]


@pytest.fixture(autouse=True, params=sorted(PARSERS))
def parser(request: pytest.FixtureRequest) -> Any:
    """Every test twice: with hiredis (the socket feeds its reader, no task) and with
    redis-py's own parser (a reader task)."""
    PARSER[0] = PARSERS[request.param]
    return PARSER[0]


def mux_client(url: str, retry: Retry | None = None, socket_timeout: float = 10.0,
               lines: int = 1) -> MuxRedis:
    pool = BoundedPool.from_url(url, decode_responses=True, max_connections=8,
                                socket_timeout=socket_timeout, parser_class=PARSER[0],
                                retry=retry or Retry(NoBackoff(), 0))
    client = MuxRedis.from_pool(pool)
    client._mux = Multiplexer(pool, lines=lines)
    return client


@pytest.fixture
async def prefix() -> AsyncIterator[str]:
    name = f"test-mux-{uuid.uuid4().hex}"
    yield name
    client = aioredis.from_url(os.environ["REDIS_URL"], decode_responses=True)
    keys = [k async for k in client.scan_iter(match=f"{name}*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


@pytest.fixture
async def proxy() -> AsyncIterator[HoldingProxy]:
    made = HoldingProxy()
    await made.start()
    yield made
    await made.close()


async def test_the_store_of_one_redis_shares_one_connection() -> None:
    store = await open_store(os.environ["REDIS_URL"], prefix="test-mux")
    try:
        assert isinstance(store.client, MuxRedis)
        replies = await asyncio.gather(*(store.client.echo(str(k)) for k in range(200)))
        assert replies == [str(k) for k in range(200)]
        pool = store.client.connection_pool
        assert not pool._available_connections and not pool._in_use_connections
    finally:
        await store.close()


async def test_the_calls_of_successive_turns_take_the_lines_in_turn(prefix: str) -> None:
    """Three lines: each turn's calls go out on the next one; all get their replies."""
    redis = mux_client(os.environ["REDIS_URL"], lines=3)
    try:
        used = []
        for k in range(6):
            used.append(await redis._multiplexer().line())
            assert await asyncio.gather(*(redis.incr(f"{prefix}:n") for _ in range(10))) \
                == list(range(10 * k + 1, 10 * k + 11))
        assert len({id(line) for line in used}) == 3 and used[:3] == used[3:]
    finally:
        await redis.aclose()


async def test_concurrent_calls_go_out_in_few_writes_and_each_gets_its_reply(
    prefix: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """300 commands, pipelines and transactions issued in one turn: every caller gets the
    reply to its own command (values that differ per caller), in at most a few writes
    (no write before the turn's end: WRITE_AT out of reach)."""
    monkeypatch.setattr(multiplex, "WRITE_AT", 100_000)
    redis = mux_client(os.environ["REDIS_URL"])
    try:
        await redis.ping()
        line = await redis._multiplexer().line()
        assert (line._reader is None) == (PARSER[0] is _AsyncHiredisParser)
        writes: list[int] = []
        real = line._writer.writelines

        def counted(chunks: Any) -> None:
            writes.append(1)
            real(chunks)

        line._writer.writelines = counted

        async def plain(k: int) -> Any:
            return await redis.set(f"{prefix}:{k}", f"v{k}", get=True) or \
                await redis.get(f"{prefix}:{k}")

        async def piped(k: int, transaction: bool) -> Any:
            async with redis.pipeline(transaction=transaction) as pipe:
                pipe.set(f"{prefix}:p{k}", k)
                pipe.incr(f"{prefix}:p{k}")
                pipe.get(f"{prefix}:p{k}")
                return await pipe.execute()

        got = await asyncio.gather(*(plain(k) for k in range(200)),
                                   *(piped(k, k % 2 == 0) for k in range(100)))
        assert got[:200] == [f"v{k}" for k in range(200)]
        assert got[200:] == [[True, k + 1, str(k + 1)] for k in range(100)]
        # two steps per plain caller (SET, then GET), one per pipeline: a few turns
        assert 2 <= len(writes) <= 6, writes
    finally:
        await redis.aclose()


async def test_a_line_is_written_every_write_at_calls_and_the_next_calls_take_the_next(
) -> None:
    """100 calls in one turn, WRITE_AT 8, 3 lines: 12 writes of 8 as they come and the
    last 4 at the turn's end (13), taken by the lines in turn; every reply its caller's."""
    assert multiplex.WRITE_AT == 8
    redis = mux_client(os.environ["REDIS_URL"], lines=3)
    try:
        mux = redis._multiplexer()
        lines = []
        for _ in range(3):  # every line opened, one turn each
            lines.append(await mux.line())
            await redis.ping()
        writes: list[int] = []
        for n, line in enumerate(lines):
            real = line._writer.writelines

            def counted(chunks: Any, n: int = n, real: Any = real) -> None:
                writes.append(n)
                real(chunks)

            line._writer.writelines = counted
        got = await asyncio.gather(*(redis.echo(str(k)) for k in range(100)))
        assert got == [str(k) for k in range(100)]
        assert len(writes) == 13 and set(writes) == {0, 1, 2}
        assert all(writes[k] != writes[k + 1] for k in range(12))
    finally:
        await redis.aclose()


async def test_an_error_reply_goes_to_its_caller_only(prefix: str) -> None:
    redis = mux_client(os.environ["REDIS_URL"])
    try:
        await redis.hset(f"{prefix}:h", "f", "1")
        got = await asyncio.gather(redis.echo("a"), redis.get(f"{prefix}:h"), redis.echo("b"),
                                   return_exceptions=True)
        assert got[0] == "a" and got[2] == "b"
        assert isinstance(got[1], ResponseError) and "WRONGTYPE" in str(got[1])
        assert await redis.echo("c") == "c"  # the same line, still in order
    finally:
        await redis.aclose()


async def test_a_cancelled_caller_leaves_the_line_in_order(proxy: HoldingProxy) -> None:
    redis = mux_client(url_via(proxy.port))
    try:
        await redis.ping()
        proxy.hold.set()
        first = asyncio.ensure_future(redis.echo("first"))
        await asyncio.sleep(0.05)
        first.cancel()
        second = asyncio.ensure_future(redis.echo("second"))
        await asyncio.sleep(0.02)
        proxy.hold.clear()
        assert await second == "second"
        assert first.cancelled()
        assert await redis.echo("third") == "third"
    finally:
        await redis.aclose()


async def test_a_connection_killed_under_a_batch_fails_every_waiter_then_reconnects(
    proxy: HoldingProxy,
) -> None:
    """CLIENT KILL of the line's connection while 50 calls wait (their commands held
    back): every one fails with ConnectionError, none hangs, none gets another's reply;
    the next call opens a new connection. A listener hears of the failure."""
    heard: list[tuple[str, str]] = []

    class Listener:
        def roundtrip(self, node: str, seconds: float) -> None:
            heard.append(("roundtrip", node))

        def failed(self, node: str, error: BaseException) -> None:
            heard.append(("failed", node))

    listener = Listener()
    observe.LISTENERS.append(listener)
    redis = mux_client(url_via(proxy.port))
    try:
        await redis.ping()
        assert ("roundtrip", f"127.0.0.1:{proxy.port}") in heard
        line = await redis._multiplexer().line()
        assert isinstance(line, Line)
        proxy.hold.set()
        calls = [asyncio.ensure_future(redis.echo(str(k))) for k in range(50)]
        await asyncio.sleep(0.05)
        assert not any(c.done() for c in calls)
        proxy.cut()  # the server side closes: the socket under the batch is gone
        got = await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), 5)
        assert all(isinstance(g, RedisConnectionError) for g in got), got
        assert not line.alive and ("failed", f"127.0.0.1:{proxy.port}") in heard
        proxy.hold.clear()
        assert await redis.echo("again") == "again"
        assert (await redis._multiplexer().line()) is not line
    finally:
        observe.LISTENERS.remove(listener)
        await redis.aclose()


async def test_client_kill_by_the_server_fails_the_waiters_and_the_retry_reconnects() -> None:
    """The server kills the line's connection (CLIENT KILL ADDR): calls on the store's own
    retry policy (the budget) succeed on a new connection; with no retry, a line that
    reads with a task sees the end only under the calls, which fail."""
    url = os.environ["REDIS_URL"]
    killer = aioredis.from_url(url, decode_responses=True)
    for retry, survives in ((budget_retry(2.0), True), (Retry(NoBackoff(), 0), False)):
        redis = mux_client(url, retry=retry)
        try:
            await redis.ping()
            line = await redis._multiplexer().line()
            host, port = line._writer.get_extra_info("sockname")[:2]
            assert await killer.execute_command("CLIENT", "KILL", "ADDR", f"{host}:{port}")
            await asyncio.sleep(0.05)  # the close reaches this side
            got = await asyncio.gather(*(redis.echo(str(k)) for k in range(20)),
                                       return_exceptions=True)
            if survives or PARSER[0] is _AsyncHiredisParser:
                # with hiredis the socket's end is seen at once, before any call: the
                # line is gone already and the calls open a new one
                assert got == [str(k) for k in range(20)]
            else:
                assert all(isinstance(g, RedisConnectionError) for g in got), got
            assert not line.alive
        finally:
            await redis.aclose()
    await killer.aclose()


async def test_a_silent_connection_times_out_every_waiter(proxy: HoldingProxy) -> None:
    """Replies that do not come within the read timeout: every waiting call fails with
    TimeoutError and the line is dropped (a silent node); with the budget's retry the
    calls fail once the budget is spent, not later."""
    redis = mux_client(url_via(proxy.port), socket_timeout=0.3)
    try:
        await redis.ping()
        line = await redis._multiplexer().line()
        proxy.hold.set()
        began = asyncio.get_running_loop().time()
        got = await asyncio.gather(*(redis.echo(str(k)) for k in range(10)),
                                   return_exceptions=True)
        waited = asyncio.get_running_loop().time() - began
        assert all(isinstance(g, RedisTimeoutError) for g in got), got
        assert 0.25 <= waited < 2.0 and not line.alive
        proxy.hold.clear()
        assert await redis.echo("back") == "back"
    finally:
        await redis.aclose()
    budgeted = mux_client(url_via(proxy.port), retry=budget_retry(1.0), socket_timeout=0.3)
    try:
        await budgeted.ping()
        proxy.hold.set()
        with pytest.raises(RetryBudgetSpent):
            await asyncio.wait_for(budgeted.echo("never"), 5)
    finally:
        proxy.hold.clear()
        await budgeted.aclose()


async def test_a_closed_client_refuses_calls() -> None:
    redis = mux_client(os.environ["REDIS_URL"])
    await redis.ping()
    line = await redis._multiplexer().line()
    await redis.aclose()
    assert not line.alive and not line.conn.is_connected
    with pytest.raises(RedisConnectionError):
        await redis.ping()

