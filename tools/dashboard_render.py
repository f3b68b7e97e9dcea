"""A rendering of the operator's dashboard (docs/grafana/buraco.json) from metrics sampled
during a load run with a failover (issue 36): ``docs/img/dashboard.png``.

Usage: ``python tools/dashboard_render.py [--games 30] [--play 40] [--out docs/img]``
(needs ``redis-server`` and ``redis-cli``; about a minute).

It starts a 3-primary Redis Cluster (tests/cluster/servers.py), three reliability
workers with their operator endpoints (tests/reliability/worker.py ``--metrics-base``)
under the reliability suite's load (random legal presses, robots, timers), SIGKILLs a
primary after :data:`KILL_AT_S` seconds, and scrapes every worker's ``/metrics`` and
``/health/ready`` each second. The panels are then drawn with matplotlib, each from the
scraped samples as its PromQL query computes them (rates over :data:`WINDOW_S` s,
quantiles interpolated in the histogram buckets as ``histogram_quantile`` does). It is a
rendering, not a Grafana screenshot; the reliability worker delivers to no chat
platform, so the delivery and platform panels stay at 0.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests" / "cluster", ROOT / "tests" / "reliability"):
    sys.path.insert(0, str(extra))

import aiohttp  # noqa: E402
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

KILL_AT_S = 12.0
WINDOW_S = 5
Sample = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(http: aiohttp.ClientSession, port: int) -> tuple[Sample, bool]:
    """One worker's samples and whether it was ready."""
    try:
        async with http.get(f"http://127.0.0.1:{port}/metrics") as got:
            text = await got.text()
        async with http.get(f"http://127.0.0.1:{port}/health/ready") as got:
            ready = got.status == 200
    except aiohttp.ClientError:
        return {}, False
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples}, ready


async def run(games: int, play_s: float) -> tuple[list[float], list[list[Sample]], float]:
    """The load run; (seconds since start, per scrape the workers' samples, kill time)."""
    from harness import Cluster
    from load import Failover, played, tolerant
    from redis.asyncio.cluster import RedisCluster
    from servers import HOST, Servers, free_port

    from adapters.storage.connect import _failover_options

    tmp = Path(tempfile.mkdtemp(prefix="dashboard-"))
    servers = Servers(tmp)
    times: list[float] = []
    scrapes: list[list[Sample]] = []
    killed = 0.0
    try:
        control = servers.single()
        ports = servers.cluster()
        primaries = [p for p in ports if servers.nodes[p].role == "master"]
        url = f"redis://{HOST}:{ports[0]}"
        store = RedisCluster.from_url(url, decode_responses=True, **_failover_options())
        base = free_port(7300)
        cluster = Cluster(f"redis://{HOST}:{control}/0", tmp, store=store, worker_args=[
            "--store-mode", "cluster", "--store-url", url, "--metrics-base", str(base)])
        tolerant(cluster, Failover())
        began = time.monotonic()
        done = asyncio.Event()

        async def sample() -> None:
            async with aiohttp.ClientSession() as http:
                while not done.is_set():
                    got = await asyncio.gather(*(scrape(http, base + k) for k in (1, 2, 3)))
                    times.append(time.monotonic() - began)
                    now = time.time()
                    scrapes.append([{**s, ("buraco_ready_http", ()): float(r),
                                     ("scraped_at", ()): now} for s, r in got])
                    await asyncio.sleep(1.0)

        async def faults() -> None:
            nonlocal killed
            await asyncio.sleep(KILL_AT_S)
            killed = time.monotonic() - began
            await asyncio.to_thread(servers.kill, primaries[0])

        sampler = asyncio.ensure_future(sample())
        try:
            await played(cluster, games, play_s, faults, 5.0)
        finally:
            done.set()
            await sampler
            await cluster.close()
            await store.aclose()
    finally:
        servers.close()
    return times, scrapes, killed


def total(samples: list[Sample], name: str, **match: str) -> float:
    """Sum over workers of the samples named ``name`` whose labels include ``match``."""
    return sum(v for s in samples for (n, labels), v in s.items()
               if n == name and all((k, x) in labels for k, x in match.items()))


def per(samples: list[Sample], name: str, label: str) -> dict[str, float]:
    out: dict[str, float] = defaultdict(float)
    for s in samples:
        for (n, labels), v in s.items():
            if n == name:
                out[dict(labels).get(label, "")] += v
    return out


def rate(series: list[float], times: list[float]) -> list[float]:
    return [max(0.0, series[i] - series[max(0, i - WINDOW_S)]) /
            max(1e-9, times[i] - times[max(0, i - WINDOW_S)]) if i else 0.0
            for i in range(len(series))]


def quantile(q: float, buckets: dict[float, float]) -> float:
    """``histogram_quantile`` over cumulative ``buckets`` (upper bound -> count)."""
    bounds = sorted(buckets)
    if not bounds or buckets[bounds[-1]] <= 0:
        return float("nan")
    rank, prev_b, prev_c = q * buckets[bounds[-1]], 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if bound == float("inf"):
                return prev_b
            return prev_b + (bound - prev_b) * (rank - prev_c) / max(1e-9, count - prev_c)
        prev_b, prev_c = bound, count
    return bounds[-1]


