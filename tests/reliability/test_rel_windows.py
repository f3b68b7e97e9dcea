"""Crash windows of issue 12 defect 5, forced at process level: a worker process that
SIGKILLs itself right before a save, right after it (before it answers and before the
follow-ups), while a robot thinks, and after the save that ends a match; and a worker
whose cache faces an older stored version. Each time the press is applied exactly once,
the game goes on, and a finished game's chat is freed and its record and ranking
written. (tests/test_service_faults.py covers the same windows inside one process.)
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

from harness import Cluster, Table
from invariants import check_all
from test_rel_faults import open_tables
from test_rel_load import report

from bot.model import decode

BIA = {"platform": "tg", "user_id": "2", "name": "Bia"}
CAIO = {"platform": "tg", "user_id": "3", "name": "Caio"}
DANI = {"platform": "tg", "user_id": "4", "name": "Dani"}


async def stored(cluster: Cluster, gid: str) -> tuple[int, Any]:
    v, s = await cluster.client.hmget(cluster.keys.state(gid), ["v", "s"])
    return int(v), decode(s)


def seated(game: Any) -> list[str]:
    return [s.player.name for s in game.seats if s.player is not None]


async def saves_of(cluster: Cluster, gid: str) -> list[int]:
    lines = await cluster.client.lrange(f"{cluster.prefix}:saves", 0, -1)
    return [int(v) for g, v, *_when in (line.split() for line in lines) if g == gid]


async def lobby(cluster: Cluster, table: Table) -> str:
    reply = await cluster.call(table.request("new_game", chat=table.chat, extra=["buraco"]),
                               to="w2")
    assert reply is not None
    return str(next(e["game_id"] for e in reply["effects"] if e["kind"] == "table"))


def join(table: Table, user: dict[str, Any], update: str) -> dict[str, Any]:
    return {"call": "join", "chat": table.chat, "user": user, "update": update}


async def test_a_press_whose_worker_dies_before_or_after_the_save_is_applied_once(
        cluster: Cluster) -> None:
    await cluster.start(["w1", "w2"], crash={"w1": "before_save:1"})
    table = Table(cluster, 1, random.Random(1), chaos=False)
    gid = await lobby(cluster, table)
    # before the save: nothing stored, the platform's redelivery is applied by w2
    assert await cluster.call(join(table, BIA, "tg:u:901"), timeout=5, to="w1") is None
    assert await asyncio.to_thread(cluster.wait_exit, "w1") == -9
    assert (await stored(cluster, gid))[0] == 1
    again = await cluster.deliver(join(table, BIA, "tg:u:901"))
    assert again["worker"] == "w2" and [e["kind"] for e in again["effects"]] == ["table"]
    # after the save, before the answer and the follow-ups: the redelivery changes nothing
    await cluster.start(["w1"], crash={"w1": "after_save:1"})
    assert await cluster.call(join(table, CAIO, "tg:u:902"), timeout=5, to="w1") is None
    assert await asyncio.to_thread(cluster.wait_exit, "w1") == -9
    assert (await cluster.deliver(join(table, CAIO, "tg:u:902")))["effects"] == []
    version, game = await stored(cluster, gid)
    assert seated(game) == ["P1", "Bia", "Caio"] and version == 3
    assert await saves_of(cluster, gid) == [2, 3]
    assert await cluster.client.zscore(cluster.keys.timers(), gid) is not None


async def test_a_worker_whose_cache_is_older_than_the_store_uses_the_store(
        cluster: Cluster) -> None:
    """Defect 5d: w1 caches version 2 (Bia seated); the store goes back to version 1 (a
    failover that lost that write) and w2 writes another version 2 (Caio seated); w1's
    next press must start from the stored state, not from its cache."""
    await cluster.start(["w1", "w2"])
    table = Table(cluster, 2, random.Random(2), chaos=False)
    gid = await lobby(cluster, table)
    before = await cluster.client.hmget(cluster.keys.state(gid), ["v", "s"])
    assert await cluster.call(join(table, BIA, "tg:u:911"), to="w1") is not None
    await cluster.client.hset(cluster.keys.state(gid), mapping={"v": before[0], "s": before[1]})
    assert await cluster.call(join(table, CAIO, "tg:u:912"), to="w2") is not None
    assert await cluster.call(join(table, DANI, "tg:u:913"), to="w1") is not None
    version, game = await stored(cluster, gid)
    assert seated(game) == ["P2", "Caio", "Dani"] and version == 3


async def test_a_worker_killed_while_its_robot_thinks_leaves_the_move_to_another(
        cluster: Cluster) -> None:
    # Game time runs at 2x here, not the harness's 10x: P3's turn timer (15 game-s) must
    # outlast the stop of w2 and the start of w1 before the discard arrives. At 10x it was
    # 1.5 s real, and a slow start on a loaded machine let the timer play P3's turn first
    # (the discard then answered as an old button: no table). The lease (10 game-s) is
    # then 5 s real, within the 20 s the takeover is waited for.
    cluster.speed = 2.0
    await cluster.start(["w2"])
    table = Table(cluster, 3, random.Random(3), chaos=False)
    await table.open()
    while table.hand is None or "d" not in _codes(table.hand):  # P3 draws (robots first)
        await table.step()
    await table.press(next(d for k, d in _buttons(table.hand) if k == "t"))
    await cluster.stop(["w2"])
    await cluster.start(["w1"], crash={"w1": "robot:1"})
    assert table.hand is not None
    reply = await cluster.deliver(table.request("press", extra=[
        next(d for k, d in _buttons(table.hand) if k == "d")]))
    assert any(e["kind"] == "table" for e in reply["effects"])  # discarded; robot to move
    version, _game = await stored(cluster, table.gid)
    assert await asyncio.to_thread(cluster.wait_exit, "w1") == -9  # died thinking
    lease = await cluster.client.zscore(cluster.keys.timers(), table.gid)
    assert lease is not None and lease > cluster.now()  # the claim stands as a lease
    await cluster.start(["w2"])
    end = time.monotonic() + 20
    while (await stored(cluster, table.gid))[0] == version and time.monotonic() < end:
        await asyncio.sleep(0.2)
    later, game = await stored(cluster, table.gid)
    assert later > version and game.last[-1][1]["seat"] >= 0  # a move was told
    assert await saves_of(cluster, table.gid) == list(range(2, later + 1))


async def test_a_worker_killed_after_the_save_that_ends_a_match_leaves_nothing_undone(
        cluster: Cluster) -> None:
    """Defect 5b: whoever comes next frees the chat and writes the record and the
    ranking (once) of a match whose ending save was the last thing a worker did."""
    spec = {"w1": "after_save_over:1", "w2": "after_save_over:1"}
    await cluster.start(["w1", "w2"], crash=spec)
    tables = await open_tables(cluster, 6, 300)
    died = 0

    async def restart() -> None:
        nonlocal died
        while not all(t.over for t in tables):
            for name, proc in cluster.procs.items():
                if proc.poll() is not None:
                    died += 1
                    await cluster.start([name], crash={name: spec[name]})
            await asyncio.sleep(0.3)

    watcher = asyncio.create_task(restart())
    await asyncio.gather(*(t.play(time.monotonic() + 150) for t in tables))
    await asyncio.sleep(3.0)  # the follow-ups are redone on the lease's expiry
    watcher.cancel()
    stopped_at = await cluster.stop()
    rep = await check_all(cluster.client, cluster.prefix, [t.gid for t in tables], stopped_at,
                          gaps_ok=True)
    report("windows-match-end", cluster, rep, {"games": len(tables), "sigkills": died})
    assert died >= 1
    assert rep.finished == len(tables), (rep.finished, rep.live)
    assert rep.violations == [] and cluster.stats.violations == []
    for t in tables:
        record = json.loads(await cluster.client.get(cluster.keys.record(t.gid)))
        assert record["players"] == [f"P{t.k}", "Robô 2"]


def _buttons(view: dict[str, Any] | None) -> list[tuple[str, str]]:
    assert view is not None
    return [(b["data"].split("|")[2], b["data"]) for row in view["buttons"] for b in row]


def _codes(view: dict[str, Any]) -> set[str]:
    return {k for k, _d in _buttons(view)}
