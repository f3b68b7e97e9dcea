"""The deadlines in S timer sets cut by slot range (issues 28 and 36,
adapters/storage/timers.py): a game's deadline lives in the set of its slot's range, a
tick walks every set of every S recorded (and the old layout's while its mark stands),
changing S on a running deployment loses no deadline, and a set that cannot be reached
is skipped. Runs on fakeredis and, with REDIS_URL, on the real Redis."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from adapters.storage.connect import RedisTarget, open_store
from adapters.storage.keys import StoreKeys, slot
from adapters.storage.redis_store import RedisStore
from adapters.storage.timers import crc16, legacy_key, range_of, set_key

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


async def members(store: RedisStore, key: str) -> dict[str, float]:
    got = await store.client.zrange(key, 0, -1, withscores=True)
    return {str(m): float(s) for m, s in got}


def test_crc16_is_redis_cluster_s_key_slot_hash() -> None:
    # CLUSTER KEYSLOT foo is 12182 = crc16("foo") mod 16384 (Redis Cluster spec)
    assert crc16("foo") % 16384 == 12182
    assert crc16("123456789") == 0x31C3  # the CRC16/XMODEM check value


def test_one_set_is_the_old_single_key_and_more_sit_at_the_first_slot_of_their_range(
) -> None:
    keys = StoreKeys("p")
    assert set_key(keys, 0, 1) == "p:timers"
    assert [slot(set_key(keys, k, 4)) for k in range(4)] == [0, 4096, 8192, 12288]
    assert [slot(set_key(keys, k, 3)) for k in range(3)] == [0, 5462, 10923]
    assert all(set_key(keys, k, 4) == set_key(keys, 2 * k, 8) for k in range(4))
    assert set_key(keys, 1, 4).startswith("p:timers:{ts")
    for gid in GAMES:  # a game's range holds its own slot
        k = range_of(gid, 4)
        assert k * 4096 <= slot(f"x:{{{gid}}}:state") < (k + 1) * 4096


async def test_each_deadline_lives_in_its_game_s_own_set_only(pair: tuple[Any, str]) -> None:
    store = store_on(pair, 4)
    for n, gid in enumerate(GAMES):
        await store.set_deadline(gid, 1000.0 + n)
    by_set = [await members(store, store.timers.key(k)) for k in range(4)]
    assert all(by_set), "60 games fill every one of the 4 sets"
    for gid in GAMES:
        assert [gid in got for got in by_set] == [k == range_of(gid, 4) for k in range(4)]
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
        assert (await members(store, store.timers.home_key(gid)))[gid] == 1029.5 + 10.0


@pytest.mark.parametrize(("before", "after"), [(1, 8), (8, 3), (4, 8)])
async def test_changing_s_loses_no_deadline(pair: tuple[Any, str], before: int,
                                            after: int) -> None:
    old, new = store_on(pair, before), store_on(pair, after)
    for n, gid in enumerate(GAMES):
        await old.set_deadline(gid, 1000.0 + n)
    assert await old.claim_due(0.0) == []  # the old worker has recorded its S
    stay = {g for g in GAMES if old.timers.home_key(g) == new.timers.home_key(g)}
    assert len(stay) < len(GAMES)
    # the sweep checks the home set only: a game still in another set reads as without a
    # deadline there, and gets one computed from its state (an extra entry, harmless)
    assert await new.has_deadline(GAMES) == [g in stay for g in GAMES]
    claimed = await new.claim_due(2000.0, limit=100)
    assert sorted(claimed) == GAMES  # every deadline claimed by the new layout
    for gid in GAMES:  # moved home with the lease, gone from the old set
        assert (await members(new, new.timers.home_key(gid)))[gid] == 2010.0
        if gid not in stay:
            assert gid not in await members(new, old.timers.home_key(gid))
    assert await new.has_deadline(GAMES) == [True] * len(GAMES)
    old.timers._read_at -= 30.0  # REFRESH_S later: the old worker reads the shapes again
    assert sorted(await old.claim_due(2010.5, limit=100)) == GAMES


async def old_layout(store: RedisStore, sets: int) -> None:
    """The deadlines of GAMES as a worker of the layout before issue 36 with ``sets`` sets
    wrote them: set ``crc16(game) % sets``, named ``timers`` / ``timers:{t<k>}``, and its
    high-water mark."""
    for n, gid in enumerate(GAMES):
        await store.client.zadd(legacy_key(store.keys, crc16(gid) % sets), {gid: 1000.0 + n})
    await store.client.set(f"{store.keys.timers()}:sets", str(sets))


async def test_the_old_layout_s_sets_are_walked_while_its_mark_stands(
        pair: tuple[Any, str]) -> None:
    new = store_on(pair, 8)
    await old_layout(new, 4)
    claimed = await new.claim_due(2000.0, limit=100)
    assert sorted(claimed) == GAMES
    for k in range(4):
        assert await members(new, legacy_key(new.keys, k)) == {}


async def test_the_layout_pass_drains_the_old_sets_and_drops_their_mark(
        pair: tuple[Any, str]) -> None:
    new = store_on(pair, 8)
    await old_layout(new, 4)
    await new.set_deadline(GAMES[0], 5000.0)  # a later deadline, already home: kept
    assert await new.layout.run_pass() == len(GAMES)  # every old entry left its set
    assert await new.client.exists(f"{new.keys.timers()}:sets") == 0
    for k in range(4):
        assert await members(new, legacy_key(new.keys, k)) == {}
    assert await new.has_deadline(GAMES) == [True] * len(GAMES)
    assert (await members(new, new.timers.home_key(GAMES[0])))[GAMES[0]] == 5000.0
    assert (await members(new, new.timers.home_key(GAMES[7])))[GAMES[7]] == 1007.0


async def test_a_set_that_cannot_be_reached_is_skipped_and_the_others_claimed(
        pair: tuple[Any, str], monkeypatch: pytest.MonkeyPatch) -> None:
    store = store_on(pair, 4)
    for n, gid in enumerate(GAMES):
        await store.set_deadline(gid, 1000.0 + n)
    dead = store.timers.key(2)
    claim = store.timers._claim

    async def dying(keys: list[str], args: list[Any]) -> Any:
        if keys == [dead]:
            raise RedisConnectionError("the node is gone")
        return await claim(keys=keys, args=args)

    monkeypatch.setattr(store.timers, "_claim", dying)
    claimed = await store.claim_due(2000.0, limit=100)
    assert sorted(claimed) == [g for g in GAMES if range_of(g, 4) != 2]

    async def all_dead(keys: list[str], args: list[Any]) -> Any:
        raise RedisConnectionError("every node is gone")

    monkeypatch.setattr(store.timers, "_claim", all_dead)
    with pytest.raises(RedisConnectionError):
        await store.claim_due(3000.0)


async def test_a_slow_set_puts_aside_the_other_sets_of_its_node_at_once(
        pair: tuple[Any, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """On a cluster the sets of a dead node are found slow once per tick, not once per
    set: 4 of 8 sets on node "b", whose claims hang; the first tick waits SLOW_S for one
    of them and claims the sets of node "a", the next waits for none."""
    import asyncio
    import time

    from adapters.storage.timers import SLOW_S

    store = store_on(pair, 8)
    for n, gid in enumerate(GAMES):
        await store.set_deadline(gid, 1000.0 + n)
    on_b = {store.timers.key(k) for k in range(4, 8)}
    monkeypatch.setattr(store.timers, "_node_of", lambda key: "b" if key in on_b else "a")
    claim = store.timers._claim
    hang = asyncio.Event()

    async def dying(keys: list[str], args: list[Any]) -> Any:
        if keys[0] in on_b:
            await hang.wait()
        return await claim(keys=keys, args=args)

    monkeypatch.setattr(store.timers, "_claim", dying)
    began = time.monotonic()
    first = await store.claim_due(2000.0, limit=100)
    took = time.monotonic() - began
    began = time.monotonic()
    second = await store.claim_due(2001.0, limit=100)
    again = time.monotonic() - began
    hang.set()
    await store.timers.close()
    assert sorted(first) == [g for g in GAMES if range_of(g, 8) < 4]
    assert second == []  # node a's games are leased; node b's claims still aside
    assert SLOW_S <= took < 2 * SLOW_S  # one wait for node b, not one per set
    assert again < SLOW_S


async def test_the_store_opened_with_timer_sets_uses_them(store_url: str | None) -> None:
    store = await open_store(store_url, f"test-{uuid.uuid4().hex}",
                             RedisTarget(url=store_url, timer_sets=5))
    try:
        assert store.timers.sets == 5
        gid = next(g for g in GAMES if range_of(g, 5) == 3)
        await store.set_deadline(gid, 10.0)
        assert await members(store, store.timers.key(3)) == {gid: 10.0}
    finally:
        await store.client.delete(*[store.timers.key(k) for k in range(5)],
                                  f"{store.keys.timers()}:shapes")
        await store.close()


async def test_stale_table_marks_are_kept_by_slot_range_and_the_one_set_still_claimed(
        pair: tuple[Any, str]) -> None:
    """Issue 36: a table's stale mark sits in its game's range's set, like its deadline;
    a mark in the one-set name (a worker with one set, or of the old layout) is still
    claimed."""
    from adapters.delivery.stale import StaleTables

    now = [1000.0]
    stale = StaleTables(pair[0], pair[1], "xx", clock=lambda: now[0], sets=4)
    store = store_on(pair, 4)
    for gid in GAMES[:12]:
        await stale.mark(gid, 0.0)
        assert slot(stale.home(gid)) == slot(store.timers.home_key(gid))
        assert await pair[0].zscore(stale.home(gid), gid) is not None
    old = StaleTables(pair[0], pair[1], "xx", clock=lambda: now[0])
    await old.mark(GAMES[20], 0.0)
    now[0] += 100.0
    assert sorted(await stale.claim(limit=100)) == sorted([*GAMES[:12], GAMES[20]])
    await stale.forget(GAMES[0])
    assert await pair[0].zscore(stale.home(GAMES[0]), GAMES[0]) is None


async def test_a_slow_set_is_left_to_finish_aside_and_its_leases_come_with_a_later_tick(
        pair: tuple[Any, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36: a set on a node that hangs holds a tick up for SLOW_S at most; its claim
    finishes in the background and the next tick returns its leases."""
    import asyncio
    import time

    from adapters.storage.timers import SLOW_S

    store = store_on(pair, 4)
    for n, gid in enumerate(GAMES):
        await store.set_deadline(gid, 1000.0 + n)
    slow = store.timers.key(1)
    claim = store.timers._claim
    release = asyncio.Event()

    async def hanging(keys: list[str], args: list[Any]) -> Any:
        if keys == [slow]:
            await release.wait()
        return await claim(keys=keys, args=args)

    monkeypatch.setattr(store.timers, "_claim", hanging)
    began = time.monotonic()
    first = await store.claim_due(2000.0, limit=100)
    assert time.monotonic() - began < SLOW_S + 1.0
    assert sorted(first) == [g for g in GAMES if range_of(g, 4) != 1]
    assert await store.claim_due(2000.0, limit=100) == []  # still hanging: not asked again
    release.set()
    await asyncio.sleep(0.05)
    assert sorted(await store.claim_due(2000.0, limit=100)) == [
        g for g in GAMES if range_of(g, 4) == 1]
