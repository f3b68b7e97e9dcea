"""Issue 36, "no game lost on deploy": keys of the layout before issue 36 (a chat's
binding, settings and ranking, Telegram's group-migration and private-chat marks, a
command's marker) are carried on by workers of the new code
(:mod:`adapters.storage.layout`): read through while the first pass runs, moved by it,
idempotently, with several workers at once and after a crash halfway."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator
from typing import Any

import pytest

from adapters.storage import RedisStore
from adapters.storage.keys import LegacyKeys, StoreKeys
from adapters.storage.layout import OldKey
from adapters.telegram.app import build_application
from adapters.telegram.coalesce import EditCoalescer
from adapters.telegram.refs import MessageRefs
from bot import Service
from bot.settings import Settings

try:
    from test_telegram_app import ANA, BIA, GROUP, Clock, Tg, labels, open_table, simple_turn
    from test_telegram_fakeapi import TOKEN, FakeBotAPI
except ImportError:  # pragma: no cover - package-style test import
    from tests.test_telegram_app import ANA, BIA, GROUP, Clock, Tg, labels, open_table, simple_turn
    from tests.test_telegram_fakeapi import TOKEN, FakeBotAPI

CHAT = f"tg:{GROUP['id']}"


@contextlib.asynccontextmanager
async def worker(store: RedisStore, fake: FakeBotAPI, clock: Clock) -> AsyncIterator[Tg]:
    """One worker (its own service, application and refs) on ``store``'s Redis and the
    shared fake Bot API, with the layout upgrade's legacy mode as ``store`` has it."""
    service = Service(store, clock, ai_pace_s=0)

    async def lang_of(chat_key: str) -> str:
        return (await store.get_setting(chat_key, "lang")) or "pt"

    application, handlers = build_application(
        Settings(telegram_token=TOKEN, _env_file=None), service,
        MessageRefs(store.client, store.keys.prefix, layout=store.layout), lang_of,
        request=fake)
    handlers.outbox.group_edits = EditCoalescer(gap_s=0, per_minute=10_000)
    handlers.outbox.dm_edits = EditCoalescer(gap_s=0, per_minute=10_000)
    async with application:
        yield Tg(application, handlers, fake, service, clock)


async def as_old_code_kept_them(client: Any, prefix: str) -> None:
    """Rename every key the new layout gave a chat's hash tag to the name the code before
    issue 36 wrote it under (same values, same expiry)."""
    new, old = StoreKeys(prefix), LegacyKeys(prefix)
    renames = {new.chat(CHAT): old.chat(CHAT),
               new.dm("tg", str(ANA["id"])): old.dm("tg", str(ANA["id"])),
               new.dm("tg", str(BIA["id"])): old.dm("tg", str(BIA["id"]))}
    for key, name in renames.items():
        assert await client.exists(key), key
        await client.rename(key, name)
    await client.hset(old.ranking(CHAT), mapping={  # a match the old code counted
        "n:tg:9": "Zé", "m:tg:9": "3", "w:tg:9": "2", "p:tg:9": "410", "g:old1": "1"})
    await client.hset(old.settings(CHAT), "timer", "60")
    await client.set(old.successor("tg", "-55"), "-1005")
    await client.set(old.seen("tg:666:u:77"), "1", ex=600)
    await client.set(f"{prefix}:timers:sets", "1")  # the old timer sets' high-water mark


def untagged(keys: list[str], prefix: str) -> set[str]:
    return {k for k in keys if not k.startswith(f"{prefix}:{{")}


