"""Issue 36, "one game's trouble is never another's": 3 worker processes, live games on
a real 3-primary cluster, one primary SIGKILLed. A game none of whose keys (its game's
slot G, its chat's C, its deadline set's R: docs/deploy.md "Which slots a press
touches") is on the killed primary should not pause; a game with a key there resumes
after the promotion.

Measured from the save log (every applied move, with its time), from the kill to
:data:`AFTER_S` after the promotion, against as long a stretch before the kill: the
moves of the games with no key on the killed primary ("spared") go on at least at
:data:`SPARED_PACE` of their pace before (measured: 86%), while those of the games with
a key there ("hit") fall (measured: 19%); and every hit game moves again within the
failover + 1 s + its own longest gap before the kill. The issue's finer figure, no
pause over 0.5 s per spared game, cannot be told apart here: with 100 games on 3
workers on this 2-core machine one game's moves are seconds apart even before the kill
(its longest gap, printed as ``spared_before_max_s``). ``ISOLATION_GAMES`` (default
100) games; about a minute and a half:
``pytest -m cluster tests/cluster/test_slot_isolation.py -s``.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from collections import defaultdict
from pathlib import Path

from harness import Cluster
from load import Failover, played, report, tolerant
from redis.asyncio.cluster import RedisCluster
from servers import HOST, Servers, cli

from adapters.storage.connect import _failover_options
from adapters.storage.keys import StoreKeys, slot
from adapters.storage.timers import home_key

GAMES = int(os.environ.get("ISOLATION_GAMES", "100"))
SETS = 16
PLAY_S = 30.0
KILL_AT_S = 12.0
AFTER_S = 3.0
SPARED_PACE = 0.7
HIT_PACE = 0.5


def slots_of(port: int, ports: list[int]) -> set[int]:
    """The slots the primary on ``port`` serves (``CLUSTER NODES`` of another node)."""
    asker = next(p for p in ports if p != port)
    owned: set[int] = set()
    for line in cli(asker, "cluster", "nodes").splitlines():
        parts = line.split()
        if f":{port}@" not in parts[1] or "master" not in parts[2]:
            continue
        for span in parts[8:]:
            if span.startswith("["):
                continue
            lo, _, hi = span.partition("-")
            owned.update(range(int(lo), int(hi or lo) + 1))
    return owned


def longest_gap(stamps: list[float], start: float, end: float) -> float:
    """The longest stretch without an applied move between ``start`` and ``end``."""
    inside = [start, *[t for t in stamps if start < t < end], end]
    return max(b - a for a, b in itertools.pairwise(inside))


async def test_a_dead_primary_pauses_only_the_games_with_keys_on_it(
        servers: Servers, tmp_path: Path) -> None:
    control = servers.single()
    ports = servers.cluster()
    primaries = [p for p in ports if servers.nodes[p].role == "master"]
    node_url = f"redis://{HOST}:{ports[0]}"
    store = RedisCluster.from_url(node_url, decode_responses=True, **_failover_options())
    cluster = Cluster(f"redis://{HOST}:{control}/0", tmp_path, store=store, worker_args=[
        "--store-mode", "cluster", "--store-url", node_url, "--timer-sets", str(SETS)])
    failover = Failover()
    tolerant(cluster, failover)
    victim = primaries[0]
    doomed = slots_of(victim, ports)

    async def faults() -> None:
        await asyncio.sleep(KILL_AT_S)
        replica = servers.replica_of(victim, ports)
        failover.killed_at = time.time()
        await asyncio.to_thread(servers.kill, victim)
        await servers.wait_role(replica, "master")
        await asyncio.to_thread(servers.wait_cluster_ok, [p for p in ports if p != victim])
        failover.promoted_at = time.time()

    try:
        tables = await played(cluster, GAMES, PLAY_S, faults, 1.0)
        await cluster.stop()
        saves = await cluster.client.lrange(f"{cluster.prefix}:saves", 0, -1)
    finally:
        await cluster.close()
        await store.aclose()
    stamps: dict[str, list[float]] = defaultdict(list)
    for line in saves:
        gid, _version, when = line.split()
        stamps[gid].append(float(when))
    keys = StoreKeys(cluster.prefix)
    killed, promoted = failover.killed_at, failover.promoted_at
    window = promoted + AFTER_S - killed
    spared: list[tuple[float, float]] = []
    hit: list[tuple[float, float]] = []
    moves = {"spared_moves_before": 0, "spared_moves_during": 0, "hit_moves_before": 0,
             "hit_moves_during": 0}
    for table in tables:
        times = sorted(stamps[table.gid])
        if not times or times[-1] < promoted + AFTER_S:
            continue  # finished before the failover ended: nothing to compare
        touched = {slot(keys.state(table.gid)),
                   slot(keys.chat(f"tg:{table.chat['chat_id']}")),
                   slot(home_key(keys, table.gid, SETS))}
        gap = longest_gap(times, killed, promoted + AFTER_S)
        before = longest_gap(times, killed - window, killed)
        side = "hit" if touched & doomed else "spared"
        (hit if side == "hit" else spared).append((gap, before))
        moves[f"{side}_moves_before"] += sum(killed - window <= t < killed for t in times)
        moves[f"{side}_moves_during"] += sum(killed <= t < killed + window for t in times)
    figures = {
        "games": GAMES, "failover_s": round(promoted - killed, 2),
        "spared": len(spared), "hit": len(hit),
        "spared_gap_max_s": round(max((g for g, _ in spared), default=0.0), 2),
        "spared_gap_p50_s": round(sorted(g for g, _ in spared)[len(spared) // 2], 2)
        if spared else 0.0,
        "spared_before_max_s": round(max((b for _, b in spared), default=0.0), 2),
        "spared_paused_over_0_5_s_more_than_before": sum(
            1 for g, b in spared if g > max(b, 0.0) + 0.5),
        "hit_gap_max_s": round(max((g for g, _ in hit), default=0.0), 2),
        "refused": failover.refused, **moves}
    report("slot-isolation", cluster, figures)
    print(figures)
    assert spared and hit, figures
    assert all(g <= (promoted - killed) + 1.0 + b for g, b in hit), figures
    assert moves["spared_moves_during"] >= SPARED_PACE * moves["spared_moves_before"], figures
    assert moves["hit_moves_during"] < HIT_PACE * moves["hit_moves_before"], figures
