"""The coach through the Discord adapter (issue 37): the hand's "💡 Dica" pressed on
Discord (discord.py interaction into :class:`adapters.discord.app.BuracoClient`, the real
service on the in-memory store) is answered to its presser alone, as the interaction's
ephemeral answer; a press out of turn gets the reason the same way."""

from __future__ import annotations

from typing import Any

import pytest
from test_discord_answers import client, interaction
from test_service_support import FakeClock, make_service

from bot.effects import ChatRef, PlayerRef, pack
from bot.memstore import MemoryStore

CHAT = ChatRef(platform="dc", chat_id="77", title="#mesa")
ANA = PlayerRef(platform="dc", user_id="1", name="Ana")
BIA = PlayerRef(platform="dc", user_id="2", name="Bia")


def said(inter: Any) -> list[str]:
    """What the interaction answered: its first response's text, then follow-ups."""
    first = [c.removeprefix("send_message(").removesuffix(")").strip("'\"")
             for c in inter.response.calls if c.startswith("send_message(")]
    return first + list(inter.followup.sent)


@pytest.fixture
async def table() -> tuple[Any, str, dict[str, str]]:
    clock = FakeClock()
    svc = make_service(MemoryStore(clock), clock)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    effects = await svc.start(CHAT, ANA)
    hands = {e.player.user_id: e for e in effects if e.kind == "hand"}
    data = {uid: next((b.data for r in h.view.buttons for b in r if b.label == "💡 Dica"),
                      pack(h.game_id, h.view.version, "dc")) for uid, h in hands.items()}
    return svc, effects[0].game_id, data


async def test_a_dica_press_on_discord_answers_its_presser_alone(table: Any) -> None:
    svc, _gid, data = table
    bot = client(svc)
    inter = interaction()  # Ana (user id 1), in channel 77
    await bot.press(inter, [data["1"]])
    assert said(inter) == ["Dica: Compre do monte (é a única compra possível)."]


async def test_a_dica_press_out_of_turn_on_discord_says_why(table: Any) -> None:
    svc, _gid, data = table
    bot = client(svc)
    inter = interaction()
    inter.user.id, inter.user.display_name = 2, "Bia"
    await bot.press(inter, [data["2"]])
    assert said(inter) == ["A dica é para a sua vez: espere a sua jogada."]
