"""Moving the keys of the layout before issue 36 into the hash-tagged one, on a running
deployment (docs/deploy.md "Upgrading the key layout").

Before issue 36 a chat's binding, settings and ranking and Telegram's group-migration
and private-chat marks had no hash tag (:class:`~adapters.storage.keys.LegacyKeys`); now
they live in their chat's slot (:class:`~adapters.storage.keys.StoreKeys`). Games' own
keys did not change. Every worker of the new code:

* at start-up runs one **pass**: SCAN (every primary of a cluster) for this prefix's
  untagged keys and move each it knows (:meth:`Layout.move`); again every
  :data:`REPASS_S` for :data:`WATCH_S` after start-up, so what workers of the old code
  write during a rolling deploy is moved too;
* until its first pass is done is in **legacy** mode: before it touches a chat's key it
  moves that chat's old key when the new one is missing (:meth:`Layout.adopt`), and a
  command's idempotency marker is looked for under its old name as well.

A move is idempotent and safe with several workers at once and with a crash at any
point: the old key is read (one script), its content written into the new key without
overwriting anything newer (one script: ``SET NX``; settings field by field
``HSETNX``; a ranking added in once, marked by a ``g:moved:<digest>`` field), and only
then the old key deleted, and only if it still holds what was read (one script). A
worker dying in between leaves the old key, which the next pass or adopt moves again
with no effect but the delete.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Any

from redis.exceptions import ResponseError

from adapters.storage.keys import LegacyKeys, StoreKeys

log = logging.getLogger(__name__)
WATCH_S = 3_600.0
"""Seconds after start-up during which the pass is repeated (a rolling deploy's length)."""
REPASS_S = 600.0
"""Seconds between two passes while watching."""

READ_OLD = """
-- One slot: one key, the old key being moved.
-- KEYS[1] the old key. Returns {type, pttl, content...}: a string's value, or a hash's
-- fields and values; {'none'} when it is gone.
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'string' then
  return {kind, redis.call('PTTL', KEYS[1]), redis.call('GET', KEYS[1])}
elseif kind == 'hash' then
  local out = {kind, redis.call('PTTL', KEYS[1])}
  for _, v in ipairs(redis.call('HGETALL', KEYS[1])) do out[#out + 1] = v end
  return out
end
return {kind}
"""

WRITE_NEW = """
-- One slot: one key, the new key receiving an old one's content.
-- KEYS[1] the new key; ARGV[1] how: 'string' (SET NX), 'fields' (HSETNX each),
-- 'ranking' (added once: counters HINCRBY, names and games HSETNX, then the mark
-- ARGV[3]); ARGV[2] expiry in ms (0: none; applied to a key this script creates);
-- ARGV[3] the mark ('' for other hows); then the content. Returns 1 when written.
local how, ttl = ARGV[1], tonumber(ARGV[2])
local fresh = redis.call('EXISTS', KEYS[1]) == 0
if how == 'string' then
  if not fresh then return 0 end
  redis.call('SET', KEYS[1], ARGV[4])
elseif how == 'fields' then
  for i = 4, #ARGV, 2 do redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) end
else
  if redis.call('HEXISTS', KEYS[1], ARGV[3]) == 1 then return 0 end
  for i = 4, #ARGV, 2 do
    local kind = string.sub(ARGV[i], 1, 2)
    if kind == 'm:' or kind == 'w:' or kind == 'p:' then
      redis.call('HINCRBY', KEYS[1], ARGV[i], tonumber(ARGV[i + 1]))
    else
      redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1])
    end
  end
  redis.call('HSET', KEYS[1], ARGV[3], '1')
end
if fresh and ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
"""

DROP_OLD = """
-- One slot: one key, the old key just moved.
-- KEYS[1] the old key; ARGV[1] its type; then the content read. Deletes it only if it
-- still holds exactly that content (an old worker may have written it meanwhile: then
-- the next pass moves it again). Returns 1 when deleted.
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= ARGV[1] then return 0 end
if kind == 'string' then
  if redis.call('GET', KEYS[1]) ~= ARGV[2] then return 0 end
else
  if redis.call('HLEN', KEYS[1]) * 2 ~= #ARGV - 1 then return 0 end
  for i = 2, #ARGV, 2 do
    if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then return 0 end
  end
end
return redis.call('DEL', KEYS[1])
"""


@dataclass(frozen=True, slots=True)
class OldKey:
    """One legacy key recognised by its name: where it goes and how it is merged."""

    old: str
    new: str
    how: str  # 'string', 'fields' or 'ranking' (see WRITE_NEW)


def classify(legacy: LegacyKeys, keys: StoreKeys, name: str) -> OldKey | None:
    """The move of legacy key ``name``, or None for a name that is not a movable legacy
    key (a command's marker, which has no chat to go to and expires within a day; the
    deadline and stale-table sets, which :mod:`.timers` walks; edit windows, which
    expire within a minute)."""
    head = f"{legacy.prefix}:"
    if not name.startswith(head):
        return None
    rest = name[len(head):]
    kind, _, tail = rest.partition(":")
    if not tail:
        return None
    if kind == "chat":
        return OldKey(name, keys.chat(tail), "string")
    if kind == "settings":
        return OldKey(name, keys.settings(tail), "fields")
    if kind == "rank":
        return OldKey(name, keys.ranking(tail), "ranking")
    sub, _, ident = tail.partition(":")
    if sub == "dm" and ident:
        return OldKey(name, keys.dm(kind, ident), "string")
    if sub == "chat":
        way, _, chat_id = ident.partition(":")
        if chat_id and way == "new":
            return OldKey(name, keys.successor(kind, chat_id), "string")
        if chat_id and way == "old":
            return OldKey(name, keys.original(kind, chat_id), "string")
    return None


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _cancelling() -> bool:
    """Whether the running task was asked to stop (``Task.cancel``) and has not taken
    it back: a client that turns the ``CancelledError`` into its own error (fakeredis
    does) must not keep the task alive until ``asyncio.run`` waits for it forever."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


class Layout:
    """The layout upgrade of one store (``client`` a redis-py asyncio client with
    ``decode_responses=True``; ``cluster``: SCAN every primary). ``legacy`` is False
    until :meth:`start` (a store opened by the bot) sets it for the first pass."""

    def __init__(self, client: Any, prefix: str, cluster: bool = False) -> None:
        self.client = client
        self.keys = StoreKeys(prefix)
        self.old = LegacyKeys(prefix)
        self.cluster = cluster
        self.legacy = False
        self._read = client.register_script(READ_OLD)
        self._write = client.register_script(WRITE_NEW)
        self._drop = client.register_script(DROP_OLD)
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.timers: Any = None
        """The store's :class:`adapters.storage.timers.TimerSets`: a pass also drains the
        old layout's deadline sets into them (:meth:`TimerSets.drain_legacy`)."""

    async def move(self, key: OldKey) -> bool:
        """Move one old key into its new name (module docstring). True when the old key
        was deleted; False when it was gone, of an unexpected type (left alone, logged)
        or changed meanwhile (left for the next pass)."""
        got = [_text(v) for v in await self._read(keys=[key.old])]
        kind = got[0]
        if kind == "none":
            return False
        if kind != ("string" if key.how == "string" else "hash"):
            log.error("key %s: a %s, not moved", key.old, kind)
            return False
        ttl = max(int(got[1]), 0)
        content = got[2:]
        mark = ""
        if key.how == "ranking":
            pairs = sorted(zip(content[::2], content[1::2], strict=True))
            digest = hashlib.blake2b(repr(pairs).encode(), digest_size=8).hexdigest()
            mark = f"g:moved:{digest}"
        await self._write(keys=[key.new], args=[key.how, ttl, mark, *content])
        return int(await self._drop(keys=[key.old], args=[kind, *content])) == 1

    async def adopt(self, old: str, new: str, how: str) -> None:
        """In legacy mode, when ``new`` does not exist, move ``old`` into it first (the
        chat's key as it was before the upgrade); otherwise nothing."""
        if self.legacy and not await self.client.exists(new):
            try:
                await self.move(OldKey(old, new, how))
            except ResponseError as err:  # a damaged key: the call goes on with the new
                log.error("key %s not moved (%s)", old, type(err).__name__)

    async def legacy_seen(self, update_key: str) -> bool:
        """In legacy mode, whether a worker of the old layout marked ``update_key`` seen."""
        return self.legacy and bool(await self.client.exists(self.old.seen(update_key)))

    async def run_pass(self, count: int = 500) -> int:
        """One pass over every untagged key of the prefix: move each legacy one.
        Returns how many were moved."""
        where: dict[str, Any] = {"target_nodes": "primaries"} if self.cluster else {}
        moved = 0
        async for name in self.client.scan_iter(match=self.old.untagged(), count=count,
                                                **where):
            key = classify(self.old, self.keys, _text(name))
            if key is not None and await self.move(key):
                moved += 1
        if self.timers is not None:
            moved += await self.timers.drain_legacy()
        return moved

    async def upgrade(self, clock: Any = time.monotonic, sleep: Any = asyncio.sleep,
                      watch_s: float = WATCH_S, repass_s: float = REPASS_S) -> None:
        """Legacy mode until the first pass is done, then a pass every ``repass_s``
        until ``watch_s`` after the start. A pass that fails (Redis unreachable) is
        logged and tried again after ``repass_s`` (legacy mode stays on until one
        succeeds)."""
        self.legacy = True
        until = clock() + watch_s
        while not self._stopping:
            try:
                moved = await self.run_pass()
                self.legacy = False
                if moved:
                    log.info("key layout: %d keys moved to their chat's slot", moved)
            except Exception as err:
                if _cancelling():  # the client turned our cancellation into its error
                    raise asyncio.CancelledError from err
                log.warning("key layout pass failed (%s): tried again later",
                            type(err).__name__)
            if clock() + repass_s > until and not self.legacy:
                return
            await sleep(repass_s)

    def start(self) -> None:
        """Run :meth:`upgrade` in the background (stopped by :meth:`stop`)."""
        if self._task is None:
            self.legacy = True
            self._task = asyncio.get_running_loop().create_task(self.upgrade())

    async def stop(self) -> None:
        """Stop the background upgrade, if any (a pass cut off halfway is safe: module
        docstring). A client that turns the cancellation into its own error (fakeredis
        does) is cancelled again until the task ends."""
        task, self._task = self._task, None
        self._stopping = True
        while task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=0.5)
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                task.result()
