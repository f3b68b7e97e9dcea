"""The games' deadlines in ``S`` sorted sets sharded by slot range (issues 28 and 36;
docs/deploy.md "Redis Cluster").

A game's keys live in its hash slot ``crc16(game_id) mod 16384``. The slots are cut
into ``S`` equal ranges, and set ``k`` of ``S`` holds the deadlines of the games whose
slot is in range ``k``: its name carries a hash tag whose own slot is the first slot of
that range (:func:`range_tag`), so on a cluster whose nodes own contiguous slot ranges
(as ``redis-cli --cluster create`` and resharding by ranges make them) a game's deadline
set sits on the same node as the game: a press that moves a deadline and a tick that
claims it depend on that node only, and a dying node stalls the deadlines of its own
games, not everyone's. ``S = 1`` is the one set ``<prefix>:timers`` (the default, and
the name of every release's first set); ``S > 1`` names ``<prefix>:timers:{ts<n>}``.
Ranges nest: set ``k`` of ``S`` is set ``2k`` of ``2S`` (same first slot, same tag).

Changing ``S`` on a running deployment loses no deadline:

* every worker adds its ``S`` to ``<prefix>:timers:shapes`` (a Redis set, read again
  every :data:`REFRESH_S`), and every tick walks the sets of every ``S`` recorded there,
  from a random one, so a deadline written under another ``S`` is still claimed;
* the sets of the layout before issue 36 (``<prefix>:timers`` and ``<prefix>:timers:{t<k>}``
  for ``k`` below the high-water mark ``<prefix>:timers:sets`` those workers keep) are
  walked too while that mark exists; :meth:`TimerSets.drain_legacy` (the layout pass,
  :mod:`adapters.storage.layout`) moves their entries home and drops the mark, which a
  worker of the old code still running writes again within 30 s;
* a deadline claimed from a set that is not its game's home set under this worker's
  ``S`` moves home: the lease is written into the home set (``ZADD``) and the old entry
  removed (``ZREM``), in that order, so a worker dying in between leaves two entries,
  never none; the step that follows sets the real deadline (a spurious step does nothing
  and is only a wasted read);
* the sweep checks a game in its home set only; a game whose deadline is still in
  another set reads as without one, and gets a deadline computed from its state in its
  home set: the old entry is then an extra one, removed when it comes due.

A set whose node is slow or cannot be reached does not hold a tick up: its claim is
waited for :data:`SLOW_S`, then left to finish in the background (its leases are taken
by the next tick), and for :data:`ASIDE_S` that set is claimed only in the background,
so the other nodes' games keep their timers; the other sets of the same node are then
claimed in the background too (a dead node costs a tick :data:`SLOW_S` once, not once
per set).
"""

from __future__ import annotations

import asyncio
import binascii
import functools
import logging
import math
import random
from typing import Any

from redis.commands.core import AsyncScript
from redis.exceptions import RedisError

from adapters.storage.keys import SLOTS, StoreKeys

log = logging.getLogger(__name__)
DROP_IF = """
-- One slot: one key, an old timer set.
-- KEYS[1] the set; ARGV[1] game id; ARGV[2] the deadline read. Removes the entry only
-- if it still has that deadline (a worker of the old code may have moved it since).
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""
REFRESH_S = 30.0
"""Seconds between two reads of the recorded shapes by one worker: a worker started
with another ``S`` is noticed by the others within this."""
SLOW_S = 0.25
"""Seconds a tick waits for one set's claim before leaving it to finish aside."""
ASIDE_S = 5.0
"""Seconds a set whose claim was slow or failed is claimed aside (in the background,
its leases taken by a later tick) instead of inline."""
UNREACHABLE = (RedisError, OSError)
"""What a tick skips one set for (redis-py's own errors; a cluster that lost the slot
raises ``RedisClusterException``, a ``RedisError`` too)."""


def crc16(text: str) -> int:
    """Redis Cluster's CRC16 (XMODEM) of ``text``'s UTF-8 bytes."""
    return binascii.crc_hqx(text.encode(), 0)


def range_of(game_id: str, sets: int) -> int:
    """The index of the slot range (of ``sets``) that game ``game_id``'s slot is in."""
    return (crc16(game_id) % SLOTS) * sets // SLOTS


