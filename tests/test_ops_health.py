"""The operator's honest view (issue 36): the readiness's sliding window of Redis calls,
the retry budget counted from the update's arrival, round trips by node, a /metrics that
answers while Redis cannot, the process and tick series."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from typing import Any

import aiohttp
import pytest
from net_support import free_port
from redis.exceptions import RedisClusterUnreachableError
from test_ops import value

from adapters import deadline
from adapters.delivery.coalesce import EditCoalescer
from adapters.ops import series
from adapters.ops.health import CACHE_S, MIN_FAILURES, CallWindow, Readiness
from adapters.ops.server import start_ops, stop_ops
from adapters.storage import multiplex
from adapters.storage.budget import BudgetBackoff, RetryBudgetSpent
from adapters.storage.connect import open_store
from adapters.storage.keys import StoreKeys
from bot.effects import ChatRef, TableView, View


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_recent_calls_failing_make_the_window_unready_until_they_age_out() -> None:
    clock = Clock()
    window = CallWindow(window_s=5.0, clock=clock)
    window.roundtrip("a:1", 0.001)
    for _ in range(MIN_FAILURES - 1):
        window.failed("a:1", ConnectionError())
    assert window.failing() is None  # two failures: not yet
    window.failed("a:1", ConnectionError())
    assert window.failing() == "3 of 4 redis calls failed in 5 s"
    clock.now += 5.1
    assert window.failing() is None


def test_a_cleared_window_forgets_its_calls_but_keeps_counting_failures() -> None:
    window = CallWindow(window_s=5.0, clock=Clock())
    for _ in range(MIN_FAILURES):
        window.failed("a:1", ConnectionError())
    window.clear()
    assert (window.failing(), window.failures_seen) == (None, MIN_FAILURES)
    window.failed("a:1", ConnectionError())
    assert (window.failing(), window.failures_seen) == (None, MIN_FAILURES + 1)


def test_failures_among_many_good_calls_do_not_make_the_window_unready() -> None:
    window = CallWindow(window_s=5.0, clock=Clock())
    for _ in range(10):
        window.roundtrip("a:1", 0.001)
    for _ in range(5):
        window.failed("b:2", ConnectionError())
    assert window.failing() is None  # 5 of 15: one node's trouble, the probes judge it


class Scripted(Readiness):
    """A readiness whose probe gives ``answers`` in turn, each after ``gate`` opens and
    after moving ``clock`` on by ``takes_s`` (the probe's own time)."""

    def __init__(self, answers: list[str | None], window: CallWindow, clock: Clock,
                 takes_s: float = 0.0) -> None:
        super().__init__(None, window, clock)
        self.answers, self.clock, self.takes_s = answers, clock, takes_s
        self.gate, self.probes = asyncio.Event(), 0

    async def _topology(self) -> str | None:
        self.probes += 1
        answer = self.answers[self.probes - 1]
        await self.gate.wait()
        self.clock.now += self.takes_s
        return answer


async def until_probes(readiness: Scripted, probes: int) -> None:
    """Let the loop run until ``probes`` probes began (or 100 turns went by)."""
    for _ in range(100):
        if readiness.probes >= probes:
            return
        await asyncio.sleep(0)


async def test_a_request_after_a_failed_call_does_not_join_a_probe_begun_before_it() -> None:
    clock = Clock()
    window = CallWindow(clock=clock)
    readiness = Scripted([None, "primary a:1 not answering"], window, clock)
    early = asyncio.ensure_future(readiness.check())
    await until_probes(readiness, 1)  # its probe has begun: every node answered it so far
    window.failed("a:1", ConnectionError())
    late = asyncio.ensure_future(readiness.check())
    await until_probes(readiness, 2)
    readiness.gate.set()
    assert (await early, await late) == (None, "primary a:1 not answering")
    assert readiness.probes == 2
    assert await readiness.check() == "primary a:1 not answering"  # the newest, cached


async def test_a_verdict_is_aged_from_the_start_of_its_probe() -> None:
    clock = Clock()
    readiness = Scripted([None, "redis not answering"], CallWindow(clock=clock), clock,
                         takes_s=CACHE_S)
    readiness.gate.set()
    assert await readiness.check() is None
    assert await readiness.check() == "redis not answering"  # what it saw is 0.25 s old
    assert readiness.probes == 2


async def test_a_failed_call_ends_a_ready_verdict_but_not_an_unready_one() -> None:
    clock = Clock()
    window = CallWindow(clock=clock)
    readiness = Scripted([None, "no cluster node answering"], window, clock)
    readiness.gate.set()
    assert await readiness.check() is None
    assert await readiness.check() is None  # cached: no probe
    window.failed("a:1", ConnectionError())
    assert await readiness.check() == "no cluster node answering"
    window.failed("a:1", ConnectionError())
    assert await readiness.check() == "no cluster node answering"  # cached, still unready
    assert readiness.probes == 2


def test_the_retry_budget_is_counted_from_the_update_arrival() -> None:
    backoff = BudgetBackoff(budget_s=6.0, base_s=0.05, cap_s=0.5)
    token = deadline.arrive(time.monotonic())
    try:
        assert 0.0 <= backoff.compute(1) <= 0.1
        assert 0.0 <= backoff.compute(9) <= 0.5
    finally:
        deadline.ARRIVED.reset(token)
    token = deadline.arrive(time.monotonic() - 5.99)  # 0.01 s left: no pause fits
    try:
        with pytest.raises(RetryBudgetSpent, match="since the update arrived"):
            for _ in range(50):  # a pause of exactly 0 fits: jitter may draw it
                backoff.compute(3)
    finally:
        deadline.ARRIVED.reset(token)


def test_outside_an_update_the_budget_counts_from_the_first_failure_of_a_run() -> None:
    clock = Clock()
    backoff = BudgetBackoff(budget_s=6.0, cap_s=0.5, clock=clock)
    assert backoff.compute(1) <= 0.1  # the run starts at 100.0
    for attempt in range(2, 26):  # attempts 0.2 s apart, inner loops' ones among them
        clock.now += 0.2
        assert backoff.compute(attempt % 5 + 1) <= 0.5
    clock.now = 106.0
    with pytest.raises(RetryBudgetSpent, match=r"for 6\.0 s \(attempt 3\)"):
        backoff.compute(3)
    clock.now = 106.3  # still down: a new call gives up at once
    with pytest.raises(RetryBudgetSpent):
        backoff.compute(1)
    clock.now = 110.0  # 4 s without a failure: Redis came back; a new run
    assert backoff.compute(1) <= 0.1


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs a real Redis: REDIS_URL")
async def test_round_trips_are_counted_by_node() -> None:
    """Each write on a shared connection (adapters/storage/multiplex.py) is one round
    trip, however many calls it carries; the connections are opened (their hand-shake's
    round trips counted too) before the count is taken."""
    store = await open_store(os.environ["REDIS_URL"], f"test-{uuid.uuid4().hex}")
    node = store.client.connection_pool.connection_kwargs
    label = f"{node['host']}:{node['port']}"
    try:
        for _ in range(multiplex.LINES):  # one turn each: every line opened
            await store.client.ping()
        before = value("buraco_redis_roundtrip_seconds_count", node=label)
        await store.client.get("nothing-here")
        await store.client.get("nothing-here")
        await asyncio.gather(*(store.client.get("nothing-here") for _ in range(5)))
    finally:
        await store.close()
    assert value("buraco_redis_roundtrip_seconds_count", node=label) - before == 3.0


class Unreachable:
    """A store whose cluster cannot be reached: every pipeline fails as redis-py's
    cluster client does when no node answers."""

    class Pipe:
        def __getattr__(self, _name: str) -> Any:
            return lambda *a, **k: None

        async def __aenter__(self) -> Any:
            return self

        async def __aexit__(self, *_exc: object) -> None:
            return None

        async def execute(self) -> list[int]:
            raise RedisClusterUnreachableError("no node of the cluster answered")

    class Client:
        def pipeline(self, transaction: bool = False) -> Any:
            return Unreachable.Pipe()

        async def ping(self) -> bool:
            raise RedisClusterUnreachableError("no node of the cluster answered")

    class Timers:
        sets, known_sets, walked_keys = 1, 1, ["x:timers"]

    def __init__(self) -> None:
        self.client, self.timers, self.keys = self.Client(), self.Timers(), StoreKeys("x")


async def test_metrics_answer_with_the_process_series_while_the_cluster_is_unreachable(
) -> None:
    port = free_port()
    skipped = value("buraco_metric_samples_skipped_total", gauge="timers")
    runner = await start_ops(Unreachable(), port, "127.0.0.1")
    try:
        async with aiohttp.ClientSession() as http, http.get(
                f"http://127.0.0.1:{port}/metrics") as got:
            status, text = got.status, await got.text()
        async with aiohttp.ClientSession() as http, http.get(
                f"http://127.0.0.1:{port}/health/ready") as got:
            ready = (got.status, await got.text())
    finally:
        await stop_ops(runner)
    assert status == 200
    names = {line.split("{")[0].split(" ")[0] for line in text.splitlines()
             if line and not line.startswith("#")}
    assert {"process_resident_memory_bytes", "process_cpu_seconds_total",
            "process_open_fds", "python_gc_collections_total", "python_info",
            "buraco_build_info", "buraco_presses_total", "buraco_intake_oldest_seconds",
            "buraco_delivery_queued_edits", "buraco_tick_seconds_count"} <= names
    assert value("buraco_metric_samples_skipped_total", gauge="timers") - skipped == 1.0
    assert ready == (503, "not ready: redis not answering")


def test_a_tick_round_is_timed_and_counts_the_games_it_changed() -> None:
    ok, failed = value("buraco_ticks_total", outcome="ok"), value(
        "buraco_ticks_total", outcome="failed")
    steps = value("buraco_tick_steps_total")
    chat = ChatRef(platform="tg", chat_id="-1")
    views = [TableView(chat=chat, game_id=g, view=View(title="Mesa")) for g in "aab"]
    with series.tick_round() as round_:
        round_.done(views)
    with pytest.raises(RuntimeError), series.tick_round():
        raise RuntimeError("redis down")
    assert value("buraco_ticks_total", outcome="ok") - ok == 1.0
    assert value("buraco_ticks_total", outcome="failed") - failed == 1.0
    assert value("buraco_tick_steps_total") - steps == 2.0  # games a and b
    assert time.time() - value("buraco_tick_last_success_timestamp_seconds") < 5.0


async def test_the_oldest_update_in_flight_is_aged_from_its_arrival() -> None:
    token = deadline.arrive(time.monotonic() - 2.0)
    try:
        with series.handling():
            assert value("buraco_intake_in_flight") == 1.0
            assert 2.0 <= value("buraco_intake_oldest_seconds") < 3.0
    finally:
        deadline.ARRIVED.reset(token)
    assert value("buraco_intake_in_flight") == 0.0
    assert value("buraco_intake_oldest_seconds") == 0.0


async def test_a_coalescer_reports_its_queued_edits() -> None:
    waits: list[float] = []

    async def sleep(s: float) -> None:
        waits.append(s)

    coalescer = EditCoalescer(gap_s=3.0, clock=lambda: 0.0, sleep=sleep)

    async def edit() -> None:
        return None

    coalescer.submit("a", edit)
    coalescer.submit("b", edit)
    assert (coalescer.queued(), coalescer.running()) == (2, 2)
    await coalescer.flush()
    assert (coalescer.queued(), coalescer.running()) == (0, 0)


async def test_a_coalesced_edit_runs_outside_the_update_that_queued_it() -> None:
    """Its queue outlives the update: an edit sent 3 s later must not inherit the press's
    arrival, whose retry budget would be spent by then (issue 36)."""
    seen: list[float | None] = []

    async def edit() -> None:
        seen.append(deadline.arrived())

    coalescer = EditCoalescer(gap_s=0.0)
    token = deadline.arrive(time.monotonic() - 10.0)
    try:
        coalescer.submit("a", edit)
        assert deadline.arrived() is not None  # the update itself keeps its arrival
    finally:
        deadline.ARRIVED.reset(token)
    await coalescer.flush()
    assert seen == [None]


async def test_an_update_is_counted_in_flight_once_however_many_layers_count_it() -> None:
    with series.handling(), series.handling():
        assert value("buraco_intake_in_flight") == 1.0
    assert value("buraco_intake_in_flight") == 0.0
