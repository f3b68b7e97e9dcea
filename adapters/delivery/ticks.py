"""The tick loop every chat process runs: timers, AI moves and next deals of the service,
and the tables a dead worker left stale, delivered through the shared delivery."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from adapters.delivery.outbox import Delivery

log = logging.getLogger(__name__)

TICK_S = 0.5


async def tick_loop(service: Any, outbox: Delivery, every_s: float = TICK_S) -> None:
    """Call ``service.tick()`` forever and deliver its effects (AI, timers, next deal);
    after a tick that did something, tick again at once (more may be due). Each round
    also re-renders the tables a dead worker left stale (:meth:`Delivery.redo`). Shared by
    the Telegram and Discord processes."""
    while True:
        effects: list[Any] = []
        try:
            async with outbox.lock:  # same order rule as the handlers (Handlers.call)
                effects = list(await service.tick())
                rest = outbox.stage(effects)
            if rest:
                await outbox.deliver(rest)
            await outbox.redo(service.table_of)
        except Exception:
            log.exception("tick failed")
        await asyncio.sleep(0 if effects else every_s)
