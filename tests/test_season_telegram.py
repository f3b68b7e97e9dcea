"""The season's commands through the Telegram adapter (issue 29): real Bot API update
JSON through python-telegram-bot's Application into the service with its season on
fakeredis (and the Redis at REDIS_URL when set), every Bot API request into FakeBotAPI."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from season_support import play_to_end
from test_service_support import FakeClock, SeededDecks, game_of
from test_telegram_app import ANA, BIA, GROUP, Tg, bot_on_fake_api

from adapters.storage import RedisStore
from adapters.storage.season import RedisSeason
from bot import Service
from bot.effects import ChatRef, PlayerRef

CHAT = ChatRef(platform="tg", chat_id=str(GROUP["id"]), title=str(GROUP["title"]))
PEOPLE = [PlayerRef(platform="tg", user_id=str(p["id"]), name=str(p["first_name"]))
          for p in (ANA, BIA)]


@pytest.fixture
async def tg(store_clients: Any, store_prefix: str) -> AsyncIterator[Tg]:
    """The bot on a fake Bot API, its service counting the season (and keeping its
    tournaments: tests/test_tournament_telegram.py)."""
    store = RedisStore(store_clients(), store_prefix)
    clock = FakeClock()
    service = Service(store, clock, ai_pace_s=0, chooser=None, deck_fn=SeededDecks(),
                      threaded=False, season=RedisSeason.beside(store))
    async with bot_on_fake_api(store, store_prefix, service, clock) as bot:
        yield bot


def last_said(tg: Tg) -> str:
    """The text of the bot's last message sent to the group."""
    sent = [c for c in tg.fake.called("sendMessage") if c["chat_id"] == GROUP["id"]]
    return str(sent[-1]["text"])


async def test_ranking_and_perfil_commands_after_a_match(tg: Tg) -> None:
    await tg.command(ANA, "/novojogo tranca")
    await tg.command(BIA, "/entrar")
    await tg.command(ANA, "/iniciar")
    store = tg.service.store
    gid = (await game_of(store, CHAT))[1].id
    await play_to_end(tg.service, store, gid, PEOPLE[0])  # type: ignore[arg-type]
    want = (await tg.service.ranking(CHAT, PEOPLE[0], "sempre"))[0].text  # type: ignore[union-attr]
    assert want.startswith("Ranking do grupo — desde sempre\n1. Bia: 1 vitória em 1 partida (100%)")
    await tg.command(ANA, "/ranking sempre")
    assert last_said(tg) == want
    await tg.command(BIA, "/perfil publico")
    assert last_said(tg) == "Você aparece no ranking geral."
    await tg.command(ANA, "/perfil Bia")  # issue 29: a photo, the profile as its caption
    caption = str(tg.fake.called("sendPhoto")[-1]["caption"])
    assert caption.splitlines()[0] == "Perfil de Bia neste grupo"
    assert caption.splitlines()[-1].startswith("No ranking geral: ")


async def test_config_asks_telegram_who_is_admin_only_for_a_change(tg: Tg) -> None:
    await tg.command(BIA, "/config")
    assert last_said(tg).splitlines()[0] == "Configuração do grupo:"
    assert tg.fake.called("getChatMember") == []
    await tg.command(BIA, "/config mesas admins")
    assert last_said(tg) == "Só os admins do grupo mudam a configuração."
    tg.fake.admins.add(int(ANA["id"]))
    await tg.command(ANA, "/config mesas admins")
    assert last_said(tg).splitlines()[4] == "Quem abre mesas: admins"
    await tg.command(BIA, "/novojogo")
    assert last_said(tg) == "Neste grupo só os admins abrem mesas (/config mesas)."
    await tg.command(ANA, "/novojogo tranca")
    assert (await game_of(tg.service.store, CHAT))[1].preset == "tranca"


async def test_the_match_picture_goes_out_as_a_photo_with_its_caption(tg: Tg) -> None:
    from test_telegram_fakeapi import Failure

    from bot.effects import Picture

    png = b"\x89PNG\r\n\x1a\n" + b"0" * 64
    pic = Picture(chat=CHAT, filename="tranca-g1.png", content=png,
                  caption="Fim da partida! Vencedor: Bia com -300 pontos.")
    await tg.handlers.outbox.deliver([pic])
    (sent,) = tg.fake.called("sendPhoto")
    assert (sent["chat_id"], sent["caption"]) == (GROUP["id"], pic.caption)
    # refused: the caption alone, as a message (never silence)
    tg.fake.failures.append(Failure("sendPhoto", 400, "Bad Request: IMAGE_PROCESS_FAILED"))
    await tg.handlers.outbox.deliver([pic])
    assert last_said(tg) == pic.caption


async def test_config_and_novojogo_say_so_when_telegram_cannot_tell_who_is_admin(
        tg: Tg) -> None:
    """A fresh tester: ``/config`` while getChatMember failed answered "Only the group's
    admins change the settings." (a refusal); it now says the check failed and nothing
    changes, as ``/cancelar`` does."""
    tg.fake.admins.add(int(ANA["id"]))
    await tg.command(ANA, "/config mesas admins")
    before = last_said(tg)
    tg.fake.fail("getChatMember", "Internal Server Error", code=500, times=10)
    await tg.command(ANA, "/config mesas todos")
    assert last_said(tg) == (
        "Não consegui confirmar com o Telegram se você é admin do grupo: nada foi mudado. "
        "Tente /config de novo daqui a pouco.")
    await tg.command(ANA, "/novojogo tranca")
    assert last_said(tg) == (
        "Não consegui confirmar com o Telegram se você é admin do grupo: nada foi mudado. "
        "Tente /novojogo de novo daqui a pouco.")
    assert await tg.service.store.chat_game(CHAT.key) is None
    await tg.command(BIA, "/config")
    assert last_said(tg) == before  # still "Quem abre mesas: admins"
