"""A table in several places and invitations across chats and platforms (issue 35):
a lobby's ``/convidar`` code seats a person from another chat (another group, a private
chat, the other platform), whose chat becomes a place of the table; the table, the
notices and the closing go to every place, each hand to its person where they are; a
code seats once, expires, can be withdrawn; a game stored before places keeps its one
chat. Every service test runs on the in-memory store, fakeredis and (with REDIS_URL)
the real Redis."""

from __future__ import annotations

import asyncio
from typing import Any

from test_service_support import ANA, BIA, CAIO, CHAT, CHAT2, FakeClock, game_of, make_service

from bot import invites
from bot.effects import ChatRef, PlayerRef, pack
from bot.model import decode, encode
from bot.places import spread
from bot.service import Service
from bot.settings import Settings
from bot.startup import served_platforms

DC = ChatRef(platform="dc", chat_id="900", title="Canal do Zé")
ZE = PlayerRef(platform="dc", user_id="77", name="Zé")


def code_of(effects: list[Any]) -> str:
    """The code a /convidar reply tells."""
    (reply,) = effects
    assert reply.kind == "reply"
    return str(reply.text.split(": ", 1)[1].split("\n", 1)[0])


def where(effects: list[Any]) -> list[tuple[str, str]]:
    """``(kind, place or person)`` of each effect."""
    return [(e.kind, e.player.key if e.kind in ("hand", "reply", "tell", "turn")
             else e.chat.key) for e in effects]


async def invited(svc: Service) -> str:
    await svc.new_game(CHAT, ANA, "buraco")
    return code_of(await svc.invite(CHAT, ANA))


async def test_invite_reply_tells_the_code_how_to_use_it_and_the_platform_links(
        svc: Service) -> None:
    svc.invite_links["tg"] = lambda code: [f"https://t.me/bot?start=c{code}"]
    svc.served = frozenset({"tg", "dc"})
    await svc.new_game(CHAT, ANA, "buraco")
    effects = await svc.invite(CHAT, ANA)
    code = code_of(effects)
    assert invites.norm_code(code) == code
    assert effects[0].text == (
        f"Convite para esta mesa: {code}\nQuem recebe entra de qualquer grupo ou do privado "
        f"com o bot, no Telegram ou no Discord, com /entrar {code}\nVale 30 min e um lugar. "
        f"Para retirar: /convidar retirar {code}\nhttps://t.me/bot?start=c{code}")


async def test_invite_reply_names_only_the_platforms_the_bot_serves(svc: Service) -> None:
    """A Telegram-only bot (no DISCORD_TOKEN) does not send people to Discord (issue 35,
    found by a tester); in English and Italian too."""
    svc.invite_links["tg"] = lambda code: [f"https://t.me/bot?start=c{code}"]
    svc.served = frozenset({"tg"})
    await svc.new_game(CHAT, ANA, "buraco")
    effects = await svc.invite(CHAT, ANA)
    code = code_of(effects)
    assert effects[0].text.splitlines()[1] == (
        f"Quem recebe entra de qualquer grupo ou do privado com o bot, no Telegram, com "
        f"/entrar {code}")
    for lang, line in [("en", "Whoever gets it joins from any group or their private chat "
                              "with the bot, on Telegram, with /entrar {code}"),
                       ("it", "Chi lo riceve entra da qualsiasi gruppo o dalla chat privata "
                              "con il bot, su Telegram, con /entrar {code}")]:
        await svc.set_language(CHAT, ANA, lang)
        effects = await svc.invite(CHAT, ANA)
        assert effects[0].text.splitlines()[1] == line.format(code=code_of(effects))


def test_the_platforms_served_are_those_with_a_token() -> None:
    tokens = {"telegram_token": "1:x", "discord_token": None}
    assert served_platforms(Settings(**tokens)) == {"tg"}
    assert served_platforms(Settings(**{**tokens, "discord_token": "d"})) == {"tg", "dc"}


async def test_a_code_seats_a_discord_person_and_their_channel_becomes_a_place(
        svc: Service, store: Any) -> None:
    code = await invited(svc)
    effects = await svc.join_code(DC, ZE, code.lower())  # the case is not the code's
    assert where(effects) == [("table", "tg:-100"), ("table", "dc:900")]
    assert "Lugar 2: Zé · lado 2" in effects[1].view.lines
    assert effects[1].home is False and effects[0].home is True
    _v, game = await game_of(store)
    assert [p.key for p in game.places] == ["dc:900"]
    assert game.seats[1].where == "dc:900" and game.invites == {}
    assert await store.chat_game("dc:900") == game.id  # the channel's commands find it


