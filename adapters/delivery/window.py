"""A rate window shared by every worker through Redis, so the group edit limits (one edit
every 3 s per chat, 20 a minute) hold for the bot as a whole, not per process.

One sorted set per platform and chat, ``<prefix>:{<platform>:<chat>}:edits`` (``tg``,
``dc``; in the chat's Redis Cluster slot, :meth:`adapters.storage.keys.StoreKeys.edits`),
holds the times of the recent edits; a Lua script reads Redis's own clock (``TIME``, so
workers need no synchronised clocks), drops entries older than the window and either
reserves a slot (returns 0) or says how many seconds to wait. One key per script call:
fine for Redis Cluster. A key of another Redis type (damaged) is replaced by a fresh
window instead of failing every edit of the chat.
"""

from __future__ import annotations

from typing import Any

from adapters.storage.keys import StoreKeys

RESERVE = """
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= 'none' and kind ~= 'zset' then
  redis.call('DEL', KEYS[1])  -- damaged: a fresh window (it only spaces edits)
end
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local gap, cap, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local last = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if last[2] and now < tonumber(last[2]) + gap then
  return tostring(tonumber(last[2]) + gap - now)
end
if redis.call('ZCARD', KEYS[1]) >= cap then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(tonumber(first[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(window) + 1)
return '0'
"""


class SharedWindow:
    """Reserve edit slots per chat across workers (redis-py asyncio client).

    ``gap_s`` between two slots of one chat, at most ``per_minute`` slots in ``window_s``;
    ``platform`` names the key space (``"tg"``, ``"dc"``).
    """

    def __init__(self, client: Any, prefix: str = "buraco", gap_s: float = 3.0,
                 per_minute: int = 20, window_s: float = 61.0, platform: str = "tg") -> None:
        self.client = client
        self.prefix = prefix
        self.platform = platform
        self.keys = StoreKeys(prefix)
        self.args = (gap_s, per_minute, window_s)
        self._reserve = client.register_script(RESERVE)

    async def reserve(self, key: str, gap_s: float | None = None) -> float:
        """0.0 when a slot for ``key`` was taken now; else the seconds to wait first.
        ``gap_s`` replaces the gap for this slot (0: a prompt edit, only the cap holds)."""
        name = self.keys.edits(self.platform, key)
        args = self.args if gap_s is None else (gap_s, *self.args[1:])
        wait = await self._reserve(keys=[name], args=args)
        return max(0.0, float(wait))
