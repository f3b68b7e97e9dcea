"""The Discord client's handlers with recorded interactions: a service call slower than
the acknowledgement budget (a ``dificil`` robot thinking, a slow Redis) is deferred first
and answered after, so Discord never shows "This interaction failed"; a press with nothing
to say is acknowledged silently; a command with nothing to say answers "Feito."."""

from __future__ import annotations

import asyncio
import datetime
from types import SimpleNamespace
from typing import Any

import discord
import fakeredis
import pytest
from discord import app_commands

from adapters.discord import app as dc_app
from adapters.discord.app import BuracoClient
from adapters.storage.budget import RetryBudgetSpent
from bot.effects import CardFace, ChatRef, HandView, PlayerRef, Reply, View

CHAT = ChatRef(platform="dc", chat_id="77", title="#mesa")


class Response:
    def __init__(self) -> None:
        self.calls: list[str] = []
        self.type: Any = None

    def is_done(self) -> bool:
        return bool(self.calls)

    async def defer(self, ephemeral: bool = False, thinking: bool = False) -> None:
        self.calls.append(f"defer(thinking={thinking})")
        self.type = dc_app.DEFERRED if thinking else None

    async def send_message(self, content: str | None = None, **kw: Any) -> Any:
        self.calls.append(f"send_message({content!r})")
        return SimpleNamespace(message_id=9)


def interaction() -> Any:
    followups: list[str] = []

    async def send(**kw: Any) -> Any:
        followups.append(kw.get("content") or kw["embed"].title)
        return SimpleNamespace(id=10)

    return SimpleNamespace(
        id=1234, created_at=discord.utils.utcnow(),  # fresh: reached the bot at once
        user=SimpleNamespace(id=1, display_name="Ana"), message=None, guild_id=5,
        guild=SimpleNamespace(name="Clube"), channel=SimpleNamespace(name="mesa"),
        channel_id=77, permissions=SimpleNamespace(manage_messages=False),
        response=Response(), followup=SimpleNamespace(send=send, sent=followups),
        token="t")


class SlowService:
    """Answers a press after ``delay_s`` with ``effects``."""

    def __init__(self, delay_s: float, effects: list[Any]) -> None:
        self.delay_s = delay_s
        self.effects = effects
        self.presses: list[tuple[str, str]] = []

    async def press(self, user: PlayerRef, data: str, is_admin: bool = False,
                    update: str | None = None, chat: ChatRef | None = None,
                    private: bool = False) -> list[Any]:
        self.presses.append((data, update or ""))
        await asyncio.sleep(self.delay_s)
        return self.effects

    async def game_of(self, chat: ChatRef) -> str | None:
        """The chat's game, for lining a command up (none here)."""
        return None

    async def help(self, chat: ChatRef, user: PlayerRef) -> list[Any]:
        return []


async def lang_of(chat_key: str) -> str:
    return "pt"


@pytest.fixture
def fast_ack(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dc_app, "ACK_S", 0.05)


def client(service: Any) -> BuracoClient:
    return BuracoClient(service, fakeredis.FakeAsyncRedis(decode_responses=True), lang_of,
                        tick=False)


@pytest.mark.usefixtures("fast_ack")
async def test_a_slow_hand_is_deferred_then_sent_as_an_ephemeral_follow_up() -> None:
    ana = PlayerRef(platform="dc", user_id="1", name="Ana")
    hand = HandView(chat=CHAT, game_id="g1", player=ana, seat=0, view=View(
        title="Sua mão (1 carta)", cards=[CardFace(index=0, code="7h", text="7♥", red=True)]))
    bot = client(SlowService(0.3, [hand]))
    inter = interaction()
    await bot.press(inter, ["g1|0|h|"])
    assert inter.response.calls == ["defer(thinking=False)"]
    assert inter.followup.sent == ["Sua mão (1 carta)"]


@pytest.mark.usefixtures("fast_ack")
async def test_a_slow_refusal_is_deferred_then_told() -> None:
    ana = PlayerRef(platform="dc", user_id="1", name="Ana")
    bot = client(SlowService(0.3, [Reply(player=ana, text="Não é a sua vez.")]))
    inter = interaction()
    await bot.press(inter, ["g1|3|c|"])
    assert inter.response.calls == ["defer(thinking=False)"]
    assert inter.followup.sent == ["Não é a sua vez."]


