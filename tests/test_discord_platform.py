"""Discord's side of the delivery (adapters/discord/platform.py) with recorded
interactions and channels: a press on the hand edits it (callback type 7), "Minha mão"
answers with a new ephemeral hand, a deferred answer goes out as an edit or follow-up,
closed DMs (50007) fall back to the ephemeral hand with a notice, an expired interaction
token edits nothing, and a deleted table (10008) is reported gone."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from adapters.delivery.platform import MessageGone, PrivateRefused
from adapters.discord.platform import DiscordPlatform, Hand, Origin
from bot.effects import Button, CardFace, ChatRef, HandView, PlayerRef, Reply, View, pack

CHAT = ChatRef(platform="dc", chat_id="77", title="#mesa")
ANA = PlayerRef(platform="dc", user_id="1", name="Ana")


class Response:
    """Records the callback an interaction got (discord.py's InteractionResponse)."""

    def __init__(self, done: bool = False) -> None:
        self.done = done
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return self.done

    async def edit_message(self, **kw: Any) -> None:
        self.done = True
        self.calls.append(("edit_message", kw))

    async def send_message(self, content: str | None = None, **kw: Any) -> Any:
        self.done = True
        self.calls.append(("send_message", {"content": content, **kw}))
        return SimpleNamespace(message_id=555)


class Followup:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    async def send(self, **kw: Any) -> Any:
        self.calls.append(kw)
        return SimpleNamespace(id=666)


def interaction(on_ephemeral: bool = False, done: bool = False,
                guild: bool = True) -> Any:
    message = None
    if on_ephemeral:
        message = SimpleNamespace(id=444, flags=SimpleNamespace(ephemeral=True),
                                  channel=SimpleNamespace(id=77))
    inter = SimpleNamespace(user=SimpleNamespace(id=1), message=message,
                            guild_id=9 if guild else None, response=Response(done),
                            followup=Followup(), token="secret-token", edits=[])

    async def edit_original_response(**kw: Any) -> None:
        inter.edits.append(kw)

    inter.edit_original_response = edit_original_response
    return inter


def hand_effect() -> HandView:
    faces = [CardFace(index=0, code="7h", text="7♥", red=True)]
    view = View(title="Sua mão (1 carta)", lines=["Sua vez."], cards=faces, version=2,
                buttons=[[Button(label="7♥", data=pack("g1", 2, "t", 0))],
                         [Button(label="Descartar", data=pack("g1", 2, "d"))]])
    return HandView(chat=CHAT, game_id="g1", player=ANA, seat=0, view=view)


async def lang_of(chat_key: str) -> str:
    return "pt"


def platform(client: Any = None) -> DiscordPlatform:
    return DiscordPlatform(client or SimpleNamespace(application_id=5), lang_of)


def custom_ids(view: discord.ui.View) -> list[str]:
    return [str(getattr(item, "custom_id", "")) for item in view.children]


async def test_a_press_on_the_hand_edits_that_message_with_type_7() -> None:
    inter = interaction(on_ephemeral=True)
    origin = Origin(inter)
    p = platform()
    assert p.carries_hand(origin, ANA)
    ref = await p.answer_hand(origin, ANA, Hand(hand_effect()))
    [(kind, kw)] = inter.response.calls
    assert kind == "edit_message"
    assert kw["embed"].title == "Sua mão (1 carta)"
    assert custom_ids(kw["view"]) == ["bbc:g1|2|0", "bb:g1|2|d|"]
    assert ref is not None and ref.startswith("wh:") and ref.endswith(":444:secret-token")


async def test_my_hand_on_the_table_answers_with_a_new_ephemeral_message() -> None:
    inter = interaction()
    ref = await platform().answer_hand(Origin(inter), ANA, Hand(hand_effect()))
    [(kind, kw)] = inter.response.calls
    assert kind == "send_message" and kw["ephemeral"] is True
    assert ref is not None and ":555:" in ref


async def test_a_deferred_answer_goes_out_as_an_edit_or_a_follow_up() -> None:
    on_hand = interaction(on_ephemeral=True, done=True)
    await platform().answer_hand(Origin(on_hand), ANA, Hand(hand_effect()))
    assert on_hand.response.calls == [] and len(on_hand.edits) == 1
    fresh = interaction(done=True)
    ref = await platform().answer_hand(Origin(fresh), ANA, Hand(hand_effect()))
    assert fresh.followup.calls[0]["ephemeral"] is True and ref is not None and ":666:" in ref


async def test_someone_else_s_interaction_never_carries_the_hand() -> None:
    bia = PlayerRef(platform="dc", user_id="2", name="Bia")
    assert not platform().carries_hand(Origin(interaction()), bia)
    assert not platform().carries_hand(Origin(interaction(), dm=True), ANA)
    assert not platform().carries_hand(None, ANA)


async def test_nothing_is_sent_as_a_dm_unless_asked_for() -> None:
    assert await platform().send_private(ANA, Hand(hand_effect()), None) is None
    assert await platform().send_private(ANA, "Jogo cancelado.", None) is None


class Forbidden50007(discord.Forbidden):
    def __init__(self) -> None:
        response = SimpleNamespace(status=403, reason="Forbidden")
        super().__init__(response, {"code": 50007, "message": "Cannot send messages"})


async def test_closed_dms_fall_back_to_the_ephemeral_hand_with_a_notice() -> None:
    class Client:
        application_id = 5

        async def create_dm(self, user: Any) -> Any:
            async def send(**kw: Any) -> Any:
                raise Forbidden50007()
            return SimpleNamespace(id=8, send=send)

    inter = interaction()
    origin = Origin(inter, dm=True)
    ref = await platform(Client()).send_private(ANA, Hand(hand_effect()), origin)
    [(kind, kw)] = inter.response.calls
    assert kind == "send_message" and kw["ephemeral"] is True
    assert kw["embed"].description.startswith(
        "*Suas DMs estão fechadas: a mão fica aqui, só para você.*\n7♥\ufe0f")
    assert ref is not None and ref.startswith("wh:")
    with pytest.raises(PrivateRefused):  # a notice (not a hand) to closed DMs
        await platform(Client()).send_private(ANA, "Fim.", Origin(interaction(), dm=True))


async def test_an_expired_interaction_token_edits_nothing() -> None:
    old = f"wh:{time.time() - 15 * 60:.0f}:444:secret-token"
    with pytest.raises(MessageGone):
        await platform().edit_private(ANA, old, Hand(hand_effect()))


async def test_a_deleted_table_is_gone() -> None:
    class NotFound10008(discord.NotFound):
        def __init__(self) -> None:
            super().__init__(SimpleNamespace(status=404, reason="Not Found"),
                             {"code": 10008, "message": "Unknown Message"})

    class Channel:
        def get_partial_message(self, message_id: int) -> Any:
            async def edit(**kw: Any) -> None:
                raise NotFound10008()
            return SimpleNamespace(edit=edit)

    client = SimpleNamespace(application_id=5, get_partial_messageable=lambda cid: Channel())
    from adapters.discord.render import Message

    with pytest.raises(MessageGone, match="10008"):
        await platform(client).edit(CHAT, "77:123", Message("t", "d"))


async def test_replies_are_ephemeral_and_a_second_one_is_a_follow_up() -> None:
    inter = interaction()
    origin = Origin(inter)
    p = platform()
    await p.answer(Reply(player=ANA, text="Esse botão é antigo."), origin)
    await p.answer(Reply(player=ANA, text="De novo."), origin)
    assert inter.response.calls == [("send_message", {"content": "Esse botão é antigo.",
                                                      "ephemeral": True})]
    assert inter.followup.calls == [{"content": "De novo.", "ephemeral": True}]
    assert origin.spoke


async def test_a_reply_with_buttons_carries_them_as_components() -> None:
    """Issue 35: "Sair da fila" under /procurar's ephemeral answer, a stateless button."""
    inter = interaction()
    await platform().answer(Reply(player=ANA, text="Na fila.", buttons=[[Button(
        label="Sair da fila", data="fila|0|qx|")]]), Origin(inter))
    ((kind, sent),) = inter.response.calls
    assert kind == "send_message" and sent["content"] == "Na fila." and sent["ephemeral"]
    assert [(c.item.label, c.custom_id) for c in sent["view"].children] == [
        ("Sair da fila", "bb:fila|0|qx|")]


async def test_the_queue_answer_is_rewritten_without_its_button_through_its_token(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: the answer to /procurar gives a ref (its message and the interaction's
    token); rewriting it edits that message through the token, components dropped; an
    expired token edits nothing."""
    edits: list[tuple[int, str, int, dict[str, Any]]] = []

    class Hook:
        def __init__(self, app: int, token: str) -> None:
            self.app, self.token = app, token

        async def edit_message(self, mid: int, **kw: Any) -> None:
            edits.append((self.app, self.token, mid, kw))

    monkeypatch.setattr(discord.Webhook, "partial",
                        lambda app, token, client=None: Hook(app, token))
    inter = interaction()
    p = platform()
    ref = await p.answer(Reply(player=ANA, text="Na fila.", mark="queue", buttons=[[Button(
        label="Sair da fila", data="fila|0|qx|")]]), Origin(inter))
    assert ref is not None and ref.startswith("wh:") and ref.endswith(":555:secret-token")
    await p.rewrite(ANA, ref, "Mesa formada: Ana, Zé. Você não está mais na fila.")
    assert edits == [(5, "secret-token", 555, {
        "content": "Mesa formada: Ana, Zé. Você não está mais na fila.", "view": None})]
    await p.rewrite(ANA, f"wh:{time.time() - 15 * 60:.0f}:555:secret-token", "x")
    assert len(edits) == 1  # the token had expired: nothing sent
