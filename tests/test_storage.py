"""RedisStore (adapters/storage) against fakeredis always and real Redis when REDIS_URL is set.

Fixtures are in conftest.py: ``redis_store`` and ``second_redis_store`` are two workers
(two clients) on the same server and key prefix.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import uuid

import pytest
import redis.exceptions

from adapters.storage import RedisStore, StoreKeys, open_store

CHAT = "tg:-100123"
GAME = "g-7f3a"
DAY = 86_400


async def test_key_names_share_the_game_or_the_chat_hash_tag() -> None:
    """Issue 36: a game's keys carry {game}, a chat's keys {chat key}."""
    keys = StoreKeys()
    assert keys.state("abc") == "buraco:{abc}:state"
    assert keys.record("abc") == "buraco:{abc}:record"
    assert keys.applied("abc") == "buraco:{abc}:applied"
    assert keys.refs("abc", "tg") == "buraco:{abc}:tg"
    assert keys.state_pattern() == "buraco:{*}:state"
    assert keys.chat("tg:-100123") == "buraco:{tg:-100123}:chat"
    assert keys.timers() == "buraco:timers"
    assert keys.seen("tg:42") == "buraco:seen:tg:42"
    assert keys.seen("tg:42", "tg:-1") == "buraco:{tg:-1}:seen:tg:42"
    assert keys.ranking("tg:-1") == "buraco:{tg:-1}:rank"
    assert keys.settings("tg:-1") == "buraco:{tg:-1}:settings"
    assert keys.edits("tg", "-1:abc") == "buraco:{tg:-1}:edits:abc"
    assert keys.edits("dc", "55") == "buraco:{dc:55}:edits"
    assert keys.successor("tg", "-1") == "buraco:{tg:-1}:successor"
    assert keys.original("tg", "-2") == "buraco:{tg:-2}:original"
    assert keys.dm("tg", "7") == "buraco:{tg:7}:dm"
    assert StoreKeys("t[1]*").pattern() == "t\\[1\\]\\*:*"


async def test_every_method_writes_only_the_documented_keys(redis_store: RedisStore) -> None:
    await redis_store.create_game(GAME, "{}", DAY)
    await redis_store.save_record(GAME, "{}")
    await redis_store.bind_chat(CHAT, GAME, DAY)
    await redis_store.first_seen("tg:1001", 60)
    await redis_store.first_seen("tg:1003", 60, CHAT)
    await redis_store.save_game(GAME, 1, "{}", DAY, "tg:1002", 5.0)
    await redis_store.set_deadline(GAME, 100.0)
    await redis_store.add_result(CHAT, "tg:1", "Ana", True, 120)
    await redis_store.set_setting(CHAT, "lang", "it")
    p = redis_store.keys.prefix
    found = {k async for k in redis_store.client.scan_iter(match=redis_store.keys.pattern())}
    assert found == {
        f"{p}:{{{GAME}}}:state",
        f"{p}:{{{GAME}}}:record",
        f"{p}:{{{GAME}}}:applied",
        f"{p}:{{{CHAT}}}:chat",
        f"{p}:seen:tg:1001",
        f"{p}:{{{CHAT}}}:seen:tg:1003",
        f"{p}:timers",
        f"{p}:{{{CHAT}}}:rank",
        f"{p}:{{{CHAT}}}:settings",
    }
    assert await redis_store.client.hgetall(f"{p}:{{{GAME}}}:state") == {
        "v": "2", "s": "{}", "t": hashlib.blake2b(b"{}", digest_size=8).hexdigest()}


async def test_create_game_stores_state_at_version_1(redis_store: RedisStore) -> None:
    await redis_store.create_game(GAME, '{"deal":1}', DAY)
    assert await redis_store.load_game(GAME) == (1, '{"deal":1}')


async def test_create_game_replaces_an_existing_state_at_version_1(
    redis_store: RedisStore,
) -> None:
    await redis_store.create_game(GAME, "old", DAY)
    assert await redis_store.save_game(GAME, 1, "old2", DAY) is True
    await redis_store.create_game(GAME, "new", DAY)
    assert await redis_store.load_game(GAME) == (1, "new")


async def test_load_game_of_unknown_id_is_none(redis_store: RedisStore) -> None:
    assert await redis_store.load_game("nope") is None


async def test_save_game_at_current_version_writes_the_next_version(
    redis_store: RedisStore,
) -> None:
    await redis_store.create_game(GAME, "s1", DAY)
    assert await redis_store.save_game(GAME, 1, "s2", DAY) is True
    assert await redis_store.load_game(GAME) == (2, "s2")
    assert await redis_store.save_game(GAME, 2, "s3", DAY) is True
    assert await redis_store.load_game(GAME) == (3, "s3")


async def test_save_game_with_stale_version_is_refused_and_changes_nothing(
    redis_store: RedisStore,
) -> None:
    await redis_store.create_game(GAME, "s1", DAY)
    assert await redis_store.save_game(GAME, 1, "s2", DAY) is True
    assert await redis_store.save_game(GAME, 1, "stale", DAY) is False
    assert await redis_store.save_game(GAME, 3, "future", DAY) is False
    assert await redis_store.load_game(GAME) == (2, "s2")


async def test_save_game_of_missing_game_is_refused_and_creates_nothing(
    redis_store: RedisStore,
) -> None:
    assert await redis_store.save_game(GAME, 1, "s", DAY) is False
    assert await redis_store.load_game(GAME) is None
    assert await redis_store.client.exists(redis_store.keys.state(GAME)) == 0


async def test_create_sets_expiry_and_save_refreshes_it(redis_store: RedisStore) -> None:
    key = redis_store.keys.state(GAME)
    await redis_store.create_game(GAME, "s1", 100)
    assert 90 <= await redis_store.client.ttl(key) <= 100
    assert await redis_store.save_game(GAME, 1, "s2", 5000) is True
    assert 4990 <= await redis_store.client.ttl(key) <= 5000


async def test_refused_save_does_not_refresh_expiry(redis_store: RedisStore) -> None:
    key = redis_store.keys.state(GAME)
    await redis_store.create_game(GAME, "s1", 100)
    assert await redis_store.save_game(GAME, 7, "s2", 5000) is False
    assert 90 <= await redis_store.client.ttl(key) <= 100


async def test_expiry_below_one_second_is_refused_with_a_clear_message(
    redis_store: RedisStore,
) -> None:
    with pytest.raises(ValueError, match=r"^ttl_s must be a whole number of seconds >= 1, got 0$"):
        await redis_store.create_game(GAME, "s", 0)
    with pytest.raises(ValueError, match="got -5"):
        await redis_store.bind_chat(CHAT, GAME, -5)
    assert await redis_store.load_game(GAME) is None
    assert await redis_store.chat_game(CHAT) is None


async def test_two_concurrent_saves_on_one_version_exactly_one_wins(
    redis_store: RedisStore, second_redis_store: RedisStore
) -> None:
    await redis_store.create_game(GAME, "v1", DAY)
    results = await asyncio.gather(
        redis_store.save_game(GAME, 1, "by-worker-a", DAY),
        second_redis_store.save_game(GAME, 1, "by-worker-b", DAY),
    )
    assert sorted(results) == [False, True]
    winner = "by-worker-a" if results[0] else "by-worker-b"
    assert await redis_store.load_game(GAME) == (2, winner)


async def test_twenty_concurrent_saves_on_one_version_exactly_one_wins(
    redis_store: RedisStore, second_redis_store: RedisStore
) -> None:
    await redis_store.create_game(GAME, "v1", DAY)
    stores = [redis_store, second_redis_store] * 10
    results = await asyncio.gather(
        *(store.save_game(GAME, 1, f"action-{i}", DAY) for i, store in enumerate(stores))
    )
    assert results.count(True) == 1
    assert await redis_store.load_game(GAME) == (2, f"action-{results.index(True)}")


async def test_delete_game_removes_state_but_keeps_record(redis_store: RedisStore) -> None:
    await redis_store.create_game(GAME, "s", DAY)
    await redis_store.save_record(GAME, '{"deck":[]}')
    await redis_store.delete_game(GAME)
    assert await redis_store.load_game(GAME) is None
    assert await redis_store.load_record(GAME) == '{"deck":[]}'
    await redis_store.delete_game(GAME)  # deleting twice is harmless


async def test_bind_chat_only_when_the_chat_has_no_game(redis_store: RedisStore) -> None:
    assert await redis_store.chat_game(CHAT) is None
    assert await redis_store.bind_chat(CHAT, "game-1", DAY) is True
    assert await redis_store.bind_chat(CHAT, "game-2", DAY) is False
    assert await redis_store.chat_game(CHAT) == "game-1"
    assert 0 < await redis_store.client.ttl(redis_store.keys.chat(CHAT)) <= DAY
    assert await redis_store.bind_chat("tg:-200", "game-2", DAY) is True
    assert await redis_store.chat_game("tg:-200") == "game-2"


async def test_unbind_chat_clears_only_the_same_game(redis_store: RedisStore) -> None:
    await redis_store.bind_chat(CHAT, "game-1", DAY)
    await redis_store.unbind_chat(CHAT, "game-2")
    assert await redis_store.chat_game(CHAT) == "game-1"
    await redis_store.unbind_chat(CHAT, "game-1")
    assert await redis_store.chat_game(CHAT) is None
    assert await redis_store.bind_chat(CHAT, "game-3", DAY) is True


async def test_first_seen_is_true_once_then_false(redis_store: RedisStore) -> None:
    assert await redis_store.first_seen("tg:update:5001", 600) is True
    assert await redis_store.first_seen("tg:update:5001", 600) is False
    assert await redis_store.first_seen("tg:update:5002", 600) is True
    assert 590 <= await redis_store.client.ttl(redis_store.keys.seen("tg:update:5001")) <= 600


async def test_an_update_is_marked_applied_by_the_save_that_applies_it(
    redis_store: RedisStore,
) -> None:
    """Issue 12 defect 5a: the marker and the save are one atomic step."""
    await redis_store.create_game("g1", '{"a":1}', 600)
    assert await redis_store.load_for_update("g1", "tg:u:7001") == (False, (1, '{"a":1}'))
    # reading marks nothing: a failed save leaves the update free to be redelivered
    assert await redis_store.load_for_update("g1", "tg:u:7001") == (False, (1, '{"a":1}'))
    assert await redis_store.save_game("g1", 1, '{"a":2}', 600, "tg:u:7001", 50.0) is True
    assert await redis_store.load_for_update("g1", "tg:u:7001") == (True, (2, '{"a":2}'))
    # the same update cannot be applied again, even at the current version
    assert await redis_store.save_game("g1", 2, '{"a":3}', 600, "tg:u:7001", 51.0) is False
    assert await redis_store.load_game("g1") == (2, '{"a":2}')
    assert await redis_store.load_for_update("nope", "tg:u:7001") == (False, None)
    assert 590 <= await redis_store.client.ttl(redis_store.keys.applied("g1")) <= 600


async def test_the_update_that_creates_a_game_is_marked_applied_in_the_same_step(
    redis_store: RedisStore,
) -> None:
    await redis_store.create_game("g2", "s1", 600, "tg:u:7101", 40.0)
    assert await redis_store.load_for_update("g2", "tg:u:7101") == (True, (1, "s1"))
    assert await redis_store.save_game("g2", 1, "s2", 600, "tg:u:7101", 41.0) is False
    assert 590 <= await redis_store.client.ttl(redis_store.keys.applied("g2")) <= 600
    await redis_store.create_game("g3", "s1", 600)
    assert await redis_store.load_for_update("g3", "tg:u:7101") == (False, (1, "s1"))


async def test_a_lost_race_writes_no_marker(redis_store: RedisStore) -> None:
    await redis_store.create_game("g1", "s1", 600)
    assert await redis_store.save_game("g1", 5, "s2", 600, "tg:u:1", 1.0) is False
    assert await redis_store.load_for_update("g1", "tg:u:1") == (False, (1, "s1"))


async def test_applied_updates_are_kept_per_game_and_trimmed_to_the_newest_64(
    redis_store: RedisStore,
) -> None:
    """Issue 12 defect 8: a bounded footprint per game, not a key per press."""
    await redis_store.create_game("g1", "s", 600)
    for i in range(100):
        assert await redis_store.save_game("g1", i + 1, "s", 600, f"tg:1:u:{i}", float(i))
    marks = await redis_store.client.zrange(redis_store.keys.applied("g1"), 0, -1)
    assert marks == [f"tg:1:u:{i}" for i in range(36, 100)]
    assert await redis_store.client.exists(redis_store.keys.seen("tg:1:u:99")) == 0


async def test_was_seen_reads_the_marker_without_writing_it(redis_store: RedisStore) -> None:
    assert await redis_store.was_seen("tg:u:1") is False
    assert await redis_store.was_seen("tg:u:1") is False
    assert await redis_store.first_seen("tg:u:1", 600) is True
    assert await redis_store.was_seen("tg:u:1") is True


async def test_claim_due_leases_due_games_earliest_first(redis_store: RedisStore) -> None:
    """Issue 12 defect 1: a claim moves the deadline a lease ahead, it does not remove it."""
    await redis_store.set_deadline("late", 2000.0)
    await redis_store.set_deadline("b", 1000.5)
    await redis_store.set_deadline("a", 999.0)
    await redis_store.set_deadline("exact", 1500.0)
    assert await redis_store.claim_due(1500.0, lease_s=20.0) == ["a", "b", "exact"]
    assert await redis_store.claim_due(1500.0) == []
    rows = await redis_store.client.zrange(redis_store.keys.timers(), 0, -1, withscores=True)
    assert [tuple(row) for row in rows] == [
        ("a", 1520.0), ("b", 1520.0), ("exact", 1520.0), ("late", 2000.0)]


async def test_an_expired_lease_is_taken_over_by_the_next_claim(redis_store: RedisStore) -> None:
    """A worker that claimed a deadline and died leaves it to the next worker."""
    await redis_store.set_deadline(GAME, 100.0)
    assert await redis_store.claim_due(100.0, lease_s=20.0) == [GAME]
    assert await redis_store.claim_due(119.9) == []
    assert await redis_store.claim_due(120.0, lease_s=20.0) == [GAME]
    assert await redis_store.client.zscore(redis_store.keys.timers(), GAME) == 140.0


async def test_claim_due_refuses_a_lease_that_is_not_positive(redis_store: RedisStore) -> None:
    await redis_store.set_deadline(GAME, 100.0)
    for bad in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match=r"^lease_s must be > 0 seconds"):
            await redis_store.claim_due(200.0, lease_s=bad)
    assert await redis_store.client.zscore(redis_store.keys.timers(), GAME) == 100.0


async def test_has_deadline_and_game_ids_list_what_the_sweep_needs(
    redis_store: RedisStore,
) -> None:
    for gid in ("g1", "g2", "g3"):
        await redis_store.create_game(gid, "s", 600)
    await redis_store.save_record("g1", "{}")
    await redis_store.set_deadline("g2", 10.0)
    assert sorted([g async for g in redis_store.game_ids(count=1)]) == ["g1", "g2", "g3"]
    assert await redis_store.has_deadline(["g1", "g2", "g3"]) == [False, True, False]
    assert await redis_store.has_deadline([]) == []


async def test_add_results_counts_a_game_once(redis_store: RedisStore) -> None:
    """Issue 12 defect 5b: a redone follow-up cannot count a match twice."""
    rows = [("tg:1", "Ana", True, 3100), ("tg:2", "Bruno", False, -40)]
    assert await redis_store.add_results(CHAT, GAME, rows) is True
    assert await redis_store.add_results(CHAT, GAME, rows) is False
    assert await redis_store.add_results(CHAT, "other", rows[:1]) is True
    assert await redis_store.ranking(CHAT) == [
        ("tg:1", "Ana", 2, 2, 6200), ("tg:2", "Bruno", 1, 0, -40)]


async def test_claim_due_takes_at_most_limit_games(redis_store: RedisStore) -> None:
    for i in range(5):
        await redis_store.set_deadline(f"g{i}", 100.0 + i)
    assert await redis_store.claim_due(200.0, limit=2) == ["g0", "g1"]
    assert await redis_store.claim_due(200.0, limit=0) == []
    assert await redis_store.claim_due(200.0, limit=10) == ["g2", "g3", "g4"]
    assert await redis_store.claim_due(200.0, limit=10) == []


async def test_set_deadline_moves_an_existing_deadline(redis_store: RedisStore) -> None:
    await redis_store.set_deadline(GAME, 100.0)
    await redis_store.set_deadline(GAME, 300.0)
    assert await redis_store.claim_due(200.0) == []
    assert await redis_store.claim_due(300.0) == [GAME]


async def test_set_deadline_refuses_nan_and_changes_nothing(redis_store: RedisStore) -> None:
    with pytest.raises(ValueError, match=r"^due_ts must be a finite Unix time, got nan$"):
        await redis_store.set_deadline(GAME, float("nan"))
    assert await redis_store.client.exists(redis_store.keys.timers()) == 0


async def test_clear_deadline_removes_the_game_from_the_timers(redis_store: RedisStore) -> None:
    await redis_store.set_deadline(GAME, 100.0)
    await redis_store.set_deadline("other", 100.0)
    await redis_store.clear_deadline(GAME)
    await redis_store.clear_deadline("never-set")
    assert await redis_store.claim_due(1000.0) == ["other"]


async def test_two_concurrent_claimers_claim_each_due_deadline_exactly_once(
    redis_store: RedisStore, second_redis_store: RedisStore
) -> None:
    due = [f"due-{i:02d}" for i in range(30)]
    for i, game_id in enumerate(due):
        await redis_store.set_deadline(game_id, 1000.0 + i)
    await redis_store.set_deadline("not-yet", 5000.0)

    async def worker(store: RedisStore) -> list[str]:
        mine: list[str] = []
        while batch := await store.claim_due(2000.0, limit=3):
            mine.extend(batch)
        return mine

    a, b = await asyncio.gather(worker(redis_store), worker(second_redis_store))
    assert sorted(a + b) == due
    assert set(a).isdisjoint(b)
    # each moved the claim lease ahead: 2000 + bot.ports.LEASE_S (10 s)
    leased = await redis_store.client.zrangebyscore(redis_store.keys.timers(), 2010, 2010)
    assert sorted(leased) == due


async def test_record_is_kept_without_expiry(redis_store: RedisStore) -> None:
    assert await redis_store.load_record(GAME) is None
    await redis_store.save_record(GAME, '{"deck":["AS","2H"]}')
    assert await redis_store.load_record(GAME) == '{"deck":["AS","2H"]}'
    assert await redis_store.client.ttl(redis_store.keys.record(GAME)) == -1


async def test_ranking_sorts_by_wins_then_points_and_accumulates(
    redis_store: RedisStore,
) -> None:
    assert await redis_store.ranking(CHAT) == []
    await redis_store.add_result(CHAT, "tg:1", "Ana", True, 3100)
    await redis_store.add_result(CHAT, "tg:2", "Bruno", False, 1200)
    await redis_store.add_result(CHAT, "tg:3", "Carla", True, 2900)
    await redis_store.add_result(CHAT, "tg:2", "Bruno B.", True, 3050)
    await redis_store.add_result(CHAT, "tg:4", "Davi", False, -150)
    assert await redis_store.ranking(CHAT) == [
        ("tg:2", "Bruno B.", 2, 1, 4250),
        ("tg:1", "Ana", 1, 1, 3100),
        ("tg:3", "Carla", 1, 1, 2900),
        ("tg:4", "Davi", 1, 0, -150),
    ]
    assert await redis_store.ranking("tg:-999") == []


async def test_concurrent_results_of_one_player_are_all_counted(
    redis_store: RedisStore, second_redis_store: RedisStore
) -> None:
    stores = [redis_store, second_redis_store] * 5
    await asyncio.gather(
        *(s.add_result(CHAT, "tg:1", "Ana", i % 2 == 0, 100) for i, s in enumerate(stores))
    )
    assert await redis_store.ranking(CHAT) == [("tg:1", "Ana", 10, 5, 1000)]
    assert await redis_store.client.ttl(redis_store.keys.ranking(CHAT)) == -1


async def test_settings_are_kept_per_chat(redis_store: RedisStore) -> None:
    assert await redis_store.get_setting(CHAT, "lang") is None
    await redis_store.set_setting(CHAT, "lang", "en")
    await redis_store.set_setting(CHAT, "lang", "it")
    await redis_store.set_setting(CHAT, "timer", "60")
    assert await redis_store.get_setting(CHAT, "lang") == "it"
    assert await redis_store.get_setting(CHAT, "timer") == "60"
    assert await redis_store.get_setting("tg:-555", "lang") is None


async def test_open_store_runs_the_lua_scripts(store_url: str | None) -> None:
    """With no URL this is the embedded fakeredis: CAS, claims and unbind need lupa's Lua."""
    store = await open_store(store_url, prefix=f"test-{uuid.uuid4().hex}")
    try:
        await store.create_game(GAME, "s1", 60)
        assert await store.save_game(GAME, 1, "s2", 60) is True
        assert await store.save_game(GAME, 1, "s3", 60) is False
        assert await store.load_game(GAME) == (2, "s2")
        await store.set_deadline(GAME, 10.0)
        assert await store.claim_due(10.0) == [GAME]
        assert await store.bind_chat(CHAT, GAME, 60) is True
        await store.unbind_chat(CHAT, GAME)
        assert await store.chat_game(CHAT) is None
    finally:
        leftover = [k async for k in store.client.scan_iter(match=store.keys.pattern())]
        if leftover:
            await store.client.delete(*leftover)
        await store.close()


