"""Lua scripts of the season store (issue 29). Each touches the keys of one scope only,
which share one hash tag (``{season:<chat>}`` or ``{season}``): single-slot on Redis
Cluster."""

from __future__ import annotations

COMMIT_GROUP = """
-- One slot: every key carries the group's {season:<chat>} hash tag (Redis Cluster safe).
-- KEYS[1] counted hash (field game id); KEYS[2] ratings hash (field person key);
-- KEYS[3..2+2P] per period its stats hash (n:/m:/w:/p:<person>) and its order sorted
-- set (score wins * 1e10 + points); then per person its profile hash and trend list.
-- ARGV[1] game id; ARGV[2] P periods; ARGV[3] N people; ARGV[4] trend kept; then per
-- person: key, name, old rating ('' none), new rating, won 0/1, points, shown, n ops,
-- then n ops of three: op, field, value.
-- Returns {0} when the game was counted before (a redone follow-up), {-1} when a
-- rating is not the one read (another match of the group was counted meanwhile: the
-- caller reads again), else {1, 'person|achievement', ...} with every achievement
-- newly earned ('once' ops that set their field).
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  return {0}
end
local P, N, kept = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local starts, i = {}, 5
for p = 1, N do
  if (redis.call('HGET', KEYS[2], ARGV[i]) or '') ~= ARGV[i + 2] then
    return {-1}
  end
  starts[p] = i
  i = i + 8 + 3 * tonumber(ARGV[i + 7])
end
local out = {1}
for p = 1, N do
  local j = starts[p]
  local who = ARGV[j]
  redis.call('HSET', KEYS[2], who, ARGV[j + 3])
  for k = 0, P - 1 do
    local stats, order = KEYS[3 + 2 * k], KEYS[4 + 2 * k]
    redis.call('HSET', stats, 'n:' .. who, ARGV[j + 1])
    redis.call('HINCRBY', stats, 'm:' .. who, 1)
    local w = redis.call('HINCRBY', stats, 'w:' .. who, ARGV[j + 4])
    local pts = redis.call('HINCRBY', stats, 'p:' .. who, ARGV[j + 5])
    redis.call('ZADD', order, string.format('%.0f', w * 1e10 + pts), who)
  end
  local prof, trend = KEYS[3 + 2 * P + 2 * (p - 1)], KEYS[4 + 2 * P + 2 * (p - 1)]
  redis.call('HSET', prof, 'name', ARGV[j + 1])
  redis.call('LPUSH', trend, ARGV[j + 6])
  redis.call('LTRIM', trend, 0, kept - 1)
  for o = j + 8, j + 5 + 3 * tonumber(ARGV[j + 7]), 3 do
    local op, field, value = ARGV[o], ARGV[o + 1], ARGV[o + 2]
    if op == 'inc' then
      redis.call('HINCRBY', prof, field, value)
    elseif op == 'max' then
      local cur = redis.call('HGET', prof, field)
      if not cur or tonumber(value) > tonumber(cur) then
        redis.call('HSET', prof, field, value)
      end
    elseif op == 'streak' then
      if value == '1' then
        local run = redis.call('HINCRBY', prof, field, 1)
        local best = tonumber(redis.call('HGET', prof, field .. '_best') or '0')
        if run > best then
          redis.call('HSET', prof, field .. '_best', run)
        end
      else
        redis.call('HSET', prof, field, 0)
      end
    elseif op == 'once' then
      if redis.call('HSETNX', prof, field, value) == 1 then
        table.insert(out, who .. '|' .. field)
      end
    end
  end
end
redis.call('HSET', KEYS[1], ARGV[1], '1')
return out
"""

COMMIT_PLATFORM = """
-- One slot: both keys carry the {season} hash tag (Redis Cluster safe).
-- KEYS[1] counted hash; KEYS[2] ratings hash. ARGV[1] game id; then per person: key,
-- old rating ('' none), new rating. Returns 0 when counted before, -1 when a rating is
-- not the one read (retry), 1 when counted now.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  return 0
end
for i = 2, #ARGV, 3 do
  if (redis.call('HGET', KEYS[2], ARGV[i]) or '') ~= ARGV[i + 1] then
    return -1
  end
end
for i = 2, #ARGV, 3 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
end
redis.call('HSET', KEYS[1], ARGV[1], '1')
return 1
"""

REPLACE_RATINGS = """
-- One slot: one key.
-- KEYS[1] a scope's ratings hash; ARGV: key, rating pairs. Replaces the hash at once.
redis.call('DEL', KEYS[1])
for i = 1, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
return 1
"""

SAVE_TOURNAMENT = """
-- One slot: one key (the group's {season:<chat>} tournament hash).
-- KEYS[1] hash v=<version> s=<record JSON>; ARGV[1] the version read (0: none), ARGV[2]
-- the new record. Compare-and-set: 1 when written as ARGV[1] + 1, 0 when another write
-- came first.
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'v', v + 1, 's', ARGV[2])
return 1
"""