async def test_a_press_with_nothing_to_say_is_acknowledged_silently() -> None:
    service = SlowService(0.0, [])
    bot = client(service)
    inter = interaction()
    await bot.press(inter, ["g1|3|t|0", "g1|3|t|4"])
    assert inter.response.calls == ["defer(thinking=False)"]  # type 6: nothing changes
    assert service.presses == [("g1|3|t|0", "dc:i:1234:0"), ("g1|3|t|4", "dc:i:1234:1")]


async def test_a_command_with_nothing_to_say_answers_done() -> None:
    bot = client(SlowService(0.0, []))
    inter = interaction()
    await bot.command(inter, "ajuda")
    assert inter.response.calls == ["send_message('Feito.')"]


GENERIC = "Algo deu errado. Confira a mesa e tente de novo."


class BrokenService(SlowService):
    """Fails every press and ``/mao`` after ``delay_s`` (a bug, a damaged key)."""

    async def press(self, user: PlayerRef, data: str, is_admin: bool = False,
                    update: str | None = None, chat: ChatRef | None = None,
                    private: bool = False) -> list[Any]:
        await asyncio.sleep(self.delay_s)
        raise RuntimeError("WRONGTYPE")

    async def show_hand(self, chat: ChatRef, user: PlayerRef,
                        update: str | None = None) -> list[Any]:
        await asyncio.sleep(self.delay_s)
        raise RuntimeError("WRONGTYPE")


async def test_a_failing_command_answers_the_generic_error_not_done() -> None:
    bot = client(BrokenService(0.0, []))
    inter = interaction()
    await bot.command(inter, "mao")
    assert inter.response.calls == [f"send_message({GENERIC!r})"]


@pytest.mark.usefixtures("fast_ack")
async def test_a_slow_failing_command_edits_its_deferred_answer_to_the_generic_error() -> None:
    bot = client(BrokenService(0.3, []))
    inter = interaction()
    edits: list[str] = []

    async def edit_original_response(content: str) -> None:
        edits.append(content)

    inter.edit_original_response = edit_original_response
    await bot.command(inter, "mao")
    assert inter.response.calls == ["defer(thinking=True)"]
    assert edits == [GENERIC]


async def test_a_failing_press_answers_the_generic_error_in_the_channel_language() -> None:
    async def english(chat_key: str) -> str:
        return "en"

    bot = BuracoClient(BrokenService(0.0, []), fakeredis.FakeAsyncRedis(decode_responses=True),
                       english, tick=False)
    inter = interaction()
    await bot.press(inter, ["g1|3|c|"])
    assert inter.response.calls == [
        "send_message('Something went wrong. Check the table and try again.')"]


async def test_an_error_outside_the_service_call_answers_the_generic_error() -> None:
    bot = client(SlowService(0.0, []))
    inter = interaction()
    await bot.tree.on_error(inter, app_commands.AppCommandError("check failed"))
    assert inter.response.calls == [f"send_message({GENERIC!r})"]


class UnreachableService(SlowService):
    """Every press fails as the store does when Redis stays unreachable past the
    failover budget (issue 36)."""

    async def press(self, user: PlayerRef, data: str, is_admin: bool = False,
                    update: str | None = None, chat: ChatRef | None = None,
                    private: bool = False) -> list[Any]:
        raise RetryBudgetSpent("redis unavailable for 6.0 s since the update arrived")


async def test_a_press_refused_for_an_unreachable_redis_says_to_press_again() -> None:
    bot = client(UnreachableService(0.0, []))
    inter = interaction()
    await bot.press(inter, ["g1|3|c|"])
    assert inter.response.calls == [
        "send_message('O servidor do jogo não respondeu a tempo e a sua jogada não foi "
        "feita. Aperte de novo daqui a alguns segundos.')"]


