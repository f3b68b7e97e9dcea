"""Three workers on a Sentinel-watched primary (one replica, three sentinels) under the
reliability suite's load while the primary is SIGKILLed and the sentinels promote the
replica (issue 28): the workers go on with the new primary without a restart (every new
connection asks the sentinels where the primary is).

Afterwards, as on the cluster: no game lost or stalled, no version applied twice but a
save the failover lost (counted), every finished game counted once in its ranking.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from harness import Cluster
from invariants import check_all
from load import Failover, failover_losses, played, report, stall_s, tolerant
from servers import HOST, Servers, info

from adapters.storage.connect import RedisTarget, client_for

GAMES = int(os.environ.get("SENTINEL_GAMES", "30"))
PLAY_S = 30.0
FINISH_S = 20.0


async def test_3_workers_follow_the_promoted_replica_without_a_restart(
        servers: Servers, tmp_path: Path) -> None:
    control = servers.single()
    primary, replica, sentinels = servers.sentinel()
    listed = ",".join(f"{HOST}:{p}" for p in sentinels)
    store = client_for(RedisTarget(mode="sentinel", master="mymaster",
                                   sentinels=[(HOST, p) for p in sentinels]))
    cluster = Cluster(f"redis://{HOST}:{control}/0", tmp_path, store=store, worker_args=[
        "--store-mode", "sentinel", "--sentinels", listed, "--master", "mymaster"])
    failover = Failover()
    tolerant(cluster, failover)

    async def faults() -> None:
        await asyncio.sleep(8.0)
        failover.killed_at = time.time()
        await asyncio.to_thread(servers.kill, primary)
        await servers.wait_role(replica, "master")
        failover.promoted_at = time.time()

    try:
        tables = await played(cluster, GAMES, PLAY_S, faults, FINISH_S)
        alive = [proc.poll() is None for proc in cluster.procs.values()]
        stopped_at = await cluster.stop()
        saves = await cluster.client.lrange(f"{cluster.prefix}:saves", 0, -1)
        lost, doubles = failover_losses(saves, failover)
        rep = await check_all(store, cluster.prefix, [t.gid for t in tables], stopped_at,
                              control=cluster.client, lost=frozenset(lost))
        after = [float(line.split()[2]) for line in saves
                 if float(line.split()[2]) > failover.promoted_at]
        figures = {"games": GAMES, "finished": rep.finished, "live": rep.live,
                   "refused_during_failover": failover.refused, "saves_lost": len(lost),
                   "failover_s": round(failover.promoted_at - failover.killed_at, 1),
                   "stood_still_s": round(stall_s(saves, failover.killed_at), 1),
                   "saves_after_promotion": len(after)}
        report("sentinel-failover", cluster, figures)
        print(figures)
        assert info(replica, "replication")["role"] == "master"
        assert alive == [True] * 3 and len(after) > GAMES  # the same 3 processes went on
        assert doubles == []
        assert cluster.stats.errors == [] and cluster.stats.violations == []
        assert rep.violations == [] and rep.lost == 0 and rep.stalled == 0, rep.violations
        assert rep.finished >= 1, figures
    finally:
        await cluster.close()
        await store.aclose()
