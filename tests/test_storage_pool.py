"""adapters/storage/pool.py: the bounded pool under the Redis store (issue 13) lends at
most ``max_connections`` connections, makes a caller beyond that wait up to ``wait_s``,
and every connection it lends is ready for a command."""

from __future__ import annotations

import asyncio
import os

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from adapters.storage.connect import MAX_CONNECTIONS, open_store
from adapters.storage.pool import BoundedPool

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                reason="the pool's connections need a real Redis (REDIS_URL)")


def client(max_connections: int, wait_s: float = 10.0, **kw: float) -> aioredis.Redis:
    pool = BoundedPool.from_url(os.environ["REDIS_URL"], decode_responses=True,
                                max_connections=max_connections, wait_s=wait_s, **kw)
    return aioredis.Redis(connection_pool=pool)


async def test_the_store_runs_on_the_bounded_pool() -> None:
    store = await open_store(os.environ["REDIS_URL"], prefix="test-pool")
    try:
        pool = store.client.connection_pool
        assert isinstance(pool, BoundedPool) and pool.max_connections == MAX_CONNECTIONS
    finally:
        await store.close()


async def test_closing_the_store_closes_its_pools_connections() -> None:
    """A trial: ``close()`` left the pool's connections open (a ResourceWarning for each
    at exit); the client made by ``open_store`` owns its pool (redis-py ``from_pool``)."""
    store = await open_store(os.environ["REDIS_URL"], prefix="test-pool")
    await asyncio.gather(*(store.client.ping() for _ in range(3)))  # the shared line
    await asyncio.gather(*(store.client.execute_command("CLIENT", "ID")  # the pool's
                           for _ in range(3)))
    pool = store.client.connection_pool
    held = list(pool._available_connections)
    line = (await store.client._multiplexer().line()).conn
    assert held and all(c.is_connected for c in held) and line.is_connected
    await store.close()
    assert not any(c.is_connected for c in held) and not line.is_connected


async def test_more_callers_than_connections_wait_their_turn() -> None:
    redis = client(3)
    try:
        replies = await asyncio.gather(*(redis.execute_command("ECHO", str(k))
                                         for k in range(40)))
        assert replies == [str(k) for k in range(40)]
        pool = redis.connection_pool
        assert len(pool._available_connections) == 3 and not pool._in_use_connections
    finally:
        await redis.aclose()


async def test_a_caller_waits_at_most_wait_s_then_gets_connection_error() -> None:
    redis = client(2, wait_s=0.2)
    pool = redis.connection_pool
    held = [await pool.get_connection(), await pool.get_connection()]
    try:
        loop = asyncio.get_running_loop()
        start = loop.time()
        with pytest.raises(RedisConnectionError, match="No connection available"):
            await redis.ping()
        assert 0.15 <= loop.time() - start < 2.0
        await pool.release(held.pop())
        assert await redis.ping() is True  # a slot came back: served at once
    finally:
        for connection in held:
            await pool.release(connection)
        await redis.aclose()


async def test_a_connection_closed_by_the_server_is_replaced() -> None:
    """As with redis-py's own pools: the command that finds its connection closed either
    fails with ConnectionError (redis-py 5; the store's callers retry or leave it to
    redelivery) or is retried on a new connection (redis-py 6 and newer retry a
    connection error by default), and the slot is not lost: the one connection is
    replaced, with a new client id."""
    redis = client(1)
    try:
        own_id = await redis.client_id()
        killer = aioredis.from_url(os.environ["REDIS_URL"])
        assert await killer.client_kill_filter(_id=own_id) == 1
        await killer.aclose()
        try:
            first: bool | None = await redis.ping()
        except RedisConnectionError:
            first = None
        assert first in (True, None)
        assert await redis.ping() is True  # the one connection, reconnected
        assert await redis.client_id() != own_id
    finally:
        await redis.aclose()


async def test_commands_are_sent_without_a_task_per_write(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """LeanWrites: redis-py's own write goes through ``asyncio.wait_for`` (a Task per
    command on Python 3.11); the pool's connections bound it with ``asyncio.timeout``."""
    redis = client(2)

    def no_wait_for(*_args: object, **_kw: object) -> None:
        raise AssertionError("asyncio.wait_for used for a write")

    try:
        assert await redis.ping() is True  # connected before wait_for is taken away
        assert redis.connection_pool.make_connection().socket_timeout == 5  # redis-py's
        monkeypatch.setattr(asyncio, "wait_for", no_wait_for)
        assert await redis.set("test-pool:lean", "x" * 3000) is True
        assert await redis.get("test-pool:lean") == "x" * 3000
        assert await redis.delete("test-pool:lean") == 1
    finally:
        monkeypatch.undo()
        await redis.aclose()


async def test_a_write_stuck_past_socket_timeout_disconnects_and_raises_timeout_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As redis-py's own write: a write that does not finish within ``socket_timeout``
    drops the connection and raises TimeoutError("Timeout writing to socket"); the
    next command reconnects."""
    redis = client(1, socket_timeout=0.2)
    try:
        assert await redis.ping() is True
        connection = redis.connection_pool._available_connections[0]

        async def stuck() -> None:
            await asyncio.sleep(30)

        monkeypatch.setattr(connection._writer, "drain", stuck)
        loop = asyncio.get_running_loop()
        start = loop.time()
        with pytest.raises(RedisTimeoutError, match="Timeout writing to socket"):
            await connection.send_packed_command(b"*1\r\n$4\r\nPING\r\n")
        assert 0.15 <= loop.time() - start < 2.0
        assert not connection.is_connected
        assert await redis.ping() is True  # reconnected
    finally:
        await redis.aclose()


async def test_a_socket_error_while_writing_disconnects_and_raises_connection_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    redis = client(1)
    try:
        assert await redis.ping() is True
        connection = redis.connection_pool._available_connections[0]

        def broken(_chunks: object) -> None:
            raise BrokenPipeError(32, "Broken pipe")

        monkeypatch.setattr(connection._writer, "writelines", broken)
        with pytest.raises(RedisConnectionError, match="Broken pipe"):
            await connection.send_packed_command(b"*1\r\n$4\r\nPING\r\n")
        assert not connection.is_connected
        assert await redis.ping() is True  # reconnected
    finally:
        await redis.aclose()
