"""The redis-py client whose commands and pipelines share the lines of
:mod:`adapters.storage.multiplex` (issue 36, branch pipe): :class:`MuxRedis`, the client
:func:`adapters.storage.connect.client_for` builds for ``mode="single"``, and its
:class:`MuxPipeline`.

A call runs under the multiplexer's ``Retry`` (the update's budget,
:mod:`adapters.storage.budget`) as redis-py runs one on a connection of its own, and its
reply goes through redis-py's own parsing (``parse_response``: response callbacks,
``EMPTY_RESPONSE``), read from its future instead of a socket. What must have a
connection of its own takes one of the pool's, as before: :data:`OWN_CONNECTION`,
``NEVER_DECODE`` replies, a pipeline that watches keys or loads scripts, pub/sub.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.client import Pipeline
from redis.utils import str_if_bytes

from adapters.storage.multiplex import Line, Multiplexer

NEVER_DECODE = "NEVER_DECODE"
OWN_CONNECTION = frozenset({
    "BLPOP", "BRPOP", "BRPOPLPUSH", "BLMOVE", "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP",
    "XREAD", "XREADGROUP", "WAIT", "WAITAOF", "SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE",
    "UNSUBSCRIBE", "PUNSUBSCRIBE", "SUNSUBSCRIBE", "MONITOR", "SELECT", "AUTH", "HELLO",
    "RESET", "QUIT", "WATCH", "UNWATCH", "MULTI", "EXEC", "DISCARD", "CLIENT", "SWAPDB",
    "SHUTDOWN", "DEBUG", "READONLY", "READWRITE", "ASKING", "SYNC", "PSYNC", "REPLICAOF",
    "SLAVEOF", "FAILOVER", "HIMPORT"})
"""Commands (upper case, first word) that never share the connection: they block it,
or change its state for the commands after them."""


class _Replies:
    """What redis-py's parsing reads from in place of a connection: the futures of one
    call's replies, in order."""

    _resp2_fallback = False

    def __init__(self, futures: list[asyncio.Future[Any]]) -> None:
        self._futures = deque(futures)

    async def read_response(self, disable_decoding: bool = False, **_kw: Any) -> Any:
        """The next reply (an error reply raised, as redis-py raises it)."""
        return await self._futures.popleft()

    async def disconnect(self, nowait: bool = False) -> None:
        """Nothing to do: the replies left unread are read and dropped by the line
        (redis-py's pipeline code drops its connection on a cancellation)."""

    def forget(self) -> None:
        """Replies nobody will read: their errors are not reported as unretrieved."""
        for fut in self._futures:
            if fut.done():
                if not fut.cancelled():
                    fut.exception()
            else:
                fut.add_done_callback(_retrieve)


def _retrieve(fut: asyncio.Future[Any]) -> None:
    if not fut.cancelled():
        fut.exception()


class _Channel(_Replies):
    """A stand-in connection for redis-py's pipeline code: it packs with the line's
    connection, and its one write is a :meth:`Line.submit` of all the replies."""

    def __init__(self, line: Line) -> None:
        super().__init__([])
        self.line = line
        self._count = 0

    def pack_commands(self, commands: Iterable[Iterable[Any]]) -> list[bytes]:
        listed = list(commands)
        self._count = len(listed)
        return self.line.conn.pack_commands(listed)

    async def send_packed_command(self, command: Iterable[bytes],
                                  check_health: bool = True) -> None:
        self._futures.extend(self.line.submit(command, self._count))


def _name(args: tuple[Any, ...]) -> str:
    first = args[0]
    word = str_if_bytes(first).split(" ", 1)[0] if isinstance(first, (str, bytes)) else ""
    return word.upper()


def _own_connection(name: str, options: Mapping[str, Any]) -> bool:
    return name in OWN_CONNECTION or NEVER_DECODE in options


class MuxPipeline(Pipeline):
    """redis-py's asyncio ``Pipeline`` whose ``execute`` writes its commands on the
    client's shared line (a transaction's ``MULTI`` … ``EXEC`` too), unless it watches
    keys or holds a command of :data:`OWN_CONNECTION`."""

    mux: Multiplexer | None = None

    async def execute(self, raise_on_error: bool = True) -> list[Any]:
        """Run the queued commands (redis-py's results and errors)."""
        mux = self.mux
        stack = self.command_stack
        if (mux is None or self.watching or self.connection is not None or not stack
                or self.scripts
                or any(_own_connection(_name(args), options) for args, options in stack)):
            return await super().execute(raise_on_error)
        run: Callable[..., Any] = (self._execute_transaction
                                   if self.is_transaction or self.explicit_transaction
                                   else self._execute_pipeline)

        async def attempt() -> Any:
            channel = _Channel(await mux.line())
            try:
                return await run(channel, stack, raise_on_error)
            finally:
                channel.forget()

        try:
            return await mux.retry.call_with_retry(attempt, _no_cleanup)
        finally:
            await self.reset()  # type: ignore[no-untyped-call]


async def _no_cleanup(_error: BaseException) -> None:
    """The line that failed is dropped already (:meth:`Line.close`)."""


class MuxRedis(aioredis.Redis):
    """``redis.asyncio.Redis`` whose commands and pipelines share one connection of its
    pool (see the module docstring); build it with ``MuxRedis.from_pool(pool)`` (or as
    ``redis_class`` of a Sentinel's ``master_for``). Same results and errors as
    redis-py's client."""

    _mux: Multiplexer | None = None

    def _multiplexer(self) -> Multiplexer:
        mux = self._mux
        if mux is None:
            mux = self._mux = Multiplexer(self.connection_pool)
        return mux

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        """Send one command and return its parsed reply, on the shared line unless it
        must have a connection of its own."""
        name = _name(args)
        if self.single_connection_client or _own_connection(name, options):
            return await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        mux = self._multiplexer()
        command_name = args[0]

        async def attempt() -> Any:
            line = await mux.line()
            replies = _Replies(line.submit(line.conn.pack_command(*args), 1))
            return await self.parse_response(replies, command_name,  # type: ignore[arg-type]
                                             **options)

        return await mux.retry.call_with_retry(attempt, _no_cleanup)

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> MuxPipeline:
        """A pipeline whose ``execute`` uses the shared line (:class:`MuxPipeline`)."""
        pipe = MuxPipeline(self.connection_pool, self.response_callbacks, transaction,
                           shard_hint)
        pipe.mux = self._multiplexer()
        return pipe

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        """Close the shared line, then what redis-py's client closes."""
        if self._mux is not None:
            await self._mux.aclose()
        await super().aclose(close_connection_pool)