@functools.cache
def range_tag(index: int, sets: int) -> str:
    """The hash tag of set ``index`` of ``sets``: the first ``ts<n>`` whose slot is the
    first slot of range ``index`` (so ranges that nest share their tag)."""
    first = -(-index * SLOTS // sets)  # ceil: the first slot s with s * sets // SLOTS == index
    for n in range(10 * SLOTS * 64):
        tag = f"ts{n}"
        if crc16(tag) % SLOTS == first:
            return tag
    raise AssertionError(f"no tag found for slot {first}")  # pragma: no cover


def set_key(keys: StoreKeys, index: int, sets: int = 1) -> str:
    """The name of set ``index`` of ``sets`` (one set: ``<prefix>:timers``)."""
    if sets == 1:
        return keys.timers()
    return f"{keys.timers()}:{{{range_tag(index, sets)}}}"


def legacy_key(keys: StoreKeys, index: int) -> str:
    """Set ``index`` of the layout before issue 36 (0: ``<prefix>:timers``)."""
    return keys.timers() if index == 0 else f"{keys.timers()}:{{t{index}}}"


def home_key(keys: StoreKeys, game_id: str, sets: int) -> str:
    """The name of the game's own timer set among ``sets``."""
    return set_key(keys, range_of(game_id, sets), sets)


class TimerSets:
    """The deadlines of a store's games in ``sets`` sorted sets (see the module docstring).

    ``client`` is a redis-py asyncio client (single, cluster or sentinel); ``claim`` the
    registered ``CLAIM_DUE`` script; ``clock`` gives monotonic seconds for the shapes'
    refresh. ``sets`` 1 to 1,024 (ValueError otherwise)."""

    def __init__(self, client: Any, keys: StoreKeys, sets: int, claim: AsyncScript,
                 rng: random.Random | None = None) -> None:
        if not 1 <= sets <= 1024:
            raise ValueError(f"timer sets must be 1 to 1024, got {sets!r}")
        self.client = client
        self.keys = keys
        self.sets = sets
        self._claim = claim
        self._drop: AsyncScript = client.register_script(DROP_IF)
        self._rng = rng or random.Random()
        self._walk = [self.key(k) for k in range(sets)]
        self._read_at = -math.inf
        self._aside: dict[str, asyncio.Task[list[str]]] = {}
        self._slow: dict[str, float] = {}
        self._refresh: asyncio.Future[list[str]] | None = None

    def key(self, index: int) -> str:
        """The name of this worker's set ``index``."""
        return set_key(self.keys, index, self.sets)

    def home(self, game_id: str) -> int:
        """The index of the game's own set under this worker's ``S``."""
        return range_of(game_id, self.sets)

    def home_key(self, game_id: str) -> str:
        """The name of the game's own set."""
        return self.key(self.home(game_id))

    @property
    def walked_keys(self) -> list[str]:
        """The sets the last tick walked (this worker's before its first)."""
        return list(self._walk)

    @property
    def known_sets(self) -> int:
        """How many sets the last tick walked."""
        return len(self._walk)

    async def walked(self, now_mono: float) -> list[str]:
        """The sets a tick walks: those of every ``S`` recorded, and the old layout's
        while its mark stands. Read again every :data:`REFRESH_S` seconds in the
        background (the keys it reads have no game's slot: a tick never waits on their
        node); until a read is done, and after one that fails, the last list stands."""
        refresh = self._refresh
        if refresh is not None and refresh.done():
            self._refresh = None
            if not refresh.cancelled() and refresh.exception() is None:
                self._walk = refresh.result()
            elif not refresh.cancelled():
                log.warning("timer sets: shapes not read (%s)",
                            type(refresh.exception()).__name__)
        if self._refresh is None and now_mono - self._read_at >= REFRESH_S:
            self._read_at = now_mono
            self._refresh = asyncio.ensure_future(self._read_walk())
            await asyncio.wait({self._refresh}, timeout=SLOW_S)
            if self._refresh.done():
                return await self.walked(now_mono)
        return self._walk

    async def _read_walk(self) -> list[str]:
        """Record this worker's ``S`` and read the list of sets to walk (module
        docstring)."""
        shapes_key = f"{self.keys.timers()}:shapes"
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.sadd(shapes_key, self.sets)
            pipe.smembers(shapes_key)
            pipe.get(f"{self.keys.timers()}:sets")
            _, shapes, mark = await pipe.execute()
        names = dict.fromkeys(self.key(k) for k in range(self.sets))
        for shape in sorted({int(s) for s in shapes} - {self.sets}):
            if 1 <= shape <= 1024:
                names.update(dict.fromkeys(set_key(self.keys, k, shape)
                                           for k in range(shape)))
        if mark is not None and str(mark).isdigit():
            names.update(dict.fromkeys(legacy_key(self.keys, k)
                                       for k in range(min(int(mark), 1024))))
        return list(names)

    async def claim(self, now_ts: float, limit: int, lease_end: float,
                    now_mono: float) -> list[str]:
        """Lease up to ``limit`` due deadlines over every set, starting at a random one
        (so no set waits on one worker), plus what claims left aside by earlier ticks
        brought; one from a set that is not its game's home moves home first (module
        docstring). A set whose claim takes over :data:`SLOW_S` or fails is claimed
        aside for :data:`ASIDE_S`; when every set claimed inline failed and nothing
        came from aside, the last error is raised."""
        walk = await self.walked(now_mono)
        out = self._harvest()
        start = self._rng.randrange(len(walk))
        failed: BaseException | None = None
        reached = 0
        for step in range(len(walk)):
            if len(out) >= limit:
                break
            name = walk[(start + step) % len(walk)]
            if name in self._aside:
                continue  # its claim is still running
            task = asyncio.ensure_future(self._claim_set(name, now_ts, limit - len(out),
                                                         lease_end))
            if self._slow.get(name, -math.inf) > now_mono:
                self._aside[name] = task
                continue
            await asyncio.wait({task}, timeout=SLOW_S)
            if not task.done():
                self._aside[name] = task
                self._set_aside(name, walk, now_mono)
                continue
            if task.exception() is not None:
                failed = task.exception()
                self._set_aside(name, walk, now_mono)
                log.warning("timer set %s skipped (%s)", name, type(failed).__name__)
                continue
            reached += 1
            out += task.result()
        if not reached and not out and failed is not None:
            raise failed
        return out

    def _set_aside(self, name: str, walk: list[str], now_mono: float) -> None:
        """Claim set ``name`` aside for :data:`ASIDE_S`, and with it, on a cluster, every
        set of ``walk`` its slot map puts on the same node: a dead node holds a tick up
        by :data:`SLOW_S` once, not once per set of it (with 16 sets on 3 primaries,
        1.4 s at a primary's death: issue 36, tests/cluster/test_failover_isolation.py).
        """
        self._slow[name] = now_mono + ASIDE_S
        node = self._node_of(name)
        if node:
            for other in walk:
                if self._node_of(other) == node:
                    self._slow[other] = now_mono + ASIDE_S

    def _node_of(self, key: str) -> str:
        """The name of the node that serves ``key`` now (``""``: not a cluster, or its
        slot map does not know it)."""
        find = getattr(self.client, "get_node_from_key", None)
        if find is None:
            return ""
        try:
            node = find(key)
        except Exception:  # no slot map yet, an uncovered slot
            return ""
        return str(getattr(node, "name", ""))

    async def _claim_set(self, name: str, now_ts: float, limit: int,
                         lease_end: float) -> list[str]:
        """Lease up to ``limit`` due deadlines of set ``name`` (strays moved home)."""
        args: list[str | int] = [repr(now_ts), limit, repr(lease_end)]
        got = [str(g) for g in await self._claim(keys=[name], args=args)]
        stray = [g for g in got if self.home_key(g) != name]
        if stray:
            await self._move_home(stray, name, lease_end)
        return got

    def _harvest(self) -> list[str]:
        """The leases of the claims left aside that have finished (a failed one is
        logged)."""
        out: list[str] = []
        for name, task in list(self._aside.items()):
            if not task.done():
                continue
            del self._aside[name]
            if task.cancelled():
                continue
            if task.exception() is not None:
                log.warning("timer set %s skipped (%s)", name,
                            type(task.exception()).__name__)
                continue
            out += task.result()
        return out

    async def close(self) -> None:
        """Wait for (or cancel, after :data:`SLOW_S`) the claims left aside."""
        tasks: list[asyncio.Future[list[str]]] = list(self._aside.values())
        self._aside.clear()
        if self._refresh is not None:
            tasks.append(self._refresh)
            self._refresh = None
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=SLOW_S)
            for task in pending:
                task.cancel()

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

    async def drain_legacy(self, batch: int = 500) -> int:
        """Move every entry of the old layout's sets (module docstring) into its game's
        home set, keeping a later deadline already there (``ZADD NX``, then ``ZREM`` of
        the old entry only when its score is unchanged), then drop the old high-water
        mark. Returns how many entries moved. With ``S = 1`` the old set 0 is this
        worker's own set: its entries are home already."""
        mark_key = f"{self.keys.timers()}:sets"
        mark = await self.client.get(mark_key)
        if mark is None:
            return 0
        moved = 0
        for index in range(min(int(mark) if str(mark).isdigit() else 1, 1024)):
            source = legacy_key(self.keys, index)
            stray = [(str(g), float(sc)) async for g, sc in self.client.zscan_iter(
                source, count=batch) if self.home_key(str(g)) != source]
            for start in range(0, len(stray), batch):
                moved += await self._move_entries(source, stray[start:start + batch])
        await self.client.delete(mark_key)
        return moved

    async def _move_entries(self, source: str, entries: list[tuple[str, float]]) -> int:
        """Write each ``(game id, deadline)`` into its home set unless one is there,
        then remove it from ``source`` if it still has that deadline; how many moved."""
        async with self.client.pipeline(transaction=False) as pipe:
            for gid, score in entries:
                pipe.zadd(self.home_key(gid), {gid: score}, nx=True)
            await pipe.execute()
        moved = 0
        for gid, score in entries:
            moved += int(await self._drop(keys=[source], args=[gid, repr(score)]))
        return moved
