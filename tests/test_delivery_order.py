"""The group reads new messages in the order the service said them (issue 38: after a
W.O. the next round's call, a message beside the table posted through the coalescer,
reached the group before the round's standings, a picture still uploading). The shared
delivery (adapters/delivery/outbox.py) over a platform whose pictures take a while."""

from __future__ import annotations

import asyncio
from typing import Any

import fakeredis

from adapters.delivery.outbox import Delivery
from adapters.delivery.refs import GameRefs
from bot.effects import ChatRef, Picture, Say, TableView, View

CHAT = ChatRef(platform="tg", chat_id="-100", title="Grupo")


class SlowPlatform:
    """Posts land in :attr:`posted` when they complete; a picture takes 50 ms to upload,
    a text 1 ms, as on a real chat service."""

    name = "tg"

    def __init__(self) -> None:
        self.posted: list[str] = []

    async def table(self, effect: TableView) -> str:
        return effect.view.title

    def text(self, text: str) -> str:
        return text

    async def post(self, chat: ChatRef, message: Any) -> str:
        await asyncio.sleep(0.001)
        self.posted.append(str(message))
        return f"m{len(self.posted)}"

    async def edit(self, chat: ChatRef, ref: str, message: Any) -> None:
        self.posted.append(f"edit {ref}: {message}")

    async def send_picture(self, chat: ChatRef, filename: str, content: bytes,
                           caption: str) -> bool:
        await asyncio.sleep(0.05)
        self.posted.append(f"picture: {caption}")
        return True


def call(title: str, game_id: str) -> TableView:
    return TableView(chat=CHAT, game_id=game_id, view=View(title=title), state_version=3,
                     prompt=True, apart=True)


def delivery() -> tuple[Delivery, SlowPlatform]:
    platform = SlowPlatform()
    refs = GameRefs(fakeredis.FakeAsyncRedis(decode_responses=True), "t")
    return Delivery(platform, refs), platform  # type: ignore[arg-type]


async def test_a_call_after_a_round_picture_is_posted_after_it_and_before_what_follows(
        ) -> None:
    out, platform = delivery()
    rest = out.stage([Say(chat=CHAT, text="🏆 W.O.: Bia x Caio"),
                      Picture(chat=CHAT, filename="t.png", content=b"png",
                              caption="🏆 Terminou: Rodada 1."),
                      call("🏆 Rodada 2 — Ana x Caio", "tp1"),
                      Say(chat=CHAT, text="after the call")]).rest
    await out.deliver(rest)
    await out.flush()
    assert platform.posted == ["🏆 W.O.: Bia x Caio", "picture: 🏆 Terminou: Rodada 1.",
                               "🏆 Rodada 2 — Ana x Caio", "after the call"]


async def test_a_call_with_no_message_before_it_is_queued_at_once() -> None:
    """Alone (a press of "Estou aqui"), a call is queued by ``stage`` itself, so it keeps
    the order of the service calls that made it."""
    out, platform = delivery()
    rest = out.stage([call("🏆 Final — Ana x Bia", "tp0"), Say(chat=CHAT, text="later")]).rest
    assert [e.kind for e in rest] == ["say"]
    await out.deliver(rest)
    await out.flush()
    assert sorted(platform.posted) == sorted(["🏆 Final — Ana x Bia", "later"])
