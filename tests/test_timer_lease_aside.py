"""A claim left to finish aside (adapters/storage/timers.py, issue 36) strands no game:
its leases are deadlines, so a worker that stops before harvesting them only delays
those games by the lease (DESIGN "Timers": a claim is a lease, not a removal). Runs on
fakeredis and, with REDIS_URL, on the real Redis."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from adapters.storage.connect import open_store
from adapters.storage.redis_store import RedisStore

GAMES = [f"g{n:03d}" for n in range(6)]


@pytest.fixture
async def pair(store_url: str | None) -> AsyncIterator[tuple[Any, str]]:
    """A client and a fresh key prefix (the store of each test is built on them)."""
    first = await open_store(store_url, f"test-{uuid.uuid4().hex}")
    yield first.client, first.keys.prefix
    async for key in first.client.scan_iter(match=first.keys.pattern()):
        await first.client.delete(key)
    await first.close()


def store_on(pair: tuple[Any, str], sets: int) -> RedisStore:
    return RedisStore(pair[0], pair[1], timer_sets=sets)


async def test_a_claim_that_ends_after_its_tick_gave_up_and_is_never_harvested_strands_no_game(
        pair: tuple[Any, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A set's claim outlives the tick's wait (SLOW_S), its script runs after the tick
    gave up on it (the leases pushed to now + lease), and the worker stops before a later
    tick harvests it (``close``): nobody steps those games until their lease ends, then
    another worker claims every one of them (a claim moves a deadline, never removes it;
    DESIGN "Timers")."""
    store = store_on(pair, 1)
    games = GAMES
    for n, gid in enumerate(games):
        await store.set_deadline(gid, 1000.0 + n)
    claim = store.timers._claim
    release = asyncio.Event()

    async def late(keys: list[str], args: list[Any]) -> Any:
        await release.wait()
        return await claim(keys=keys, args=args)

    monkeypatch.setattr(store.timers, "_claim", late)
    assert await store.claim_due(2000.0, limit=10, lease_s=10.0) == []  # the tick gave up
    release.set()
    await asyncio.sleep(0.05)  # the script ran aside: every lease ends at 2010
    await store.timers.close()  # the worker stops: its leases are never harvested
    leased = await store.client.zrange(store.timers.key(0), 0, -1, withscores=True)
    assert {float(score) for _gid, score in leased} == {2010.0}
    other = store_on(pair, 1)
    assert await other.claim_due(2009.0, limit=10) == []  # the leases still run
    assert sorted(await other.claim_due(2010.0, limit=10)) == games
    await other.timers.close()
