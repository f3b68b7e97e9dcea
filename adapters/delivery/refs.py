"""Where a chat adapter remembers its message references, in Redis so any worker can edit
them (shared by Telegram and Discord; each platform has its own key space).

Per game, one hash ``<prefix>:{<game_id>}:<platform>`` (the ``{game_id}`` hash tag keeps
it in the game's Redis Cluster slot) with fields ``table`` (the table message),
``table_v`` (the newest game version shown; :data:`CLOSED_V` once the game closed),
``hand:<user_id>`` and ``ping:<user_id>`` (the person's hand message and last turn
ping) and ``flag:<name>`` (once-per-game notices). Values are opaque strings the
platform makes (Telegram ``"<chat>:<message>"``, Discord ``"<channel>:<message>"``).
The hash expires ``ttl_s`` after its last write; when the game closes only the
``table_v`` mark stays.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from redis.exceptions import ResponseError

from adapters.storage.keys import StoreKeys
from bot.effects import PlayerRef

log = logging.getLogger(__name__)
T = TypeVar("T")
TWO_DAYS = 2 * 86_400
MARK_TTL_S = 86_400
"""An answer's ref kept for a later edit (:meth:`GameRefs.put_mark`) at most a day (a
queue entry lives 10 minutes)."""
HANDS_KEPT = 4096
"""Games whose hand refs one process keeps in memory (:meth:`GameRefs.known_hand`)."""
HAND_KEPT_S = 10.0
"""How long a hand ref kept in memory is used without reading Redis again: the longest
another worker's replacement of a hand message that was not deleted (``/mao`` when the
old one can no longer be deleted) can go unseen by this process."""
CLOSED_V = 2**53 - 1
"""``table_v`` of a closed game: newer than any version a game reaches."""
# Keep the highest table version shown; answer 1 when ARGV[1] is not older than it.
_NEWEST = """
local shown = tonumber(redis.call('HGET', KEYS[1], 'table_v') or '0')
local mine = tonumber(ARGV[1])
if mine < shown then return 0 end
redis.call('HSET', KEYS[1], 'table_v', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""
# Store a field and refresh the hash's expiry in one command (a script: one round trip
# and one reply, where MULTI/HSET/EXPIRE/EXEC sends four). ARGV: ttl, field, value.
_PUT = """
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""
# Forget fields ARGV[4..], then, unless ARGV[2] is '', store ARGV[3] under field ARGV[2]
# and refresh the expiry. ARGV: ttl, field to store ('' for none), its value, fields...
_SWAP = """
for i = 4, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return 1
"""
# _NEWEST, answering also the stored ref ARGV[3] of the table it may edit: {1|0, ref}.
_NEWEST_REF = """
local shown = tonumber(redis.call('HGET', KEYS[1], 'table_v') or '0')
local mine = tonumber(ARGV[1])
if mine < shown then return {0, false} end
redis.call('HSET', KEYS[1], 'table_v', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {1, redis.call('HGET', KEYS[1], ARGV[3])}
"""


class GameRefs:
    """Message references of one platform's bot, on a redis-py asyncio client
    (``decode_responses=True``); ``platform`` is ``"tg"`` or ``"dc"``.

    The hand refs (``hand:<user id>``) this process last read or wrote are kept in
    memory (:meth:`known_hand`, at most :data:`HANDS_KEPT` games): every read, write,
    drop, swap and closing here updates them; what another worker wrote is not seen
    (the delivery reads Redis again when an edit of a kept ref finds it gone, and a
    kept ref older than :data:`HAND_KEPT_S` is read again).

    ``clock``: monotonic seconds (injectable for tests)."""

    def __init__(self, client: Any, prefix: str = "buraco", ttl_s: int = TWO_DAYS,
                 platform: str = "tg", clock: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.prefix = prefix
        self.ttl_s = ttl_s
        self.platform = platform
        self.keys = StoreKeys(prefix)
        self._hands: OrderedDict[str, dict[str, tuple[str, float]]] = OrderedDict()
        self._clock = clock
        self._put = client.register_script(_PUT)
        self._swap = client.register_script(_SWAP)
        self._newest_ref = client.register_script(_NEWEST_REF)

    def _game(self, game_id: str) -> str:
        return self.keys.refs(game_id, self.platform)

    async def _healed(self, game_id: str, op: Callable[[], Awaitable[T]]) -> T:
        """Run ``op`` on the game's hash; when that key holds another Redis type
        (``WRONGTYPE``: damaged), log it, drop the key and run ``op`` once more. The
        game's messages are then unknown, so the next table and hands are posted anew
        instead of every edit failing (a lost table, a retried delivery)."""
        try:
            return await op()
        except ResponseError as err:
            if "WRONGTYPE" not in str(err):
                raise
            log.error("game %s: %s message refs unreadable (WRONGTYPE): dropped", game_id,
                      self.platform)
            await self.client.delete(self._game(game_id))
            self._hands.pop(game_id, None)
            return await op()

    async def get(self, game_id: str, field: str) -> str | None:
        """The stored reference ``field`` of the game (``"table"``, ``"hand:42"``), or None."""
        value = await self._healed(game_id, lambda: self.client.hget(self._game(game_id),
                                                                     field))
        got = str(value) if value else None
        self._keep(game_id, field, got)
        return got

    def known_hand(self, game_id: str, field: str) -> str | None:
        """The hand ref ``field`` (``"hand:42"``) of the game as this process read or
        wrote it in the last :data:`HAND_KEPT_S` seconds, without asking Redis; None when
        it has none in memory that recent."""
        kept = self._hands.get(game_id)
        got = None if kept is None else kept.get(field)
        if got is None or self._clock() - got[1] > HAND_KEPT_S:
            return None
        return got[0]

    def _keep(self, game_id: str, field: str, value: str | None) -> None:
        """Remember (``value``) or forget (None) a hand ref read or written just now."""
        if not field.startswith("hand:"):
            return
        kept = self._hands.get(game_id)
        if value is None:
            if kept is not None:
                kept.pop(field, None)
            return
        if kept is None:
            kept = self._hands[game_id] = {}
            if len(self._hands) > HANDS_KEPT:
                self._hands.popitem(last=False)
        else:
            self._hands.move_to_end(game_id)
        kept[field] = (value, self._clock())

    async def put(self, game_id: str, field: str, value: str) -> None:
        """Store reference ``field`` of the game (refreshes the hash's expiry), in one
        command (a script: HSET and EXPIRE together)."""
        key = self._game(game_id)
        await self._healed(game_id, lambda: self._put(keys=[key],
                                                      args=[self.ttl_s, field, value]))
        self._keep(game_id, field, value)

    async def swap(self, game_id: str, forget: list[str], field: str | None = None,
                   value: str = "") -> None:
        """Forget the references named in ``forget`` and, with ``field``, store ``value``
        under it (refreshing the expiry), in one step: a turn ping replaced (issue 36:
        one round trip where a drop per old ping and a put took one each). Nothing is
        sent when there is nothing to do."""
        if not forget and field is None:
            return
        key = self._game(game_id)
        await self._healed(game_id, lambda: self._swap(
            keys=[key], args=[self.ttl_s, field or "", value, *forget]))
        for name in forget:
            self._keep(game_id, name, None)
        if field is not None:
            self._keep(game_id, field, value)

    async def drop(self, game_id: str, field: str) -> None:
        """Forget reference ``field`` (the next view of it is posted anew)."""
        self._keep(game_id, field, None)
        await self._healed(game_id, lambda: self.client.hdel(self._game(game_id), field))

    async def newest_table(self, game_id: str, version: int) -> bool:
        """True when a table view of game state ``version`` is not older than the last
        one shown (any worker): an older view must not overwrite a newer one."""
        shown = await self._healed(game_id, lambda: self.client.eval(
            _NEWEST, 1, self._game(game_id), version, self.ttl_s))
        return bool(shown)

    async def newest_table_ref(self, game_id: str, version: int,
                               field: str = "table") -> tuple[bool, str | None]:
        """:meth:`newest_table` and, when the view may be shown, the stored reference
        ``field`` of the table message it edits (None: none yet), read in the same step:
        one round trip where the check and :meth:`get` took one each (issue 36)."""
        got = await self._healed(game_id, lambda: self._newest_ref(
            keys=[self._game(game_id)], args=[version, self.ttl_s, field]))
        shown, ref = got[0], got[1] if len(got) > 1 else None
        return bool(shown), (str(ref) if ref else None)

    async def flag(self, game_id: str, name: str) -> bool:
        """Set a once-per-game flag; True the first time (e.g. "told the group about X")."""
        key = self._game(game_id)
        added = await self._healed(game_id, lambda: self.client.hsetnx(key, f"flag:{name}",
                                                                       "1"))
        await self.client.expire(key, self.ttl_s)
        return bool(added)

    async def all(self, game_id: str) -> dict[str, str]:
        """Every stored field of the game (``table``, ``hand:<id>``, ``ping:<id>``...)
        but the version mark ``table_v``."""
        fields = await self._healed(game_id, lambda: self.client.hgetall(self._game(game_id)))
        hands = {k: str(v) for k, v in fields.items() if k.startswith("hand:")}
        if hands or game_id in self._hands:  # what Redis holds now replaces what was kept
            self._hands.pop(game_id, None)
            for name, value in hands.items():
                self._keep(game_id, name, value)
        return {k: v for k, v in fields.items() if k != "table_v"}

    async def put_mark(self, player: PlayerRef, mark: str, ref: str,
                       ttl_s: int = MARK_TTL_S) -> None:
        """Keep the ref of an answer to ``player`` under ``mark`` (``"queue"``: the answer
        to ``/procurar``, issue 35) for ``ttl_s`` seconds, in the person's own slot."""
        await self.client.set(self.keys.mark(player.platform, player.user_id, mark), ref,
                              ex=ttl_s)

    async def take_mark(self, player: PlayerRef, mark: str) -> str | None:
        """The ref kept under ``mark`` for ``player``, forgotten in the same step (GETDEL:
        two workers never both edit it), or None."""
        got = await self.client.getdel(self.keys.mark(player.platform, player.user_id, mark))
        return str(got) if got else None

    async def forget_game(self, game_id: str) -> None:
        """Drop every message reference of the game (it closed) and leave ``table_v`` at
        :data:`CLOSED_V`: a table view of the game still queued on another worker is then
        older than the last one shown and is dropped, instead of posting a new table with
        buttons after the closing."""
        key = self._game(game_id)
        self._hands.pop(game_id, None)
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            pipe.hset(key, "table_v", CLOSED_V)
            pipe.expire(key, self.ttl_s)
            await pipe.execute()
