"""The reliability suite's load (tests/reliability/harness.py) on a Redis Cluster or a
Sentinel-watched primary, with faults timed from the outside (issue 28).

:func:`played` starts the workers on the store under test (the control plane, request
lists and save log, stays on a plain Redis of its own), opens the games and plays them
while ``faults`` runs; :func:`failover_losses` reads the save log's times to tell an
acknowledged save lost to a failover (the same version saved again after the kill) from
a real double; :func:`report` writes the figures (``CLUSTER_REPORT=path``, JSON lines).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from harness import Cluster, Table, percentile, route

TOLERATED = ("ConnectionError", "TimeoutError", "ClusterDownError", "TryAgainError",
             "MasterNotFoundError", "ReadOnlyError", "MovedError", "AskError",
             "SlotNotCoveredError", "MaxConnectionsError", "ClusterError", "ResponseError")


@dataclass
class Failover:
    """What the faults did, in wall-clock seconds (``time.time()``)."""

    killed_at: float = 0.0
    promoted_at: float = 0.0
    refused: int = 0
    notes: dict[str, Any] = field(default_factory=dict)


def tolerant(cluster: Cluster, failover: Failover) -> None:
    """A press answered with a Redis error while the primary is gone is what a platform
    redelivers: counted as refused, not as a failure of the bot."""

    def tolerate(error: str) -> bool:
        if error.split(":")[0] in TOLERATED:
            failover.refused += 1
            return True
        return False

    cluster.tolerate = tolerate  # type: ignore[method-assign]


async def played(cluster: Cluster, games: int, play_s: float,
                 faults: Callable[[], Awaitable[None]], finish_s: float) -> list[Table]:
    """Open ``games`` tables on 3 workers, play them for ``play_s`` seconds while
    ``faults()`` runs, then let the first tenth play on for ``finish_s`` more."""
    await cluster.start(["w1", "w2", "w3"])
    tables = [Table(cluster, k, random.Random(k)) for k in range(games)]
    await asyncio.gather(*(t.open() for t in tables))
    route(cluster, {t.gid: t for t in tables})
    until = time.monotonic() + play_s
    await asyncio.gather(faults(), *(t.play(until) for t in tables))
    finishers = tables[:max(1, games // 10)]
    await asyncio.gather(*(t.play(time.monotonic() + finish_s) for t in finishers))
    return tables


def failover_losses(saves: list[str], failover: Failover,
                    slack_s: float = 1.0) -> tuple[set[str], list[str]]:
    """``(games whose doubled version is a save lost to the failover, real doubles)``:
    a version saved twice whose first save was acknowledged shortly before the kill or
    before the promotion is a write the replica never got (replication is
    asynchronous); any other double is a lost update."""
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    for line in saves:
        gid, version, when = line.split()
        times[(gid, version)].append(float(when))
    lost: set[str] = set()
    doubles: list[str] = []
    for (gid, version), seen in times.items():
        if len(seen) < 2:
            continue
        first = min(seen)
        if failover.killed_at - slack_s <= first <= failover.promoted_at + slack_s:
            lost.add(gid)
        else:
            doubles.append(f"{gid} v{version} saved twice at {sorted(seen)}")
    return lost, doubles


def stall_s(saves: list[str], after: float) -> float:
    """The longest pause between two acknowledged saves (any game) from ``after`` on:
    how long the games stood still around the failover."""
    stamps = sorted(float(line.split()[2]) for line in saves)
    stamps = [after, *[t for t in stamps if t >= after]]
    return max((b - a for a, b in itertools.pairwise(stamps)), default=0.0)


def report(name: str, cluster: Cluster, figures: dict[str, Any]) -> None:
    """Append this run's figures to ``$CLUSTER_REPORT`` (JSON lines), if set."""
    path = os.environ.get("CLUSTER_REPORT")
    if not path:
        return
    s = cluster.stats
    line = {"test": name, "requests": s.requests, "actions": s.actions,
            "redelivered": s.redelivered,
            "p50_ms": round(percentile(s.latency_ms, 0.5), 1),
            "p99_ms": round(percentile(s.latency_ms, 0.99), 1),
            "max_ms": round(max(s.latency_ms, default=0.0), 1), **figures}
    with open(path, "a") as out:
        out.write(json.dumps(line) + "\n")
