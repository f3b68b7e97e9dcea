"""Load (issue 12 "Reliability suite"): two worker processes share the real Redis and
serve 200 games at once, driven with random legal play plus duplicate deliveries,
double presses, stale and out-of-turn presses, and turn timers firing.

Afterwards: no invariant broken (cards, melds, saved versions without gaps or doubles,
a live game always has a deadline), every finished game's record replays to exactly
its stored scores, no request raised, and nothing was applied twice. The figures go to
bench/README.md ("Reliability"); ``RELIABILITY_REPORT=path`` appends them as JSON.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time

from harness import Cluster, Table, percentile, route
from invariants import check_all

GAMES = 200
BURSTS = 4
FREE_PLAY_S = 20.0
FINISHERS = 10
FINISH_S = 80.0


def report(name: str, cluster: Cluster, rep: object, extra: dict[str, object]) -> None:
    """Append this run's figures to ``$RELIABILITY_REPORT`` (JSON lines), if set."""
    path = os.environ.get("RELIABILITY_REPORT")
    if not path:
        return
    s = cluster.stats
    line = {"test": name, "requests": s.requests, "actions": s.actions,
            "duplicates": s.duplicates + s.doubles, "stale": s.stale,
            "out_of_turn": s.out_of_turn, "redelivered": s.redelivered, "faults": s.faults,
            "p50_ms": round(percentile(s.latency_ms, 0.5), 1),
            "p99_ms": round(percentile(s.latency_ms, 0.99), 1),
            "service_p50_ms": round(percentile(s.service_ms, 0.5), 1),
            "service_p99_ms": round(percentile(s.service_ms, 0.99), 1),
            **{k: v for k, v in vars(rep).items() if k != "violations"},
            "violations": len(getattr(rep, "violations", [])) + len(s.violations), **extra}
    with open(path, "a") as out:
        out.write(json.dumps(line) + "\n")


async def test_two_workers_serve_200_games_at_once_without_breaking_an_invariant(
        cluster: Cluster) -> None:
    await cluster.start(["w1", "w2"])
    tables = [Table(cluster, k, random.Random(k)) for k in range(GAMES)]
    await asyncio.gather(*(t.open() for t in tables))
    by_id = {t.gid: t for t in tables}
    route(cluster, by_id)
    for _ in range(BURSTS):  # a press of every game in flight together
        await asyncio.gather(*(t.step() for t in tables))
    await asyncio.gather(*(t.play(time.monotonic() + FREE_PLAY_S) for t in tables))
    load_latency = list(cluster.stats.latency_ms)
    finishers = tables[:FINISHERS]  # the others wait: their turn timers fire meanwhile
    await asyncio.gather(*(t.play(time.monotonic() + FINISH_S) for t in finishers))
    stopped_at = await cluster.stop()
    rep = await check_all(cluster.client, cluster.prefix, list(by_id), stopped_at)
    report("load", cluster, rep, {
        "games": GAMES, "load_p50_ms": round(percentile(load_latency, 0.5), 1),
        "load_p99_ms": round(percentile(load_latency, 0.99), 1)})
    s = cluster.stats
    assert s.errors == []
    assert s.violations == []
    assert rep.violations == []
    assert rep.lost == 0 and rep.stalled == 0
    assert rep.finished >= FINISHERS // 2, (rep.finished, rep.live)
    assert s.duplicates > 0 and s.doubles > 0 and s.stale > 0 and s.out_of_turn > 0
    says = [e["text"] for e in cluster.events if e["kind"] == "say"]
    assert any("não jogou a tempo" in text for text in says), "no turn timer fired"
