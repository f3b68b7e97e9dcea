"""``Service.needs_admin``: whether closing a game turns on the person being a chat admin,
so an adapter asks its platform (Telegram ``getChatMember``) only then (fresh-user trial,
item 4)."""

from __future__ import annotations

from typing import Any

from test_service_support import ANA, BIA, CAIO, CHAT, CHAT2, only

from bot.service import Service


async def test_the_creator_needs_no_admin_check_and_others_do(svc: Service) -> None:
    gid = only(await svc.new_game(CHAT, ANA, "buraco"), "table").game_id
    await svc.join(CHAT, BIA)
    assert not await svc.needs_admin(ANA, chat=CHAT)
    assert not await svc.needs_admin(ANA, game_id=gid)
    assert await svc.needs_admin(BIA, chat=CHAT)
    assert await svc.needs_admin(CAIO, game_id=gid)


async def test_no_game_needs_no_admin_check(svc: Service) -> None:
    assert not await svc.needs_admin(ANA, chat=CHAT2)
    assert not await svc.needs_admin(ANA, game_id="zzzzzzzz")


async def test_the_only_person_at_the_table_cancels_without_being_an_admin(
        svc: Service, store: Any) -> None:
    """A creator who is no longer seated (a state written before the creator's role
    passed on): the one person left closes the table."""
    from bot.model import decode, encode

    gid = only(await svc.new_game(CHAT, ANA, "buraco"), "table").game_id
    await svc.join(CHAT, BIA)
    version, text = await store.load_game(gid)
    game = decode(text)
    del game.seats[0]
    assert await store.save_game(gid, version, encode(game), 86_400)
    assert not await svc.needs_admin(BIA, chat=CHAT)
    effects = await svc.cancel(CHAT, BIA)
    assert [e.text for e in effects if e.kind == "say"] == ["Jogo cancelado por Bia."]
    assert await store.chat_game(CHAT.key) is None


async def test_an_unreadable_game_needs_an_admin_check(svc: Service, store: Any) -> None:
    gid = only(await svc.new_game(CHAT, ANA, "buraco"), "table").game_id
    await store.create_game(gid, "{}", 86_400)
    svc._cache.clear()
    assert await svc.needs_admin(ANA, chat=CHAT)
