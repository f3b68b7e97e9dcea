"""Version announcements on Redis pub/sub (DESIGN "The web table"): every save that
wins announces "game G is at version V" on the game's own channel
(``<prefix>:{G}:ver``, in the game's Cluster slot), and every worker holding a web
table of G follows that channel.

Plain ``PUBLISH``/``SUBSCRIBE`` on one Redis; on a Redis Cluster sharded pub/sub
(``SPUBLISH``/``SSUBSCRIBE``, issue 28): the channel carries the game's hash tag, so an
announcement goes only to the node that owns the game's slot (and its replicas) instead
of being broadcast to every node of the cluster. Nothing is stored: a worker that missed
an announcement (its connection dropped) reads the games it follows again
(:mod:`adapters.web.hub`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from adapters.storage.keys import StoreKeys

IDLE_POLL_S = 0.05
"""How often a feed following nothing looks again whether it follows a game."""


class Announcements:
    """Mixed into :class:`adapters.storage.RedisStore`: ``client`` is its redis-py
    asyncio client (``decode_responses=True``), ``keys`` its :class:`StoreKeys`."""

    client: Any
    keys: StoreKeys
    cluster: bool = False
    """True on a Redis Cluster: sharded pub/sub."""

    async def announce(self, game_id: str, version: int) -> None:
        """``PUBLISH <prefix>:{game_id}:ver <version>`` (``SPUBLISH`` on a cluster; one
        round trip)."""
        channel = self.keys.versions(game_id)
        if self.cluster:
            await self.client.spublish(channel, str(version))
        else:
            await self.client.publish(channel, str(version))

    def version_feed(self) -> RedisFeed:
        """A new :class:`RedisFeed` on its own pub/sub connection(s)."""
        return RedisFeed(self.client, self.keys, sharded=self.cluster)


class RedisFeed:
    """:class:`bot.ports.VersionFeed` on one redis-py ``PubSub`` connection; ``sharded``
    (a Redis Cluster): ``SSUBSCRIBE`` through redis-py's ``ClusterPubSub``, which keeps a
    connection to each node owning a followed game's slot and moves the subscription
    when the slot moves (a reshard, a failover)."""

    def __init__(self, client: Any, keys: StoreKeys, sharded: bool = False) -> None:
        self.keys = keys
        self.sharded = sharded
        self.pubsub = client.pubsub(ignore_subscribe_messages=True)
        self._head = f"{keys.prefix}:{{"  # a channel is head + game id + "}:ver"

    async def follow(self, game_id: str) -> None:
        """``SUBSCRIBE`` (``SSUBSCRIBE``) to the game's channel."""
        if self.sharded:
            await self.pubsub.ssubscribe(self.keys.versions(game_id))
        else:
            await self.pubsub.subscribe(self.keys.versions(game_id))

    async def drop(self, game_id: str) -> None:
        """``UNSUBSCRIBE`` (``SUNSUBSCRIBE``) from the game's channel."""
        if self.sharded:
            await self.pubsub.sunsubscribe(self.keys.versions(game_id))
        else:
            await self.pubsub.unsubscribe(self.keys.versions(game_id))

    async def next(self, timeout_s: float) -> tuple[str, int] | None:
        """The next ``(game_id, version)``, None after ``timeout_s``. Subscription
        replies and a message that is no version are skipped."""
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout_s
        while not self.pubsub.subscribed:  # nothing followed: wait for a follow
            if loop.time() >= until:
                return None
            await asyncio.sleep(min(IDLE_POLL_S, until - loop.time()))
        while self.pubsub.subscribed:
            left = until - loop.time()
            read = (self.pubsub.get_sharded_message if self.sharded
                    else self.pubsub.get_message)
            msg = await read(ignore_subscribe_messages=True, timeout=max(left, 0.0))
            got = self._parse(msg) if msg else None
            if got is not None:
                return got
            if left <= 0:
                break
        return None

    def _parse(self, msg: dict[str, Any]) -> tuple[str, int] | None:
        if msg.get("type") not in ("message", "smessage"):
            return None
        channel, data = str(msg["channel"]), str(msg["data"])
        if not (channel.startswith(self._head) and channel.endswith("}:ver")
                and data.isdigit()):
            return None
        return channel[len(self._head):-len("}:ver")], int(data)

    async def close(self) -> None:
        """Close the pub/sub connection."""
        await self.pubsub.aclose()
