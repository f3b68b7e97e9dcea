"""A lobby is redrawn at once (issue 30): its edits and the table that replaces it at the
start skip the group coalescer's 3 s gap (the per-minute cap still holds), so "Robô"
pressed twice shows two robots at once and "Iniciar" gives way to "Minha mão" at once;
the edits of play keep the gap. Real service effects through the shared delivery, on a
coalescer whose clock and sleep are the test's."""

from __future__ import annotations

import asyncio

import fakeredis
import pytest

from adapters.delivery.coalesce import EditCoalescer
from adapters.delivery.outbox import Delivery
from adapters.delivery.refs import GameRefs
from adapters.delivery.window import SharedWindow
from bot.effects import ChatRef, Effect, PlayerRef, TableView
from bot.memstore import MemoryStore
from bot.service import Service

try:
    from test_delivery import Recorder
except ImportError:  # pragma: no cover - package-style test import
    from tests.test_delivery import Recorder

CHAT = ChatRef(platform="xx", chat_id="-7", title="Mesa")
ANA = PlayerRef(platform="xx", user_id="1", name="Ana")
BIA = PlayerRef(platform="xx", user_id="2", name="Bia")


class FakeTime:
    """Monotonic clock and sleep that advance instantly (and the service's clock)."""

    def __init__(self) -> None:
        self.t = 0.0

    def clock(self) -> float:
        return self.t

    def now(self) -> float:
        return 1_800_000_000.0 + self.t

    async def sleep(self, seconds: float) -> None:
        self.t += seconds
        await asyncio.sleep(0)


class Tables(Recorder):
    """The recording platform, with each table rendered as its lines and button labels
    and the time it went out."""

    def __init__(self, time: FakeTime) -> None:
        super().__init__()
        self.time = time
        self.shown: list[tuple[float, str, list[str]]] = []

    async def table(self, effect: TableView) -> str:
        labels = [b.label for row in effect.view.buttons for b in row]
        self.shown.append((self.time.t, effect.view.text(), labels))
        return f"table:{effect.view.title}"


@pytest.fixture
def time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def setup(time: FakeTime) -> tuple[Service, Delivery, Tables]:
    platform = Tables(time)
    client = fakeredis.FakeAsyncRedis(decode_responses=True)
    delivery = Delivery(platform, GameRefs(client, "t-lobby", platform="xx"),
                        EditCoalescer(gap_s=3.0, per_minute=20, clock=time.clock,
                                      sleep=time.sleep),
                        EditCoalescer(gap_s=1.0, per_minute=60, clock=time.clock,
                                      sleep=time.sleep))
    service = Service(MemoryStore(time), time, ai_pace_s=0, threaded=False)
    return service, delivery, platform


async def shown(delivery: Delivery, effects: list[Effect]) -> None:
    """Deliver ``effects`` and wait until their edits went out (a person looking at the
    lobby before pressing again)."""
    await delivery.deliver(effects)
    await delivery.flush()


def button(effects: list[Effect], label: str) -> str:
    """The payload of the table's button ``label``."""
    table = next(e for e in effects if isinstance(e, TableView))
    return next(b.data for row in table.view.buttons for b in row if b.label == label)


async def test_each_lobby_change_and_the_start_are_shown_at_once(
        setup: tuple[Service, Delivery, Tables], time: FakeTime) -> None:
    service, delivery, platform = setup
    opened = await service.new_game(CHAT, ANA, "buraco")
    await shown(delivery, opened)
    await shown(delivery, await service.join(CHAT, BIA))
    robot = button(opened, "Robô")
    for key in ("xx:q:1", "xx:q:2"):
        await shown(delivery, await service.press(ANA, robot, update=key))
    await shown(delivery, await service.press(ANA, button(opened, "Iniciar"),
                                              update="xx:q:3"))
    times = [t for t, _text, _labels in platform.shown]
    assert times == [0.0] * 5  # no edit waited for the 3 s gap
    assert "Lugar 4: Robô 4 (normal) · lado 2" in platform.shown[3][1]
    assert platform.shown[-1][2] == ["Minha mão"]
    assert [c[0] for c in platform.calls if c[0] in ("post", "edit")] == [
        "post", "edit", "edit", "edit", "edit"]


async def test_the_tables_of_play_keep_the_gap(
        setup: tuple[Service, Delivery, Tables], time: FakeTime) -> None:
    service, delivery, platform = setup
    await shown(delivery, await service.new_game(CHAT, ANA, "buraco"))
    await shown(delivery, await service.join(CHAT, BIA))
    await shown(delivery, await service.start(CHAT, ANA))
    started = time.t
    # a table of play: Bia leaves, the robot keeps her seat
    await shown(delivery, await service.leave(CHAT, BIA))
    assert platform.shown[-1][0] == started + 3.0


async def test_a_cancelled_lobby_is_closed_at_once(
        setup: tuple[Service, Delivery, Tables], time: FakeTime) -> None:
    service, delivery, platform = setup
    await shown(delivery, await service.new_game(CHAT, ANA, "buraco"))
    await shown(delivery, await service.join(CHAT, BIA))
    await shown(delivery, await service.cancel(CHAT, ANA))
    at, text, labels = platform.shown[-1]  # the closing's final table
    assert (at, labels) == (0.0, []) and text.endswith("\nJogo cancelado por Ana.")
    assert platform.calls[-1][0] == "edit"


async def test_a_prompt_slot_of_the_shared_window_waits_only_for_the_cap() -> None:
    window = SharedWindow(fakeredis.FakeAsyncRedis(decode_responses=True), "t-win",
                          gap_s=3.0, per_minute=3, window_s=30.0)
    assert await window.reserve("-7") == 0.0
    assert 2.0 < await window.reserve("-7") <= 3.0  # a table of play waits the gap
    assert await window.reserve("-7", gap_s=0.0) == 0.0  # a lobby's edit does not
    assert await window.reserve("-7", gap_s=0.0) == 0.0
    assert 29.0 < await window.reserve("-7", gap_s=0.0) <= 30.0  # the cap holds
