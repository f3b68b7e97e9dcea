"""Platform faults through the whole Telegram application (real Update JSON, real service,
fake Bot API): refused DMs, migrated groups, flood limits, vanished or unchanged
messages, stale queries, crashes inside a handler, commands sent in the wrong chat."""

from __future__ import annotations

from typing import Any

from test_telegram_app import (
    ANA,
    BIA,
    GROUP,
    LINK,
    Tg,
    button,
    labels,
    open_table,
    start_two_humans,
    tg,
)
from test_telegram_fakeapi import (
    EDIT_NOT_FOUND,
    FORBIDDEN_DM,
    MIGRATED,
    NOT_MODIFIED,
    QUERY_TOO_OLD,
)

from adapters.storage.budget import RetryBudgetSpent

GENERIC = "Algo deu errado. Confira a mesa e tente de novo."
NO_GAME = "Não há jogo aberto neste grupo. Use /novojogo."
__all__ = ["tg"]  # the fixture, re-exported for pytest
BIA_DM = {"id": BIA["id"], "type": "private", "first_name": "Bia"}
SUPERGROUP = {"id": -1009, "type": "supergroup", "title": "Mesa da Firma"}
NOTICE = ("Bia, não consigo te mandar mensagem no privado. Toque no botão abaixo e depois "
          "em Iniciar para receber a sua mão.")


async def test_a_refused_dm_tells_the_group_once_with_a_deep_link(tg: Tg) -> None:
    tg.fake.fail("sendMessage", FORBIDDEN_DM, code=403, chat_id=BIA["id"], times=100)
    game_id = await start_two_humans(tg)
    notices = [m for m in tg.fake.current(GROUP["id"]) if m["text"] == NOTICE]
    assert len(notices) == 1
    assert button(notices[0], "Abrir o privado")["url"] == f"{LINK}h{game_id}"
    await tg.command(BIA, "/mao")
    assert [m["text"] for m in tg.fake.current(GROUP["id"])].count(NOTICE) == 1


async def test_opening_the_deep_link_delivers_the_hand(tg: Tg) -> None:
    tg.fake.fail("sendMessage", FORBIDDEN_DM, code=403, chat_id=BIA["id"], times=1)
    game_id = await start_two_humans(tg)
    assert tg.fake.current(BIA["id"]) == []
    await tg.command(BIA, f"/start h{game_id}", chat=BIA_DM)
    hand = tg.hand(BIA)
    assert hand["text"].startswith("<b>Sua mão (11 cartas)</b>\nMesa: Mesa da Firma\n")
    assert len(labels(hand)) == 11
    # the hand is the whole answer: not "...vão chegar aqui quando a partida começar"
    assert [m["text"] for m in tg.fake.current(BIA["id"])] == [hand["text"]]


async def test_the_notice_follows_the_group_language(tg: Tg) -> None:
    await tg.command(ANA, "/idioma en")
    tg.fake.fail("sendMessage", FORBIDDEN_DM, code=403, chat_id=BIA["id"], times=100)
    await open_table(tg)
    assert labels(tg.table())[-1] == "Join and open the private chat"
    await tg.press(BIA, tg.table(), "Join")
    await tg.press(ANA, tg.table(), "AI player")
    await tg.press(ANA, tg.table(), "AI player")
    await tg.press(ANA, tg.table(), "Start")
    texts = [m["text"] for m in tg.fake.current(GROUP["id"])]
    assert ("Bia, I cannot write to you privately. Tap the button below and then Start to "
            "get your hand.") in texts


async def test_a_migrated_group_keeps_its_game_under_the_new_id(tg: Tg) -> None:
    await open_table(tg)
    tg.fake.fail("editMessageText", MIGRATED, chat_id=GROUP["id"], times=100,
                 migrate_to_chat_id=SUPERGROUP["id"])
    tg.fake.fail("sendMessage", MIGRATED, chat_id=GROUP["id"], times=100,
                 migrate_to_chat_id=SUPERGROUP["id"])
    await tg.press(BIA, tg.table(), "Entrar")
    moved = tg.fake.current(SUPERGROUP["id"])
    assert len(moved) == 1 and "Lugar 2: Bia · lado 2" in moved[0]["text"]
    await tg.command(ANA, "/robo", chat=SUPERGROUP)
    assert "Lugar 3: Robô 3 (normal) · lado 3" in tg.fake.current(SUPERGROUP["id"])[0]["text"]
    assert len(tg.fake.current(SUPERGROUP["id"])) == 1  # edited in place in the supergroup


