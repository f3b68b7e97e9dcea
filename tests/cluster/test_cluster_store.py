"""Every store call, and every Redis call of the chat adapters, on a real 3-primary Redis
Cluster (issue 28): no command spans two slots (a ``CROSSSLOT`` would fail here), the
deadlines spread over the primaries in their own sets, and the sweep finds the games of
every primary."""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator

import pytest

from adapters.delivery.refs import CLOSED_V, GameRefs
from adapters.delivery.stale import StaleTables
from adapters.delivery.window import SharedWindow
from adapters.storage import scripts
from adapters.storage.connect import RedisTarget, open_store
from adapters.storage.redis_store import RedisStore
from adapters.telegram.refs import MessageRefs
from bot import SystemClock, upkeep
from bot.effects import ChatRef, PlayerRef
from bot.service import Service

SETS = 8


@pytest.fixture
async def store(shared_cluster: list[int]) -> AsyncIterator[RedisStore]:
    target = RedisTarget(url=f"redis://127.0.0.1:{shared_cluster[0]}", mode="cluster",
                         timer_sets=SETS)
    made = await open_store(None, f"c-{uuid.uuid4().hex[:8]}", target)
    yield made
    await made.close()


def test_every_lua_script_says_it_touches_one_slot() -> None:
    """Each script's header names its keys and the slot they share (or its one key)."""
    for name in ("CREATE_GAME", "SAVE_GAME", "LOAD_FOR_UPDATE", "UNBIND_CHAT", "BIND_CHAT",
                 "SET_SETTING", "CLAIM_DUE", "ADD_RESULTS"):
        text = getattr(scripts, name)
        keys = set(re.findall(r"KEYS\[(\d)\]", text))
        header = text.strip().splitlines()[0]
        assert header.startswith("-- One slot: "), (name, header)
        if keys != {"1"}:
            assert "{game}" in header, (name, header)


async def test_a_game_s_calls_run_on_the_cluster(store: RedisStore) -> None:
    gid = f"g-{uuid.uuid4().hex[:6]}"
    await store.create_game(gid, '{"a": 1}', 600, update="u0", now_ts=1.0)
    assert await store.load_game(gid) == (1, '{"a": 1}')
    assert await store.load_for_update(gid, "u0") == (True, (1, '{"a": 1}'))
    assert await store.save_game(gid, 1, '{"a": 2}', 600, update="u1", now_ts=2.0,
                                 deadline=50.0, base='{"a": 1}')
    assert not await store.save_game(gid, 1, '{"a": 3}', 600, update="u2")  # lost race
    assert await store.load_for_update(gid, "u1") == (True, (2, '{"a": 2}'))
    assert await store.has_deadline([gid]) == [True]
    assert await store.bind_chat("tg:1", gid, 600) and not await store.bind_chat("tg:1", "x", 9)
    assert await store.chat_game("tg:1") == gid
    await store.unbind_chat("tg:1", gid)
    assert await store.chat_game("tg:1") is None
    assert await store.first_seen("upd", 60) and not await store.first_seen("upd", 60)
    assert await store.was_seen("upd")
    await store.set_setting("tg:1", "lang", "it")
    assert await store.get_setting("tg:1", "lang") == "it"
    await store.save_record(gid, "{}")
    assert await store.load_record(gid) == "{}"
    rows = [("tg:7", "Ana", True, 120), ("tg:8", "Bia", False, -40)]
    assert await store.add_results("tg:1", gid, rows)
    assert not await store.add_results("tg:1", gid, rows)  # counted once
    assert await store.ranking("tg:1") == [("tg:7", "Ana", 1, 1, 120),
                                           ("tg:8", "Bia", 1, 0, -40)]
    await store.clear_deadline(gid)
    await store.delete_game(gid)
    assert await store.load_game(gid) is None


