"""Where the Telegram adapter remembers message ids, in Redis so any worker can edit them:
the shared :class:`adapters.delivery.refs.GameRefs` in the ``tg`` key space, plus what
only Telegram has.

Per game, the hash ``<prefix>:{<game_id>}:tg`` holds ``table`` (``"<chat_id>:<message_id>"``)
and per person ``hand:<user_id>`` and ``ping:<user_id>`` (message ids in the person's
private chat). A group that became a supergroup keeps its original id in the service
(games, settings and ranking stay under it): ``<prefix>:{tg:<old>}:successor`` and
``<prefix>:{tg:<new>}:original`` map the two ids, each in its chat's slot. Per person,
``<prefix>:{tg:<user_id>}:dm`` (the slot of their private chat) records that the bot
can write to them (``"1"``) or was refused (``"0"``). Names: :mod:`adapters.storage.keys`;
before issue 36 these three had no hash tag, and with ``layout`` (the store's
:class:`adapters.storage.layout.Layout`) an old one is moved when first read.
"""

from __future__ import annotations

import logging
from typing import Any

from redis.exceptions import ResponseError

from adapters.delivery.refs import TWO_DAYS, GameRefs
from adapters.storage.layout import Layout

log = logging.getLogger(__name__)

__all__ = ["TWO_DAYS", "MessageRefs"]


class MessageRefs(GameRefs):
    """Message ids of one Telegram bot, on a redis-py asyncio client
    (``decode_responses=True``)."""

    def __init__(self, client: Any, prefix: str = "buraco", ttl_s: int = TWO_DAYS,
                 layout: Layout | None = None) -> None:
        super().__init__(client, prefix, ttl_s, platform="tg")
        self.layout = layout

    async def _adopt(self, kind: str, ident: str) -> str:
        """The new name of key ``kind`` (successor, original, dm) of chat or person
        ``ident``, its old one moved there first while the layout upgrade is under way."""
        new = getattr(self.keys, kind)("tg", ident)
        if self.layout is not None:
            await self.layout.adopt(getattr(self.layout.old, kind)("tg", ident), new,
                                    "string")
        return str(new)

    async def table(self, game_id: str) -> tuple[int, int] | None:
        """``(chat_id, message_id)`` of the game's table message, or None."""
        value = await self.get(game_id, "table")
        if not value:
            return None
        chat, message = value.split(":")
        return int(chat), int(message)

    async def set_table(self, game_id: str, chat_id: int, message_id: int) -> None:
        """Remember the game's table message."""
        await self.put(game_id, "table", f"{chat_id}:{message_id}")

    async def forget_table(self, game_id: str) -> None:
        """Forget the table message (the next table view is posted anew)."""
        await self.drop(game_id, "table")

    async def message(self, game_id: str, kind: str, user_id: str) -> int | None:
        """Id of the ``kind`` (``"hand"`` or ``"ping"``) message in ``user_id``'s DM."""
        value = await self.get(game_id, f"{kind}:{user_id}")
        return int(value) if value else None

    async def set_message(self, game_id: str, kind: str, user_id: str, message_id: int) -> None:
        """Remember the ``kind`` message in ``user_id``'s DM."""
        await self.put(game_id, f"{kind}:{user_id}", str(message_id))

    async def set_migration(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: remember both directions (no expiry). Two keys
        of two Redis Cluster slots, so a pipeline, not a transaction: each write stands
        alone and writing them again (the next migration message) changes nothing."""
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.set(self.keys.successor("tg", str(old_chat_id)), str(new_chat_id))
            pipe.set(self.keys.original("tg", str(new_chat_id)), str(old_chat_id))
            await pipe.execute()

    async def _read(self, key: str) -> str | None:
        """``GET key``; a key of another Redis type (damaged) is logged by its kind and
        reads as unset (its next write replaces it), so one bad key never stops a chat."""
        try:
            value = await self.client.get(key)
        except ResponseError as err:
            if "WRONGTYPE" not in str(err):
                raise
            log.error("key %s unreadable (WRONGTYPE): read as unset", key)
            return None
        return None if value is None else str(value)

    async def successor(self, chat_id: int) -> int | None:
        """The supergroup id that replaced group ``chat_id``, or None."""
        value = await self._read(await self._adopt("successor", str(chat_id)))
        return int(value) if value else None

    async def original(self, chat_id: int) -> int | None:
        """The group id that supergroup ``chat_id`` replaced, or None."""
        value = await self._read(await self._adopt("original", str(chat_id)))
        return int(value) if value else None

    async def dm_state(self, user_id: str) -> bool | None:
        """True if the bot could write to the person, False if refused, None if unknown."""
        value = await self._read(await self._adopt("dm", user_id))
        return None if value is None else value == "1"

    async def set_dm_state(self, user_id: str, ok: bool) -> None:
        """Record whether the bot can write to the person (kept 30 days)."""
        await self.client.set(await self._adopt("dm", user_id), "1" if ok else "0",
                              ex=30 * 86_400)
