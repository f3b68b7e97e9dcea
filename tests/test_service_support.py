"""Shared helpers of the service tests (imported by tests/test_service_*.py).

Every service test runs against the in-memory store, the real ``RedisStore`` on an
in-process fakeredis server, and the ``RedisStore`` on the Redis at ``REDIS_URL`` when
that is set (CI). Time is an injected clock; decks are seeded so hands are exact.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import AsyncIterator
from typing import Any

import fakeredis
import pytest
import redis.asyncio as aioredis

from adapters.storage import RedisStore, StoreKeys
from bot.effects import ChatRef, Effect, PlayerRef
from bot.memstore import MemoryStore
from bot.service import Service
from engine.cards import Card, full_deck
from engine.rules import Rules

REDIS_URL = os.environ.get("REDIS_URL") or None
BACKENDS = ["memory", "fakeredis", *(["redis"] if REDIS_URL else [])]
T0 = 1_800_000_000.0

CHAT = ChatRef(platform="tg", chat_id="-100", title="Grupo do Buraco")
CHAT2 = ChatRef(platform="tg", chat_id="-200", title="Outro grupo")
ANA = PlayerRef(platform="tg", user_id="1", name="Ana")
BIA = PlayerRef(platform="tg", user_id="2", name="Bia")
CAIO = PlayerRef(platform="tg", user_id="3", name="Caio")
DANI = PlayerRef(platform="tg", user_id="4", name="Dani")
EVA = PlayerRef(platform="tg", user_id="5", name="Eva")


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class SeededDecks:
    """Deck of each deal: the full deck shuffled by ``random.Random(seed + deal number)``."""

    def __init__(self, seed: int = 7) -> None:
        self.seed = seed
        self.dealt = 0

    def __call__(self, rules: Rules) -> list[Card]:
        deck = full_deck(rules.jokers)
        random.Random(self.seed + self.dealt).shuffle(deck)
        self.dealt += 1
        return deck


class Backend:
    """Makes stores that share one server (several 'workers')."""

    def __init__(self, kind: str, clock: FakeClock) -> None:
        self.kind = kind
        self.memory = MemoryStore(clock)
        self.server = fakeredis.FakeServer()
        self.prefix = f"test-svc-{uuid.uuid4().hex}"
        self.clients: list[Any] = []

    def make(self) -> Any:
        if self.kind == "memory":
            return self.memory
        client: Any
        if self.kind == "redis":
            client = aioredis.from_url(REDIS_URL or "", decode_responses=True)
        else:
            client = fakeredis.FakeAsyncRedis(server=self.server, decode_responses=True)
        self.clients.append(client)
        return RedisStore(client, self.prefix)

    async def close(self) -> None:
        if self.clients:
            client = self.clients[0]
            keys = [k async for k in client.scan_iter(match=StoreKeys(self.prefix).pattern())]
            if keys:
                await client.delete(*keys)
        for client in self.clients:
            await client.aclose()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, clock: FakeClock) -> AsyncIterator[Backend]:
    b = Backend(request.param, clock)
    yield b
    await b.close()


@pytest.fixture
def store(backend: Backend) -> Any:
    return backend.make()


def make_service(store: Any, clock: FakeClock, **kw: Any) -> Service:
    """A service with no AI pacing, the fallback AI (deterministic), seeded decks."""
    opts: dict[str, Any] = {"ai_pace_s": 0.0, "chooser": None, "deck_fn": SeededDecks(),
                            "threaded": False}
    opts.update(kw)
    return Service(store, clock, **opts)


@pytest.fixture
def svc(store: Any, clock: FakeClock) -> Service:
    return make_service(store, clock)


def kinds(effects: list[Effect]) -> list[str]:
    """The kinds of ``effects`` in order."""
    return [e.kind for e in effects]


def only(effects: list[Effect], kind: str) -> Any:
    """The one effect of ``kind`` (fails if there are none or several)."""
    found = [e for e in effects if e.kind == kind]
    assert len(found) == 1, kinds(effects)
    return found[0]


def texts(effects: list[Effect]) -> list[str]:
    """Texts of replies/says/tells in order."""
    return [e.text for e in effects if e.kind in ("reply", "say", "tell", "turn")]


def button(view: Any, label: str) -> str:
    """The payload of the button labelled ``label``."""
    for row in view.buttons:
        for b in row:
            if b.label == label:
                return str(b.data)
    raise AssertionError(f"no button {label!r} in {[b.label for r in view.buttons for b in r]}")


async def game_of(store: Any, chat: ChatRef = CHAT, gid: str | None = None) -> Any:
    """The chat's game (or game ``gid``) as stored (``bot.model.Game``) and its version."""
    from bot.model import decode

    gid = gid or await store.chat_game(chat.key)
    assert gid is not None
    got = await store.load_game(gid)
    assert got is not None
    return got[0], decode(got[1])


async def rollback(store: Any, gid: str, version: int, text: str) -> None:
    """The store goes back to an older ``(version, text)`` (a failover that lost writes)."""
    if isinstance(store, MemoryStore):
        store.games[gid] = (version, text, store.games[gid][2])
    else:
        await store.client.hset(store.keys.state(gid), mapping={"v": version, "s": text})


def seeded_ai(view: Any, level: str) -> Any:
    """``engine.ai.choose`` with a seeded random source, so a game replays exactly."""
    from engine.ai import choose

    return choose(view, level, rng=random.Random(1000 * view.turn_count + view.seat))
