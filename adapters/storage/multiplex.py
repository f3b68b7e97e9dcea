"""Auto-pipelining: the commands of many coroutines share a few connections (issue 36).

A worker serves a hundred games at once, and each press makes a few Redis round trips.
redis-py lends each command a connection of its own from the pool and sends it in a
write of its own; the client of ``mode="single"``
(:class:`adapters.storage.mux_client.MuxRedis`) instead queues the commands on one of
:data:`LINES` shared connections (a :class:`Line`) and writes them together: at the end
of the event loop's turn, or as soon as the line holds :data:`WRITE_AT` calls; the next
calls then go to the next line (:class:`Multiplexer`). Each line's replies are handed
back in order: with hiredis, straight from the socket's callback (:class:`_Feed`),
otherwise by a reader task (what ioredis's ``enableAutoPipelining`` and
StackExchange.Redis's multiplexer do). Fewer system calls and less per-command work on
the client's CPU: bench/README.md, "Client side (branch pipe)".

Guarantees, as with a connection of one's own:

* **order and atomicity**: the replies come back in the order the commands were
  written, and each caller's commands (one command, or a whole pipeline or MULTI/EXEC
  transaction) are written contiguously in one turn, so a reply is handed only to the
  call that sent its command;
* **after any error on the connection, it is dropped**: a failed write or read, a
  closed socket, a reply not read in time: every call still waiting on it fails with
  that ``ConnectionError`` / ``TimeoutError`` (none hangs), and the next command opens a
  new connection (a Sentinel-managed one asks the sentinels where the primary is first:
  :class:`adapters.storage.connect.AsksSentinels`). A caller cancelled while it waits
  leaves its reply to be read and dropped; the connection stays in order;
* **retries**: each call runs under the pool's ``Retry`` (:func:`adapters.storage.budget.
  budget_retry`: the update's budget), as redis-py runs it for a connection of its own;
* **timeouts**: a call waits for its reply no longer than
  :func:`adapters.storage.budget.read_timeout` gives it (its update's budget left, at
  least ``SLOW_REPLY_S``, at most ``socket_timeout``); the oldest waiting call's limit
  decides when the connection is given up;
* **observation**: each write's first reply is one round trip of that node, and every
  connection failure or "cannot serve" error reply is reported
  (:mod:`adapters.storage.observe`), as for the pool's connections.

What does not share a line (it takes one of the pool's connections, as before):
blocking commands and those that change a connection's state
(:data:`adapters.storage.mux_client.OWN_CONNECTION`), commands whose reply is not
decoded, pipelines that ``WATCH``, and pub/sub.
The cluster client (``mode="cluster"``) is left as redis-py builds it (its commands go
to many nodes, each with its own pool), and so is the Sentinel client for now
(:func:`adapters.storage.connect.client_for`): with shared lines its games resumed up
to 1.6 s after a promotion in 2 of 4 runs of tests/cluster/test_failover_isolation.py,
which asks for 1 s (main passed it in the one run made; not pinned down). The lines
work with a Sentinel-managed pool (its ``READONLY`` answer from a demoted primary drops
the line, as redis-py's Sentinel connection does).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from redis._parsers import _AsyncHiredisParser
from redis._parsers.hiredis import NOT_ENOUGH_DATA as _NOT_ENOUGH_DATA
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ReadOnlyError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from adapters.storage import observe
from adapters.storage.budget import BUDGET_S, BudgetBackoff, read_timeout

LINES = int(os.environ.get("BURACO_REDIS_LINES", "16"))
"""Connections a client's calls share (:class:`Multiplexer`), taken in turn per write
(``BURACO_REDIS_LINES`` overrides it; 1 is a single connection). One would do for Redis
itself, but each connection is one ordered path: a reply held up anywhere on it (a large
state, a busy proxy or network hop, the kernel's scheduling on a loaded machine) holds
every reply behind it. Measured on bench/concurrency.py at 0.5 ms, 100 games, a loaded
2-core machine: 4 lines left the worker idle (37% of a core, replies waited 41 ms),
16 lines kept it busy (84%) at the same CPU per press (bench/README.md, "Client side
(branch pipe)")."""

WRITE_AT = int(os.environ.get("BURACO_REDIS_WRITE_AT", "8"))
"""Calls queued on a line that are written at once, without waiting for the end of the
turn (the next calls go to the next line). Without it every game of the worker waited on
the same write: the replies of one write wake all its callers in one turn, their next
calls leave together at its end, and the worker idled while that one write went to
Redis and back (bench/README.md, "Client side (branch pipe)")."""

_Entry = list[Any]
"""[future, deadline (loop time), write's send time or None]: one reply awaited."""


class Line:
    """One connected redis-py connection shared by many calls (see the module
    docstring). Build with :meth:`Line.open`; :meth:`submit` queues commands."""

    def __init__(self, conn: AbstractConnection, retry_budget_s: float,
                 master_pool: bool, flushed: Callable[[], None] = lambda: None) -> None:
        self.conn = conn
        self._flushed = flushed
        self.node = f"{getattr(conn, 'host', '?')}:{getattr(conn, 'port', '?')}"
        self.alive = True
        self._loop = asyncio.get_running_loop()
        self._parser: Any = conn._parser
        self._writer: Any = conn._writer
        self._budget_s = retry_budget_s
        self._master_pool = master_pool
        self._out: list[bytes] = []
        self._new: list[_Entry] = []
        self._waiting: deque[_Entry] = deque()
        self._flush_due = False
        self._have = asyncio.Event()
        self._watchdog: asyncio.TimerHandle | None = None
        self._closing: asyncio.Task[None] | None = None
        self._feed = _fed_by_transport(self)
        self._reader: asyncio.Task[None] | None = (
            None if self._feed else self._loop.create_task(self._read()))

    def fed(self, data: bytes) -> None:
        """Bytes from the socket (hiredis's reader, :class:`_Feed`): each whole reply
        goes to the oldest waiting call; a reply nobody waits for, or a stream that
        cannot be parsed, drops the line."""
        reader, waiting = self._feed, self._waiting
        if reader is None or not self.alive:
            return
        try:
            reader.feed(data)
            while True:
                reply = reader.gets()
                if reply is _NOT_ENOUGH_DATA or not self.alive:
                    return
                if not waiting:
                    raise RedisConnectionError("a reply no call was waiting for")
                if isinstance(reply, RedisConnectionError):
                    raise reply
                self._answered(waiting.popleft(), reply)
        except RedisConnectionError as err:
            self.close(err)
        except Exception as err:  # hiredis's protocol error: the stream is lost
            self.close(RedisConnectionError(f"Error while reading from {self.node}: {err}"))

    def submit(self, chunks: Iterable[bytes], replies: int) -> list[asyncio.Future[Any]]:
        """Queue packed commands that answer with ``replies`` replies; their futures, in
        order. They are written together at the end of this turn of the event loop.
        Raises ``ConnectionError`` when the line is closed."""
        if not self.alive:
            raise RedisConnectionError("Connection closed.")
        self._out.extend(chunks)
        limit = self._loop.time() + read_timeout(self.conn.socket_timeout or BUDGET_S,
                                                 self._budget_s)
        futures = []
        for _ in range(replies):
            fut = self._loop.create_future()
            self._new.append([fut, limit, None])
            futures.append(fut)
        if len(self._new) >= WRITE_AT:
            self._flush()  # now: its replies come back while the turn goes on
        elif not self._flush_due:
            self._flush_due = True
            self._loop.call_soon(self._flush)
        return futures

    def _flush(self) -> None:
        self._flush_due = False
        if not self.alive or not self._new:
            return
        self._flushed()
        out, self._out = self._out, []
        new, self._new = self._new, []
        new[0][2] = time.perf_counter()
        try:
            self._writer.writelines(out)
        except Exception as err:  # a closed transport: every waiter fails
            self.close(RedisConnectionError(f"Error while writing to socket: {err}"))
            for entry in new:
                if not entry[0].done():
                    entry[0].set_exception(RedisConnectionError("Connection closed."))
            return
        if not self._waiting:
            self._arm(new[0][1])
        self._waiting.extend(new)
        self._have.set()

    def _arm(self, at: float) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
        self._watchdog = self._loop.call_at(at, self._check)

    def _check(self) -> None:
        self._watchdog = None
        if not self.alive or not self._waiting:
            return
        limit = self._waiting[0][1]
        if limit <= self._loop.time():
            self.close(RedisTimeoutError(f"Timeout reading from {self.node}"))
        else:
            self._arm(limit)

    async def _read(self) -> None:
        """Without hiredis: redis-py's parser reads the replies in a task of its own."""
        waiting, parser = self._waiting, self._parser
        try:
            while True:
                if not waiting:
                    self._have.clear()
                    await self._have.wait()
                    continue
                reply = await parser.read_response(disable_decoding=False)
                entry = waiting.popleft()
                self._answered(entry, reply)
        except asyncio.CancelledError:
            raise
        except RedisConnectionError as err:
            self.close(err)
        except OSError as err:
            self.close(RedisConnectionError(f"Error while reading from {self.node}: {err}"))
        except Exception as err:  # a reply that cannot be parsed: the stream is lost
            self.close(RedisConnectionError(f"Error while reading from {self.node}: {err}"))

    def _answered(self, entry: _Entry, reply: Any) -> None:
        fut, _limit, sent = entry
        if isinstance(reply, ResponseError):
            if isinstance(reply, observe.UNAVAILABLE):
                self._report_failed(reply)
            elif sent is not None:
                self._report_roundtrip(time.perf_counter() - sent)
            if isinstance(reply, ReadOnlyError) and self._master_pool:
                # redis-py's Sentinel connection: the primary was demoted; ask again
                self.close(RedisConnectionError("The previous master is now a slave"),
                           first=fut)
                return
            if not fut.done():
                fut.set_exception(reply)
            return
        if sent is not None:
            self._report_roundtrip(time.perf_counter() - sent)
        if not fut.done():
            fut.set_result(reply)

    def _report_roundtrip(self, seconds: float) -> None:
        if observe.LISTENERS:
            node = self.node
            observe._tell(lambda lst: lst.roundtrip(node, seconds))

    def _report_failed(self, error: BaseException) -> None:
        if observe.LISTENERS:
            node = self.node
            observe._tell(lambda lst: lst.failed(node, error))

    def close(self, error: BaseException, first: asyncio.Future[Any] | None = None) -> None:
        """Drop the line: every call waiting on it (``first`` too) fails with ``error``,
        and the connection is closed. Idempotent."""
        if not self.alive:
            return
        self.alive = False
        if isinstance(error, observe.UNAVAILABLE):
            self._report_failed(error)
        if self._watchdog is not None:
            self._watchdog.cancel()
        pending = [*([first] if first is not None else []),
                   *(entry[0] for entry in self._waiting), *(entry[0] for entry in self._new)]
        self._waiting.clear()
        self._new.clear()
        self._out.clear()
        for fut in pending:
            if not fut.done():
                fut.set_exception(copy.copy(error))
        if self._reader is not None and self._reader is not asyncio.current_task():
            self._reader.cancel()
        self._closing = self._loop.create_task(self._disconnect())

    async def _disconnect(self) -> None:
        with contextlib.suppress(Exception):
            await self.conn.disconnect(nowait=True)

    async def aclose(self) -> None:
        """Close the line (waiting calls fail) and wait for the socket to close."""
        self.close(RedisConnectionError("Connection closed by the client."))
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self._closing is not None:
            await self._closing


class _Feed(asyncio.Protocol):
    """The shared connection's socket, read without a task: each chunk received goes
    straight to :meth:`Line.fed`; its end drops the line."""

    def __init__(self, line: Line) -> None:
        self.line = line

    def data_received(self, data: bytes) -> None:
        self.line.fed(data)

    def eof_received(self) -> bool:
        self.line.close(RedisConnectionError("Connection closed by server."))
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.line.close(RedisConnectionError(f"Connection lost: {exc or 'closed'}"))


def _fed_by_transport(line: Line) -> Any:
    """With redis-py's hiredis parser on the connection: its hiredis reader, fed from now
    on by :class:`_Feed` (the transport's protocol, in place of redis-py's stream
    reader). Otherwise None (the line reads with a task, :meth:`Line._read`)."""
    parser, stream, writer = line._parser, line.conn._reader, line._writer
    reader = getattr(parser, "_reader", None)
    if not isinstance(parser, _AsyncHiredisParser) or reader is None or stream is None \
            or writer is None:
        return None
    left = bytes(stream._buffer)  # type: ignore[attr-defined]  # the hand-shake was read
    writer.transport.set_protocol(_Feed(line))
    if left:
        line._loop.call_soon(line.fed, left)
    return reader


class Multiplexer:
    """:data:`LINES` shared :class:`Line` s of a connection pool, each opened on first use
    and again after it is dropped (one connect at a time per line, shared by the calls
    that wait for it). The calls of one turn of the event loop go to one line (one
    write); the next turn's to the next line, round the ring."""

    def __init__(self, pool: ConnectionPool, lines: int | None = None) -> None:
        self.pool = pool
        kwargs = pool.connection_kwargs
        retry = kwargs.get("retry")
        self.retry: Retry = copy.deepcopy(retry) if retry is not None else Retry(NoBackoff(), 0)
        backoff = getattr(self.retry, "_backoff", None)
        self._budget_s = backoff.budget_s if isinstance(backoff, BudgetBackoff) else BUDGET_S
        count = max(1, lines if lines is not None else LINES)
        self._lines: list[Line | None] = [None] * count
        self._opening: list[asyncio.Task[Line] | None] = [None] * count
        self._next = 0
        self._closed = False

    async def line(self) -> Line:
        """The connected line this turn's calls go to (opened now if it is not). Raises
        what connecting raises (``ConnectionError``, ``TimeoutError``, ``ResponseError``
        for a refused password or database)."""
        slot = self._next
        line = self._lines[slot]
        if line is not None and line.alive:
            return line
        if self._closed:
            raise RedisConnectionError("The client is closed.")
        opening = self._opening[slot]
        if opening is None:
            opening = asyncio.get_running_loop().create_task(self._open(slot))
            self._opening[slot] = opening
            opening.add_done_callback(lambda task: self._opened(slot, task))
        return await asyncio.shield(opening)

    def _opened(self, slot: int, task: asyncio.Task[Line]) -> None:
        self._opening[slot] = None
        if not task.cancelled():
            task.exception()  # retrieved here: a waiter may have gone

    def _flushed(self) -> None:
        self._next = (self._next + 1) % len(self._lines)

    async def _open(self, slot: int) -> Line:
        conn: AbstractConnection = self.pool.make_connection()  # type: ignore[no-untyped-call]
        # one retry policy for the calls and the connects they nest (one budget, one run
        # of failures: adapters/storage/budget.py), as on a connection of one's own
        conn.retry = self.retry
        await conn.connect()  # type: ignore[no-untyped-call]
        master = bool(getattr(self.pool, "is_master", False))
        line = Line(conn, self._budget_s, master, self._flushed)
        if self._closed:
            await line.aclose()
            raise RedisConnectionError("The client is closed.")
        self._lines[slot] = line
        return line

    async def aclose(self) -> None:
        """Close every line; later calls fail."""
        self._closed = True
        lines, self._lines = self._lines, [None] * len(self._lines)
        for line in lines:
            if line is not None:
                await line.aclose()
