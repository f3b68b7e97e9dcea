"""Benchmark of issue 28: the service on one Redis, a 3-primary Redis Cluster and a
Sentinel-watched primary, started here from this machine's ``redis-server`` (as the
``cluster`` tests do, tests/cluster/servers.py), same run, same worker (this process),
same games; then the timer sets under 50,000 live games' deadlines, 1 set against ``S``.

    .venv/bin/python bench/cluster.py [--actions 1500] [--sets 8] [--games 4] [--cold]

Per topology: action presses' p50 / p99 (ms) and actions/s of one worker pressing one
button after another (bench/service.py's games and presses). Timer sets: the mean time of
a tick's ``claim_due`` (nothing due, so the whole walk) and of a deadline move, and how the
server time of those commands spreads over the cluster's primaries (``INFO
commandstats``): with 1 set every timer command lands on one node.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "cluster")]

from servers import HOST, Servers, info  # noqa: E402

from adapters.storage.connect import RedisTarget, open_store  # noqa: E402
from adapters.storage.redis_store import RedisStore  # noqa: E402
from bench._args import positive_int  # noqa: E402
from bench.service import Bench, BenchClock, Stats, run_games, seeded_decks, summary  # noqa: E402
from bot.service import Service  # noqa: E402

LIVE = 50_000


async def press_figures(target: RedisTarget, args: argparse.Namespace) -> dict[str, float]:
    """bench/service.py's games on ``target``: its summary figures."""
    store = await open_store(target.url, f"bench-{random.randrange(10**6)}", target)
    clock = BenchClock()
    service = Service(store, clock, ai_pace_s=0, threaded=False, deck_fn=seeded_decks(7))
    bench = Bench(service, store, clock, Stats(), "normal", random.Random(7), args.cold)
    try:
        await run_games(bench, args.games, args.actions, time.monotonic() + 240)
    finally:
        await store.close()
    return summary(bench.stats)


def timer_usec(ports: list[int]) -> dict[int, float]:
    """Per primary, the server microseconds of the timer commands so far."""
    out = {}
    for port in ports:
        stats = info(port, "commandstats")
        out[port] = sum(float(v.split("usec=")[1].split(",")[0]) for k, v in stats.items()
                        if k in ("cmdstat_zadd", "cmdstat_evalsha", "cmdstat_zrangebyscore"))
    return out


async def timer_figures(node: int, primaries: list[int], sets: int) -> dict[str, float]:
    """50,000 deadlines in ``sets`` sets on the cluster: claim and move costs, spread."""
    target = RedisTarget(url=f"redis://{HOST}:{node}", mode="cluster", timer_sets=sets)
    store: RedisStore = await open_store(target.url, f"timers-{sets}-{random.randrange(10**6)}",
                                         target)
    now = 2_000_000_000.0
    try:
        for start in range(0, LIVE, 2000):
            async with store.client.pipeline(transaction=False) as pipe:
                for n in range(start, start + 2000):
                    gid = f"g{n}"
                    pipe.zadd(store.timers.home_key(gid), {gid: now + 60 + n % 3600})
                await pipe.execute()
        before = timer_usec(primaries)
        claims, moves = [], []
        for k in range(300):
            t0 = time.perf_counter()
            await store.claim_due(now, 5)
            claims.append(time.perf_counter() - t0)
            gid = f"g{random.randrange(LIVE)}"
            t0 = time.perf_counter()
            await store.set_deadline(gid, now + 90 + k)
            moves.append(time.perf_counter() - t0)
        after = timer_usec(primaries)
    finally:
        for index in range(sets):
            await store.client.delete(store.timers.key(index))
        await store.client.delete(f"{store.keys.timers()}:sets")
        await store.close()
    spent = {p: after[p] - before[p] for p in primaries}
    total = sum(spent.values()) or 1.0
    return {"claim_ms": statistics.fmean(claims) * 1000,
            "move_ms": statistics.fmean(moves) * 1000,
            "busiest_node_share": max(spent.values()) / total,
            "server_us_per_tick": total / len(claims)}


async def main_async(args: argparse.Namespace) -> None:
    """Start the three topologies, measure, print, stop them."""
    servers = Servers(Path(tempfile.mkdtemp(prefix="bench-cluster-")))
    try:
        single = servers.single(7400)
        ports = servers.cluster(7410)
        primaries = [p for p in ports if servers.nodes[p].role == "master"]
        _primary, _replica, sentinels = servers.sentinel(7430, 26430)
        targets = {
            "one Redis": RedisTarget(url=f"redis://{HOST}:{single}/0"),
            "cluster (3 primaries)": RedisTarget(url=f"redis://{HOST}:{ports[0]}",
                                                 mode="cluster", timer_sets=args.sets),
            "sentinel (1 + replica)": RedisTarget(mode="sentinel", master="mymaster",
                                                  sentinels=[(HOST, p) for p in sentinels]),
        }
        print(f"{'topology':<24} {'p50 ms':>8} {'p99 ms':>8} {'actions/s':>10}  "
              f"({args.actions} action presses, {'cold' if args.cold else 'warm'} worker)")
        for name, target in targets.items():
            fig = await press_figures(target, args)
            print(f"{name:<24} {fig['action_p50_ms']:>8.3f} {fig['action_p99_ms']:>8.3f} "
                  f"{fig['actions_s']:>10,.0f}")
        print(f"\ntimer sets, {LIVE:,} live games' deadlines on the cluster, 300 ticks "
              "(claim_due, nothing due) and 300 deadline moves:")
        print(f"{'sets':>5} {'claim ms':>9} {'move ms':>8} {'server us/tick':>15} "
              f"{'busiest primary':>16}")
        for sets in (1, args.sets):
            fig2 = await timer_figures(ports[0], primaries, sets)
            print(f"{sets:>5} {fig2['claim_ms']:>9.3f} {fig2['move_ms']:>8.3f} "
                  f"{fig2['server_us_per_tick']:>15.1f} {fig2['busiest_node_share']:>15.0%}")
    finally:
        servers.close()


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=positive_int, default=1500)
    parser.add_argument("--games", type=positive_int, default=4)
    parser.add_argument("--sets", type=positive_int, default=8)
    parser.add_argument("--cold", action="store_true", help="no worker cache (many workers)")
    args: Any = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
