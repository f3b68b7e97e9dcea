"""Effects for another platform's places, handed over in Redis (issue 35: a table in
several places, DESIGN "A table in several places").

A press on Telegram at a table that is also shown in a Discord channel makes effects for
both platforms; the Telegram process delivers its own and hands the Discord ones to
whichever Discord process ticks next (one Redis serves both, docs/deploy.md; a process
that runs both platforms hands over the same way). Two keys per platform
(:class:`adapters.storage.keys.StoreKeys`):

- ``owed`` (sorted set, member a game id, or ``<game id>|<person key>`` for a person's
  hand, score the Unix time it is owed since): the tables of that platform's places and
  the person's hand are re-rendered from the stored game, so what is handed over is only
  "game G changed", never a view that could be older than the stored state (a relayed
  hand once landed after the newer one its owner's own press showed). It is leased as
  the timers are (:data:`CLAIM_DUE`): a process that dies after claiming leaves it to
  another once the lease runs out; it is removed only when no newer change marked it
  meanwhile.
- ``relay`` (list of effect JSON, bounded, expiring): the other effects (a turn
  ping, a notice, the closing), delivered in order by the first process of that platform
  that pops them. A process killed between the pop and the delivery loses them, as a
  process killed before delivering its own does; the table never is (``owed``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter, ValidationError

from adapters.storage.keys import StoreKeys
from adapters.storage.scripts import CLAIM_DUE
from bot.effects import Effect, HandView, TableView

log = logging.getLogger(__name__)
LEASE_S = 30.0
"""How long a claimed owed table is another process's to show before it is claimed again."""
RELAY_MAX = 10_000
"""Effects kept waiting per platform at most (the oldest are dropped past it: a platform
with no process running must not grow Redis without bound)."""
RELAY_TTL_S = 86_400
"""The waiting effects of a platform whose processes are all down expire after a day."""
_EFFECTS = TypeAdapter(Effect)
# KEYS[1] owed set; ARGV[1] member; ARGV[2] the lease score the claim gave it.
# Removed only when no newer change moved its score back (ZADD LT below).
_DONE = """
-- One slot: one key, the platform's owed set.
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) >= tonumber(ARGV[2]) - 0.001 then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
"""


class Relay:
    """The hand-over between the platforms' processes on a redis-py asyncio client
    (``decode_responses=True``), keys under ``prefix``."""

    def __init__(self, client: Any, prefix: str = "buraco",
                 clock: Callable[[], float] = time.time) -> None:
        self.client = client
        self.keys = StoreKeys(prefix)
        self.clock = clock
        self._claim = client.register_script(CLAIM_DUE)

    async def push(self, platform: str, effects: list[Effect]) -> None:
        """Hand ``effects`` (all of ``platform``) to that platform's processes: a table
        becomes "game G is owed a table" (re-rendered there from the stored game), the
        rest wait in order."""
        now = self.clock()
        owed = {e.game_id for e in effects if isinstance(e, TableView)}
        owed |= {f"{e.game_id}|{e.player.key}" for e in effects if isinstance(e, HandView)}
        rest = [e.model_dump_json() for e in effects
                if not isinstance(e, TableView | HandView)]
        async with self.client.pipeline(transaction=False) as pipe:
            if owed:  # LT: a newer change brings a leased mark back to now
                pipe.zadd(self.keys.owed(platform), dict.fromkeys(owed, now), lt=True)
            if rest:
                key = self.keys.relay(platform)
                pipe.rpush(key, *rest)
                pipe.ltrim(key, -RELAY_MAX, -1)
                pipe.expire(key, RELAY_TTL_S)
            await pipe.execute()

    async def take(self, platform: str, limit: int = 100) -> list[Effect]:
        """Up to ``limit`` waiting effects of ``platform``, oldest first (popped); one
        that cannot be read is logged by kind and dropped."""
        raw = await self.client.lpop(self.keys.relay(platform), limit) or []
        out: list[Effect] = []
        for text in raw:
            try:
                out.append(_EFFECTS.validate_json(text))
            except ValidationError:
                log.error("relay %s: an unreadable effect dropped", platform)
        return out

    async def claim_owed(self, platform: str, limit: int = 10) -> list[tuple[str, float]]:
        """Game ids whose tables ``platform`` owes, leased for :data:`LEASE_S`, each with
        its lease score for :meth:`done`."""
        now = self.clock()
        lease = now + LEASE_S
        got = await self._claim(keys=[self.keys.owed(platform)],
                                args=[repr(now), limit, repr(lease)])
        return [(str(g), lease) for g in got]

    async def done(self, platform: str, game_id: str, lease: float) -> bool:
        """The owed table of ``game_id`` claimed with ``lease`` was queued: forget it,
        unless a newer change marked it again (then it is claimed again)."""
        return bool(await self.client.eval(_DONE, 1, self.keys.owed(platform), game_id,
                                           repr(lease)))