async def test_every_place_gets_the_table_and_each_hand_goes_to_its_person(
        svc: Service) -> None:
    code = await invited(svc)
    await svc.join_code(DC, ZE, code)
    effects = await svc.start(DC, ANA)  # the creator starts it from the other place
    assert where(effects) == [("table", "tg:-100"), ("table", "dc:900"),
                              ("hand", "tg:1"), ("hand", "dc:77"), ("turn", "tg:1")]
    hand_ze = effects[3]
    assert hand_ze.chat == DC and hand_ze.view.lines[0] == "Mesa: Canal do Zé"
    assert effects[0].view == effects[1].view  # one game, the same table in each place


async def test_a_notice_and_the_closing_reach_every_place(svc: Service, store: Any) -> None:
    code = await invited(svc)
    await svc.join_code(DC, ZE, code)
    effects = await svc.cancel(CHAT, ANA)
    assert where(effects) == [("say", "tg:-100"), ("say", "dc:900"),
                              ("closed", "tg:-100"), ("closed", "dc:900")]
    assert effects[3].home is False and effects[3].final is not None
    assert await store.chat_game(CHAT.key) is None
    assert await store.chat_game(DC.key) is None  # every place's chat is freed


async def test_a_code_seats_one_person_only(svc: Service, store: Any) -> None:
    code = await invited(svc)
    await svc.join_code(DC, ZE, code)
    effects = await svc.join_code(CHAT2, BIA, code)
    assert [e.text for e in effects] == [
        "Esse convite não vale mais (já usado, retirado ou vencido). Peça um novo a quem "
        "abriu a mesa."]
    _v, game = await game_of(store)
    assert [s.player.name for s in game.seats if s.player] == ["Ana", "Zé"]
    assert await store.chat_game(CHAT2.key) is None  # the refused chat is not bound


async def test_two_people_racing_for_one_code_seat_once(backend: Any, clock: FakeClock) -> None:
    workers = [make_service(backend.make(), clock) for _ in range(2)]
    code = await invited(workers[0])
    got = await asyncio.gather(workers[0].join_code(DC, ZE, code),
                               workers[1].join_code(CHAT2, BIA, code))
    _v, game = await game_of(workers[0].store)
    assert len(game.seats) == 2  # one of them sat
    seated = game.seats[1].player
    loser = got[1] if seated.key == ZE.key else got[0]
    assert [e.kind for e in loser] == ["reply"]
    assert len(game.places) == 1


async def test_a_redelivered_join_seats_once(svc: Service, store: Any) -> None:
    code = await invited(svc)
    await svc.join_code(DC, ZE, code, update="dc:i:1")
    assert await svc.join_code(DC, ZE, code, update="dc:i:1") == []
    _v, game = await game_of(store)
    assert len(game.seats) == 2


async def test_an_expired_code_seats_nobody(svc: Service, clock: FakeClock) -> None:
    code = await invited(svc)
    clock.advance(invites.INVITE_TTL_S + 1)
    effects = await svc.join_code(DC, ZE, code)
    assert effects[0].text.startswith("Esse convite não vale mais")


async def test_a_malformed_code_is_told_so(svc: Service) -> None:
    await invited(svc)
    effects = await svc.join_code(DC, ZE, "ABC0O1IL")  # look-alikes are never in a code
    assert [e.text for e in effects] == [
        "Código de convite inválido: confira as 8 letras e números."]


async def test_the_creator_withdraws_a_code_and_it_seats_nobody(svc: Service) -> None:
    code = await invited(svc)
    assert [e.text for e in await svc.invite(CHAT, BIA, f"retirar {code}")] == [
        "Só quem abriu a mesa pode retirar convites."]
    assert [e.text for e in await svc.invite(CHAT, ANA, f"retirar {code}")] == [
        "Convite retirado."]
    effects = await svc.join_code(DC, ZE, code)
    assert effects[0].text.startswith("Esse convite não vale mais")


async def test_one_code_per_free_seat(svc: Service) -> None:
    await svc.new_game(CHAT, ANA, "tranca")  # tranca: 2 or 4 seats
    for _ in range(3):
        code_of(await svc.invite(CHAT, ANA))
    assert [e.text for e in await svc.invite(CHAT, ANA)] == [
        "Não há lugar livre para mais um convite: a mesa está cheia ou cada lugar já tem "
        "um convite."]


async def test_only_someone_seated_invites(svc: Service) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    assert [e.text for e in await svc.invite(CHAT, CAIO)] == [
        "Só quem está na mesa pode convidar."]


async def test_a_chat_with_its_own_table_cannot_become_another_place(svc: Service) -> None:
    code = await invited(svc)
    await svc.new_game(CHAT2, BIA, "buraco")
    effects = await svc.join_code(CHAT2, CAIO, code)
    assert [e.text for e in effects] == [
        "Este chat já tem uma mesa: termine-a ou use o convite em outro chat (por exemplo, "
        "no privado com o bot)."]


