"""Three workers on a real 3-primary Redis Cluster under the reliability suite's load
(robots, random presses, duplicate deliveries, double taps, stale and out-of-turn
presses, turn timers) while a primary is SIGKILLed and its replica takes over, and later
a fourth primary is added and slots are moved to it with ``redis-cli --cluster reshard``
(issue 28).

Afterwards: every game finished or still playable with a deadline due soon (none lost,
none stalled), no version applied twice except a save the failover lost (the replica
never got it: the redelivered press is applied again at that version, counted and
reported), every finished game counted once in its ranking, its record replaying to its
scores. Each worker's operator endpoints (adapters/ops) are scraped under load: ready,
presses counted and timed, live games seen. ``CLUSTER_GAMES`` scales the games: the
issue's 200 pass in about 130 s on this 2-core machine (docs/deploy.md); the default 40
keeps the whole ``cluster`` marker near 5 minutes in CI.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import aiohttp
from harness import Cluster
from invariants import check_all
from load import Failover, failover_losses, played, report, stall_s, tolerant
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio.cluster import RedisCluster
from servers import HOST, Servers, cli, free_port, info, ops_base

from adapters.storage.connect import _failover_options


async def scrape(port: int) -> dict[str, float]:
    """One worker's readiness and a few of its metrics, over HTTP (adapters/ops)."""
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://{HOST}:{port}/health/ready") as got:
            ready = float(got.status)
        async with http.get(f"http://{HOST}:{port}/metrics") as got:
            text = await got.text()
    samples = {s.name + str(sorted(s.labels.items())): s.value
               for family in text_string_to_metric_families(text) for s in family.samples}
    presses = sum(v for k, v in samples.items() if k.startswith("buraco_presses_total"))
    return {"ready": ready, "presses": presses,
            "timed": samples["buraco_press_seconds_count[]"],
            "in_flight": samples.get("buraco_intake_in_flight[]", 0.0),
            "live": samples["buraco_live_games[]"]}


GAMES = int(os.environ.get("CLUSTER_GAMES", "40"))
SETS = 4
PLAY_S = 40.0
FINISH_S = 25.0
RESHARD_SLOTS = 1500


async def test_3_workers_play_on_while_a_primary_dies_and_slots_move(
        servers: Servers, tmp_path: Path) -> None:
    control = servers.single()
    ports = servers.cluster()
    primaries = [p for p in ports if servers.nodes[p].role == "master"]
    node_url = f"redis://{HOST}:{ports[0]}"
    store = RedisCluster.from_url(node_url, decode_responses=True, **_failover_options())
    metrics = ops_base()
    cluster = Cluster(f"redis://{HOST}:{control}/0", tmp_path, store=store, worker_args=[
        "--store-mode", "cluster", "--store-url", node_url, "--timer-sets", str(SETS),
        "--metrics-base", str(metrics)])
    scraped: list[dict[str, float]] = []
    failover = Failover()
    tolerant(cluster, failover)

    async def faults() -> None:
        await asyncio.sleep(8.0)
        victim = primaries[0]
        replica = servers.replica_of(victim, ports)
        failover.killed_at = time.time()
        await asyncio.to_thread(servers.kill, victim)
        await servers.wait_role(replica, "master")
        await asyncio.to_thread(servers.wait_cluster_ok, [p for p in ports if p != victim])
        failover.promoted_at = time.time()
        await asyncio.sleep(3.0)
        await asyncio.to_thread(servers.restart, victim)  # comes back as a replica
        await servers.wait_role(victim, "slave")
        added = servers.start(free_port(max(ports) + 1), *Servers.cluster_args()).port
        await asyncio.to_thread(cli, replica, "--cluster", "add-node", f"{HOST}:{added}",
                                f"{HOST}:{replica}")
        await asyncio.to_thread(servers.wait_cluster_ok, [*ports, added])
        began = time.time()
        new_id = (await asyncio.to_thread(cli, added, "cluster", "myid")).strip()
        await asyncio.to_thread(cli, replica, "--cluster", "reshard", f"{HOST}:{replica}",
                                "--cluster-from", "all", "--cluster-to", new_id,
                                "--cluster-slots", str(RESHARD_SLOTS), "--cluster-yes",
                                timeout=300)
        failover.notes["reshard_s"] = round(time.time() - began, 1)
        failover.notes["moved_slots"] = RESHARD_SLOTS
        slots = int(info(added, "cluster-info")["cluster_slots_assigned"])
        assert slots == 16384
        failover.notes["keys_moved_to_added_node"] = int(await asyncio.to_thread(
            cli, added, "dbsize"))
        scraped.extend([await scrape(metrics + k) for k in (1, 2, 3)])  # under load

    try:
        tables = await played(cluster, GAMES, PLAY_S, faults, FINISH_S)
        stopped_at = await cluster.stop()
        saves = await cluster.client.lrange(f"{cluster.prefix}:saves", 0, -1)
        lost, doubles = failover_losses(saves, failover)
        rep = await check_all(store, cluster.prefix, [t.gid for t in tables], stopped_at,
                              control=cluster.client, timer_sets=SETS, lost=frozenset(lost))
        figures = {"games": GAMES, "finished": rep.finished, "live": rep.live,
                   "refused_during_failover": failover.refused, "saves_lost": len(lost),
                   "failover_s": round(failover.promoted_at - failover.killed_at, 1),
                   "stood_still_s": round(stall_s(saves, failover.killed_at), 1),
                   **failover.notes}
        report("cluster-failover-reshard", cluster, figures)
        print(figures)
        assert doubles == []
        assert cluster.stats.errors == [] and cluster.stats.violations == []
        assert rep.violations == [] and rep.lost == 0 and rep.stalled == 0, rep.violations
        assert rep.finished >= 1, figures
        assert figures["keys_moved_to_added_node"] > 0  # games moved under load
        assert [m["ready"] for m in scraped] == [200.0] * 3
        assert sum(m["presses"] for m in scraped) > 0
        assert sum(m["timed"] + m["in_flight"] for m in scraped) >= sum(  # a press is
            m["presses"] for m in scraped)  # counted before its answer is sent and timed
        assert all(m["live"] > 0 for m in scraped)  # the same count from every worker
        assert cluster.stats.actions > GAMES
    finally:
        await cluster.close()
        await store.aclose()
