"""A bounded connection pool for redis-py asyncio with less work per command (issue 13).

redis-py's ``BlockingConnectionPool`` takes a condition lock, an ``async_timeout``, the
pool lock and four awaited metrics hooks (``record_connection_count`` and friends, redis-py
8) around every command it lends a connection for: about 27 µs of this process's CPU per
command on the bench machine, a third of a ``PING`` (bench/README.md "Service speed
(issue 13)"). :class:`BoundedPool` keeps what matters of it and drops the rest:

* at most ``max_connections`` connections lent at once; a caller beyond that waits up to
  ``wait_s`` seconds for one to come back, then gets
  ``redis.exceptions.ConnectionError("No connection available.")``, as with
  ``BlockingConnectionPool`` (issue 12, "Load");
* every connection lent is checked as the base pool checks it (``ensure_connection``:
  connected, and no unread reply left on it), and one that must reconnect is
  disconnected when it comes back;
* no metrics hooks and no lock: the pool is used from one event loop, and its two sets
  change only in code that does not await in between.
"""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError


class BoundedPool(aioredis.ConnectionPool):
    """``ConnectionPool`` that waits up to ``wait_s`` seconds (default 10) for a free
    connection when ``max_connections`` are lent (see the module docstring). Build it
    with ``BoundedPool.from_url(url, max_connections=N, wait_s=S, ...)``."""

    def __init__(self, *args: Any, wait_s: float = 10.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._slots = asyncio.Semaphore(self.max_connections)
        self._wait_s = wait_s

    async def get_connection(self, *_args: Any, **_options: Any) -> AbstractConnection:
        """A connected connection, lent until :meth:`release`. Raises
        ``ConnectionError("No connection available.")`` after ``wait_s`` seconds without
        a free one, or what connecting raises."""
        if self._slots.locked():
            try:
                await asyncio.wait_for(self._slots.acquire(), self._wait_s)
            except TimeoutError as err:
                raise RedisConnectionError("No connection available.") from err
        else:
            await self._slots.acquire()  # a free slot: returns at once
        try:
            connection = self._available_connections.pop()
        except IndexError:
            connection = self.make_connection()  # type: ignore[no-untyped-call]
        self._in_use_connections.add(connection)
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection

    async def release(self, connection: AbstractConnection) -> None:
        """Take back a connection lent by :meth:`get_connection` (disconnected first when
        it must reconnect); its slot is free again whatever happens."""
        try:
            self._in_use_connections.remove(connection)
            if connection.should_reconnect():  # type: ignore[no-untyped-call]
                await connection.disconnect()
            self._available_connections.append(connection)
        finally:
            self._slots.release()