async def test_the_migration_service_message_moves_the_game_too(tg: Tg) -> None:
    await open_table(tg)
    await tg.feed({"update_id": 900, "message": {
        "message_id": 900, "date": 0, "chat": GROUP, "from": ANA,
        "migrate_to_chat_id": SUPERGROUP["id"]}})
    await tg.command(BIA, "/entrar", chat=SUPERGROUP)
    assert "Lugar 2: Bia · lado 2" in tg.fake.current(SUPERGROUP["id"])[0]["text"]


async def test_flood_control_waits_and_retries(tg: Tg) -> None:
    await open_table(tg)
    tg.fake.fail("editMessageText", "Too Many Requests: retry after 1", code=429,
                 retry_after=1)
    await tg.press(BIA, tg.table(), "Entrar")
    assert len(tg.fake.called("editMessageText")) == 2
    assert "Lugar 2: Bia · lado 2" in tg.table()["text"]


async def test_message_not_modified_is_success_and_posts_nothing(tg: Tg) -> None:
    await open_table(tg)
    tg.fake.fail("editMessageText", NOT_MODIFIED)
    query = await tg.press(BIA, tg.table(), "Entrar")
    assert len(tg.fake.called("sendMessage")) == 1
    assert tg.answer(query)["callback_query_id"] == query


async def test_a_vanished_table_message_is_posted_again(tg: Tg) -> None:
    await open_table(tg)
    tg.fake.fail("editMessageText", EDIT_NOT_FOUND)
    await tg.press(BIA, tg.table(), "Entrar")
    tables = tg.fake.current(GROUP["id"])
    assert len(tables) == 2 and "Lugar 2: Bia · lado 2" in tables[1]["text"]
    await tg.command(ANA, "/robo")
    assert "Robô 3" in tg.fake.current(GROUP["id"])[1]["text"]  # the new one is edited


async def test_a_query_too_old_does_not_break_the_press(tg: Tg) -> None:
    await open_table(tg)
    tg.fake.fail("answerCallbackQuery", QUERY_TOO_OLD)
    await tg.press(BIA, tg.table(), "Entrar")
    assert "Lugar 2: Bia · lado 2" in tg.table()["text"]


async def test_every_query_is_answered_even_when_the_service_fails(tg: Tg) -> None:
    await open_table(tg)

    async def broken(*_args: Any, **_kw: Any) -> list[Any]:
        raise RuntimeError("store down")

    tg.handlers.service.press = broken
    query = await tg.press(BIA, tg.table(), "Entrar")
    assert tg.answer(query) == {"callback_query_id": query, "show_alert": False,
                                "text": GENERIC}


async def test_a_command_whose_service_call_fails_gets_the_generic_answer(tg: Tg) -> None:
    await open_table(tg)

    async def broken(*_args: Any, **_kw: Any) -> list[Any]:
        raise RuntimeError("store down")

    tg.handlers.service.show_hand = broken
    n = await tg.command(BIA, "/mao")
    reply = tg.fake.called("sendMessage")[-1]
    assert (reply["chat_id"], reply["text"]) == (GROUP["id"], GENERIC)
    assert reply["reply_parameters"]["message_id"] == n
    await tg.command(ANA, "/idioma en")
    await tg.command(BIA, "/mao")
    assert tg.fake.called("sendMessage")[-1]["text"] == (
        "Something went wrong. Check the table and try again.")


async def test_a_wrong_type_chat_binding_is_answered_and_novojogo_opens_a_table(
        tg: Tg) -> None:
    store = tg.service.store
    await store.client.hset(store.keys.chat(f"tg:{GROUP['id']}"), "x", "1")
    for text in ("/mao", "/placar", "/cancelar"):
        await tg.command(BIA, text)
        assert tg.fake.called("sendMessage")[-1]["text"] != GENERIC, text
    assert tg.fake.called("sendMessage")[-1]["text"] == NO_GAME
    await open_table(tg)
    assert "Lugar 1: Ana" in tg.table()["text"]


async def test_group_commands_in_a_private_chat_point_to_the_group(tg: Tg) -> None:
    await tg.command(BIA, "/novojogo", chat=BIA_DM)
    assert [m["text"] for m in tg.fake.current(BIA["id"])] == [
        "Esse comando funciona no grupo da mesa: me adicione a um grupo e use /novojogo lá."]


async def test_plain_start_in_private_welcomes_the_person(tg: Tg) -> None:
    await tg.command(BIA, "/start", chat=BIA_DM)
    assert [m["text"] for m in tg.fake.current(BIA["id"])] == [
        "Tudo certo! Suas cartas vão chegar aqui quando a partida começar. Para abrir uma "
        "mesa, me adicione a um grupo e use /novojogo."]


