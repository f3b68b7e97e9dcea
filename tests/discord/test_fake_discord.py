"""The fake Discord itself, driven by a tiny discord.py 2.7 client in a thread: the gateway
handshake and RESUME, command sync, interaction callbacks, the 3-second and 15-minute
rules, one answer per interaction, ephemeral visibility, component limits and 429s.

(Discord references: Gateway "Connecting", "Resuming"; Interactions "Receiving and
Responding"; Message Components limits.)
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import discord
import httpx
import pytest
import yarl
from discord import app_commands
from fake_discord import FakeDiscord, start_fake
from fake_model import Person

TOKEN = "fake-bot-token"
ANA, BIA = Person(101, "Ana"), Person(102, "Bia")


def wait_for(probe: Any, timeout: float = 10.0, what: str = "") -> Any:
    """Poll ``probe`` every 20 ms until truthy; AssertionError after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not (value := probe()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or probe}")
        time.sleep(0.02)
    return value


class Tiny(discord.Client):
    """A client with /ping (ephemeral answer with a button), /tarde (answers after 3.2 s),
    /seguir (defers, then a followup when told),
    /mural (posts in the channel, edits it after a 429)."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.errors: list[str] = []
        self.pending: dict[str, discord.Interaction] = {}
        self.posted: list[discord.Message] = []
        self._commands()

    def _commands(self) -> None:
        tree = self.tree

        @tree.command(name="ping", description="answers pong")
        async def ping(interaction: discord.Interaction, texto: str = "") -> None:
            view = discord.ui.View(timeout=None)
            button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
                label="De novo", custom_id="again")
            view.add_item(button)
            await interaction.response.send_message(f"pong {texto}", ephemeral=True, view=view)

        @tree.command(name="tarde", description="too late")
        async def tarde(interaction: discord.Interaction) -> None:
            await asyncio.sleep(3.2)
            await self._try(interaction.response.send_message("tarde"))

        @tree.command(name="seguir", description="defer now, followup later")
        async def seguir(interaction: discord.Interaction) -> None:
            self.pending["seguir"] = interaction
            await interaction.response.defer(ephemeral=True, thinking=True)

        @tree.command(name="mural", description="post in the channel")
        async def mural(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("já vai", ephemeral=True)
            assert interaction.channel is not None
            self.posted.append(await interaction.channel.send("mural 1"))  # type: ignore
            await self.posted[-1].edit(content="mural 2")

    async def _try(self, coro: Any) -> None:
        try:
            await coro
        except discord.HTTPException as error:
            self.errors.append(f"{error.status} {error.code}")
        except (discord.InteractionResponded, ValueError) as error:
            self.errors.append(type(error).__name__)

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type == discord.InteractionType.component:
            await interaction.response.edit_message(content="de novo")


@contextlib.contextmanager
def tiny_bot(fake: FakeDiscord) -> Iterator[Tiny]:
    """Run :class:`Tiny` against ``fake`` in its own thread and loop."""
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    client = Tiny()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    running = asyncio.run_coroutine_threadsafe(client.start(TOKEN), loop)
    try:
        wait_for(client.is_ready, what="the client to be ready")
        yield client
    finally:
        asyncio.run_coroutine_threadsafe(client.close(), loop).result(10)
        running.result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    with start_fake(TOKEN, [ANA, BIA]) as server:
        yield server


@pytest.fixture
def bot(fake: FakeDiscord) -> Iterator[Tiny]:
    with tiny_bot(fake) as client:
        yield client


def answered(fake: FakeDiscord, inter: Any) -> Any:
    return wait_for(lambda: fake.interaction(inter).answer_type is not None or None,
                    what="the answer")


def test_handshake_ready_guild_create_and_command_sync(fake: FakeDiscord, bot: Tiny) -> None:
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.name == "Clube"
    assert [c.name for c in guild.text_channels] == ["mesa"]
    assert bot.user is not None and bot.user.id == fake.app_id
    assert bot.application_id == fake.app_id
    assert fake.command_names() == ["mural", "ping", "seguir", "tarde"]
    routes = [c.route for c in fake.calls()]
    assert routes[0] == "GET /users/@me" and "PUT /applications/{app}/commands" in routes
    assert fake.gateway.identifies == 1 and fake.unknown_routes() == []


def test_slash_answer_ephemeral_then_press_updates_it(fake: FakeDiscord, bot: Tiny) -> None:
    inter = fake.slash(ANA, "ping", texto="oi")
    answered(fake, inter)
    got = fake.interaction(inter)
    assert got.answer_type == 4 and got.latency is not None and got.latency < 3
    [mine] = fake.ephemerals(ANA)
    assert (mine.content, mine.flags, mine.labels()) == ("pong oi", 64, ["De novo"])
    assert fake.ephemerals(BIA) == [] and fake.channel_messages() == []
    with pytest.raises(AssertionError, match="cannot see"):
        fake.press(BIA, mine, "again")
    press = fake.press(ANA, mine, "again")
    answered(fake, press)
    assert fake.interaction(press).answer_type == 7
    assert fake.message(mine.id).content == "de novo" and len(fake.message(mine.id).edits) == 1


def test_late_first_answer_is_unknown_interaction(fake: FakeDiscord, bot: Tiny) -> None:
    inter = fake.slash(ANA, "tarde")
    wait_for(lambda: bot.errors, what="the late answer")
    assert bot.errors == ["404 10062"]
    assert fake.interaction(inter).answer_type is None and fake.late[0].id == inter.id


def test_second_answer_is_already_acknowledged(fake: FakeDiscord, bot: Tiny) -> None:
    inter = fake.slash(ANA, "ping")
    answered(fake, inter)
    again = httpx.post(f"{fake.api_base}/interactions/{inter.id}/{inter.token}/callback",
                       json={"type": 4, "data": {"content": "de novo"}})
    assert (again.status_code, again.json()["code"]) == (400, 40060)
    forged = httpx.post(f"{fake.api_base}/interactions/{inter.id}/wrong/callback",
                        json={"type": 4, "data": {"content": "x"}})
    assert (forged.status_code, forged.json()["code"]) == (404, 10062)
    assert [m.content for m in fake.ephemerals(ANA)] == ["pong "]


def test_expired_token_refuses_followups(fake: FakeDiscord, bot: Tiny) -> None:
    inter = fake.slash(ANA, "seguir")
    answered(fake, inter)
    assert fake.interaction(inter).answer_type == 5
    assert fake.expire_tokens() == 1
    pending = bot.pending["seguir"]
    future = asyncio.run_coroutine_threadsafe(bot._try(pending.followup.send("tarde")),
                                              bot.loop)
    future.result(10)
    assert bot.errors == ["401 50027"]


def rows(*sizes: int, prefix: str = "b") -> list[dict[str, Any]]:
    """Action rows of buttons, ``sizes[i]`` buttons in row i, custom_ids numbered."""
    n = iter(range(100))
    return [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x",
                                        "custom_id": f"{prefix}{next(n)}"} for _ in range(k)]}
            for k in sizes]


@pytest.mark.parametrize(("components", "why"), [
    (rows(5, 5, 5, 5, 5, 1), "more than 5 action rows"),
    (rows(6), "an action row holds 1 to 5 components"),
    ([{"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "same"},
                                 {"type": 2, "style": 1, "label": "b", "custom_id": "same"}]}],
     "custom_id repeated in one message: 'same'"),
    ([{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
        {"label": str(n), "value": str(n)} for n in range(26)]}]}],
     "a select has 1 to 25 options"),
    (rows(1, prefix="x" * 100), "custom_id must be 1-100 characters: '" + "x" * 100 + "0'"),
])
def test_component_limits_are_invalid_form_body(fake: FakeDiscord, bot: Tiny,
                                                components: list[dict[str, Any]],
                                                why: str) -> None:
    inter = fake.slash(ANA, "seguir")
    answered(fake, inter)
    url = f"{fake.api_base}/webhooks/{fake.app_id}/{inter.token}/messages/@original"
    refused = httpx.patch(url, json={"content": "x", "components": components})
    assert refused.status_code == 400 and refused.json()["code"] == 50035
    assert refused.json()["errors"]["_errors"][0]["message"] == why
    ok = httpx.patch(url, json={"content": "cheio", "components": rows(5, 5, 5, 5, 5)})
    assert ok.status_code == 200 and len(fake.message(ok.json()["id"] and int(
        ok.json()["id"])).buttons()) == 25


def test_rate_limit_is_retried_and_channel_message_edited_in_place(fake: FakeDiscord,
                                                                   bot: Tiny) -> None:
    fake.fail("PATCH /channels/{c}/messages/{m}", 429, 0, "You are being rate limited.",
              retry_after=0.3)
    fake.slash(ANA, "mural")
    wait_for(lambda: [m for m in fake.channel_messages() if m.content == "mural 2"],
             what="the edit after the 429")
    [posted] = fake.channel_messages()
    patches = [c for c in fake.calls() if c.route == "PATCH /channels/{c}/messages/{m}"]
    assert [c.status for c in patches] == [429, 200]
    assert patches[1].time - patches[0].time >= 0.3 and len(posted.edits) == 1


def test_dropped_gateway_resumes_and_missed_events_arrive(fake: FakeDiscord,
                                                          bot: Tiny) -> None:
    assert fake.hold_gateway(4000)
    inter = fake.slash(ANA, "ping")  # kept in the session while the socket is away
    [session] = fake.gateway.sessions.values()
    assert session.sent[-1]["t"] == "INTERACTION_CREATE" and session.resumes == 0
    fake.release_gateway()
    answered(fake, inter)  # replayed on RESUME, before RESUMED
    assert session.resumes == 1 and fake.gateway.identifies == 1
    assert [f["t"] for f in session.sent[-2:]] == ["INTERACTION_CREATE", "RESUMED"]
