"""Lua scripts of the game store; each runs atomically inside Redis (or fakeredis + lupa).

Every script touches one key, or keys of one game that share its ``{game_id}`` hash tag,
so each is valid on Redis Cluster as well: each says which in its first line ("One
slot: ..."), and tests/cluster/test_cluster_store.py runs every one on a real cluster.
"""

from __future__ import annotations

CREATE_GAME = """
-- One slot: both keys carry the game's {game} hash tag (Redis Cluster safe).
-- KEYS[1] state hash; KEYS[2] the game's seen-updates sorted set (same {game} slot)
-- ARGV[1] state JSON; ARGV[2] ttl in seconds; ARGV[3] update key or '' (none);
-- ARGV[4] its score (Unix s); ARGV[5] tag of ARGV[1] (see SAVE_GAME). The update that
-- opened the game is marked applied to it in this same step, as SAVE_GAME does for a
-- press: a redelivery of that update after a crash finds the game it made.
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[1], 'v', '1', 's', ARGV[1], 't', ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
return 1
"""

SAVE_GAME = """
-- One slot: both keys carry the game's {game} hash tag (Redis Cluster safe).
-- KEYS[1] state hash; KEYS[2] the game's seen-updates sorted set (same {game} slot)
-- ARGV[1] expected version; ARGV[2] state JSON; ARGV[3] ttl in seconds;
-- ARGV[4] update key or '' (none); ARGV[5] its score (Unix s); ARGV[6] markers kept;
-- ARGV[7] tag of the state text the new one was made from, or '' (no such check);
-- ARGV[8] tag of ARGV[2]. A tag is a digest of a state text kept beside it (field t).
-- ARGV[9] the game's version channel or '' (none): a save that wins publishes its new
-- version there in this same step (the web table, adapters/storage/feed.py), with
-- ARGV[10]: PUBLISH, or SPUBLISH on a Redis Cluster (the channel is in the game's slot).
-- Returns 1 when written at version expected + 1, 0 when the stored version differs, the
-- stored text is not the one tagged ARGV[7] (a worker that skipped the load made its
-- change on its cached copy, issue 13: it saves only onto that very text, issue 12
-- defect 5d), or the update was already applied. The state and the update's marker are written in
-- this one atomic step (issue 12, defect 5a): a save that fails leaves no marker, so
-- the platform's redelivery is applied; a save that succeeds cannot be applied twice.
local current = redis.call('HGET', KEYS[1], 'v')
if current == false or tonumber(current) ~= tonumber(ARGV[1]) then
  return 0
end
if ARGV[7] ~= '' and redis.call('HGET', KEYS[1], 't') ~= ARGV[7] then
  return 0
end
if ARGV[4] ~= '' then
  if redis.call('ZSCORE', KEYS[2], ARGV[4]) then
    return 0
  end
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4])
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -1 - tonumber(ARGV[6]))
  redis.call('EXPIRE', KEYS[2], ARGV[3])
end
redis.call('HSET', KEYS[1], 'v', string.format('%d', tonumber(current) + 1), 's', ARGV[2],
           't', ARGV[8])
redis.call('EXPIRE', KEYS[1], ARGV[3])
if ARGV[9] and ARGV[9] ~= '' then
  redis.call(ARGV[10] or 'PUBLISH', ARGV[9], string.format('%d', tonumber(current) + 1))
end
return 1
"""

LOAD_FOR_UPDATE = """
-- One slot: both keys carry the game's {game} hash tag (Redis Cluster safe).
-- KEYS[1] state hash; KEYS[2] the game's applied-updates sorted set (same {game} slot)
-- ARGV[1] update key. Returns {applied (0/1), version or false, state or false}: one
-- command instead of a pipeline of two (less client work per press, issue 13).
local got = redis.call('HMGET', KEYS[1], 'v', 's')
local applied = 0
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  applied = 1
end
return {applied, got[1], got[2]}
"""

UNBIND_CHAT = """
-- One slot: one key, the chat binding.
-- One slot: one key, the chat binding.
-- KEYS[1] chat binding; ARGV[1] game id. Deletes the binding only if it is still ARGV[1]
-- (a key of another type, damaged, binds nothing and is left as it is).
if redis.call('TYPE', KEYS[1])['ok'] == 'string' and redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

BIND_CHAT = """
-- One slot: one key, the chat binding.
-- KEYS[1] chat binding; ARGV[1] game id; ARGV[2] ttl in seconds. SET NX EX, after
-- deleting a key of another type than a string (a damaged binding reads as no game, so
-- the chat's next game replaces it). Returns 1 when bound, 0 when a game is bound.
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= 'none' and kind ~= 'string' then
  redis.call('DEL', KEYS[1])
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then
  return 1
end
return 0
"""

SET_SETTING = """
-- One slot: one key, the chat's settings hash.
-- KEYS[1] the chat's settings hash; ARGV[1] name; ARGV[2] value. HSET, after deleting a
-- key of another type than a hash (damaged settings read as unset: the setting asked
-- for replaces them).
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= 'none' and kind ~= 'hash' then
  redis.call('DEL', KEYS[1])
end
return redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
"""

CLAIM_DUE = """
-- One slot: one key, one timer set (each set has its own hash tag, timers.py).
-- KEYS[1] timers sorted set; ARGV[1] now (Unix seconds); ARGV[2] limit;
-- ARGV[3] lease end (Unix seconds, > now).
-- Leases up to ARGV[2] members with score <= now: each one's deadline moves to the
-- lease end instead of being removed (issue 12, defect 1), so no other caller gets it
-- until the lease runs out, and a worker that dies mid-move leaves a deadline that
-- another worker takes over. The save after the move sets the real deadline.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[3], id)
end
return due
"""

ADD_RESULTS = """
-- One slot: one key, the chat's ranking hash.
-- KEYS[1] the chat's ranking hash; ARGV[1] game id; then per player five values:
-- player key, shown name, won (0/1), points. Applied once per game: the field
-- 'g:<game id>' marks a game already counted, so a redone follow-up (a worker that died
-- after the match-ending save, issue 12 defect 5b) cannot count it twice.
if redis.call('HSETNX', KEYS[1], 'g:' .. ARGV[1], '1') == 0 then
  return 0
end
for i = 2, #ARGV, 4 do
  local who = ARGV[i]
  redis.call('HSET', KEYS[1], 'n:' .. who, ARGV[i + 1])
  redis.call('HINCRBY', KEYS[1], 'm:' .. who, 1)
  redis.call('HINCRBY', KEYS[1], 'w:' .. who, tonumber(ARGV[i + 2]))
  redis.call('HINCRBY', KEYS[1], 'p:' .. who, tonumber(ARGV[i + 3]))
end
return 1
"""
