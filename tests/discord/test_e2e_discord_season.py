# ruff: noqa: F811  (pytest fixtures imported from test_e2e_discord)
"""End to end on the fake Discord (issue 29): the real bot process answers ``/ranking``
(the period as a choice) and ``/perfil`` (the visibility as a choice; the profile as a
picture in the channel, its text as the message and the image's alt text) from a season
counted by a match played through the service on the same Redis and key prefix."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: season_support

import redis.asyncio as aioredis
from bot_run import prefix_of, run_bot, wait_for
from fake_discord import FakeDiscord
from fake_model import Person
from season_support import play_match
from test_e2e_discord import REDIS, fake, people, pytestmark  # noqa: F401
from test_e2e_discord_options import reply_text
from test_service_support import FakeClock, make_service

from adapters.storage import RedisStore
from adapters.storage.season import RedisSeason
from bot.effects import ChatRef, Picture, PlayerRef, Reply
from bot.service import Service


async def _said(svc: Service, call: Any) -> str:
    [reply] = await call
    assert isinstance(reply, Reply)
    return reply.text


async def test_ranking_and_perfil_answer_from_the_counted_season(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    ana, bia = people[0], people[1]
    client = aioredis.from_url(str(REDIS), decode_responses=True)
    store = RedisStore(client, prefix_of(fake))
    # now: the bot process reads this week's ranking by its own clock
    svc = make_service(store, FakeClock(time.time()), season=RedisSeason.beside(store))
    chat = ChatRef(platform="dc", chat_id=str(fake.channel_id), title="")
    players = [PlayerRef(platform="dc", user_id=str(p.user_id), name=p.name) for p in (ana, bia)]
    try:
        await play_match(svc, store, chat, players)
        want_week = await _said(svc, svc.ranking(chat, players[0], "semana"))
        [picture] = await svc.profile(chat, players[1])  # issue 29: the profile's picture
        assert isinstance(picture, Picture)
        want_profile = picture.caption
        assert want_week.startswith("Ranking do grupo — esta semana\n1. ")
        with run_bot(fake, tmp_path, str(REDIS)) as log:
            got = reply_text(fake, fake.slash(ana, "ranking", periodo="semana"))
            assert got.replace("\\", "") == want_week
            assert reply_text(fake, fake.slash(bia, "perfil")) == "Feito."
            sent = wait_for(lambda: [m for m in fake.channel_messages() if m.files
                                     and m.files[0]["filename"] == "perfil.png"],
                            timeout=10.0, what="the profile's picture")
            assert sent[-1].content.replace("\\", "") == want_profile  # the caption
            assert sent[-1].files[0]["description"] == want_profile[:1024]  # its alt text
            assert sent[-1].files[0]["data"] == picture.content
            got = reply_text(fake, fake.slash(ana, "perfil", visibilidade="publico"))
            assert got == "Você aparece no ranking geral."
            got = reply_text(fake, fake.slash(bia, "ranking", periodo="geral"))
            assert got.replace("\\", "").splitlines()[1].startswith(f"1. {ana.name}: rating ")
            assert "Traceback" not in log.read_text()
    finally:
        await client.aclose()
