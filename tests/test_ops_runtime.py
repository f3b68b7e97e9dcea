"""The worker's garbage collector settings (adapters/ops/runtime.py, issue 36). The
collector is put back after each test by conftest's ``_main_leaves_nothing_behind``."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from adapters.ops import runtime


class _Node:
    """An object that can hold itself in a cycle."""

    other: object = None


def test_tune_sets_the_young_generation_and_freezes_what_start_up_made() -> None:
    before = gc.get_threshold()
    assert runtime.tune() == before
    assert gc.get_threshold() == (50_000, 20, 10)
    assert gc.get_freeze_count() > 1_000  # the modules, classes and schemas imported


def test_a_cycle_made_after_tuning_is_still_collected() -> None:
    runtime.tune()
    node = _Node()
    node.other = node
    gone = weakref.ref(node)
    del node
    assert gone() is not None  # only the collector frees a cycle
    gc.collect()
    assert gone() is None


@pytest.mark.parametrize("command", ["telegram", "serve"])
def test_a_workers_start_up_tunes_the_collector_before_the_platform_runs(
        command: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bot import __main__ as cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:abc")
    seen: list[tuple[int, int, int]] = []

    def run(_settings: object) -> None:
        seen.append(gc.get_threshold())

    async def serve(_settings: object, _stop: object) -> None:
        seen.append(gc.get_threshold())

    monkeypatch.setattr("adapters.telegram.app.run", run)
    monkeypatch.setattr("adapters.telegram.app.serve", serve)
    assert cli.main([command]) == 0
    assert seen == [(50_000, 20, 10)]


def test_the_terminal_game_keeps_the_default_collector(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    from bot import __main__ as cli

    monkeypatch.chdir(tmp_path)
    before = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr(cli, "_run_play", lambda *_a: seen.append(gc.get_threshold()) or 0)
    assert cli.main(["play"]) == 0
    assert seen == [before]
