"""One warning per outage, one line when it ends, and repeated errors rate-limited
(issue 38: a one-second Bot API outage wrote three ~100-line tracebacks from
``telegram.ext.Updater``; a Redis Cluster outage wrote 1,621 lines in 12 s).

:class:`Calm` is a ``logging.Filter`` put on the handlers that write the log
(:func:`install`, by the composition root ``bot/__main__.py``), so it sees the records
of every logger, the platform libraries' (``telegram.ext.Updater``, ``discord``,
``aiohttp``) and ours:

- a WARNING-or-worse record whose exception (or one in its cause chain) says a service
  cannot be reached (:func:`service_of`: Redis, Telegram, Discord) opens an outage of
  that service and is written as one line without its traceback (``Redis unreachable
  (ConnectionError: ...); further errors are summarised, one line when it is back``);
  the records that follow during the outage are counted, not written, but for one
  line a minute (``Redis still unreachable: 24 errors in the last 60 s``);
- :func:`healthy` (called where a service answered: a Bot API request answered without
  a server error, a Discord gateway event; for Redis, a reply read from a node,
  :class:`RedisAnswers`) closes the outage with one line (``Redis is back after 12.0 s
  (24 errors not shown)``);
- any other WARNING-or-worse record that repeats (same logger, same message template)
  is written at most :data:`BURST` times a minute; the first one after that minute says
  how many were left out.

Records keep their exception's type and message template through
:mod:`adapters.logsafe`'s record factory (``record.error``, ``record.template``), which
renders and redacts them before any filter runs.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

WINDOW_S = 60.0
"""The rate-limit window: a still-failing line and a burst of repeats, per minute."""
BURST = 5
"""How many records of one template a window writes before leaving the rest out."""
QUIET_S = 2.0
"""Seconds without a failure of any other Redis node before a node's reply ends a Redis
outage (a cluster with one dead node: the others' replies do not end it; after its
failover they do)."""

log = logging.getLogger("outage")


@dataclass(slots=True)
class _Outage:
    started: float
    summarised: float
    errors: int = 0  # records not written since ``summarised``
    total: int = 0  # records not written since ``started``


@dataclass(slots=True)
class _Burst:
    started: float
    written: int = 0
    dropped: int = 0


def _redis(err: BaseException) -> bool:
    try:
        import redis.exceptions as rex
    except ImportError:  # pragma: no cover - redis is a core dependency
        return False
    kinds = (rex.ConnectionError, rex.TimeoutError, rex.ClusterError,  # ClusterDownError
             rex.RedisClusterException, rex.TryAgainError, rex.ReadOnlyError)  # a failover
    return isinstance(err, kinds)


def _telegram(err: BaseException) -> bool:
    module = type(err).__module__
    if not module.startswith("telegram"):
        return False
    import telegram.error

    return isinstance(err, telegram.error.NetworkError) and not isinstance(
        err, telegram.error.BadRequest)


def _discord(err: BaseException) -> bool:
    module = type(err).__module__
    if module.startswith("discord"):
        import discord

        return isinstance(err, discord.GatewayNotFound | discord.ConnectionClosed
                          | discord.DiscordServerError)
    if module.startswith("aiohttp"):
        import aiohttp

        return isinstance(err, aiohttp.ClientConnectionError | aiohttp.ServerTimeoutError)
    return False


SERVICES: tuple[tuple[str, Callable[[BaseException], bool]], ...] = (
    ("Redis", _redis), ("Telegram", _telegram), ("Discord", _discord))
"""(service, does this exception say it cannot be reached), tried in order."""


def service_of(err: BaseException | None) -> str | None:
    """The service ``err`` (or an exception it was raised from, ``__cause__`` /
    ``__context__``) says is unreachable, None for any other error."""
    seen = 0
    while err is not None and seen < 8:
        for name, matches in SERVICES:
            if matches(err):
                return name
        err = err.__cause__ or err.__context__
        seen += 1
    return None


class Calm(logging.Filter):
    """The filter (module docstring). ``clock``: seconds, monotonic (tests pass their
    own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__("")
        self.clock = clock
        self.outages: dict[str, _Outage] = {}
        self.bursts: dict[tuple[str, str], _Burst] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or record.name == log.name:
            return True
        service = service_of(_error(record))
        with self._lock:
            if service is not None:
                return self._outage(service, record)
            return self._burst(record)

    def _outage(self, service: str, record: logging.LogRecord) -> bool:
        now = self.clock()
        outage = self.outages.get(service)
        err = _error(record)
        what = f"{type(err).__name__}: {err}" if err is not None else record.getMessage()
        if outage is None:
            self.outages[service] = _Outage(now, now)
            _bare(record, logging.WARNING,
                  f"{service} unreachable ({_short(what)}, from {record.name}); further "
                  f"errors are summarised, one line when it is back")
            return True
        outage.total += 1
        if now - outage.summarised < WINDOW_S:
            outage.errors += 1
            return False
        count, outage.errors, outage.summarised = outage.errors + 1, 0, now
        _bare(record, logging.WARNING,
              f"{service} still unreachable: {count} errors in the last "
              f"{WINDOW_S:.0f} s (last: {_short(what)})")
        return True

    def _burst(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        key = (record.name, str(getattr(record, "template", record.msg)))
        burst = self.bursts.get(key)
        if burst is None or now - burst.started >= WINDOW_S:
            dropped = burst.dropped if burst is not None else 0
            self.bursts[key] = _Burst(now, 1)
            if len(self.bursts) > 1000:  # forget old windows, keep memory bounded
                for old in [k for k, b in self.bursts.items() if now - b.started >= WINDOW_S]:
                    del self.bursts[old]
            if dropped:
                record.msg = (f"{record.getMessage()} ({dropped} more like it were not "
                              f"shown in the last {WINDOW_S:.0f} s)")
                record.args = ()
            return True
        if burst.written < BURST:
            burst.written += 1
            return True
        burst.dropped += 1
        return False

    def healthy(self, service: str) -> None:
        """``service`` answered: end its outage, if any, with one line."""
        with self._lock:
            outage = self.outages.pop(service, None)
        if outage is not None:
            took = self.clock() - outage.started
            log.warning("%s is back after %.1f s (%d errors not shown)", service, took,
                        outage.total)


class RedisAnswers:
    """The Redis side of :func:`healthy` (issue 36: "Redis is back after 0.5 s", then
    "Redis unreachable", every tick of a 9.6 s outage, when a tick round that ended
    without an error counted as Redis answering: its timer-set claims were set aside,
    adapters/storage/timers.py, so it read nothing). A listener of
    :data:`adapters.storage.observe.LISTENERS`, told of every reply read from a Redis
    node (``roundtrip``) and every failed call (``failed``) of this process: a reply
    from node ``N`` ends the outage when no other node failed in the last
    :data:`QUIET_S` seconds. ``clock``: seconds, monotonic."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.failed_at: dict[str, float] = {}  # node ("host:port") -> its last failure

    def roundtrip(self, node: str, seconds: float) -> None:
        """``node`` answered (in ``seconds``): Redis is back, unless another node is
        still failing."""
        if not (_calm and "Redis" in _calm[0].outages):
            return
        now = self.clock()
        if any(other != node and now - at < QUIET_S for other, at in self.failed_at.items()):
            return
        healthy("Redis")

    def failed(self, node: str, error: BaseException) -> None:
        """A call to ``node`` failed (``error``: unreachable, silent, cannot serve)."""
        self.failed_at[node] = self.clock()


def _error(record: logging.LogRecord) -> BaseException | None:
    """The exception ``record`` carries: kept by logsafe's factory as ``record.error``
    (it formats the traceback and drops ``exc_info``), else its ``exc_info``."""
    err = getattr(record, "error", None)
    if isinstance(err, BaseException):
        return err
    return record.exc_info[1] if record.exc_info else None


def _bare(record: logging.LogRecord, level: int, message: str) -> None:
    """Turn ``record`` into the one line ``message`` at ``level``, without traceback."""
    record.msg, record.args = message, ()
    record.levelno, record.levelname = level, logging.getLevelName(level)
    record.exc_info, record.exc_text, record.stack_info = None, None, None


def _short(text: str, limit: int = 200) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


_calm: list[Calm] = []
_handlers: list[logging.Handler] = []
"""The filter in use and the handlers it is on (one process-wide log, as
``bot/__main__.py`` configures it)."""
_answers: list[RedisAnswers] = []
"""The :class:`RedisAnswers` put on the Redis connections' listeners."""


def install(handlers: Iterable[logging.Handler], calm: Calm | None = None) -> Calm:
    """Put a new :class:`Calm` (or ``calm``) on ``handlers`` (the root logger's, after
    ``logging.basicConfig``), in place of the one an earlier call put on any handler,
    and make it the one :func:`healthy` reports to; a Redis reply read by this process
    reports there too (:class:`RedisAnswers`). Returns it."""
    from adapters.storage.observe import LISTENERS

    calm = calm or Calm()
    handlers = list(handlers)
    uninstall()
    for handler in handlers:
        handler.addFilter(calm)
    _calm[:] = [calm]
    _handlers[:] = handlers
    _answers[:] = [RedisAnswers(calm.clock)]
    LISTENERS.append(_answers[0])
    return calm


def uninstall(handlers: Iterable[logging.Handler] | None = None) -> None:
    """Take the filter off ``handlers`` and off every handler :func:`install` put it
    on (tests: a test that runs ``python -m bot``'s ``main()`` in the process leaves
    it on pytest's log-capturing handlers otherwise, with its counts)."""
    from adapters.storage.observe import LISTENERS

    for calm in _calm:
        for handler in [*_handlers, *(handlers or ())]:
            handler.removeFilter(calm)
    for answers in _answers:
        if answers in LISTENERS:
            LISTENERS.remove(answers)
    _calm.clear()
    _handlers.clear()
    _answers.clear()


def healthy(service: str) -> None:
    """``service`` (``"Redis"``, ``"Telegram"``, ``"Discord"``) answered: the installed
    filter ends its outage with one line; nothing when none is installed or open."""
    if _calm and _calm[0].outages:
        _calm[0].healthy(service)