async def test_a_game_kept_by_the_old_layout_is_played_on_by_a_new_worker_and_moved(
        store_clients: Any, store_prefix: str) -> None:
    fake, clock = FakeBotAPI(), Clock()
    first = RedisStore(store_clients(), store_prefix)
    async with worker(first, fake, clock) as tg:
        game_id = await open_table(tg)
        await tg.press(BIA, tg.table(), "Entrar")
        await tg.press(ANA, tg.table(), "Robô")
        await tg.press(ANA, tg.table(), "Robô")
        await tg.press(ANA, tg.table(), "Iniciar")
    await as_old_code_kept_them(first.client, store_prefix)
    old = LegacyKeys(store_prefix)

    second = RedisStore(store_clients(), store_prefix)
    second.layout.legacy = True  # a new worker before its first pass (open_settings_store)
    async with worker(second, fake, clock) as tg:
        tg._ids = itertools.count(1000)  # updates the first worker never saw
        await tg.command(ANA, "/novojogo")  # the chat's game is found under its old key
        assert "Já há um jogo neste grupo: veja a mesa dele." in fake.texts_to(GROUP["id"])
        await simple_turn(tg, ANA)  # Ana's turn goes on, on the hand she had
        assert tg.hand(ANA)["text"].startswith("<b>Sua mão (11 cartas)</b>")
        for _ in range(4):
            await tg.tick()  # the robots (their deadline: the old timer set) play on
        assert "Comprar do monte" in labels(tg.hand(BIA))
        await tg.command(ANA, "/placar", update_id=77)  # marked seen by the old code
        assert not any("Zé" in t for t in fake.texts_to(GROUP["id"]))
        await tg.command(ANA, "/placar", update_id=78)
        assert "Zé" in fake.texts_to(GROUP["id"])[-1]
        assert await tg.handlers.outbox.dm_known(str(BIA["id"])) is True
        assert await tg.handlers.outbox.refs.successor(-55) == -1005
        assert await second.get_setting(CHAT, "timer") == "60"

        assert await second.layout.run_pass() >= 1
        second.layout.legacy = False
        keys = [k async for k in second.client.scan_iter(match=f"{store_prefix}:*")]
        assert untagged(keys, store_prefix) == {
            f"{store_prefix}:timers", f"{store_prefix}:timers:shapes",
            old.seen("tg:666:u:77")}  # a marker without its chat: left to expire
        assert await second.chat_game(CHAT) == game_id
        assert 0 < await second.client.ttl(second.keys.chat(CHAT)) <= 30 * 86_400
        assert await second.ranking(CHAT) == [("tg:9", "Zé", 3, 2, 410)]
        assert await second.get_setting(CHAT, "timer") == "60"
        assert await second.layout.run_pass() == 0  # nothing left to move


@pytest.fixture
def legacy(redis_store: RedisStore) -> LegacyKeys:
    return LegacyKeys(redis_store.keys.prefix)


async def test_a_move_redone_after_a_crash_before_the_delete_counts_the_ranking_once(
        redis_store: RedisStore, legacy: LegacyKeys) -> None:
    client, layout = redis_store.client, redis_store.layout
    await client.hset(legacy.ranking(CHAT), mapping={"n:a": "Ana", "m:a": "2", "w:a": "1",
                                                     "p:a": "300", "g:x1": "1"})
    fields = await client.hgetall(legacy.ranking(CHAT))
    flat = [v for pair in sorted(fields.items()) for v in pair]
    drop = layout._drop
    layout._drop = None  # the worker dies after the write, before the delete
    with pytest.raises(TypeError):
        await layout.move(OldKey(legacy.ranking(CHAT), redis_store.keys.ranking(CHAT),
                                 "ranking"))
    layout._drop = drop
    assert await client.hgetall(legacy.ranking(CHAT)) == fields  # still there
    assert len(flat) == 10
    assert await layout.run_pass() == 1
    assert await redis_store.ranking(CHAT) == [("a", "Ana", 2, 1, 300)]
    assert not await client.exists(legacy.ranking(CHAT))


async def test_a_ranking_the_old_code_wrote_after_the_move_is_added_in_once(
        redis_store: RedisStore, legacy: LegacyKeys) -> None:
    client, layout = redis_store.client, redis_store.layout
    await client.hset(legacy.ranking(CHAT), mapping={"n:a": "Ana", "m:a": "2", "w:a": "1",
                                                     "p:a": "300", "g:x1": "1"})
    assert await layout.run_pass() == 1
    await client.hset(legacy.ranking(CHAT), mapping={  # an old worker's later match
        "n:a": "Ana", "m:a": "1", "w:a": "0", "p:a": "-40", "g:x2": "1"})
    assert await layout.run_pass() == 1
    assert await layout.run_pass() == 0
    assert await redis_store.ranking(CHAT) == [("a", "Ana", 3, 1, 260)]


async def test_two_workers_passing_at_once_move_every_key_once(
        redis_store: RedisStore, second_redis_store: RedisStore, legacy: LegacyKeys) -> None:
    client = redis_store.client
    for n in range(30):
        await client.hset(legacy.ranking(f"tg:{n}"), mapping={"n:a": "Ana", "m:a": "1",
                                                              "w:a": "1", "p:a": "5"})
        await client.set(legacy.chat(f"tg:{n}"), f"g{n}", ex=900)
        await client.hset(legacy.settings(f"tg:{n}"), "lang", "it")
    moved = await asyncio.gather(redis_store.layout.run_pass(),
                                 second_redis_store.layout.run_pass())
    assert sum(moved) == 90
    for n in range(30):
        assert await redis_store.ranking(f"tg:{n}") == [("a", "Ana", 1, 1, 5)]
        assert await redis_store.chat_game(f"tg:{n}") == f"g{n}"
        assert await redis_store.get_setting(f"tg:{n}", "lang") == "it"


