"""The deadlines in S timer sets (issue 28, adapters/storage/timers.py): a game's deadline
lives in its own set, a tick walks every set, and raising (or lowering) S on a running
deployment loses no deadline. Runs on fakeredis and, with REDIS_URL, on the real Redis."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from adapters.storage.connect import RedisTarget, open_store
from adapters.storage.redis_store import RedisStore
from adapters.storage.timers import crc16

GAMES = [f"g{n:03d}" for n in range(60)]


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


async def members(store: RedisStore, index: int) -> dict[str, float]:
    got = await store.client.zrange(store.timers.key(index), 0, -1, withscores=True)
    return {str(m): float(s) for m, s in got}


def test_crc16_is_redis_cluster_s_key_slot_hash() -> None:
    # CLUSTER KEYSLOT foo is 12182 = crc16("foo") mod 16384 (Redis Cluster spec)
    assert crc16("foo") % 16384 == 12182
    assert crc16("123456789") == 0x31C3  # the CRC16/XMODEM check value


async def test_set_zero_is_the_old_single_key_and_the_others_carry_their_own_hash_tag(
        pair: tuple[Any, str]) -> None:
    sets = store_on((pair[0], "p"), 4).timers
    assert [sets.key(k) for k in range(3)] == ["p:timers", "p:timers:{t1}", "p:timers:{t2}"]


async def test_each_deadline_lives_in_its_game_s_own_set_only(pair: tuple[Any, str]) -> None:
    store = store_on(pair, 4)
    for n, gid in enumerate(GAMES):
        await store.set_deadline(gid, 1000.0 + n)
    by_set = [await members(store, k) for k in range(4)]
    assert all(by_set), "60 games fill every one of the 4 sets"
    for gid in GAMES:
        assert [gid in got for got in by_set] == [k == crc16(gid) % 4 for k in range(4)]
    assert await store.has_deadline([*GAMES[:3], "nope"]) == [True, True, True, False]
    await store.clear_deadline(GAMES[0])
    assert await store.has_deadline(GAMES[:2]) == [False, True]


async def test_a_tick_claims_due_deadlines_of_every_set_up_to_its_limit(
        pair: tuple[Any, str]) -> None:
    store = store_on(pair, 4)
    for n, gid in enumerate(GAMES):
        await store.set_deadline(gid, 1000.0 + n)  # g000..g059 due at 1000..1059
    first = await store.claim_due(1029.5, limit=25)
    second = await store.claim_due(1029.5, limit=25)
    assert len(first) == 25 and len(second) == 5
    assert sorted(first + second) == GAMES[:30]
    assert await store.claim_due(1029.5, limit=25) == []  # leased: nobody else gets them
    for gid in GAMES[:30]:
        assert (await members(store, crc16(gid) % 4))[gid] == 1029.5 + 10.0


async def test_raising_s_loses_no_deadline_written_under_the_old_layout(
        pair: tuple[Any, str]) -> None:
    old, new = store_on(pair, 1), store_on(pair, 8)
    for n, gid in enumerate(GAMES):
        await old.set_deadline(gid, 1000.0 + n)
    moved = [g for g in GAMES if crc16(g) % 8 != 0]
    assert len(moved) > 40
    # the sweep checks the home set only: a game still in the old set reads as without a
    # deadline there, and gets one computed from its state (an extra entry, harmless)
    assert await new.has_deadline(GAMES) == [crc16(g) % 8 == 0 for g in GAMES]
    claimed = await new.claim_due(2000.0, limit=100)
    assert sorted(claimed) == GAMES  # every old deadline claimed by the new layout
    assert set(await members(new, 0)) == {g for g in GAMES if crc16(g) % 8 == 0}
    for gid in moved:  # moved home with the lease, gone from the old set
        assert (await members(new, crc16(gid) % 8))[gid] == 2010.0
    assert await new.has_deadline(GAMES) == [True] * len(GAMES)


async def test_a_worker_still_on_the_old_s_walks_the_sets_a_newer_worker_wrote(
        pair: tuple[Any, str]) -> None:
    new = store_on(pair, 8)
    for n, gid in enumerate(GAMES):
        await new.set_deadline(gid, 1000.0 + n)
    assert await new.claim_due(0.0) == []  # records S = 8 as the high-water mark
    old = store_on(pair, 1)  # started later with the old setting (or lowered)
    claimed = await old.claim_due(2000.0, limit=100)
    assert sorted(claimed) == GAMES
    assert set(await members(old, 0)) == set(GAMES)  # all moved to its one set
    for k in range(1, 8):
        assert await members(old, k) == {}


async def test_an_old_entry_claimed_after_the_sweep_restored_the_game_is_moved_once(
        pair: tuple[Any, str]) -> None:
    old, new = store_on(pair, 1), store_on(pair, 8)
    gid = next(g for g in GAMES if crc16(g) % 8 != 0)
    await old.set_deadline(gid, 1000.0)
    await new.set_deadline(gid, 5000.0)  # the sweep's restored deadline, home set
    assert await new.claim_due(1500.0) == [gid]  # the old entry, due: claimed, moved
    assert await members(new, 0) == {}
    assert (await members(new, crc16(gid) % 8))[gid] == 1510.0
    assert await new.claim_due(1500.0) == []


async def test_the_store_opened_with_timer_sets_uses_them(store_url: str | None) -> None:
    store = await open_store(store_url, f"test-{uuid.uuid4().hex}",
                             RedisTarget(url=store_url, timer_sets=5))
    try:
        assert store.timers.sets == 5
        gid = next(g for g in GAMES if crc16(g) % 5 == 3)
        await store.set_deadline(gid, 10.0)
        assert await members(store, 3) == {gid: 10.0}
    finally:
        await store.client.delete(*[store.timers.key(k) for k in range(5)],
                                  f"{store.keys.timers()}:sets")
        await store.close()