async def test_a_game_stored_before_places_has_its_one_chat(svc: Service, store: Any) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    _v, game = await game_of(store)
    raw = encode(game, False)
    old = raw.replace(',"places":[]', "").replace(',"invites":{}', "").replace(
        ',"where":""', "")
    assert "places" not in old and "where" not in old
    back = decode(old)
    assert back.places == [] and back.all_places() == [CHAT]
    effects = [await svc.table_of(game.id)]
    assert spread(back, effects[0]) == effects[0]


async def test_a_chat_that_joined_by_code_seats_no_one_else_without_a_code(
        svc: Service, store: Any) -> None:
    """Issue 35 (docs/guia.md §7, "each code is good for one seat"): in the chat Zé
    joined from, the lobby's Entrar button and a plain /entrar are refused with a message
    asking for a code; the game's own chat still seats people as before."""
    code = await invited(svc)
    await svc.join_code(DC, ZE, code)
    davi = PlayerRef(platform="dc", user_id="78", name="Davi")
    needed = ("Para sentar nesta mesa daqui é preciso um código de convite: peça um a quem "
              "está na mesa (/convidar) e mande /entrar <código>.")
    _v, game = await game_of(store)
    pressed = await svc.press(davi, f"{game.id}|0|j|", chat=DC)
    assert [e.text for e in pressed] == [needed]
    assert [e.text for e in await svc.join(DC, davi)] == [needed]
    _v, game = await game_of(store)
    assert [s.player.name for s in game.seats if s.player] == ["Ana", "Zé"]
    await svc.press(BIA, f"{game.id}|0|j|", chat=CHAT)
    _v, game = await game_of(store)
    assert [s.player.name for s in game.seats if s.player] == ["Ana", "Zé", "Bia"]


async def test_a_lobby_shown_in_a_chat_that_joined_by_code_offers_no_entrar(
        svc: Service) -> None:
    """Issue 35: in a place that joined by code, Entrar refuses (a code is needed there),
    so its copy of the lobby does not offer it; the game's own chat keeps it, and the
    other lobby buttons stay in both."""
    code = await invited(svc)
    home, away = await svc.join_code(DC, ZE, code)
    labels = [[b.label for b in row] for row in home.view.buttons]
    away_labels = [[b.label for b in row] for row in away.view.buttons]
    assert labels[0] == ["Entrar", "Sair"] and away_labels[0] == ["Sair"]
    assert away_labels[1:] == labels[1:]
    assert away.view.lines == home.view.lines
    (_home, again) = await svc.table_of(home.game_id)  # a re-render (relay, stale) alike
    assert [[b.label for b in row] for row in again.view.buttons] == away_labels


async def test_a_discord_person_s_invitation_carries_the_telegram_links_too(
        svc: Service) -> None:
    """Issue 35: where the process serves Telegram too (``python -m bot serve``), a
    Discord person's /convidar also gives the t.me links, for a friend on Telegram."""
    svc.invite_links["tg"] = lambda code: [f"https://t.me/bot?start=c{code}",
                                           f"https://t.me/bot/mesa?startapp=c{code}"]
    await svc.new_game(DC, ZE, "buraco")
    (reply,) = await svc.invite(DC, ZE)
    code = code_of([reply])
    assert reply.text.splitlines()[-2:] == [f"https://t.me/bot?start=c{code}",
                                            f"https://t.me/bot/mesa?startapp=c{code}"]


async def test_a_guest_group_s_admin_cannot_cancel_the_host_s_table(
        svc: Service, store: Any) -> None:
    """Only the table's creator or an admin of the chat it was opened in closes it: an
    admin of a group the table is shown in by invitation has no say (a tester's cancel
    there asked Telegram for admin rights, issue 35); the command, the button and the
    adapter's question (``needs_admin``) agree."""
    code = await invited(svc)
    await svc.join_code(CHAT2, BIA, code)
    before = await store.load_game((await game_of(store))[1].id)
    assert await svc.needs_admin(CAIO, chat=CHAT2) is False  # nothing to ask Telegram
    assert await svc.needs_admin(CAIO, chat=CHAT) is True
    refused = "Só quem abriu a mesa ou um admin do grupo pode cancelar."
    assert [e.text for e in await svc.cancel(CHAT2, CAIO, is_admin=True)] == [refused]
    assert [e.text for e in await svc.cancel(CHAT2, BIA, is_admin=True)] == [refused]
    _v, game = await game_of(store)
    assert [e.text for e in await svc.press(BIA, pack(game.id, 0, "x", ""), is_admin=True,
                                            chat=CHAT2)] == [refused]
    assert await store.load_game(game.id) == before  # nothing changed
    said = await svc.cancel(CHAT, CAIO, is_admin=True)  # the host group's admin may
    assert "Jogo cancelado por Caio." in [getattr(e, "text", "") for e in said]
    assert await store.load_game(game.id) != before
