"""Helpers of the season tests (issue 29): a service with a season store on one
(fake or real) Redis, and matches played through it to their end."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import fakeredis
import pytest
import redis.asyncio as aioredis
from test_service_match import human_turn
from test_service_support import REDIS_URL, FakeClock, game_of, make_service

from adapters.storage import RedisStore, StoreKeys
from adapters.storage.season import RedisSeason
from bot import play
from bot.effects import ChatRef, Effect, PlayerRef, pack
from bot.service import Service

KINDS = ["fakeredis", *(["redis"] if REDIS_URL else [])]


class Redis:
    """Clients of one server under one fresh prefix; its keys are deleted afterwards."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.server = fakeredis.FakeServer()
        self.prefix = f"test-season-{uuid.uuid4().hex}"
        self.clients: list[Any] = []

    def client(self) -> Any:
        made: Any = (aioredis.from_url(REDIS_URL or "", decode_responses=True)
                     if self.kind == "redis"
                     else fakeredis.FakeAsyncRedis(server=self.server, decode_responses=True))
        self.clients.append(made)
        return made

    def store(self) -> RedisStore:
        return RedisStore(self.client(), self.prefix)

    async def close(self) -> None:
        client = self.client()
        keys = [k async for k in client.scan_iter(match=StoreKeys(self.prefix).pattern())]
        if keys:
            await client.delete(*keys)
        for made in self.clients:
            await made.aclose()


@pytest.fixture(params=KINDS)
async def redis(request: pytest.FixtureRequest) -> AsyncIterator[Redis]:
    r = Redis(request.param)
    yield r
    await r.close()


def worker(redis: Redis, clock: FakeClock, **kw: Any) -> tuple[Service, RedisStore,
                                                                 RedisSeason]:
    """One worker: its own clients, a service counting the season."""
    store = redis.store()
    season = kw.pop("season", None) or RedisSeason.beside(store)
    return make_service(store, clock, season=season, **kw), store, season


async def play_match(svc: Service, store: RedisStore, chat: ChatRef, people: list[PlayerRef],
                     preset: str = "tranca", robots: list[str] | None = None,
                     args: str = "") -> tuple[str, list[Effect]]:
    """Open, fill and play a match to its end through the service; its game id and the
    effects of the play."""
    await svc.new_game(chat, people[0], f"{preset} {args}".strip())
    for person in people[1:]:
        await svc.join(chat, person)
    for level in robots or []:
        await svc.add_ai(chat, people[0], level)
    await svc.start(chat, people[0])
    gid = (await game_of(store, chat))[1].id
    return gid, await play_to_end(svc, store, gid, people[0])


async def play_to_end(svc: Service, store: RedisStore, gid: str,
                      anyone: PlayerRef) -> list[Effect]:
    """Play game ``gid`` to the match's end: people by buttons (the careful safe move),
    robots by ticks, each next deal by ``anyone``'s button."""
    out: list[Effect] = []
    for _ in range(20_000):
        _v, game = await game_of(store, gid=gid)
        if game.status == "over":
            return out
        if game.status == "between":
            out += await svc.press(anyone, pack(gid, 0, "n", len(game.deals) + 1))
            continue
        turn = play.deal_of(game).turn
        if game.seats[turn].player is not None and not game.seats[turn].away:
            out += await human_turn(svc, store, gid, turn)
        else:
            out += await svc.tick()
    raise AssertionError("match did not end")