async def test_a_command_reply_quotes_the_command(tg: Tg) -> None:
    await open_table(tg)
    n = await tg.command(BIA, "/iniciar")
    reply = tg.fake.called("sendMessage")[-1]
    assert reply["chat_id"] == GROUP["id"]
    assert reply["text"] == "Só quem abriu a mesa pode iniciar."
    assert reply["reply_parameters"]["message_id"] == n


async def test_wrong_type_chat_migration_and_dm_keys_read_as_unknown(tg: Tg) -> None:
    refs = tg.handlers.outbox.refs
    for key in (f"{refs.prefix}:tg:chat:old:{GROUP['id']}",
                f"{refs.prefix}:tg:chat:new:{GROUP['id']}", f"{refs.prefix}:tg:dm:{ANA['id']}"):
        await refs.client.hset(key, "x", "1")
    await open_table(tg)
    assert "Lugar 1: Ana" in tg.table()["text"]
    assert await refs.client.hgetall(f"{refs.prefix}:tg:chat:old:{GROUP['id']}") == {"x": "1"}


async def test_a_wrong_type_table_refs_key_posts_the_table_anew(tg: Tg) -> None:
    game_id = await open_table(tg)
    refs = tg.handlers.outbox.refs
    key = refs._game(game_id)
    await refs.client.delete(key)
    await refs.client.rpush(key, "damaged")  # the hash became a list
    await tg.press(BIA, tg.table(), "Entrar")
    tables = [m for m in tg.fake.current(GROUP["id"]) if m["text"].startswith("<b>")]
    assert "Lugar 2: Bia · lado 2" in tables[-1]["text"]
    assert await refs.table(game_id) == (GROUP["id"], tables[-1]["message_id"])


async def test_a_press_refused_for_an_unreachable_redis_says_to_press_again_and_the_button_works(
        tg: Tg) -> None:
    """Issue 36: Redis unreachable past the failover budget is not "Algo deu errado": the
    person is told the press was not made and to press again, in the group's language;
    the same button, pressed again once Redis answers, works."""
    await open_table(tg)
    await tg.command(ANA, "/idioma en")
    served = tg.handlers.service.press

    async def unreachable(*_args: Any, **_kw: Any) -> list[Any]:
        raise RetryBudgetSpent("redis unavailable for 6.0 s since the update arrived")

    tg.handlers.service.press = unreachable
    table = tg.table()
    query = await tg.press(BIA, table, "Join")
    assert tg.answer(query) == {
        "callback_query_id": query, "show_alert": False,
        "text": "The game server did not answer in time and your move was not made. "
                "Press again in a few seconds."}
    tg.handlers.service.press = served
    await tg.press(BIA, table, "Join")
    assert "Seat 2: Bia · side 2" in tg.table()["text"]


async def test_a_private_chat_that_is_a_place_of_a_table_takes_its_commands(tg: Tg) -> None:
    """Issue 35: Bia took her seat by invitation from her private chat, a place of the
    table: there /placar, /mao, /sair and /voltar act on that table (no "funciona no
    grupo da mesa"), and a chat admin's rights never come into it."""
    await open_table(tg)
    await tg.command(ANA, "/convidar")
    (invite,) = [m["text"] for m in tg.fake.called("sendMessage")
                 if m["text"].startswith("Convite para esta mesa")]
    code = invite.split(": ", 1)[1].split("\n", 1)[0]
    await tg.command(BIA, f"/entrar {code}", chat=BIA_DM)
    await tg.command(ANA, "/iniciar")
    said = len(tg.fake.called("sendMessage"))
    await tg.command(BIA, "/placar", chat=BIA_DM)
    sent = tg.fake.called("sendMessage")[said:]
    assert [(m["chat_id"], m["text"].split("\n")[:2]) for m in sent] == [
        (BIA["id"], ["Partida: Ana × Bia", "Total: 0 × 0"])]
    await tg.command(BIA, "/sair", chat=BIA_DM)
    left = "Bia saiu da mesa: o robô joga no lugar até Bia mandar /voltar ou /entrar."
    assert sorted(m["chat_id"] for m in tg.fake.called("sendMessage")[said + 1:]
                  if m["text"] == left) == sorted([GROUP["id"], BIA["id"]])
    await tg.command(BIA, "/voltar", chat=BIA_DM)
    await tg.command(BIA, "/mao", chat=BIA_DM)
    assert tg.hand(BIA)["text"].startswith("<b>Sua mão (11 cartas)</b>")
    texts = [m["text"] for m in tg.fake.current(BIA["id"])]
    assert any(t.startswith("Bia voltou") for t in texts), texts
    assert not any("funciona no grupo da mesa" in t or "Mande /mao" in t for t in texts)
