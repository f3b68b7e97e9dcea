"""The queue to find players (issue 35) in Redis: one Lua script per step, every key under
one hash tag ``{mm}`` (one Redis Cluster slot), so joining, leaving and forming tables
are each one atomic step and a person is never at two tables nor lost between them.

Keys (:class:`adapters.storage.keys.StoreKeys`, ``<prefix>:{mm}:<part>``):

- ``q:<preset>:<size>`` sorted set: the people waiting for that table, score their
  global rating (the number shown, bot/season/rating.py); ``t:<preset>:<size>`` the same
  people, score when they joined (their wait widens their band and ends it: an entry
  expires); ``b:<preset>:<size>`` those who asked for robots, score when;
- ``who`` hash: person key -> ``<queue name>\\n<entry JSON>`` (their name, their place, when
  robots may fill their table): one entry per person across every queue;
- ``seated`` hash: person key -> the games they took a seat at, space-separated (a
  formation's, a lobby's, an invitation's: :meth:`RedisQueue.sit`); a person is not queued
  again while one of them lives with them seated;
- ``formed`` hash: game id -> ``<lease Unix s>\\n<table JSON>``: a table formed whose game
  is not created yet; a worker that dies in between leaves it to the next
  (:meth:`RedisQueue.claim_formed`);
- ``names`` set: the queues someone waits in;
- ``blk`` hash: person key -> `` <key> <key> ``: the people they blocked (``/bloquear``).
"""

from __future__ import annotations

import json
from typing import Any

from adapters.storage.keys import StoreKeys

JOIN = """
-- One slot: every key carries the {mm} hash tag.
-- KEYS: q (ratings), t (join times), b (robot times), who, seated, names.
-- ARGV: person, queue name, rating, now, entry JSON, robots' time (0: never),
-- the game ids the caller found over (their seat there no longer counts), space-separated.
local seated = redis.call('HGET', KEYS[5], ARGV[1])
if seated then
  for gid in string.gmatch(seated, '%S+') do
    if not string.find(' ' .. ARGV[7] .. ' ', ' ' .. gid .. ' ', 1, true) then
      return {'seated', gid}
    end
  end
end
local entry = redis.call('HGET', KEYS[4], ARGV[1])
if entry then return {'queued', string.match(entry, '^[^\\n]*')} end
redis.call('HDEL', KEYS[5], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
if tonumber(ARGV[6]) > 0 then redis.call('ZADD', KEYS[3], ARGV[6], ARGV[1]) end
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2] .. '\\n' .. ARGV[5])
redis.call('SADD', KEYS[6], ARGV[2])
return {'ok', tostring(redis.call('ZCARD', KEYS[1]))}
"""

LEAVE = """
-- One slot: every key carries the {mm} hash tag.
-- KEYS: q, t, b, who, names. ARGV: person, queue name. Returns 1 when removed, 0 when the
-- person was not in that queue (not queued, or seated by a formation a moment before).
local entry = redis.call('HGET', KEYS[4], ARGV[1])
if not entry or string.match(entry, '^[^\\n]*') ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[5], ARGV[2]) end
return 1
"""

SIT = """
-- One slot: every key carries the {mm} hash tag.
-- KEYS: q, t, b (of the queue the person waits in, or any when none), who, names, seated.
-- ARGV: person, queue name ('' when not queued), game id, most games kept.
-- The person took a seat at the game: it joins their seated games (the oldest dropped
-- past the most kept) and they leave the queue, in one step, so no formation seats them
-- at a second table. Returns 0 when the queue named is not (or no longer) theirs, else
-- what UNSIT needs to put them back (their entry, rating, join and robot times; none when
-- they were not queued).
local entry = redis.call('HGET', KEYS[4], ARGV[1])
local queue = entry and string.match(entry, '^[^\\n]*') or ''
if queue ~= ARGV[2] then return 0 end
local games = {}
for gid in string.gmatch(redis.call('HGET', KEYS[6], ARGV[1]) or '', '%S+') do
  if gid ~= ARGV[3] then games[#games + 1] = gid end
end
games[#games + 1] = ARGV[3]
while #games > tonumber(ARGV[4]) do table.remove(games, 1) end
redis.call('HSET', KEYS[6], ARGV[1], table.concat(games, ' '))
if entry then
  local rating = redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0'
  local since = redis.call('ZSCORE', KEYS[2], ARGV[1]) or '0'
  local bots = redis.call('ZSCORE', KEYS[3], ARGV[1]) or '0'
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('HDEL', KEYS[4], ARGV[1])
  if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[5], queue) end
  return {entry, rating, since, bots}
end
return {}
"""

