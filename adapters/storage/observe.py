"""Every Redis round trip of this process, seen at the connection (issue 36).

:func:`observed` makes a redis-py connection class (TCP, TLS, a Sentinel-managed one)
report to :data:`LISTENERS`, for every node alike (a cluster's, the sentinels' primary,
one Redis):

* ``roundtrip(node, seconds)``: a command (or a pipeline) sent and its first reply read,
  ``node`` being ``"host:port"``;
* ``failed(node, error)``: a connect, a write or a read that raised: an unreachable or
  silent node (``ConnectionError``, ``TimeoutError``) or an error reply that says the
  node cannot serve now (``CLUSTERDOWN``, ``TRYAGAIN``, ``MASTERDOWN``, ``LOADING``,
  ``READONLY``); other error replies (``MOVED``, a script's refusal) are answers, not
  failures, and are reported as round trips.

:mod:`adapters.ops.metrics` turns them into series by node, and
:mod:`adapters.ops.health` into the readiness's sliding window. A listener that raises
is never the command's problem (it is logged once and dropped from that call).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from redis.asyncio.connection import AbstractConnection
from redis.exceptions import (
    BusyLoadingError,
    ClusterDownError,
    MasterDownError,
    ReadOnlyError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

UNAVAILABLE: tuple[type[BaseException], ...] = (
    RedisConnectionError, RedisTimeoutError, OSError, ClusterDownError, TryAgainError,
    MasterDownError, BusyLoadingError, ReadOnlyError)
"""Errors that say a node cannot serve now (its failover, its death, its loading)."""


class Listener(Protocol):
    """What :data:`LISTENERS` hold."""

    def roundtrip(self, node: str, seconds: float) -> None:
        """One command or pipeline answered by ``node`` in ``seconds``."""

    def failed(self, node: str, error: BaseException) -> None:
        """A call to ``node`` failed with ``error`` (one of :data:`UNAVAILABLE`)."""


LISTENERS: list[Listener] = []
"""Told of every round trip and failure of every observed connection of this process."""


def _tell(call: Callable[[Listener], None]) -> None:
    for listener in list(LISTENERS):
        try:
            call(listener)
        except Exception:  # a metric must never fail a command
            log.exception("redis listener failed")


class Observed(AbstractConnection):
    """Mixin for a redis-py connection class: times each round trip, reports failures
    (see the module docstring). Same arguments, results and errors as the class."""

    _sent_at: float | None = None

    def _node(self) -> str:
        return f"{getattr(self, 'host', '?')}:{getattr(self, 'port', '?')}"

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, UNAVAILABLE):
            node = self._node()
            _tell(lambda lst: lst.failed(node, error))

    async def connect(self) -> None:
        """Connect (redis-py's own way), a failure reported."""
        try:
            await super().connect()  # type: ignore[no-untyped-call]
        except BaseException as err:
            self._failed(err)
            raise

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        """Send, starting the round trip's clock; a failure reported."""
        self._sent_at = time.perf_counter()
        try:
            await super().send_packed_command(command, check_health)
        except BaseException as err:
            self._sent_at = None
            self._failed(err)
            raise

    async def read_response(self, *args: Any, **kwargs: Any) -> Any:
        """Read one reply; the first one after a send ends the round trip."""
        try:
            got = await super().read_response(*args, **kwargs)
        except BaseException as err:
            if isinstance(err, UNAVAILABLE):
                self._sent_at = None
                self._failed(err)
            elif isinstance(err, Exception):  # an error reply: an answer all the same
                self._answered()
            else:  # a cancellation: no round trip to tell
                self._sent_at = None
            raise
        self._answered()
        return got

    def _answered(self) -> None:
        sent, self._sent_at = self._sent_at, None
        if sent is not None:
            node, seconds = self._node(), time.perf_counter() - sent
            _tell(lambda lst: lst.roundtrip(node, seconds))


_MADE: dict[type[Any], type[Any]] = {}


def observed(cls: type[Any]) -> type[Any]:
    """``cls`` (a redis-py connection class) with :class:`Observed` first; the same class
    object for the same ``cls`` every time."""
    if issubclass(cls, Observed):
        return cls
    made = _MADE.get(cls)
    if made is None:
        made = _MADE[cls] = type(f"Observed{cls.__name__}", (Observed, cls), {})
    return made