async def test_an_old_key_changed_during_its_move_stays_for_the_next_pass(
        redis_store: RedisStore, legacy: LegacyKeys) -> None:
    client, layout = redis_store.client, redis_store.layout
    await client.hset(legacy.settings(CHAT), mapping={"lang": "en"})
    write = layout._write

    async def write_then_old_worker(**kw: Any) -> Any:
        done = await write(**kw)
        await client.hset(legacy.settings(CHAT), "timer", "45")  # an old worker's /config
        return done

    layout._write = write_then_old_worker
    assert await layout.run_pass() == 0
    layout._write = write
    assert await client.hgetall(legacy.settings(CHAT)) == {"lang": "en", "timer": "45"}
    assert await layout.run_pass() == 1
    assert await client.hgetall(redis_store.keys.settings(CHAT)) == {"lang": "en",
                                                                   "timer": "45"}


async def test_a_setting_made_by_a_new_worker_wins_over_the_old_one(
        redis_store: RedisStore, legacy: LegacyKeys) -> None:
    await redis_store.client.hset(legacy.settings(CHAT), mapping={"lang": "en", "timer": "30"})
    await redis_store.set_setting(CHAT, "lang", "it")  # not in legacy mode: the new key only
    await redis_store.layout.run_pass()
    assert await redis_store.get_setting(CHAT, "lang") == "it"
    assert await redis_store.get_setting(CHAT, "timer") == "30"


async def test_in_legacy_mode_a_chat_with_an_old_binding_gets_no_second_game(
        redis_store: RedisStore, legacy: LegacyKeys) -> None:
    await redis_store.client.set(legacy.chat(CHAT), "g-old", ex=900)
    redis_store.layout.legacy = True
    assert await redis_store.bind_chat(CHAT, "g-new", 900) is False
    assert await redis_store.chat_game(CHAT) == "g-old"
    assert not await redis_store.client.exists(legacy.chat(CHAT))


async def test_a_legacy_key_of_another_type_is_left_alone_and_logged(
        redis_store: RedisStore, legacy: LegacyKeys, caplog: pytest.LogCaptureFixture) -> None:
    await redis_store.client.rpush(legacy.settings(CHAT), "damaged")
    redis_store.layout.legacy = True
    assert await redis_store.get_setting(CHAT, "lang") is None
    assert await redis_store.layout.run_pass() == 0
    assert await redis_store.client.lrange(legacy.settings(CHAT), 0, -1) == ["damaged"]
    assert f"key {legacy.settings(CHAT)}: a list, not moved" in caplog.text


async def test_the_upgrade_leaves_legacy_mode_after_its_first_pass_and_repeats(
        redis_store: RedisStore, legacy: LegacyKeys) -> None:
    layout, client = redis_store.layout, redis_store.client
    await client.set(legacy.chat(CHAT), "g1")
    now = [0.0]
    seen: list[bool] = []

    async def sleep(seconds: float) -> None:
        seen.append(layout.legacy)
        await client.set(legacy.chat("tg:2"), "g2")  # an old worker, meanwhile
        now[0] += seconds

    await layout.upgrade(clock=lambda: now[0], sleep=sleep, watch_s=25.0, repass_s=10.0)
    assert seen == [False, False]
    assert now[0] == 20.0
    assert await redis_store.chat_game(CHAT) == "g1"
    assert await redis_store.chat_game("tg:2") == "g2"
    assert not await client.exists(legacy.chat("tg:2"))


async def test_one_cancel_ends_the_upgrade_even_when_the_pass_turns_it_into_an_error(
        redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """As fakeredis does: the client catches the ``CancelledError`` and raises its own.
    ``asyncio.run`` cancels a left-over task once and waits for it: the upgrade must
    end then, not sleep until its next pass (a start that failed on a taken port hung
    for ``REPASS_S``)."""
    layout = redis_store.layout
    started = asyncio.Event()

    async def run_pass(count: int = 500) -> int:
        started.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            raise ConnectionError("the client's own error") from None
        return 0

    monkeypatch.setattr(layout, "run_pass", run_pass)
    task = asyncio.ensure_future(layout.upgrade())
    await started.wait()
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=5)
    assert done == {task} and task.cancelled()
