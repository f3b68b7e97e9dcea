"""A Redis key of a game that holds the wrong type (its ``:state`` hash replaced by a
string, fresh-user trial item 3) is a damaged game like any other: the timers and the
sweep log it by its kind and skip it, every other game keeps being served, and a person
acting on it is told its state cannot be read, with nothing changed."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from test_service_support import (
    ANA,
    BACKENDS,
    BIA,
    CHAT,
    CHAT2,
    Backend,
    FakeClock,
    kinds,
    only,
    texts,
)

from bot.effects import ChatRef, Reply
from bot.service import Service

CORRUPT = ("Não consegui ler o estado deste jogo (dados danificados): nada foi mudado. "
           "Um admin do grupo pode encerrar a mesa com /cancelar.")


@pytest.fixture(params=[kind for kind in BACKENDS if kind != "memory"])
async def backend(request: pytest.FixtureRequest, clock: FakeClock) -> AsyncIterator[Backend]:
    """The Redis stores only (fakeredis, and a real Redis with REDIS_URL): the in-memory
    store has no key types to get wrong."""
    b = Backend(request.param, clock)
    yield b
    await b.close()


@pytest.fixture
def redis_store(store: Any) -> Any:
    return store


async def two_tables(svc: Service, store: Any) -> tuple[str, str, str]:
    """A started game in CHAT whose state key becomes a string, and a lobby in CHAT2;
    their ids and the bad key's name."""
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    await svc.start(CHAT, ANA)
    bad = await store.chat_game(CHAT.key)
    good = only(await svc.new_game(CHAT2, BIA, "buraco"), "table").game_id
    key = store.keys.state(bad)
    await store.client.delete(key)
    await store.client.set(key, "not a hash")
    svc._cache.clear()  # another worker: it reads the key
    return bad, good, key


async def test_the_sweep_skips_a_wrong_type_key_and_repairs_the_other_games(
        svc: Service, redis_store: Any, caplog: pytest.LogCaptureFixture) -> None:
    bad, good, key = await two_tables(svc, redis_store)
    for gid in (bad, good):
        await redis_store.clear_deadline(gid)
    with caplog.at_level(logging.ERROR):
        assert await svc.tick() == []
    assert await redis_store.has_deadline([bad, good]) == [False, True]
    assert f"game {bad}: unreadable state in the sweep (CorruptGame)" in caplog.messages
    assert await redis_store.client.get(key) == "not a hash"


async def test_a_due_wrong_type_game_is_skipped_and_the_others_are_served(
        svc: Service, redis_store: Any, clock: Any,
        caplog: pytest.LogCaptureFixture) -> None:
    bad, good, key = await two_tables(svc, redis_store)
    await svc.tick()  # the first tick's sweep
    await redis_store.set_deadline(bad, clock.now())
    await redis_store.set_deadline(good, clock.now())
    clock.advance(1)
    with caplog.at_level(logging.ERROR):
        await svc.tick(limit=5)
    assert f"game {bad}: timer step failed (CorruptGame)" in caplog.messages
    assert await redis_store.load_game(good) is not None
    assert kinds(await svc.join(CHAT2, ANA)) == ["table"]  # the other game is served
    assert await redis_store.client.get(key) == "not a hash"


async def test_a_person_acting_on_a_wrong_type_game_is_told_it_is_damaged(
        svc: Service, redis_store: Any) -> None:
    bad, _good, key = await two_tables(svc, redis_store)
    assert await svc.press(ANA, f"{bad}|1|c|") == [Reply(player=ANA, text=CORRUPT)]
    assert await svc.press(ANA, f"{bad}|1|c|", update="tg:1:u:9") == [
        Reply(player=ANA, text=CORRUPT)]
    assert await svc.join(CHAT, BIA) == [Reply(player=BIA, text=CORRUPT)]
    assert await svc.new_game(CHAT, BIA, "", update="tg:1:u:10") == [
        Reply(player=BIA, text=CORRUPT)]
    assert await svc.show_hand(CHAT, ANA) == [Reply(player=ANA, text=CORRUPT)]
    assert await svc.cancel(CHAT, ANA) == [Reply(player=ANA, text=CORRUPT)]
    assert await svc.table_of(bad) == []
    assert kinds(await svc.scoreboard(CHAT, ANA)) == ["reply"]
    assert kinds(await svc.set_language(CHAT, ANA, "en")) == ["reply"]
    assert await redis_store.client.get(key) == "not a hash"
    closed = await svc.cancel(CHAT, BIA, is_admin=True)  # an admin frees the chat
    assert kinds(closed) == ["say", "closed"]
    assert await redis_store.chat_game(CHAT.key) is None


async def test_a_ranking_key_of_the_wrong_type_leaves_the_scoreboard_readable(
        svc: Service, redis_store: Any) -> None:
    await redis_store.client.set(redis_store.keys.ranking(CHAT.key), "not a hash")
    effects = await svc.scoreboard(CHAT, ANA)
    assert kinds(effects) == ["reply"]


