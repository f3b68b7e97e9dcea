"""Faults (issue 12 "Reliability suite"): workers SIGKILLed and SIGTERMed at random
points of a burst, and at forced points (before and after a save is acknowledged, while
a robot thinks); a Redis server with ``appendonly yes`` killed with SIGKILL and started
again mid-game.

After each: every game continues (it makes progress again once workers are back), each
action is applied once or not at all (no two saves of one version, no press answered as
applied twice, cards conserved, melds valid), no live game is without a deadline, and
after the Redis restart every game goes on from at least its last acknowledged save.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
from harness import Cluster, Table, buttons
from invariants import check_all
from net_support import free_port
from test_rel_load import report, route

GAMES = 40
CRASH_POINTS = ["before_save:3", "after_save:3", "robot:2", "before_save:9", "after_save:8",
                "robot:5"]


async def versions(cluster: Cluster, gids: list[str]) -> dict[str, int]:
    out = {}
    for gid in gids:
        v = await cluster.client.hget(cluster.keys.state(gid), "v")
        out[gid] = int(v or 0)
    return out


async def play_on(tables: list[Table], seconds: float) -> None:
    await asyncio.gather(*(t.play(time.monotonic() + seconds) for t in tables))


async def assert_every_game_goes_on(cluster: Cluster, tables: list[Table]) -> None:
    """Every game not over makes progress (a new save) in the next seconds of play."""
    live = [t for t in tables if not await t.stored_over()]
    before = await versions(cluster, [t.gid for t in live])
    await play_on(live, 6.0)
    after = await versions(cluster, [t.gid for t in live])
    frozen = [g for g in before if after[g] <= before[g] and not await _over(cluster, g)]
    by_id = {t.gid: t for t in tables}
    assert frozen == [], (await describe(cluster, frozen[:2]), [
        (by_id[g].over, by_id[g].hand and list(buttons(by_id[g].hand))) for g in frozen[:2]])


async def describe(cluster: Cluster, gids: list[str]) -> list[str]:
    """What a frozen game looks like (for the failure message)."""
    from bot import play
    from bot.model import decode

    out = []
    for gid in gids:
        game = decode(await cluster.client.hget(cluster.keys.state(gid), "s"))
        due = await cluster.client.zscore(cluster.keys.timers(), gid)
        deal = play.deal_of(game) if game.match else None
        out.append(f"{gid} {game.status} turn={deal and deal.turn} phase={deal and deal.phase} "
                   f"seats={[(s.ai, s.away, s.misses) for s in game.seats]} due={due} "
                   f"now={cluster.now():.0f} workers="
                   f"{[(n, p.poll()) for n, p in cluster.procs.items()]}")
    return out


async def _over(cluster: Cluster, gid: str) -> bool:
    from bot.model import decode

    text = await cluster.client.hget(cluster.keys.state(gid), "s")
    return text is None or decode(text).status == "over"


async def open_tables(cluster: Cluster, n: int, seed: int) -> list[Table]:
    tables = [Table(cluster, k, random.Random(seed + k)) for k in range(n)]
    await asyncio.gather(*(t.open() for t in tables))
    route(cluster, {t.gid: t for t in tables})
    return tables


async def test_workers_killed_or_stopped_at_random_points_of_a_burst_lose_no_game(
        cluster: Cluster) -> None:
    rng = random.Random(12)
    await cluster.start(["w1", "w2", "w3"], crash={"w3": CRASH_POINTS[0]})
    tables = await open_tables(cluster, GAMES, 0)
    playing = asyncio.gather(*(t.play(time.monotonic() + 30.0) for t in tables))
    crashes = iter(CRASH_POINTS[1:])
    kills = 0
    for _round in range(5):
        await asyncio.sleep(rng.uniform(1.5, 3.5))
        victim, sig = rng.choice([("w1", signal.SIGKILL), ("w2", signal.SIGTERM)])
        cluster.kill(victim, sig)
        kills += sig == signal.SIGKILL
        await asyncio.to_thread(cluster.wait_exit, victim)
        if cluster.procs["w3"].poll() is not None:  # w3 killed itself at a crash point
            cluster.stats.faults += 1
            kills += 1
            await cluster.start(["w3"], crash={"w3": next(crashes, "")})
        await asyncio.sleep(rng.uniform(0.0, 1.0))
        await cluster.start([victim])
    await playing
    await assert_every_game_goes_on(cluster, tables)
    stopped_at = await cluster.stop()
    rep = await check_all(cluster.client, cluster.prefix, [t.gid for t in tables], stopped_at,
                          gaps_ok=True)
    report("faults-workers", cluster, rep, {"games": GAMES, "sigkills": kills})
    assert cluster.stats.errors == []
    assert cluster.stats.violations == []
    stalled = [v.split(":")[0] for v in rep.violations if "without a due deadline" in v]
    assert rep.violations == [] and rep.lost == 0 and rep.stalled == 0, (
        rep.violations, await describe(cluster, stalled[:3]))
    assert cluster.stats.redelivered > 0  # some presses died with their worker


async def test_a_live_game_is_not_counted_as_stalled_for_the_time_workers_take_to_exit(
        cluster: Cluster) -> None:
    """Workers that take 4 s (40 game seconds) to exit once stopped, as a loaded machine's
    teardown can: no deadline is claimed from the SIGTERM on (by design), so the games due
    meanwhile are not stalled; the check measures overdue from the stop's start
    (:meth:`Cluster.stop`). Measured from the exit, every game due in the first second of
    the stop read as "live without a due deadline" (the burst test failed so once)."""
    cluster.worker_args = ["--linger", "4"]
    await cluster.start(["w1", "w2"])
    tables = await open_tables(cluster, 8, 300)
    await play_on(tables, 3.0)
    began = time.monotonic()
    stopped_at = await cluster.stop()
    assert time.monotonic() - began >= 4.0
    rep = await check_all(cluster.client, cluster.prefix, [t.gid for t in tables], stopped_at)
    assert rep.live > 0 and rep.violations == [] and rep.stalled == 0


class RedisServer:
    """A redis-server of this test: ``appendonly yes``, ``appendfsync always``."""

    def __init__(self, tmp: Path) -> None:
        self.port, self.dir = free_port(), tmp / "redis"
        self.dir.mkdir()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--appendonly", "yes", "--appendfsync", "always", "--save", "",
             "--dir", str(self.dir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise TimeoutError("redis-server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


@pytest.fixture
def redis_server(tmp_path: Path) -> object:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path)
    server.start()
    yield server
    if server.proc is not None and server.proc.poll() is None:
        server.kill()


async def test_a_redis_killed_and_restarted_mid_game_loses_no_acknowledged_save(
        redis_server: RedisServer, tmp_path: Path) -> None:
    cluster = Cluster(redis_server.url, tmp_path)
    cluster.tolerate = lambda error: "Connection" in error or "Busy" in error  # type: ignore[method-assign]
    try:
        await cluster.start(["w1", "w2"])
        tables = await open_tables(cluster, 20, 100)
        playing = asyncio.gather(*(t.play(time.monotonic() + 25.0) for t in tables))
        for _round in range(2):
            await asyncio.sleep(5.0)
            acked = {t.gid: int(await cluster.client.hget(cluster.keys.state(t.gid), "v"))
                     for t in tables}
            redis_server.kill()
            cluster.stats.faults += 1
            await asyncio.sleep(1.0)
            redis_server.start()
            for gid, version in acked.items():
                stored = await cluster.client.hget(cluster.keys.state(gid), "v")
                assert int(stored) >= version, (gid, stored, version)
        await playing
        await assert_every_game_goes_on(cluster, tables)
        stopped_at = await cluster.stop()
        # gaps allowed: a save acknowledged just before the kill may miss its log line
        # (written after it); two saves of one version would still show
        rep = await check_all(cluster.client, cluster.prefix, [t.gid for t in tables],
                              stopped_at, gaps_ok=True)
        report("faults-redis", cluster, rep, {"games": 20, "redis_kills": 2})
        assert cluster.stats.violations == []
        assert rep.violations == [] and rep.lost == 0 and rep.stalled == 0
    finally:
        await cluster.close()