async def test_open_store_without_url_gives_each_store_its_own_embedded_server() -> None:
    first, second = await open_store(None), await open_store(None)
    try:
        await first.create_game(GAME, "s", 60)
        assert await second.load_game(GAME) is None
    finally:
        await first.close()
        await second.close()


async def test_open_store_with_unreachable_url_raises_connection_error() -> None:
    with pytest.raises(redis.exceptions.ConnectionError):
        await open_store("redis://127.0.0.1:1/15")


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs a real Redis (REDIS_URL)")
async def test_a_burst_larger_than_the_pool_waits_for_connections() -> None:
    """Issue 12 "Load": 300 calls in flight at once on one worker all succeed (redis-py's
    default pool raises MaxConnectionsError past 100)."""
    store = await open_store(os.environ["REDIS_URL"], prefix=f"test-{uuid.uuid4().hex}")
    try:
        for i in range(300):
            await store.create_game(f"g{i}", "s1", 60)
        saved = await asyncio.gather(*(store.save_game(f"g{i}", 1, "s2", 60, f"u{i}", 1.0)
                                       for i in range(300)))
        assert saved == [True] * 300
    finally:
        leftover = [k async for k in store.client.scan_iter(match=store.keys.pattern())]
        await store.client.delete(*leftover)
        await store.close()


