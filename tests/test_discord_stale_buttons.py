"""A Discord component that is no longer on its message (a double tap after the hand was
edited, an old hand) reaches the service as the payload its custom_id stands for, never
with the ``bb:`` prefix taken for a game id (fresh-user trial, item 1): the presser gets
the answer Telegram gives, and nothing changes."""

from __future__ import annotations

import itertools
from typing import Any

import discord
import fakeredis
from test_discord_answers import interaction, lang_of
from test_service_support import FakeClock, button, make_service

from adapters.discord.app import BuracoClient
from adapters.discord.items import payloads_of
from bot.effects import ChatRef, HandView, PlayerRef
from bot.memstore import MemoryStore
from bot.service import Service

CHAT = ChatRef(platform="dc", chat_id="77", title="Clube #mesa")
ANA = PlayerRef(platform="dc", user_id="1", name="Ana")
BIA = PlayerRef(platform="dc", user_id="2", name="Bia")
IDS = itertools.count(5000)


def component(custom_id: str, values: list[str] | None = None) -> Any:
    """An interaction pressing ``custom_id``, whose message does not carry it."""
    inter = interaction()
    inter.id = next(IDS)  # each press its own update key
    inter.type = discord.InteractionType.component
    inter.data = {"custom_id": custom_id, **({"values": values} if values else {})}
    return inter


async def started() -> tuple[Service, MemoryStore, str, Any]:
    """A 2-player buraco in channel 77; Ana's first hand view."""
    clock = FakeClock()
    store = MemoryStore(clock)
    svc = make_service(store, clock)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    effects = await svc.start(CHAT, ANA)
    hand = next(e.view for e in effects if isinstance(e, HandView) and e.player == ANA)
    return svc, store, effects[0].game_id, hand


def client(svc: Service) -> BuracoClient:
    return BuracoClient(svc, fakeredis.FakeAsyncRedis(decode_responses=True), lang_of,
                        tick=False)


async def test_an_old_hand_button_off_its_message_says_it_is_old_and_changes_nothing() -> None:
    svc, store, gid, hand = await started()
    draw = button(hand, "Comprar do monte")
    await svc.press(ANA, draw)  # the hand is edited: its buttons carry a new version
    before = await store.load_game(gid)
    inter = component(f"bb:{draw}")
    await client(svc).on_interaction(inter)
    # the current hand (an embed) answers the press, then the reason follows it
    assert inter.response.calls == ["send_message(None)"]
    assert inter.followup.sent == ["Esse botão é antigo: use a mão mais recente (/mao)."]
    assert await store.load_game(gid) == before


async def test_a_forged_custom_id_is_an_unknown_button_in_the_channels_language() -> None:
    svc, store, gid, _hand = await started()
    await store.set_setting(CHAT.key, "lang", "en")
    before = await store.load_game(gid)
    for custom_id in ("bb:", f"bb:{gid}|0|zz|", "bbx:1", "hello"):
        inter = component(custom_id)
        await client(svc).on_interaction(inter)
        assert inter.response.calls == ["send_message('Unknown button.')"], custom_id
    assert await store.load_game(gid) == before


def test_each_kind_of_custom_id_stands_for_its_service_payloads() -> None:
    assert payloads_of("bb:g1|3|c|", []) == (["g1|3|c|"], None)
    assert payloads_of("bbp:g1|3|2", []) == (["g1|0|h|"], 2)
    assert payloads_of("bba:g1|3", ["g1|3|e|0", "g1|3|e|1"]) == (["g1|3|e|0"], None)
    assert payloads_of("bbc:g1|3|0", ["g1|3|t|0", "g1|3|t|4"]) == (
        ["g1|3|t|0", "g1|3|t|4"], None)
    assert payloads_of("bb:g1|3|c", []) == (["bb:g1|3|c"], None)  # no item: as it is