UNSIT = """
-- One slot: every key carries the {mm} hash tag.
-- KEYS: q, t, b (of the queue the person left, or any when none), who, names, seated.
-- ARGV: person, game id, then what SIT returned (entry, rating, join time, robot time)
-- or nothing. The seat SIT was taken for was not taken (the call was refused): the game
-- leaves their seated games, and their queue entry comes back (unless they queued again
-- since), with its place in the wait.
local games = {}
for gid in string.gmatch(redis.call('HGET', KEYS[6], ARGV[1]) or '', '%S+') do
  if gid ~= ARGV[2] then games[#games + 1] = gid end
end
if #games > 0 then
  redis.call('HSET', KEYS[6], ARGV[1], table.concat(games, ' '))
else
  redis.call('HDEL', KEYS[6], ARGV[1])
end
if ARGV[3] and not redis.call('HGET', KEYS[4], ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[1])
  if tonumber(ARGV[6]) > 0 then redis.call('ZADD', KEYS[3], ARGV[6], ARGV[1]) end
  redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
  redis.call('SADD', KEYS[5], string.match(ARGV[3], '^[^\\n]*'))
end
return 1
"""

FORM = """
-- One slot: every key carries the {mm} hash tag.
-- KEYS: q (ratings), t (join times), b (robot times), who, seated, formed, blk, names.
-- ARGV: now, size, ttl, band base, band per second, band max, queue name, then game ids.
-- Expires entries older than ttl (read from t, oldest first), then forms tables of
-- `size` people close in rating, each pair within both members' bands (base + per_s *
-- wait, at most max) and neither having blocked the other, scanning q in rating order
-- and reading each entry only when reached; then tables of people whose robot time
-- passed (from b), filled by robots. Stops when its game ids run out. Each table: its
-- people leave the queue, are marked seated at its game, and the table is kept in
-- `formed` until its game exists. Returns {expired entries..., '|', table JSON...}.
local now, size, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local base, per_s, most = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local ids, next_id = {}, 1
for i = 8, #ARGV do ids[#ids + 1] = ARGV[i] end
local out = {}
local function drop(p)
  redis.call('ZREM', KEYS[1], p)
  redis.call('ZREM', KEYS[2], p)
  redis.call('ZREM', KEYS[3], p)
  redis.call('HDEL', KEYS[4], p)
end
for _, p in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl)) do
  local entry = redis.call('HGET', KEYS[4], p)
  if entry then out[#out + 1] = entry end
  drop(p)
end
out[#out + 1] = '|'
local cache, used = {}, {}
local function person(p, rating)
  local m = cache[p]
  if m then return m end
  local entry = redis.call('HGET', KEYS[4], p)
  local at = tonumber(redis.call('ZSCORE', KEYS[2], p) or now)
  m = {key = p, rating = tonumber(rating or redis.call('ZSCORE', KEYS[1], p)),
       band = math.min(most, base + per_s * (now - at)),
       body = entry and string.gsub(entry, '^[^\\n]*\\n', '', 1) or '',
       blk = redis.call('HGET', KEYS[7], p) or ' '}
  cache[p] = m
  return m
end
local function fits(group, cand)
  for _, m in ipairs(group) do
    local spread = math.abs(cand.rating - m.rating)
    if spread > m.band or spread > cand.band
       or string.find(m.blk, ' ' .. cand.key .. ' ', 1, true)
       or string.find(cand.blk, ' ' .. m.key .. ' ', 1, true) then
      return false
    end
  end
  return true
end
local function seat(group)
  local gid = ids[next_id]
  next_id = next_id + 1
  local bodies = {}
  for _, m in ipairs(group) do
    used[m.key] = true
    drop(m.key)
    redis.call('HSET', KEYS[5], m.key, gid)
    bodies[#bodies + 1] = m.body
  end
  local table_json = '{"game":"' .. gid .. '","robots":' .. (size - #group)
                     .. ',"people":[' .. table.concat(bodies, ',') .. ']}'
  redis.call('HSET', KEYS[6], gid, ARGV[1] .. '\\n' .. table_json)
  out[#out + 1] = table_json
end
-- full tables: grow a group from each person in rating order, looking ahead only as far
-- as that person's band reaches
local total, chunk, i = redis.call('ZCARD', KEYS[1]), 64, 0
while i < total and next_id <= #ids do
  local firsts = redis.call('ZRANGE', KEYS[1], i, i + chunk - 1, 'WITHSCORES')
  for f = 1, #firsts, 2 do
    if next_id > #ids then break end
    local first = person(firsts[f], firsts[f + 1])
    if not used[first.key] then
      local group, j = {first}, i + (f + 1) / 2
      local done = false
      while not done and #group < size do
        local ahead = redis.call('ZRANGE', KEYS[1], j, j + size * 2, 'WITHSCORES')
        if #ahead == 0 then break end
        for a = 1, #ahead, 2 do
          if tonumber(ahead[a + 1]) - first.rating > first.band then done = true break end
          local cand = person(ahead[a], ahead[a + 1])
          if not used[cand.key] and fits(group, cand) then
            group[#group + 1] = cand
            if #group == size then break end
          end
        end
        j = j + size * 2 + 1
      end
      if #group == size then seat(group) end
    end
  end
  i = i + chunk
end
-- robots fill the tables of people whose robot time passed, close ones together
local ready = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
local waiting = {}
for _, p in ipairs(ready) do
  if not used[p] and redis.call('ZSCORE', KEYS[1], p) then waiting[#waiting + 1] = person(p) end
end
table.sort(waiting, function(a, b) return a.rating < b.rating end)
for w = 1, #waiting do
  if next_id > #ids then break end
  local first = waiting[w]
  if not used[first.key] then
    local group = {first}
    for k = w + 1, #waiting do
      if #group == size then break end
      if not used[waiting[k].key] and fits(group, waiting[k]) then
        group[#group + 1] = waiting[k]
      end
    end
    seat(group)
  end
end
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[8], ARGV[7]) end
return out
"""

