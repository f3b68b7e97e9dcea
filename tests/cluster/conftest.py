"""Fixtures of the ``cluster`` tests (issue 28): real Redis Cluster and Sentinel processes
started from this machine's ``redis-server`` / ``redis-cli`` (tests/cluster/servers.py),
on free ports from 7100 and 26400, in a temporary directory, killed afterwards.

Every test here is marked ``cluster`` (run them alone with ``pytest -m cluster``; CI runs
them with the rest). Without the Redis binaries they are skipped with that reason.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "reliability"))

from servers import REDIS_CLI, REDIS_SERVER, Servers


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.cluster)
            if REDIS_SERVER is None or REDIS_CLI is None:
                item.add_marker(pytest.mark.skip(
                    reason="redis-server and redis-cli are not installed (.ci/run "
                           "installs them)"))


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    """Start Redis processes through this; every one is killed after the test."""
    made = Servers(tmp_path)
    yield made
    made.close()


@pytest.fixture(scope="module")
def shared_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[int]]:
    """One 3-primary cluster (with replicas) for the tests of a module that kill nothing."""
    made = Servers(tmp_path_factory.mktemp("cluster"))
    try:
        yield made.cluster()
    finally:
        made.close()
