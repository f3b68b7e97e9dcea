"""Fixtures of the reliability suite (issue 12): worker processes on the real Redis.

Every test here is marked ``reliability`` (run them alone with
``pytest -m reliability``) and needs ``REDIS_URL`` (CI sets
``redis://127.0.0.1:6379/15``); without it they are skipped with that reason. Each
test works under its own random key prefix and deletes only its own keys.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from harness import Cluster

REDIS_URL = os.environ.get("REDIS_URL") or None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.reliability)
            if REDIS_URL is None:
                item.add_marker(pytest.mark.skip(
                    reason="REDIS_URL is not set: the reliability suite runs worker "
                           "processes on a real Redis (CI sets it)"))


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Cluster]:
    """A cluster on ``REDIS_URL`` (no worker started yet), torn down afterwards."""
    c = Cluster(REDIS_URL or "", tmp_path)
    yield c
    await c.close()
