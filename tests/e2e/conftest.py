"""Fixtures of the Telegram end-to-end tests that share the real Redis at ``REDIS_URL``
(the restart, webhook and rolling-deploy tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from test_e2e_telegram import TOKEN
from tg_emulator import Emulator, forget, start_emulator


@pytest.fixture
def emu() -> Iterator[Emulator]:
    """The emulator, and afterwards the deletion of every Redis key this run made (all
    under the emulator's own REDIS_PREFIX, ``store_prefix``)."""
    with start_emulator(TOKEN) as emulator:
        yield emulator
    forget(os.environ.get("REDIS_URL") or "", emulator)
