"""Coalescing of group edits, shared by the chat adapters (issue 6: at most one edit
every 3 s per chat, never more than 20 a minute).

Each chat has at most one pending operation; a newer one replaces it (the latest table
state wins, nothing in between is sent). An idle chat's first operation runs at once;
later ones wait until both limits allow. A *prompt* operation (a lobby's edit, the table
that replaces the lobby at the start: issue 30) skips the gap and waits only for the
per-minute cap: a lobby changes a few times, each by a person waiting to see it, and the
platforms' limits are per chat and per minute (Telegram about 20 messages a minute in a
group; Discord's per-channel bucket, which discord.py waits for). With a shared window in Redis
(:mod:`adapters.delivery.window`) the limits hold across worker processes; the "latest
wins" choice stays per process (docs/telegram.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from adapters import deadline

log = logging.getLogger(__name__)

Operation = Callable[[], Awaitable[None]]


class EditCoalescer:
    """Run per-key operations, latest wins, within a minimum gap and a per-minute cap.

    ``gap_s`` seconds at least between two operations of one key; at most ``per_minute``
    operations of one key in any ``window_s`` window (61 s: a minute plus a second of
    margin, so network jitter cannot make the server see one more in its minute).
    ``shared`` (a :class:`adapters.delivery.window.SharedWindow`) makes the limits hold
    across worker processes: after the local check, a slot is reserved in Redis.
    ``clock`` returns monotonic seconds and ``sleep`` waits (both injectable for tests).
    """

    def __init__(self, gap_s: float = 3.0, per_minute: int = 20, window_s: float = 61.0,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 shared: Any = None) -> None:
        self.gap_s = gap_s
        self.per_minute = per_minute
        self.window_s = window_s
        self._clock = clock
        self._sleep = sleep
        self.shared = shared
        self._pending: dict[str, tuple[Operation, bool]] = {}
        self._recent: dict[str, deque[float]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}

    def submit(self, key: str, operation: Operation, prompt: bool = False) -> None:
        """Schedule ``operation`` for ``key``, replacing any not yet started one;
        ``prompt``: it runs without the gap (only the per-minute cap holds)."""
        self._pending[key] = (operation, prompt)
        worker = self._workers.get(key)
        if worker is None or worker.done():
            # outside the update that submitted it: the queue outlives the update, and
            # its Redis calls get a retry budget of their own (adapters/storage/budget.py)
            context = contextvars.copy_context()
            context.run(deadline.ARRIVED.set, None)
            self._workers[key] = asyncio.get_running_loop().create_task(
                self._drain(key), context=context)

    def delay_for(self, key: str, prompt: bool = False) -> float:
        """Seconds ``key`` must still wait before its next operation may run (0 = now);
        ``prompt``: that of a prompt operation (the per-minute cap only)."""
        recent = self._recent.get(key)
        if not recent:
            return 0.0
        now = self._clock()
        wait = 0.0 if prompt else recent[-1] + self.gap_s - now
        if len(recent) >= self.per_minute:
            wait = max(wait, recent[-self.per_minute] + self.window_s - now)
        return max(0.0, wait)

    async def _drain(self, key: str) -> None:
        while key in self._pending:
            prompt = self._pending[key][1]
            wait = self.delay_for(key, prompt)
            if wait <= 0 and self.shared is not None:
                wait = await self._shared_wait(key, prompt)
            if wait > 0:
                await self._sleep(wait)
                continue
            operation, _prompt = self._pending.pop(key)
            recent = self._recent.setdefault(key, deque(maxlen=max(self.per_minute, 1)))
            recent.append(self._clock())
            try:
                await operation()
            except OSError as err:  # the platform unreachable (timeouts included): one line
                log.warning("coalesced operation for %s failed (%s)", key, type(err).__name__)
            except Exception:  # one failed edit must not stop later ones
                log.exception("coalesced operation for %s failed", key)

    async def _shared_wait(self, key: str, prompt: bool) -> float:
        """Reserve the shared slot (a prompt one without the gap); if Redis fails, go on
        with the local limits only."""
        try:
            if prompt:
                return float(await self.shared.reserve(key, gap_s=0.0))
            return float(await self.shared.reserve(key))
        except Exception:
            log.exception("shared edit window unavailable for %s", key)
            return 0.0

    def queued(self) -> int:
        """Keys with an operation waiting (the operator's backlog, issue 36)."""
        return len(self._pending)

    def running(self) -> int:
        """Keys whose operation is being run or waited for now."""
        return sum(not worker.done() for worker in self._workers.values())

    async def settle(self, key: str) -> None:
        """Wait until ``key``'s pending operations have run (the one just submitted
        included): a message that must reach the chat before the next one."""
        worker = self._workers.get(key)
        if worker is not None and not worker.done():
            await asyncio.shield(worker)

    async def flush(self) -> None:
        """Wait until every pending operation has run (tests, shutdown)."""
        while True:
            workers = [w for w in self._workers.values() if not w.done()]
            if not workers:
                return
            await asyncio.gather(*workers)