def hist_q(scrapes: list[list[Sample]], name: str, q: float, **match: str) -> list[float]:
    out = []
    for i, now in enumerate(scrapes):
        then = scrapes[max(0, i - WINDOW_S)]
        buckets: dict[float, float] = defaultdict(float)
        for s_now, s_then in zip(now, then, strict=False):
            for (n, labels), v in s_now.items():
                if n == f"{name}_bucket" and all((k, x) in labels for k, x in match.items()):
                    buckets[float(dict(labels)["le"])] += v - s_then.get((n, labels), 0.0)
        out.append(quantile(q, buckets) if i else float("nan"))
    return out


def draw(times: list[float], scrapes: list[list[Sample]], killed: float, out: Path) -> None:
    fig, axes = plt.subplots(6, 2, figsize=(12, 15), dpi=100)
    fig.suptitle("Buraco bot — a rendering of docs/grafana/buraco.json from /metrics of 3 "
                 "workers sampled each second\nin a load run on a 3-primary Redis Cluster; "
                 f"a primary SIGKILLed at {killed:.0f} s (red line). Not a Grafana "
                 "screenshot.", fontsize=11)
    t = times

    def line(ax: Any, values: list[float], label: str) -> None:
        ax.plot(t, values, label=label, linewidth=1.4)

    def each(name: str, **match: str) -> list[float]:
        return [total(s, name, **match) for s in scrapes]

    panels = axes.flat
    ax = next(panels)
    ax.set_title("Press wait (s): p50, p99")
    line(ax, hist_q(scrapes, "buraco_press_seconds", 0.5), "p50")
    line(ax, hist_q(scrapes, "buraco_press_seconds", 0.99), "p99")
    ax = next(panels)
    ax.set_title("Presses by outcome (/s)")
    for outcome in ("applied", "answered", "error"):
        line(ax, rate(each("buraco_presses_total", outcome=outcome), t), outcome)
    ax = next(panels)
    ax.set_title("Workers ready (of 3)")
    line(ax, each("buraco_ready"), "buraco_ready")
    line(ax, each("buraco_ready_http"), "/health/ready 200")
    ax.set_ylim(-0.2, 3.4)
    ax = next(panels)
    ax.set_title("Update intake")
    line(ax, [max((total([w], "buraco_intake_oldest_seconds") for w in s), default=0)
              for s in scrapes], "oldest in flight (s)")
    line(ax, each("buraco_intake_in_flight"), "in flight")
    ax = next(panels)
    ax.set_title("Tick health")
    line(ax, hist_q(scrapes, "buraco_tick_seconds", 0.99), "round p99 (s)")
    line(ax, rate(each("buraco_tick_steps_total"), t), "steps/s")
    line(ax, [max(0.0, time_of(s)) for s in scrapes], "since last good round (s)")
    ax = next(panels)
    ax.set_title("Timers")
    line(ax, [total(s[:1], "buraco_live_games") for s in scrapes], "live games")
    line(ax, [total(s[:1], "buraco_timers_due") for s in scrapes], "due")
    line(ax, [total(s[:1], "buraco_timers_overdue") for s in scrapes], "overdue > 30 s")
    ax = next(panels)
    ax.set_title("Redis round trip p99 by node (ms)")
    nodes = sorted(per(scrapes[-1], "buraco_redis_roundtrip_seconds_count", "node"))
    for node in nodes:
        line(ax, [1000 * v for v in hist_q(scrapes, "buraco_redis_roundtrip_seconds", 0.99,
                                           node=node)], node)
    ax = next(panels)
    ax.set_title("Redis failures by node (/s)")
    for node in sorted(per(scrapes[-1], "buraco_redis_failures_total", "node")):
        line(ax, rate(each("buraco_redis_failures_total", node=node), t), node)
    ax = next(panels)
    ax.set_title("Delivery backlog; platform errors (none here)")
    line(ax, each("buraco_delivery_queued_edits"), "queued edits")
    line(ax, rate(each("buraco_platform_api_errors_total"), t), "platform errors/s")
    ax = next(panels)
    ax.set_title("Process CPU (cores) per worker")
    for k in range(3):
        line(ax, rate([s[k].get(("process_cpu_seconds_total", ()), 0.0) if len(s) > k
                       else 0.0 for s in scrapes], t), f"w{k + 1}")
    ax = next(panels)
    ax.set_title("Process RSS (MiB) per worker; open fds")
    for k in range(3):
        line(ax, [s[k].get(("process_resident_memory_bytes", ()), 0.0) / 2**20
                  for s in scrapes], f"RSS w{k + 1}")
    line(ax, [s[0].get(("process_open_fds", ()), 0.0) for s in scrapes], "fds w1")
    ax = next(panels)
    ax.set_title("GC runs/s; gauges skipped/s")
    line(ax, rate(each("python_gc_collections_total"), t), "GC runs")
    line(ax, rate(each("buraco_metric_samples_skipped_total"), t), "skipped")
    for ax in axes.flat:
        ax.axvline(killed, color="red", linewidth=1.0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper right")
        ax.set_xlabel("s", fontsize=8)
        ax.tick_params(labelsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)


def time_of(workers: list[Sample]) -> float:
    """``time() - max(buraco_tick_last_success_timestamp_seconds)`` at that scrape."""
    last = max((w.get(("buraco_tick_last_success_timestamp_seconds", ()), 0.0)
                for w in workers), default=0.0)
    return workers[0][("scraped_at", ())] - last if last else 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--play", type=float, default=40.0)
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    o = p.parse_args()
    times, scrapes, killed = asyncio.run(run(o.games, o.play))
    draw(times, scrapes, killed, o.out / "dashboard.png")
    print(f"{o.out / 'dashboard.png'}: {len(times)} scrapes, kill at {killed:.1f} s")


if __name__ == "__main__":
    main()
