"""End to end, issue 35 "A table in several places": a Telegram group's lobby
``/convidar``s, a Discord person joins by code with ``/entrar codigo:…``, and the two play
a whole deal with two robots, each on their own platform, the table shown in the group and
in the Discord channel.

The Discord side is the real bot process (``python -m bot discord``) against the fake
Discord; the Telegram side is the Telegram adapter inside this test on the fake Bot API
(tests/test_telegram_app.py), over the same Redis and key prefix, as a Telegram-only
process and a Discord-only process share one Redis in production. The Telegram side's
tick loop is stood in for by calling its delivery's hand-over step
(``Delivery.relayed``) between moves. Needs the Redis at ``REDIS_URL``.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis.asyncio as aioredis
from bot_run import prefix_of, redis_url, run_bot, synced_fake, wait_for
from dc_play import (
    answered,
    can_draw,
    custom_ids,
    deal_result,
    hand,
    play_turn,
    press,
    table,
    whose_turn,
)
from fake_model import Person, snowflake
from test_telegram_app import ANA, GROUP, LINK, Tg, bot_on_fake_api, labels, simple_turn

from adapters.storage import RedisStore
from adapters.storage.queue import RedisQueue
from bot import Service, SystemClock

TOKEN = "e2e-places-bot-token"
REDIS = redis_url()
T = TypeVar("T")
PUBLIC_CODES = {"j", "lv", "ai", "ar", "sh", "v", "s", "x", "h", "n", "ph"}
"""Codes a public (group or channel) button may carry: none names a card."""

pytestmark = pytest.mark.skipif(REDIS is None, reason="needs the Redis at REDIS_URL (unset or "
                                "not answering)")


class TelegramSide:
    """The in-test Telegram bot, driven from this synchronous test through its own loop."""

    def __init__(self, prefix: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.prefix = prefix
        self.tg: Tg | None = None
        self._ctx: Any = None

    def run(self, step: Awaitable[T]) -> T:
        return self.loop.run_until_complete(step)

    def open(self) -> Tg:
        async def made() -> Tg:
            store = RedisStore(aioredis.from_url(REDIS or "", decode_responses=True),
                               self.prefix)
            service = Service(store, SystemClock(), ai_pace_s=0,
                              queue=RedisQueue(store.client, self.prefix))
            self._ctx = bot_on_fake_api(store, self.prefix, service, SystemClock())
            return await self._ctx.__aenter__()

        self.tg = self.run(made())
        return self.tg

    def pump(self) -> int:
        """What the Discord process handed to Telegram, delivered (the tick loop's step)."""
        assert self.tg is not None
        tg = self.tg

        async def step() -> int:
            done = await tg.handlers.outbox.relayed(tg.service.table_of,
                                                    rehand=tg.service.show_hand_of)
            await tg.handlers.outbox.flush()
            return int(done)

        return self.run(step())

    def close(self) -> None:
        if self._ctx is not None:
            self.run(self._ctx.__aexit__(None, None, None))
        self.loop.close()


def group_table(tg: Tg) -> dict[str, Any]:
    return tg.table()


def code_told(tg: Tg) -> str:
    """The code of the group's /convidar reply (and its link, checked)."""
    text = next(t for t in reversed(tg.fake.texts_to(GROUP["id"]))
                if t.startswith("Convite para esta mesa:"))
    code = re.search(r"^Convite para esta mesa: ([A-Z0-9]{8})$", text, re.M)
    assert code is not None, text
    assert f"{LINK}c{code.group(1)}" in text
    return code.group(1)


def test_a_telegram_lobby_invites_a_discord_person_and_both_chats_show_the_deal(
        tmp_path: Path) -> None:
    assert REDIS is not None
    ze = Person(snowflake(), "Zé")
    with synced_fake(TOKEN, [ze], tmp_path, REDIS) as fake, \
            run_bot(fake, tmp_path, REDIS) as log:
        side = TelegramSide(prefix_of(fake))
        try:
            tg = side.open()
            side.run(tg.command(ANA, "/novojogo buraco"))
            side.run(tg.command(ANA, "/convidar"))
            code = code_told(tg)

            joined = fake.slash(ze, "entrar", codigo=code.lower())
            channel = wait_for(lambda: (lambda t: t if "Lugar 2: Zé" in t.text() else None)(
                table(fake)), what="the channel's table with Zé")
            assert channel.text().startswith("Buraco · até 1500 pontos\nMesa aberta por Ana.")
            assert fake.interaction(joined).answer_type is not None
            wait_for(lambda: side.pump() >= 0 and "Zé" in group_table(tg)["text"],
                     what="the group's table with Zé")

            for _ in range(2):  # two robots: a shorter deal, played by the Telegram side
                side.run(tg.press(ANA, group_table(tg), "Robô"))
            side.run(tg.press(ANA, group_table(tg), "Iniciar"))
            wait_for(lambda: "Minha mão" in table(fake).labels(), what="the channel's table")
            result = play(side, tg, fake, ze)

            assert re.search(r"^Fim da mão 1\.$", result, re.M)
            wait_for(lambda: side.pump() >= 0 and "Fim da mão 1." in "\n".join(
                tg.fake.texts_to(GROUP["id"])), what="the deal's end in the group")
            said = [shown(t) for t in tg.fake.texts_to(GROUP["id"])]
            assert shown(result) in said  # the same deal's result, word for word, in both
            check_secrecy(tg, fake, ze, log)
            assert fake.unknown_routes() == []
        finally:
            side.close()


def play(side: TelegramSide, tg: Tg, fake: Any, ze: Person, stall_s: float = 90) -> str:
    """Ana (Telegram) and Zé (Discord) draw and discard until deal 1 ends; its result.

    The deal is dealt from a fresh secret seed, so its length varies (it always ends: the
    stock runs out, RULES A26); what fails is a table that stops moving, ``stall_s``
    seconds without a turn of Ana or Zé (the robots' turns come between theirs). A fixed
    limit on the whole deal failed a long deal on a loaded machine while every turn went
    on (about 10 s a turn, 21 turns in 200 s)."""
    last_turn = time.monotonic()
    idle = time.monotonic()
    turns = 0
    while (result := deal_result(fake)) is None:
        assert time.monotonic() - last_turn < stall_s, (
            f"the table stopped: no turn in {stall_s:.0f} s ({turns} turns)"
            f"\ngroup: {group_table(tg)['text']}"
            f"\nAna: {labels(tg.hand(ANA))}\nchannel: {table(fake).text()}\nZé: "
            f"{(h := hand(fake, ze)) and h.text()} {h and h.labels()}")
        side.pump()
        side.run(tg.tick())  # the robots' moves (the game's home platform ticks it)
        if "Comprar do monte" in labels(tg.hand(ANA)):
            side.run(simple_turn(tg, ANA))
            idle = last_turn = time.monotonic()
            turns += 1
        elif play_turn(fake, ze):
            idle = last_turn = time.monotonic()
            turns += 1
        elif time.monotonic() - idle > 4 and whose_turn(fake) == "Zé" and not can_draw(
                hand(fake, ze)):
            press(fake, ze, table(fake), "Minha mão")  # after the turn ping, as a person
            idle = time.monotonic()
        else:
            time.sleep(0.05)
    return str(result)


def shown(text: str) -> str:
    """A message's words as a person reads them: without Telegram's HTML tags and the
    emoji variation selector Discord's suits carry."""
    return re.sub(r"</?[a-z]+>", "", text).replace("\ufe0f", "").strip()


def check_secrecy(tg: Tg, fake: Any, ze: Person, log: Path) -> None:
    """No hand reaches a public place: the group's and the channel's messages carry no
    hand and no button naming a card, Ana's hand is only in her private chat, Zé's only
    in his ephemeral messages, and the Discord process logged no hand."""
    group_texts = "\n".join(tg.fake.texts_to(GROUP["id"]))
    assert "Sua mão" not in group_texts
    for message in tg.fake.current(GROUP["id"]):
        for row in (message.get("reply_markup") or {}).get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                assert data is None or data.split("|")[2] in PUBLIC_CODES, data
    channel = fake.channel_messages()
    assert not any("Sua mão" in m.text() for m in channel)
    assert not any(cid.startswith("bbc:") for m in channel for cid in custom_ids(
        {"components": m.components}))
    assert all(m.ephemeral_for == ze.user_id for m in fake.ephemerals(ze))
    assert "Sua mão" not in log.read_text()


def test_a_telegram_person_and_a_discord_person_find_each_other_in_the_queue(
        tmp_path: Path) -> None:
    """``/procurar buraco 2`` in a Telegram private chat and in the Discord channel: the
    Discord process forms the table (its tick loop), which opens in Ana's private chat
    and in Zé's channel; both get their hands and play their first turns."""
    assert REDIS is not None
    ze = Person(snowflake(), "Zé")
    with synced_fake(TOKEN, [ze], tmp_path, REDIS) as fake, run_bot(fake, tmp_path, REDIS):
        side = TelegramSide(prefix_of(fake))
        try:
            tg = side.open()
            private = {"id": ANA["id"], "type": "private", "first_name": "Ana"}
            side.run(tg.command(ANA, "/procurar buraco 2", chat=private))
            assert any(t.startswith("Você está na fila de Buraco (2 jogadores): 1 esperando.")
                       for t in tg.fake.texts_to(ANA["id"]))
            queued = answered(fake, fake.slash(ze, "procurar", variante="buraco",
                                               jogadores="2"))
            assert queued.answer_type is not None
            channel = wait_for(lambda: next((m for m in fake.channel_messages()
                                             if m.text().startswith("Buraco")), None),
                               what="the table in Zé's channel")
            assert "Minha mão" in channel.labels() and "Boa!" in channel.labels()

            def ana_table() -> dict[str, Any] | None:
                side.pump()
                return next((m for m in tg.fake.current(ANA["id"])
                             if m["text"].startswith("<b>Buraco")), None)

            mine = wait_for(ana_table, what="the table in Ana's private chat")
            assert "Ana" in mine["text"] and "Zé" in mine["text"]
            wait_for(lambda: side.pump() >= 0 and any(
                "Mesa formada: " in t for t in tg.fake.texts_to(ANA["id"])),
                what="Ana told the table formed")
            turns = 0
            deadline = time.monotonic() + 60
            while turns < 4:
                assert time.monotonic() < deadline, "the first turns were not played"
                side.pump()
                side.run(tg.tick())
                if "Comprar do monte" in labels(tg.hand(ANA)):
                    side.run(simple_turn(tg, ANA))
                    turns += 1
                elif play_turn(fake, ze):
                    turns += 1
                elif whose_turn(fake) == "Zé" and not can_draw(hand(fake, ze)):
                    press(fake, ze, table(fake), "Minha mão")
                else:
                    time.sleep(0.05)
            check_secrecy(tg, fake, ze, tmp_path / "bot.log")
        finally:
            side.close()
