"""The games' deadlines in ``S`` sorted sets (issue 28; docs/deploy.md "Redis Cluster").

Set ``k`` of ``S`` is ``<prefix>:timers`` for ``k = 0`` (the one set of every release
before this one, so ``S = 1`` is exactly the old layout) and ``<prefix>:timers:{t<k>}``
for ``k >= 1``: each its own hash tag, so on a Redis Cluster the sets spread over the
slots (and the primaries) instead of one hot key on one node. A game's home set is
``crc16(game_id) mod S`` (Redis's own CRC16, XMODEM): its deadline is written to, leased
from and checked in that set only.

Raising ``S`` on a running deployment loses no deadline:

* every worker records the highest ``S`` it was started with in ``<prefix>:timers:sets``
  (kept as the maximum, never lowered), and every tick walks all the sets up to that
  high-water mark, from a random one, so a deadline written under an earlier (or a
  later) ``S`` by any worker is still claimed when due;
* a deadline claimed from a set that is not its game's home set under this worker's
  ``S`` moves home: the lease is written into the home set (``ZADD``) and the old entry
  removed (``ZREM``), in that order, so a worker dying in between leaves two entries,
  never none; the step that follows sets the real deadline (a spurious step does nothing
  and is only a wasted read);
* the sweep checks a game in its home set only; a game whose deadline is still in an
  older set reads as without one, and gets a deadline computed from its state in its
  home set: the old entry is then an extra one, removed when it comes due.

Lowering ``S`` is safe for the same reasons (the sets beyond it are still walked).
"""

from __future__ import annotations

import binascii
import math
import random
from typing import Any

from redis.commands.core import AsyncScript

from adapters.storage.keys import StoreKeys

HIGH_WATER = """
-- KEYS[1] the timer sets' high-water mark; ARGV[1] this worker's S. Keeps the highest
-- S any worker used and returns it (one key: single-slot).
local seen = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local mine = tonumber(ARGV[1])
if mine > seen then
  redis.call('SET', KEYS[1], ARGV[1])
  return mine
end
return seen
"""
REFRESH_S = 30.0
"""Seconds between two reads of the high-water mark by one worker: a worker started
with a higher ``S`` is noticed by the others within this."""


def crc16(text: str) -> int:
    """Redis Cluster's CRC16 (XMODEM) of ``text``'s UTF-8 bytes."""
    return binascii.crc_hqx(text.encode(), 0)


def set_key(keys: StoreKeys, index: int) -> str:
    """The name of timer set ``index`` (0 is the old single ``<prefix>:timers``)."""
    return keys.timers() if index == 0 else f"{keys.timers()}:{{t{index}}}"


def home_key(keys: StoreKeys, game_id: str, sets: int) -> str:
    """The name of the game's own timer set among ``sets``."""
    return set_key(keys, crc16(game_id) % sets)


class TimerSets:
    """The deadlines of a store's games in ``sets`` sorted sets (see the module docstring).

    ``client`` is a redis-py asyncio client (single, cluster or sentinel); ``claim`` the
    registered ``CLAIM_DUE`` script; ``clock`` gives monotonic seconds for the
    high-water refresh. ``sets`` 1 to 1,024 (ValueError otherwise)."""

    def __init__(self, client: Any, keys: StoreKeys, sets: int, claim: AsyncScript,
                 rng: random.Random | None = None) -> None:
        if not 1 <= sets <= 1024:
            raise ValueError(f"timer sets must be 1 to 1024, got {sets!r}")
        self.client = client
        self.keys = keys
        self.sets = sets
        self._claim = claim
        self._mark: AsyncScript = client.register_script(HIGH_WATER)
        self._rng = rng or random.Random()
        self._walked = sets
        self._read_at = -math.inf

    def key(self, index: int) -> str:
        """The name of set ``index``."""
        return set_key(self.keys, index)

    def home(self, game_id: str) -> int:
        """The index of the game's own set under this worker's ``S``."""
        return crc16(game_id) % self.sets

    def home_key(self, game_id: str) -> str:
        """The name of the game's own set."""
        return self.key(self.home(game_id))

    @property
    def known_sets(self) -> int:
        """How many sets the last tick walked (this worker's ``S`` before its first)."""
        return self._walked

    async def walked(self, now_mono: float) -> int:
        """How many sets a tick walks: the highest ``S`` any worker recorded (this
        worker's included), read again every :data:`REFRESH_S` seconds."""
        if now_mono - self._read_at >= REFRESH_S:
            mark = f"{self.keys.timers()}:sets"
            self._walked = max(self.sets, int(await self._mark(keys=[mark],
                                                               args=[self.sets])))
            self._read_at = now_mono
        return self._walked

    async def claim(self, now_ts: float, limit: int, lease_end: float,
                    now_mono: float) -> list[str]:
        """Lease up to ``limit`` due deadlines over every set, starting at a random one
        (so no set waits on one worker); one from a set that is not its game's home
        moves home first (module docstring)."""
        count = await self.walked(now_mono)
        start = self._rng.randrange(count)
        out: list[str] = []
        for step in range(count):
            index = (start + step) % count
            args: list[str | int] = [repr(now_ts), limit - len(out), repr(lease_end)]
            got = [str(g) for g in await self._claim(keys=[self.key(index)], args=args)]
            stray = [g for g in got if self.home(g) != index]
            if stray:
                await self._move_home(stray, self.key(index), lease_end)
            out += got
            if len(out) >= limit:
                break
        return out

    async def _move_home(self, game_ids: list[str], source: str, lease_end: float) -> None:
        """Write each game's lease into its home set, then drop it from ``source``
        (a pipeline, not a transaction: the sets are in different slots)."""
        async with self.client.pipeline(transaction=False) as pipe:
            for gid in game_ids:
                pipe.zadd(self.home_key(gid), {gid: lease_end})
            await pipe.execute()
        await self.client.zrem(source, *game_ids)

    async def has(self, game_ids: list[str]) -> list[bool]:
        """For each id, whether its home set holds a deadline for it (one ``ZMSCORE``
        per home set, pipelined)."""
        by_set: dict[int, list[str]] = {}
        for gid in game_ids:
            by_set.setdefault(self.home(gid), []).append(gid)
        async with self.client.pipeline(transaction=False) as pipe:
            for index, ids in by_set.items():
                pipe.zmscore(self.key(index), ids)
            replies = await pipe.execute()
        found: dict[str, bool] = {}
        for ids, scores in zip(by_set.values(), replies, strict=True):
            found.update((gid, score is not None) for gid, score in zip(ids, scores,
                                                                        strict=True))
        return [found[gid] for gid in game_ids]