async def test_save_game_sends_the_deadline_in_the_same_round_trip(
    redis_store: RedisStore,
) -> None:
    await redis_store.create_game(GAME, "s1", 600)
    assert await redis_store.save_game(GAME, 1, "s2", 600, "u1", 1.0, deadline=50.0) is True
    assert await redis_store.client.zscore(redis_store.keys.timers(), GAME) == 50.0
    # a losing save still sends it: the caller puts the right one back
    assert await redis_store.save_game(GAME, 1, "s3", 600, "u2", 2.0, deadline=70.0) is False
    assert await redis_store.client.zscore(redis_store.keys.timers(), GAME) == 70.0
    assert await redis_store.load_game(GAME) == (2, "s2")
    with pytest.raises(ValueError, match=r"^deadline must be a finite Unix time"):
        await redis_store.save_game(GAME, 2, "s3", 600, deadline=float("inf"))


async def test_save_game_with_a_deadline_loads_the_script_on_a_flushed_server(
    redis_store: RedisStore,
) -> None:
    await redis_store.create_game(GAME, "s1", 600)
    await redis_store.client.script_flush()
    assert await redis_store.save_game(GAME, 1, "s2", 600, deadline=5.0) is True
    assert await redis_store.load_game(GAME) == (2, "s2")
    assert await redis_store.save_game(GAME, 2, "s3", 600, deadline=6.0) is True


