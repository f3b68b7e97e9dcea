"""A worker on a cluster logs one WARNING at start when a primary keeps
``cluster-require-full-coverage yes`` (issue 36, docs/deploy.md "Redis Cluster"), on real
Redis processes: started with ``yes`` it names the three primaries; with ``no`` (as
docs/deploy.md asks) or with ``CONFIG`` renamed away it says nothing."""

from __future__ import annotations

import logging
import uuid

import pytest
from servers import HOST, Servers, cli

from adapters.storage.connect import open_settings_store
from bot.settings import Settings

LOGGER = "adapters.storage.coverage"


async def start_worker_store(ports: list[int]) -> None:
    """Open (and close) the store as a worker does on ``REDIS_MODE=cluster``."""
    settings = Settings(redis_mode="cluster", redis_url=f"redis://{HOST}:{ports[0]}",
                        redis_prefix=f"cov-{uuid.uuid4().hex[:8]}")
    store = await open_settings_store(settings)
    await store.close()


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == LOGGER and r.levelno == logging.WARNING]


async def test_a_cluster_left_at_full_coverage_yes_is_named_once(
        servers: Servers, caplog: pytest.LogCaptureFixture) -> None:
    ports = servers.cluster(7100, 3, "--cluster-require-full-coverage", "yes")
    caplog.set_level(logging.DEBUG, LOGGER)
    await start_worker_store(ports)
    said = warnings(caplog)
    assert len(said) == 1, said
    primaries = sorted(f"{HOST}:{p}" for p in ports[:3])
    assert said[0].startswith(f"cluster-require-full-coverage is yes on {', '.join(primaries)}:")
    assert "every game pauses during a failover" in said[0]
    for replica in ports[3:]:
        assert f":{replica}" not in said[0]


async def test_a_cluster_at_full_coverage_no_says_nothing(
        servers: Servers, caplog: pytest.LogCaptureFixture) -> None:
    ports = servers.cluster()
    assert cli(ports[0], "config", "get", "cluster-require-full-coverage").split() == [
        "cluster-require-full-coverage", "no"]
    caplog.set_level(logging.DEBUG, LOGGER)
    await start_worker_store(ports)
    assert warnings(caplog) == []


async def test_config_renamed_away_is_no_reason_to_warn_or_fail(
        servers: Servers, caplog: pytest.LogCaptureFixture) -> None:
    ports = servers.cluster(7100, 3, "--cluster-require-full-coverage", "yes",
                            "--rename-command", "CONFIG", "")
    caplog.set_level(logging.DEBUG, LOGGER)
    await start_worker_store(ports)
    assert warnings(caplog) == []
    debug = [r.getMessage() for r in caplog.records
             if r.name == LOGGER and r.levelno == logging.DEBUG]
    assert len(debug) == 3, debug  # one per primary: not read, and why
    assert all("ResponseError" in line for line in debug), debug
