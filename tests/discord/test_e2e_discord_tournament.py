# ruff: noqa: F811  (pytest fixtures imported from test_e2e_discord)
"""End to end on the fake Discord (issue 29 "Tournaments"): the real bot process runs
``/torneio`` and its buttons (sign-up, a refused "Começar", "Estou aqui" opening the
table), the match is played through the service on the same Redis and key prefix, and
``/torneio tabela`` posts the bracket picture with the board as its caption and alt text
(the command answered "Feito."; issue 38: the board once, not as a text and again as the
caption)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: season_support

import redis.asyncio as aioredis
from bot_run import prefix_of, run_bot, wait_for
from dc_play import press
from fake_discord import FakeDiscord
from fake_model import Message, Person
from season_support import play_to_end
from test_e2e_discord import REDIS, fake, people, pytestmark  # noqa: F401
from test_e2e_discord_options import reply_text
from test_service_support import FakeClock, make_service

from adapters.storage import RedisStore
from adapters.storage.season import RedisSeason
from bot.effects import ChatRef, PlayerRef
from bot.i18n import Translator
from bot.season.tournament import texts
from bot.season.tournament.followup import load


def message_with(fake: FakeDiscord, words: str) -> Message:
    """The channel message whose text holds ``words`` (waits for it)."""
    return wait_for(lambda: next((m for m in fake.channel_messages() if words in m.text()),
                                 None), what=repr(words))


async def test_torneio_by_buttons_to_its_champion_and_the_bracket_picture(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    ana, bia = people[0], people[1]
    client = aioredis.from_url(str(REDIS), decode_responses=True)
    store = RedisStore(client, prefix_of(fake))
    svc = make_service(store, FakeClock(time.time()), season=RedisSeason.beside(store))
    assert svc.season is not None
    chat = ChatRef(platform="dc", chat_id=str(fake.channel_id), title="")
    try:
        with run_bot(fake, tmp_path, str(REDIS)) as log:
            fake.slash(ana, "torneio", opcoes="mata individual tranca")
            signup = message_with(fake, "Torneio de Tranca — mata-mata, individual")
            press(fake, bia, signup, "Inscrever-se")
            message_with(fake, f"Inscritos (2): {ana.name}, {bia.name}")
            refused = press(fake, bia, signup, "Começar")
            assert reply_text(fake, refused) == "Só quem abriu o torneio pode começar."
            press(fake, ana, signup, "Começar")
            call = message_with(fake, f"Final — {ana.name} x {bia.name}")
            press(fake, ana, call, "Estou aqui")
            press(fake, bia, call, "Estou aqui")
            message_with(fake, "Todos presentes: a mesa está aberta no grupo.")
            _v, t = await load(svc.season, chat.key)
            assert t is not None and t.matches[0].game is not None
            who = PlayerRef(platform="dc", user_id=str(ana.user_id), name=ana.name)
            await play_to_end(svc, store, t.matches[0].game, who)
            _v, t = await load(svc.season, chat.key)
            assert t is not None and t.status == "over"
            board = texts.board_text(t, Translator("pt"))
            got = reply_text(fake, fake.slash(bia, "torneio", opcoes="tabela"))
            assert got == "Feito."  # the board once: the picture in the channel (issue 38)
            picture = message_with(fake, "Campeão: ")
            assert picture.content.replace("\\", "") == board
            assert picture.attachments[0]["filename"] == f"torneio-{t.id}.png"
            assert picture.attachments[0]["description"] == board
            assert "Traceback" not in log.read_text()
    finally:
        await client.aclose()