async def test_save_game_on_a_base_text_wins_only_onto_that_very_text(
    redis_store: RedisStore,
) -> None:
    """Issue 13: a worker that changed its cached copy without loading sends the text it
    made the change from; a store holding the same version with another text (a
    failover that lost this worker's save, then another worker's save of that number,
    issue 12 defect 5d) refuses it, and writes no update marker."""
    await redis_store.create_game(GAME, "s1", 600)
    assert await redis_store.save_game(GAME, 1, "s2", 600, "u1", 1.0, base="s1") is True
    assert await redis_store.load_game(GAME) == (2, "s2")
    await redis_store.create_game(GAME, "other", 600)  # version 1 again, another text
    assert await redis_store.save_game(GAME, 1, "s3", 600, "u2", 2.0, base="s1") is False
    assert await redis_store.save_game(GAME, 1, "s3", 600, "u2", 2.0, deadline=9.0,
                                       base="s1") is False
    assert await redis_store.load_for_update(GAME, "u2") == (False, (1, "other"))
    assert await redis_store.save_game(GAME, 1, "s3", 600, "u2", 2.0, base="other") is True
    assert await redis_store.load_for_update(GAME, "u2") == (True, (2, "s3"))


async def test_serve_shares_one_embedded_server_between_its_platforms() -> None:
    """Issue 35: ``python -m bot serve`` without REDIS_URL runs both platforms on one
    embedded store (``share_embedded``), so a table with places on both is one game."""
    from adapters.storage import connect

    connect.share_embedded()
    try:
        first, second = await open_store(None), await open_store(None)
        try:
            await first.create_game(GAME, "s", 60)
            assert await second.load_game(GAME) == (1, "s")
        finally:
            await first.delete_game(GAME)
            await first.close()
            await second.close()
    finally:
        connect._SHARED.clear()
