"""The store's background work ends with the process (issue 38, tester's finding on
b915d76): the key-layout upgrade of :func:`adapters.storage.connect.open_settings_store`
is not started on the embedded store (nothing of an old layout can be there), and
``python -m bot play`` closes its store however the match ends, so no
"Task was destroyed but it is pending!" is printed at exit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from adapters import logsafe
from adapters.storage import connect
from adapters.storage.redis_store import RedisStore
from bot import __main__ as cli
from bot.settings import Settings


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)  # no .env file
    for name in ("REDIS_URL", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    yield
    logsafe.uninstall()


async def test_the_embedded_store_starts_no_layout_upgrade() -> None:
    store = await connect.open_settings_store(Settings())
    try:
        assert store.layout._task is None and store.layout.legacy is False
    finally:
        await store.close()


async def test_a_store_with_a_url_runs_the_upgrade_until_close_cancels_and_awaits_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = connect.open_store

    async def on_fake(url: str | None, prefix: str, target: Any) -> RedisStore:
        return await real_open(None, prefix)  # a server with a URL, in fakeredis

    monkeypatch.setattr(connect, "open_store", on_fake)
    store = await connect.open_settings_store(Settings(redis_url="redis://h:6379/7"))
    task = store.layout._task
    assert task is not None
    await asyncio.sleep(0)
    assert not task.done()  # it watches for old keys for a while (layout.WATCH_S)
    await store.close()
    assert task.done() and store.layout._task is None


@pytest.mark.parametrize("answers", [["q", "s"], ["q", KeyboardInterrupt]])
def test_play_closes_its_store_and_its_upgrade_task_when_the_player_quits(
        answers: list[Any], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """With ``REDIS_URL`` set the upgrade runs; quitting with q then s (or a Ctrl-C at
    the question) leaves no task pending: the store was closed."""
    opened: list[RedisStore] = []
    real_open = connect.open_store

    async def on_fake(url: str | None, prefix: str, target: Any) -> RedisStore:
        opened.append(await real_open(None, prefix))
        return opened[-1]

    def answer(_prompt: str = "") -> str:
        given = answers.pop(0)
        if given is KeyboardInterrupt:
            raise KeyboardInterrupt
        assert isinstance(given, str)
        return given

    monkeypatch.setattr(connect, "open_store", on_fake)
    monkeypatch.setattr("builtins.input", answer)
    monkeypatch.setenv("REDIS_URL", "redis://h:6379/7")
    assert cli.main(["play", "--players", "2", "--pause", "0"]) == 0
    assert capsys.readouterr().out.endswith("\nAté a próxima!\n")
    (store,) = opened
    assert store.layout._task is None and store.layout._stopping  # stopped by close()
