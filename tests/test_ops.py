"""The operator's endpoints (issue 28, adapters/ops): Prometheus metrics scraped over HTTP
(presses by outcome, press latency, timers due and overdue, live games, Redis errors,
platform errors and 429s) and a health endpoint ready only while Redis answers."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import redis.asyncio as aioredis
from net_support import free_port
from telegram.error import BadRequest, RetryAfter

from adapters import deadline
from adapters.ops.metrics import REGISTRY, MeteredService, answered
from adapters.ops.server import start_ops, stop_ops
from adapters.storage.connect import open_store
from adapters.storage.redis_store import RedisStore
from adapters.telegram.calls import api
from bot.effects import ChatRef, PlayerRef, Reply, TableView, View

ANA = PlayerRef(platform="tg", user_id="1", name="Ana")


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def scrape(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(
            f"http://127.0.0.1:{port}{path}") as got:
        return got.status, await got.text()


@pytest.fixture
async def store(store_url: str | None) -> AsyncIterator[RedisStore]:
    made = await open_store(store_url, f"test-{uuid.uuid4().hex}")
    yield made
    async for key in made.client.scan_iter(match=made.keys.pattern()):
        await made.client.delete(key)
    await made.close()


class Presses:
    def __init__(self, effects: list[Any] | Exception) -> None:
        self.effects = effects

    async def press(self, *args: Any, **kw: Any) -> list[Any]:
        if isinstance(self.effects, Exception):
            raise self.effects
        return self.effects


async def test_presses_are_counted_by_outcome_and_timed() -> None:
    table = TableView(chat=ChatRef(platform="tg", chat_id="-1"), game_id="g", version=2,
                      view=View(title="Mesa"))
    before = {k: value("buraco_presses_total", outcome=k) for k in ("applied", "answered",
                                                                    "error")}
    timed = value("buraco_press_seconds_count")
    await MeteredService(Presses([table])).press(ANA, "g|1|c|")
    await MeteredService(Presses([Reply(player=ANA, text="Não é a sua vez.")])).press(ANA, "x")
    with pytest.raises(ConnectionError):
        await MeteredService(Presses(ConnectionError("down"))).press(ANA, "x")
    assert {k: value("buraco_presses_total", outcome=k) - before[k] for k in before} == {
        "applied": 1.0, "answered": 1.0, "error": 1.0}
    assert value("buraco_press_seconds_count") - timed == 3.0


async def test_a_press_an_adapter_marked_is_timed_from_its_arrival_to_its_answer() -> None:
    """Issue 36: the wait a person sees starts when the update arrived (before any
    queueing), not when the service call starts, and ends at the answer."""
    table = TableView(chat=ChatRef(platform="tg", chat_id="-1"), game_id="g", version=2,
                      view=View(title="Mesa"))
    count, total = value("buraco_press_seconds_count"), value("buraco_press_seconds_sum")
    slow = value("buraco_press_seconds_bucket", le="1.0")
    deadline.arrive(at=time.monotonic() - 1.5)  # it waited in line for 1.5 s
    await MeteredService(Presses([table])).press(ANA, "g|1|c|")
    assert value("buraco_press_seconds_count") == count  # not timed by the service call
    answered()
    assert value("buraco_press_seconds_count") - count == 1.0
    assert 1.5 <= value("buraco_press_seconds_sum") - total < 2.5
    assert value("buraco_press_seconds_bucket", le="1.0") == slow  # not under a second


async def test_metrics_count_the_deadlines_due_overdue_and_the_live_games(
        store: RedisStore) -> None:
    for gid, due in (("a", 900.0), ("b", 990.0), ("c", 1000.0), ("d", 1500.0), ("e", 2e9)):
        await store.set_deadline(gid, due)
    port = free_port()
    runner = await start_ops(store, port, "127.0.0.1", clock=lambda: 1000.0)
    try:
        status, text = await scrape(port, "/metrics")
    finally:
        await stop_ops(runner)
    assert status == 200
    lines = set(text.splitlines())
    assert {"buraco_live_games 5.0", "buraco_timers_due 3.0",
            "buraco_timers_overdue 1.0"} <= lines
    for name in ("buraco_presses_total{outcome=\"applied\"}", "buraco_press_seconds_bucket",
                 "buraco_redis_errors_total", "buraco_platform_api_errors_total",
                 "buraco_platform_rate_limited_total{platform=\"tg\"}"):
        assert name in text, name


async def test_ready_only_while_redis_answers(store: RedisStore) -> None:
    port, gone_port = free_port(), free_port()
    runner = await start_ops(store, port, "127.0.0.1")
    gone_at = free_port()
    gone = RedisStore(aioredis.Redis(host="127.0.0.1", port=gone_at), "x")
    other = await start_ops(gone, gone_port, "127.0.0.1")
    errors = value("buraco_redis_errors_total")
    try:
        assert await scrape(port, "/health/ready") == (200, "ready")
        assert await scrape(port, "/health/live") == (200, "live")
        assert await scrape(gone_port, "/health/ready") == (
            503, f"not ready: redis 127.0.0.1:{gone_at} not answering")
        assert await scrape(gone_port, "/health/live") == (200, "live")
    finally:
        await stop_ops(runner)
        await stop_ops(other)
        await gone.close()
    assert value("buraco_redis_errors_total") - errors == 1.0


async def test_one_process_serves_the_endpoints_once(store: RedisStore) -> None:
    port = free_port()
    first = await start_ops(store, port, "127.0.0.1")
    try:
        assert await start_ops(store, port, "127.0.0.1") is None  # `serve`: 2 platforms
    finally:
        await stop_ops(first)
    assert await start_ops(store, None) is None


async def test_telegram_429s_and_failed_calls_are_counted() -> None:
    limited, failed = (value("buraco_platform_rate_limited_total", platform="tg"),
                       value("buraco_platform_api_errors_total", platform="tg"))
    calls = iter([RetryAfter(1), "ok"])

    async def call() -> str:
        got = next(calls)
        if isinstance(got, Exception):
            raise got
        return got

    async def no_sleep(_s: float) -> None:
        return None

    assert await api("sendMessage", call, sleep=no_sleep) == "ok"

    async def bad() -> None:
        raise BadRequest("Chat not found")

    assert await api("sendMessage", bad) is None
    assert value("buraco_platform_rate_limited_total", platform="tg") - limited == 1.0
    assert value("buraco_platform_api_errors_total", platform="tg") - failed == 1.0
