"""Shared pytest fixtures.

Storage fixtures: every store test runs against an in-process fakeredis server and,
when the ``REDIS_URL`` environment variable is set (CI sets
``redis://127.0.0.1:6379/15``), against that real Redis too. Each test gets a fresh
key prefix and deletes only its own keys afterwards; no database is ever flushed.

Service fixtures (``clock``, ``backend``, ``store``, ``svc``): defined in
tests/test_service_support.py with the rest of the service tests' helpers, offered here
to every test so that no module has to import them.

Process-wide state (``_main_leaves_nothing_behind``): what ``python -m bot``'s
``main()`` sets for the whole process (the log's record factory and outage filter, the
start-up lines' language, ``serve``'s shared embedded store, the garbage collector's
thresholds and frozen objects) is put back after every test, so a test that runs
``main()`` in the process changes no later test's log, language, store or collector.
"""

from __future__ import annotations

import gc
import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import fakeredis
import pytest
import redis.asyncio as aioredis
from test_service_support import backend, clock, store, svc

from adapters import logcalm, logsafe
from adapters.ops.health import WINDOW
from adapters.storage import RedisStore, StoreKeys, connect
from bot import startup

__all__ = ["backend", "clock", "store", "svc"]  # the service fixtures, offered to every test

REDIS_URL = os.environ.get("REDIS_URL") or None
STORE_BACKENDS = ["fakeredis", "redis"] if REDIS_URL else ["fakeredis"]

ClientFactory = Callable[[], Any]


@pytest.fixture(autouse=True)
def _main_leaves_nothing_behind() -> Iterator[None]:
    """After each test: the outage filter off every handler (``main()`` puts it on the
    root logger's handlers, pytest's capturing ones among them, where its counts would
    hide a later test's lines), the log record factory as it was, the start-up lines'
    translator as it was (a test of ``main(["--lang", "it", ...])`` left Italian), each
    embedded store on its own server again (``main(["serve"])`` shares one, issue 35),
    the collector's thresholds as they were and nothing frozen (a worker's start-up tunes
    them, adapters/ops/runtime.py). Before each test: an empty window of recent Redis
    calls (the process has one; a dead cluster's failures in one test made the next
    test's first readiness read "not ready" in 1 of 8 runs)."""
    words, collector = startup.Words._, gc.get_threshold()
    WINDOW.clear()
    yield
    if gc.get_freeze_count():
        gc.unfreeze()
    gc.set_threshold(*collector)
    logcalm.uninstall()
    logsafe.uninstall()
    startup.Words._ = words
    connect._SHARED.clear()


@pytest.fixture(params=STORE_BACKENDS)
def store_backend(request: pytest.FixtureRequest) -> str:
    """``"fakeredis"`` always; ``"redis"`` too when ``REDIS_URL`` is set."""
    backend: str = request.param
    return backend


@pytest.fixture
def store_url(store_backend: str) -> str | None:
    """The URL :func:`adapters.storage.open_store` gets: None (embedded) or ``REDIS_URL``."""
    return REDIS_URL if store_backend == "redis" else None


@pytest.fixture
async def store_clients(store_backend: str) -> AsyncIterator[ClientFactory]:
    """A factory of clients that all talk to the same (fake or real) Redis server.

    Several clients stand for several workers. All are closed after the test.
    """
    server = fakeredis.FakeServer()
    made: list[Any] = []

    def make() -> Any:
        client: Any
        if store_backend == "redis":
            client = aioredis.from_url(REDIS_URL or "", decode_responses=True)
        else:
            client = fakeredis.FakeAsyncRedis(server=server, decode_responses=True)
        made.append(client)
        return client

    yield make
    for client in made:
        await client.aclose()


@pytest.fixture
async def store_prefix(store_clients: ClientFactory) -> AsyncIterator[str]:
    """A key prefix used by this test only; its keys are deleted afterwards."""
    prefix = f"test-{uuid.uuid4().hex}"
    yield prefix
    client = store_clients()
    keys = [key async for key in client.scan_iter(match=StoreKeys(prefix).pattern())]
    if keys:
        await client.delete(*keys)


async def _connected_store(store_clients: ClientFactory, prefix: str) -> RedisStore:
    """A store whose client is already connected (PING answered), so concurrent calls in
    a test really overlap instead of queueing behind connection setup."""
    store = RedisStore(store_clients(), prefix)
    assert await store.client.ping() is True
    return store


@pytest.fixture
async def redis_store(store_clients: ClientFactory, store_prefix: str) -> RedisStore:
    """A :class:`RedisStore` on a fresh prefix (fakeredis, or real Redis when set)."""
    return await _connected_store(store_clients, store_prefix)


@pytest.fixture
async def second_redis_store(store_clients: ClientFactory, store_prefix: str) -> RedisStore:
    """Another worker's store: own client, same server and prefix as ``redis_store``."""
    return await _connected_store(store_clients, store_prefix)
