"""Follow-ups that a call does not wait for (issue 37, the coach's automatic review): work
started once a call's own effects are decided, whose effects go out later through the
adapter's delivery (:attr:`FollowUps.deliver`, set by the process that delivers: the
Telegram and Discord workers hand it their :meth:`adapters.delivery.outbox.Delivery.
deliver`).

A service with no delivery set (tests, the terminal, a one-shot caller) runs the work
inline and returns its effects with the call's, as before. Work started here is held
until it ends (a task nobody holds can be collected mid-run); :meth:`FollowUps.done`
waits for it at a clean stop. A worker that dies with work in hand loses its effects:
only work whose loss is harmless goes here (a review is still one press away on the
hand's "Revisão da mão N" button)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.effects import Effect

log = logging.getLogger(__name__)

Deliver = Callable[[list[Effect]], Awaitable[None]]
"""Where late effects go: ``deliver(effects)`` (the adapter's delivery)."""


class FollowUps:
    """The follow-ups of one service (one worker process)."""

    def __init__(self) -> None:
        self.deliver: Deliver | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def pending(self) -> int:
        """Follow-ups started and not ended."""
        return len(self._tasks)

    async def run(self, work: Callable[[], Awaitable[list[Effect]]],
                  what: str) -> list[Effect]:
        """``work()``'s effects now when no :attr:`deliver` is set; else ``[]`` at once,
        ``work`` started in the background and its effects delivered when it ends (a
        failure is logged with ``what``, e.g. ``"game X: reviews"``, and nothing sent)."""
        if self.deliver is None:
            return await work()
        task = asyncio.get_running_loop().create_task(self._later(work, what, self.deliver))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return []

    @staticmethod
    async def _later(work: Callable[[], Awaitable[list[Effect]]], what: str,
                     deliver: Deliver) -> None:
        try:
            effects = await work()
            if effects:
                await deliver(effects)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s: follow-up failed", what)

    async def done(self, wait_s: float | None = None) -> None:
        """Wait for the follow-ups in hand (``wait_s`` seconds at most; None: no limit);
        those still running then are cancelled (their effects are not sent)."""
        pending = set(self._tasks)
        if not pending:
            return
        _ended, late = await asyncio.wait(pending, timeout=wait_s)
        for task in late:
            task.cancel()
        if late:
            await asyncio.gather(*late, return_exceptions=True)
