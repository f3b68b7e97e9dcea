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
  change only in code that does not await in between;
* its connections bound each write with ``asyncio.timeout`` (:class:`LeanWrites`) where
  redis-py uses ``asyncio.wait_for``, which on Python 3.11 starts a Task, and a turn of
  the event loop, for every command: about 20 µs of CPU of a 65-85 µs ``PING``
  (bench/README.md "Service speed (issue 13)", third pass);
* its connections report their round trips and failures
  (:mod:`adapters.storage.observe`, issue 36) and wait for a reply no longer than the
  update's Redis budget has left (:func:`adapters.storage.budget.budgeted`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from adapters.storage.budget import budgeted
from adapters.storage.observe import observed


class LeanWrites(AbstractConnection):
    """Mixin for a redis-py connection class: a command's write is bounded by
    ``socket_timeout`` with ``asyncio.timeout`` instead of ``asyncio.wait_for`` (see the
    module docstring), with redis-py's outcomes: a write that does not finish in time
    disconnects and raises ``redis.exceptions.TimeoutError("Timeout writing to
    socket")``, a socket error disconnects and raises ``ConnectionError``, anything else
    (a cancellation) disconnects and propagates. Without ``socket_timeout`` redis-py's
    own method runs."""

    async def send_packed_command(self, command: bytes | str | Iterable[bytes],
                                  check_health: bool = True) -> None:
        """Send one packed command (see the class docstring)."""
        timeout = self.socket_timeout
        if not timeout:
            await super().send_packed_command(command, check_health)
            return
        if not self.is_connected:
            await self.connect_check_health(check_health=False)
        if check_health:
            await self.check_health()  # type: ignore[no-untyped-call]
        writer = self._writer
        if writer is None:
            raise RedisConnectionError("Connection closed.")
        if isinstance(command, str):
            command = command.encode()
        chunks = [command] if isinstance(command, bytes) else command
        try:
            async with asyncio.timeout(timeout):
                writer.writelines(chunks)
                await writer.drain()
        except TimeoutError:  # before OSError: TimeoutError is one
            await self.disconnect(nowait=True)
            raise RedisTimeoutError("Timeout writing to socket") from None
        except OSError as err:
            await self.disconnect(nowait=True)
            raise RedisConnectionError(f"Error while writing to socket: {err}") from err
        except BaseException:
            await self.disconnect(nowait=True)
            raise


def _lean(cls: type[AbstractConnection]) -> type[AbstractConnection]:
    """``cls`` with :class:`LeanWrites` first (TCP, TLS or Unix socket alike)."""
    if issubclass(cls, LeanWrites):
        return cls
    return type(f"Lean{cls.__name__}", (LeanWrites, cls), {})


class BoundedPool(aioredis.ConnectionPool):
    """``ConnectionPool`` that waits up to ``wait_s`` seconds (default 10) for a free
    connection when ``max_connections`` are lent (see the module docstring). Build it
    with ``BoundedPool.from_url(url, max_connections=N, wait_s=S, ...)``."""

    def __init__(self, *args: Any, wait_s: float = 10.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.connection_class = budgeted(observed(_lean(self.connection_class)))
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
