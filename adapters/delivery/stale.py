"""Tables waiting for an edit, kept in Redis so a table edit never dies with a worker
(issue 12, "a lost table edit").

When a table view enters the group coalescer, its game goes into a sorted set of
stale tables with a due time (the coalescer's wait plus ``grace_s``).
Showing the table removes it again, unless a newer view marked it after that show began.
A worker killed while the edit waited leaves the mark; once due, the tick loop of any
live worker claims it (a lease: the due time moves ``grace_s`` ahead, so two workers do not
both take it) and re-renders the table from the stored game.

The marks are kept as the deadlines are (:mod:`adapters.storage.timers`, issue 36):
with ``sets`` (the store's ``REDIS_TIMER_SETS``) 1, the one set
``<prefix>:<platform>:stale``; with more, set ``k`` holds the games whose slot is in
range ``k`` and carries that range's hash tag, so marking and clearing a game's table
touch the node of the game's own slot. A claim walks this worker's sets and the one-set
name (where workers with one set, or of the layout before issue 36, mark).

A person's hand message is marked the same way (:meth:`StaleTables.hands`, issue 36): a
worker SIGKILLed between a move's save and the hand edit it owed leaves the mark, and
a live worker's tick loop sends the hand again from the stored game
(:meth:`adapters.delivery.outbox.Delivery.redo`), instead of the old hand staying on
screen until the next move.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from adapters.storage.keys import StoreKeys
from adapters.storage.scripts import CLAIM_DUE
from adapters.storage.timers import range_of, range_tag

GRACE_S = 70.0
"""Longer than the longest wait a live worker's coalescer may impose (the 20-a-minute
window is 61 s), so a live worker's pending edit is never redone by another."""
HAND_GRACE_S = 10.0
"""The same for a hand message (issue 36): its coalescer waits 1 s between two edits of
one message (60 a minute), so a hand mark older than this was left by a dead worker.
A live worker's edit redone all the same would only show the same hand again."""
# ARGV: member, due. Never move a mark earlier; return the mark's due time.
_MARK = """
local score = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0')
local due = math.max(score, tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], due, ARGV[1])
return tostring(due)
"""
# ARGV: member, the due time the finished show was marked with. Remove unless re-marked
# (a millisecond of slack: Lua's tostring keeps 14 digits of the due time it returned).
_CLEAR = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) <= tonumber(ARGV[2]) + 0.001 then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
"""


class StaleTables:
    """The Redis set of tables that still owe their chat an edit (redis-py asyncio client).

    ``clock`` gives wall-clock seconds (every worker's clock should be roughly right; the
    lease only decides when a mark counts as abandoned)."""

    def __init__(self, client: Any, prefix: str = "buraco", platform: str = "tg",
                 grace_s: float = GRACE_S, clock: Callable[[], float] = time.time,
                 sets: int = 1, kind: str = "") -> None:
        self.client = client
        self.prefix, self.platform = prefix, platform
        self.key = StoreKeys(prefix).stale(platform) + (f":{kind}" if kind else "")
        self.sets = sets
        self.keys = [self.key if sets == 1 else f"{self.key}:{{{range_tag(k, sets)}}}"
                     for k in range(sets)]
        self.grace_s = grace_s
        self.clock = clock
        self._claim = client.register_script(CLAIM_DUE)  # the timers' lease, same rule

    def hands(self) -> StaleTables:
        """The marks of hand messages owing an edit (issue 36), beside this platform's
        tables: the sorted set ``<this set's name>:hands`` (with its slot ranges), members
        ``<game id>|<user id>`` (:func:`hand_member`), grace :data:`HAND_GRACE_S`."""
        return StaleTables(self.client, self.prefix, self.platform, HAND_GRACE_S,
                           self.clock, self.sets, kind="hands")

    async def mark(self, game_id: str, wait_s: float) -> float:
        """Mark the game's table stale, due ``wait_s`` + grace from now (or later, when it
        was marked or leased later already); returns the mark's due time, for
        :meth:`clear`."""
        due = self.clock() + wait_s + self.grace_s
        return float(await self.client.eval(_MARK, 1, self.home(game_id), game_id,
                                            repr(due)))

    def home(self, member: str) -> str:
        """The set that keeps a mark: the range of its game's slot (a hand's mark,
        ``<game id>|<user id>``, goes with its game: the slot table's R, docs/deploy.md)."""
        return self.keys[range_of(member.split("|", 1)[0], self.sets)]

    async def clear(self, game_id: str, due: float) -> bool:
        """The table marked with ``due`` was shown: drop the mark unless a later view
        re-marked it. True when dropped."""
        return bool(await self.client.eval(_CLEAR, 1, self.home(game_id), game_id,
                                           repr(due)))

    async def claim(self, limit: int = 10) -> list[str]:
        """Game ids whose mark is due (abandoned by a dead worker), leased for grace_s."""
        now = self.clock()
        out: list[str] = []
        for key in dict.fromkeys([*self.keys, self.key]):
            if len(out) >= limit:
                break
            got = await self._claim(keys=[key], args=[repr(now), limit - len(out),
                                                      repr(now + self.grace_s)])
            out += [str(g) for g in got]
        return out

    async def forget(self, game_id: str) -> None:
        """The game closed: no table edit is owed any more."""
        await self.client.zrem(self.home(game_id), game_id)


def hand_member(game_id: str, user_id: str) -> str:
    """The mark of ``user_id``'s hand message of game ``game_id`` (a game id never holds
    ``|``: :func:`bot.model.new_game_id`)."""
    return f"{game_id}|{user_id}"