async def test_the_timer_sets_spread_over_every_primary_each_beside_its_games(
        store: RedisStore) -> None:
    """Issue 36: a game's deadline set sits on the node of the game's own slot (the sets
    are cut by slot range, and the cluster's nodes own contiguous ranges), but for the
    games of a range two nodes share."""
    node = store.client.get_node_from_key
    nodes = {node(store.timers.key(k)).name for k in range(SETS)}
    assert len(nodes) == 3, nodes
    games = [f"t-{n}" for n in range(80)]
    for n, gid in enumerate(games):
        await store.set_deadline(gid, 100.0 + n)
    for gid in games[:5]:
        assert await store.client.zscore(store.timers.home_key(gid), gid) is not None
    beside = [node(store.timers.home_key(g)).name == node(store.keys.state(g)).name
              for g in games]
    assert sum(beside) >= 70, sum(beside)  # 8 ranges of 2,048 slots: 2 straddle a node
    claimed = []
    for _ in range(10):
        claimed += await store.claim_due(139.5, limit=7)
    assert sorted(claimed) == sorted(games[:40])


async def test_the_sweep_restores_the_deadlines_of_games_on_every_primary(
        store: RedisStore) -> None:
    svc = Service(store, SystemClock())
    made = []
    for k in range(30):
        chat = ChatRef(platform="tg", chat_id=str(-900 - k))
        await svc.new_game(chat, PlayerRef(platform="tg", user_id=str(k), name=f"P{k}"))
        made.append(await store.chat_game(chat.key))
    homes = {store.client.get_node_from_key(store.keys.state(str(g))).name for g in made}
    assert len(homes) == 3  # the games live on all three primaries
    listed = [gid async for gid in store.game_ids()]
    assert sorted(listed) == sorted(made)
    for gid in made:
        await store.clear_deadline(str(gid))
    assert await upkeep.sweep(store, svc.pacing) == 30
    assert await store.has_deadline([str(g) for g in made]) == [True] * 30


async def test_the_chat_adapters_redis_calls_run_on_the_cluster(store: RedisStore) -> None:
    client, prefix = store.client, store.keys.prefix
    refs = MessageRefs(client, prefix)
    await refs.set_table("g1", -100, 5)
    assert await refs.table("g1") == (-100, 5)
    assert await refs.newest_table("g1", 3) and not await refs.newest_table("g1", 2)
    assert await refs.flag("g1", "told") and not await refs.flag("g1", "told")
    await refs.forget_game("g1")
    assert await client.hget(f"{prefix}:{{g1}}:tg", "table_v") == str(CLOSED_V)
    await refs.set_migration(-100, -1009)  # two keys of two slots
    assert (await refs.successor(-100), await refs.original(-1009)) == (-1009, -100)
    await refs.set_dm_state("7", True)
    assert await refs.dm_state("7") is True
    assert await SharedWindow(client, prefix).reserve("tg:-100") == 0.0
    assert isinstance(GameRefs(client, prefix, platform="dc"), GameRefs)
    stale = StaleTables(client, prefix, "tg", grace_s=0.0)
    due = await stale.mark("g1", 0.0)
    assert await stale.claim() == ["g1"] and await stale.clear("g1", due + 1)


async def test_versions_are_announced_on_sharded_pub_sub(store: RedisStore) -> None:
    """On a cluster the web table's announcements are SPUBLISH/SSUBSCRIBE on the game's
    own slot (issue 27's feed, issue 28): a feed following games on every primary hears
    each one's versions, and only the games it follows."""
    games = [f"web-{n}" for n in range(12)]
    homes = {store.client.get_node_from_key(store.keys.versions(g)).name for g in games}
    assert len(homes) == 3
    feed = store.version_feed()
    try:
        for gid in games[:-1]:
            await feed.follow(gid)
        for k, gid in enumerate(games):
            await store.announce(gid, k + 1)
        heard = []
        while (got := await feed.next(1.0)) is not None:
            heard.append(got)
        assert sorted(heard) == sorted((g, k + 1) for k, g in enumerate(games[:-1]))
        await feed.drop(games[0])
        await store.announce(games[0], 99)
        assert await feed.next(0.3) is None
        channels = await store.client.execute_command(
            "PUBSUB SHARDCHANNELS", target_nodes="primaries")
        assert store.keys.versions(games[1]) in str(channels)
        # a save that wins announces its version from inside its script (SPUBLISH there)
        await store.create_game(games[2], "{}", 60)
        while await feed.next(0.2) is not None:
            pass
        assert await store.save_game(games[2], 1, "{}", 60)
        assert await feed.next(1.0) == (games[2], 2)
    finally:
        await feed.close()
