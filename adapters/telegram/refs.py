"""Where the adapter remembers Telegram message ids, in Redis so any worker can edit them.

Per game, one hash ``<prefix>:{<game_id>}:tg`` (the ``{game_id}`` hash tag keeps it in the
game's Redis Cluster slot) with fields ``table`` (``"<chat_id>:<message_id>"``), and per
person ``hand:<user_id>`` and ``ping:<user_id>`` (message ids in the person's private
chat). It expires ``ttl_s`` after its last write and is deleted when the game closes.
A group that became a supergroup keeps its original id in the service (games, settings
and ranking stay under it): ``<prefix>:tg:chat:new:<old>`` and ``...:old:<new>`` map the
two ids. Per person, ``<prefix>:tg:dm:<user_id>`` records that the bot can write to them
(``"1"``) or was refused (``"0"``).
"""

from __future__ import annotations

from typing import Any

TWO_DAYS = 2 * 86_400
# Keep the highest table version shown; answer 1 when ARGV[1] is not older than it.
_NEWEST = """
local shown = tonumber(redis.call('HGET', KEYS[1], 'table_v') or '0')
local mine = tonumber(ARGV[1])
if mine < shown then return 0 end
redis.call('HSET', KEYS[1], 'table_v', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""


class MessageRefs:
    """Message ids of one bot, on a redis-py asyncio client (``decode_responses=True``)."""

    def __init__(self, client: Any, prefix: str = "buraco", ttl_s: int = TWO_DAYS) -> None:
        self.client = client
        self.prefix = prefix
        self.ttl_s = ttl_s

    def _game(self, game_id: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:tg"

    async def _set(self, game_id: str, field: str, value: str) -> None:
        key = self._game(game_id)
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.hset(key, field, value)
            pipe.expire(key, self.ttl_s)
            await pipe.execute()

    async def newest_table(self, game_id: str, version: int) -> bool:
        """True when a table view of game state ``version`` is not older than the last
        one shown (any worker): an older view must not overwrite a newer one."""
        shown = await self.client.eval(_NEWEST, 1, self._game(game_id), version, self.ttl_s)
        return bool(shown)

    async def table(self, game_id: str) -> tuple[int, int] | None:
        """``(chat_id, message_id)`` of the game's table message, or None."""
        value = await self.client.hget(self._game(game_id), "table")
        if not value:
            return None
        chat, message = str(value).split(":")
        return int(chat), int(message)

    async def set_table(self, game_id: str, chat_id: int, message_id: int) -> None:
        """Remember the game's table message."""
        await self._set(game_id, "table", f"{chat_id}:{message_id}")

    async def forget_table(self, game_id: str) -> None:
        """Forget the table message (the next table view is posted anew)."""
        await self.client.hdel(self._game(game_id), "table")

    async def message(self, game_id: str, kind: str, user_id: str) -> int | None:
        """Id of the ``kind`` (``"hand"`` or ``"ping"``) message in ``user_id``'s DM."""
        value = await self.client.hget(self._game(game_id), f"{kind}:{user_id}")
        return int(value) if value else None

    async def set_message(self, game_id: str, kind: str, user_id: str, message_id: int) -> None:
        """Remember the ``kind`` message in ``user_id``'s DM."""
        await self._set(game_id, f"{kind}:{user_id}", str(message_id))

    async def flag(self, game_id: str, name: str) -> bool:
        """Set a once-per-game flag; True the first time (e.g. "told the group about X")."""
        key = self._game(game_id)
        added = await self.client.hsetnx(key, f"flag:{name}", "1")
        await self.client.expire(key, self.ttl_s)
        return bool(added)

    async def all(self, game_id: str) -> dict[str, str]:
        """Every stored field of the game (``table``, ``hand:<id>``, ``ping:<id>``...)."""
        return dict(await self.client.hgetall(self._game(game_id)))

    async def forget_game(self, game_id: str) -> None:
        """Drop every message id of the game (it closed)."""
        await self.client.delete(self._game(game_id))

    async def set_migration(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: remember both directions (no expiry)."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.set(f"{self.prefix}:tg:chat:new:{old_chat_id}", str(new_chat_id))
            pipe.set(f"{self.prefix}:tg:chat:old:{new_chat_id}", str(old_chat_id))
            await pipe.execute()

    async def successor(self, chat_id: int) -> int | None:
        """The supergroup id that replaced group ``chat_id``, or None."""
        value = await self.client.get(f"{self.prefix}:tg:chat:new:{chat_id}")
        return int(value) if value else None

    async def original(self, chat_id: int) -> int | None:
        """The group id that supergroup ``chat_id`` replaced, or None."""
        value = await self.client.get(f"{self.prefix}:tg:chat:old:{chat_id}")
        return int(value) if value else None

    async def dm_state(self, user_id: str) -> bool | None:
        """True if the bot could write to the person, False if refused, None if unknown."""
        value = await self.client.get(f"{self.prefix}:tg:dm:{user_id}")
        return None if value is None else value == "1"

    async def set_dm_state(self, user_id: str, ok: bool) -> None:
        """Record whether the bot can write to the person (kept 30 days)."""
        await self.client.set(f"{self.prefix}:tg:dm:{user_id}", "1" if ok else "0",
                              ex=30 * 86_400)