CLAIM_FORMED = """
-- One slot: one key (the {mm} formed hash). ARGV: now, lease end, lease length.
-- Tables formed more than a lease ago whose game is still not made (their worker died):
-- leased again to this caller. Returns their table JSONs.
local got = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local at = tonumber(string.match(all[i + 1], '^[^\\n]*'))
  if at + tonumber(ARGV[3]) <= tonumber(ARGV[1]) then
    local body = string.gsub(all[i + 1], '^[^\\n]*\\n', '', 1)
    redis.call('HSET', KEYS[1], all[i], ARGV[2] .. '\\n' .. body)
    got[#got + 1] = body
  end
end
return got
"""

BLOCK = """
-- One slot: one key (the {mm} blocks hash). ARGV: person, the person they block.
local now = redis.call('HGET', KEYS[1], ARGV[1]) or ' '
if string.find(now, ' ' .. ARGV[2] .. ' ', 1, true) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], now .. ARGV[2] .. ' ')
return 1
"""


SEATED_KEPT = 8
"""The most games kept per person in ``seated`` (the newest): more live tables at once
than this is beyond any real person."""


class RedisQueue:
    """The queue's store on a redis-py asyncio client (``decode_responses=True``)."""

    def __init__(self, client: Any, prefix: str = "buraco") -> None:
        self.client = client
        self.keys = StoreKeys(prefix)
        self._join = client.register_script(JOIN)
        self._leave = client.register_script(LEAVE)
        self._sit = client.register_script(SIT)
        self._unsit = client.register_script(UNSIT)
        self._form = client.register_script(FORM)
        self._claim = client.register_script(CLAIM_FORMED)
        self._block = client.register_script(BLOCK)

    def _k(self, part: str) -> str:
        return self.keys.queue(part)

    def _queue_keys(self, queue: str) -> list[str]:
        """The ratings, join times and robot times of ``queue``."""
        return [self._k(f"q:{queue}"), self._k(f"t:{queue}"), self._k(f"b:{queue}")]

    async def join(self, person: str, queue: str, rating: float, now: float,
                   entry: dict[str, Any], over_games: str = "") -> tuple[str, str]:
        """Queue ``person`` in ``queue`` (``"<preset>:<size>"``): ``("ok", waiting)``,
        ``("queued", queue name)`` when they wait already, ``("seated", game id)`` when
        they hold a seat at a game (:meth:`seated_at`) other than ``over_games``
        (space-separated, found over by the caller)."""
        got = await self._join(keys=[*self._queue_keys(queue), self._k("who"),
                                     self._k("seated"), self._k("names")],
                               args=[person, queue, repr(rating), repr(now),
                                     json.dumps(entry, separators=(",", ":")),
                                     repr(float(entry.get("bots_at") or 0)), over_games])
        return str(got[0]), str(got[1])

    async def queue_of(self, person: str) -> str | None:
        """The queue ``person`` waits in, or None."""
        entry = await self.client.hget(self._k("who"), person)
        return str(entry).split("\n", 1)[0] if entry else None

    async def seated_at(self, person: str) -> list[str]:
        """The games ``person`` took a seat at (a formation's, :meth:`sit`'s), oldest
        first; some may be over."""
        got = await self.client.hget(self._k("seated"), person)
        return str(got).split() if got else []

    async def sit(self, person: str, game_id: str) -> list[str]:
        """``person`` takes a seat at ``game_id`` (a lobby, an invitation): it is one of
        their games (:data:`SIT`, at most :data:`SEATED_KEPT`) and they leave the queue in
        the same step, so a formation never seats them at a second table. Called before
        the game's save that seats them (issue 35: a process killed between the save and
        this step left a seated person unknown to the queue), so a seat is never taken
        unrecorded; returns what :meth:`unsit` needs when the save then does not seat
        them (``[]``: they were not queued)."""
        for _attempt in range(3):
            queue = await self.queue_of(person) or ""
            keys = self._queue_keys(queue or "-")
            got = await self._sit(keys=[*keys, self._k("who"), self._k("names"),
                                        self._k("seated")],
                                  args=[person, queue, game_id, SEATED_KEPT])
            if got != 0:
                return [str(v) for v in got]
        return []

    async def unsit(self, person: str, game_id: str, held: list[str]) -> None:
        """The call :meth:`sit` came before did not seat ``person`` at ``game_id``
        (refused): the game leaves their games and ``held`` (:meth:`sit`'s answer) puts
        them back in their queue, in their place, unless they queued again since. A
        process killed before this leaves them out of the queue and the game counted as
        theirs until it is found not to seat them (:meth:`bot.queue_calls.QueueCalls.
        _over`): never at two tables."""
        queue = held[0].split("\n", 1)[0] if held else "-"
        await self._unsit(keys=[*self._queue_keys(queue), self._k("who"), self._k("names"),
                                self._k("seated")], args=[person, game_id, *held])

    async def leave(self, person: str) -> str | None:
        """Take ``person`` out of their queue; the queue's name, or None when they were in
        none (a formation may have seated them a moment before)."""
        for _attempt in range(3):
            queue = await self.queue_of(person)
            if queue is None:
                return None
            if await self._leave(keys=[*self._queue_keys(queue), self._k("who"),
                                       self._k("names")],
                                 args=[person, queue]):
                return queue
        return None

    async def waiting(self, queue: str) -> int:
        """How many people wait in ``queue``."""
        return int(await self.client.zcard(self._k(f"q:{queue}")))

    async def queues(self) -> list[str]:
        """The names of the queues that have someone waiting (``"<preset>:<size>"``)."""
        return sorted(str(n) for n in await self.client.smembers(self._k("names")))

    async def form(self, queue: str, size: int, now: float, ttl_s: float,
                   band: tuple[float, float, float],
                   game_ids: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """One formation round of ``queue`` (see :data:`FORM`): the expired entries and
        the tables formed, each ``{"game", "robots", "people": [entry, ...]}``."""
        got = await self._form(
            keys=[*self._queue_keys(queue), self._k("who"), self._k("seated"),
                  self._k("formed"), self._k("blk"), self._k("names")],
            args=[repr(now), size, repr(ttl_s), *(repr(b) for b in band), queue, *game_ids])
        cut = got.index("|")
        expired = [json.loads(str(e).split("\n", 1)[1]) for e in got[:cut]]
        return expired, [json.loads(t) for t in got[cut + 1:]]

    async def made(self, game_id: str) -> None:
        """The game of formed table ``game_id`` exists: forget the table."""
        await self.client.hdel(self._k("formed"), game_id)

    async def pending(self, game_id: str) -> bool:
        """Whether formed table ``game_id``'s game is still to be made."""
        return bool(await self.client.hexists(self._k("formed"), game_id))

    async def claim_formed(self, now: float, lease_s: float) -> list[dict[str, Any]]:
        """Tables formed more than ``lease_s`` ago whose game was not made (a worker
        died in between), leased to the caller."""
        got = await self._claim(keys=[self._k("formed")],
                                args=[repr(now), repr(now + lease_s), repr(lease_s)])
        return [json.loads(t) for t in got]

    async def block(self, person: str, other: str) -> bool:
        """``person`` is never matched with ``other`` again (``/bloquear``); False when
        blocked already."""
        return bool(await self._block(keys=[self._k("blk")], args=[person, other]))
