"""Lua scripts of the game store; each runs atomically inside Redis (or fakeredis + lupa).

Every script touches exactly one key, so it is valid on Redis Cluster as well.
"""

from __future__ import annotations

CREATE_GAME = """
-- KEYS[1] state hash; ARGV[1] state JSON; ARGV[2] ttl in seconds
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'v', '1', 's', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""

SAVE_GAME = """
-- KEYS[1] state hash; ARGV[1] expected version; ARGV[2] state JSON; ARGV[3] ttl in seconds
-- Returns 1 when written at version expected + 1, 0 when the stored version differs.
local current = redis.call('HGET', KEYS[1], 'v')
if current == false or tonumber(current) ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'v', string.format('%d', tonumber(current) + 1), 's', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

UNBIND_CHAT = """
-- KEYS[1] chat binding; ARGV[1] game id. Deletes the binding only if it is still ARGV[1].
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

CLAIM_DUE = """
-- KEYS[1] timers sorted set; ARGV[1] now (Unix seconds); ARGV[2] limit.
-- Removes and returns up to ARGV[2] members with score <= now; what this call returns
-- is exactly what it removed, so no two callers get the same member.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local claimed = {}
for _, id in ipairs(due) do
  if redis.call('ZREM', KEYS[1], id) == 1 then
    table.insert(claimed, id)
  end
end
return claimed
"""