NO_GAME = "Não há jogo aberto neste grupo. Use /novojogo."


async def broken_binding(svc: Service, store: Any) -> str:
    """A lobby in CHAT2 and CHAT's chat→game key replaced by a hash; the bad key's name."""
    await svc.new_game(CHAT2, BIA, "buraco")
    key = store.keys.chat(CHAT.key)
    await store.client.hset(key, "x", "1")
    return str(key)


async def test_a_wrong_type_chat_binding_reads_as_no_game_and_changes_nothing(
        svc: Service, redis_store: Any, caplog: pytest.LogCaptureFixture) -> None:
    key = await broken_binding(svc, redis_store)
    with caplog.at_level(logging.ERROR):
        assert await svc.show_hand(CHAT, ANA) == [Reply(player=ANA, text=NO_GAME)]
        assert await svc.cancel(CHAT, ANA, update="tg:1:u:13") == [
            Reply(player=ANA, text=NO_GAME)]
        assert await svc.join(CHAT, ANA) == [Reply(player=ANA, text=NO_GAME)]
        assert kinds(await svc.scoreboard(CHAT, ANA)) == ["reply"]
        assert await svc.needs_admin(ANA, chat=CHAT) is False
    assert f"chat {CHAT.key}: game binding unreadable (CorruptGame)" in caplog.messages
    assert await redis_store.client.hgetall(key) == {"x": "1"}
    assert kinds(await svc.join(CHAT2, ANA)) == ["table"]  # the other chat is served


async def test_novojogo_replaces_a_wrong_type_chat_binding_with_the_new_game(
        svc: Service, redis_store: Any) -> None:
    await broken_binding(svc, redis_store)
    table = only(await svc.new_game(CHAT, ANA, "buraco", update="tg:1:u:14"), "table")
    assert await redis_store.chat_game(CHAT.key) == table.game_id
    assert kinds(await svc.join(CHAT, BIA)) == ["table"]


async def test_a_wrong_type_settings_key_reads_as_unset_and_idioma_replaces_it(
        svc: Service, redis_store: Any, caplog: pytest.LogCaptureFixture) -> None:
    key = redis_store.keys.settings(CHAT.key)
    await redis_store.client.set(key, "not a hash")
    with caplog.at_level(logging.ERROR):
        assert await svc.show_hand(CHAT, ANA) == [Reply(player=ANA, text=NO_GAME)]
        assert kinds(await svc.scoreboard(CHAT, ANA)) == ["reply"]
        assert kinds(await svc.export(CHAT, ANA)) == ["reply"]
    assert f"chat {CHAT.key}: settings unreadable (CorruptGame)" in caplog.messages
    assert await redis_store.client.get(key) == "not a hash"
    assert await svc.set_language(CHAT, ANA, "en") == [
        Reply(player=ANA, text="Group language: English.")]
    assert await redis_store.get_setting(CHAT.key, "lang") == "en"


async def test_a_wrong_type_ranking_key_skips_counting_the_match_so_the_chat_is_freed(
        redis_store: Any, caplog: pytest.LogCaptureFixture) -> None:
    key = redis_store.keys.ranking(CHAT.key)
    await redis_store.client.set(key, "not a hash")
    with caplog.at_level(logging.ERROR):
        assert await redis_store.add_results(CHAT.key, "g1", [("tg:1", "Ana", True, 120)]) \
            is False
    assert f"chat {CHAT.key}: ranking unreadable (CorruptGame): game g1 not counted" \
        in caplog.messages
    assert await redis_store.client.get(key) == "not a hash"


async def test_a_wrong_type_discord_channel_binding_reads_as_no_game(
        svc: Service, redis_store: Any) -> None:
    channel = ChatRef(platform="dc", chat_id="5001", title="#mesa")
    await redis_store.client.rpush(redis_store.keys.chat(channel.key), "damaged")
    assert await svc.show_hand(channel, ANA) == [Reply(player=ANA, text=NO_GAME)]
    table = only(await svc.new_game(channel, ANA, "buraco"), "table")
    assert await redis_store.chat_game(channel.key) == table.game_id


async def test_a_wrong_type_record_key_is_replaced_when_the_game_closes(
        svc: Service, redis_store: Any, caplog: pytest.LogCaptureFixture) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    await svc.start(CHAT, ANA)
    gid = await redis_store.chat_game(CHAT.key)
    await redis_store.client.hset(redis_store.keys.record(gid), "x", "1")
    with caplog.at_level(logging.ERROR):
        closed = await svc.cancel(CHAT, ANA)
    assert "closed" in kinds(closed) and CORRUPT not in texts(closed)
    assert f"game {gid}: earlier record unreadable (CorruptGame): replaced" in caplog.messages
    assert await redis_store.chat_game(CHAT.key) is None
    assert await redis_store.load_record(gid) is not None