class GameByGame:
    """Presses applied in the order they finish: ``ga`` waits for ``gate`` while it is
    closed, and a press waits ``slow[data]`` seconds first."""

    def __init__(self, slow: dict[str, float] | None = None) -> None:
        self.gate = asyncio.Event()
        self.slow = slow or {}
        self.applied: list[str] = []

    async def press(self, user: PlayerRef, data: str, is_admin: bool = False,
                    update: str | None = None, chat: ChatRef | None = None,
                    private: bool = False) -> list[Any]:
        if data.startswith("ga|") and not self.slow:
            await self.gate.wait()
        await asyncio.sleep(self.slow.get(data, 0.0))
        self.applied.append(data)
        return []


async def test_a_game_whose_press_hangs_holds_no_other_game_s_press() -> None:
    """Issue 36: one game's press stuck on Redis; another game's is applied and
    acknowledged meanwhile, on the same client."""
    service = GameByGame()
    bot = client(service)
    held, other = interaction(), interaction()
    stuck = asyncio.ensure_future(bot.press(held, ["ga|4|c|"]))
    await asyncio.wait_for(bot.press(other, ["gb|2|c|"]), 1.0)
    assert service.applied == ["gb|2|c|"] and other.response.calls == ["defer(thinking=False)"]
    assert not stuck.done()
    service.gate.set()
    await stuck
    assert service.applied == ["gb|2|c|", "ga|4|c|"]


async def test_presses_of_one_game_are_applied_in_the_order_they_arrived() -> None:
    """Two taps on one game's buttons arrive together; the first one's call is the slower,
    yet it is applied first (the game's line in the delivery's order)."""
    service = GameByGame(slow={"ga|4|t|0": 0.1, "ga|4|t|1": 0.0})
    bot = client(service)
    first = asyncio.ensure_future(bot.press(interaction(), ["ga|4|t|0"]))
    second = asyncio.ensure_future(bot.press(interaction(), ["ga|4|t|1"]))
    await asyncio.gather(first, second)
    assert service.applied == ["ga|4|t|0", "ga|4|t|1"]
    assert len(bot.delivery.order) == 0  # the game's line is gone once empty


async def test_a_press_s_wait_is_observed_from_its_arrival_and_a_command_s_is_not() -> None:
    """Issue 36: ``buraco_press_seconds`` holds what the person waited for the press,
    from the interaction's arrival to its answer (the slow service call included)."""
    from adapters.ops.metrics import REGISTRY

    def count_sum() -> tuple[float, float]:
        return (REGISTRY.get_sample_value("buraco_press_seconds_count") or 0.0,
                REGISTRY.get_sample_value("buraco_press_seconds_sum") or 0.0)

    bot = client(SlowService(0.3, []))
    count, total = count_sum()
    await bot.press(interaction(), ["ga|3|c|"])
    after_press = count_sum()
    assert after_press[0] - count == 1.0 and 0.3 <= after_press[1] - total < 2.0
    await bot.command(interaction(), "ajuda")
    assert count_sum() == after_press


class GoneResponse(Response):
    """Discord no longer knows the interaction: its 3 s passed (404 10062)."""

    async def defer(self, ephemeral: bool = False, thinking: bool = False) -> None:
        self.calls.append("defer refused")
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),
                               {"code": 10062, "message": "Unknown interaction"})


async def test_a_press_replayed_after_its_3_s_is_not_applied() -> None:
    """A press that reaches the bot 5 s after it was made (replayed on a gateway RESUME,
    issue 36) is deferred first; Discord refuses (10062: the person saw "This
    interaction failed"), so the service is never called."""
    service = SlowService(0.0, [])
    inter = interaction()
    inter.created_at = discord.utils.utcnow() - datetime.timedelta(seconds=5)
    inter.response = GoneResponse()
    await client(service).press(inter, ["g1|0|d|"])
    assert (service.presses, inter.response.calls) == ([], ["defer refused"])


async def test_a_late_press_discord_still_knows_is_deferred_and_applied_once() -> None:
    service = SlowService(0.0, [])
    inter = interaction()
    inter.created_at = discord.utils.utcnow() - datetime.timedelta(seconds=1.5)
    await client(service).press(inter, ["g1|0|d|"])
    assert service.presses == [("g1|0|d|", "dc:i:1234:0")]
    assert inter.response.calls == ["defer(thinking=False)"]
