"""A worker's timer steps think at most ``ROBOTS_AT_ONCE`` at a time, and a person's press
never waits for them (issue 36: after a failover, the steps held up on the dead node
resume at once; they must not take the event loop's turns from the healthy games'
presses)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from test_service_support import ANA, BIA, FakeClock, button, make_service
from test_service_turns import hand_of

from bot import runner, timers
from bot.effects import ChatRef
from bot.memstore import MemoryStore
from bot.service import Service

GAMES = 4


class Gate:
    """Wraps :func:`bot.timers.step`: each call counts itself running and waits (in its
    worker thread) until ``opened``; ``peak`` is the most running at once."""

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.lock = threading.Lock()
        self.running = self.peak = self.calls = 0
        self.inner = timers.step

    def __call__(self, *args: Any, **kw: Any) -> Any:
        with self.lock:
            self.running += 1
            self.calls += 1
            self.peak = max(self.peak, self.running)
        try:
            if not self.opened.wait(10):
                raise TimeoutError("the gate never opened")
            return self.inner(*args, **kw)
        finally:
            with self.lock:
                self.running -= 1


async def open_game(svc: Service, k: int) -> tuple[str, Any]:
    """Ana vs Bia in chat ``-k``; the game id and Ana's hand (her turn: draw)."""
    chat = ChatRef(platform="tg", chat_id=f"-{k}", title=f"Mesa {k}")
    await svc.new_game(chat, ANA, "buraco")
    await svc.join(chat, BIA)
    effects = await svc.start(chat, ANA)
    return str(effects[0].game_id), hand_of(effects, ANA)


async def until(check: Any, timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


async def test_timer_steps_think_at_most_robots_at_once_and_a_press_passes_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    store = MemoryStore()
    svc = make_service(store, clock, threaded=True)
    due = [await open_game(svc, k) for k in range(GAMES)]
    clock.advance(45)  # the others' deadlines are in 90 s: the last game is not due
    _gid, ana = await open_game(svc, GAMES)
    clock.advance(45)  # Ana's turn timer ran out in the first GAMES games
    gate = Gate()
    monkeypatch.setattr(timers, "step", gate)
    steps = [asyncio.ensure_future(svc.tick_game(gid)) for gid, _hand in due]
    await until(lambda: gate.running >= runner.ROBOTS_AT_ONCE)
    await asyncio.sleep(0.2)  # room for a step over the bound to start, if it could
    assert (gate.running, gate.calls) == (runner.ROBOTS_AT_ONCE, runner.ROBOTS_AT_ONCE)
    # the robots' bound is full: a press of another game is applied at once all the same
    drew = await asyncio.wait_for(svc.press(ANA, button(ana, "Comprar do monte")), 2.0)
    assert len(hand_of(drew, ANA).cards) == 12
    gate.opened.set()
    done = await asyncio.gather(*steps)
    assert (gate.peak, gate.calls) == (runner.ROBOTS_AT_ONCE, GAMES)
    for (gid, _hand), effects in zip(due, done, strict=True):
        assert effects[0].text == ("Ana não jogou a tempo: jogada automática "
                                   "(comprar e descartar)."), gid
        assert (await store.load_game(gid) or (0, ""))[0] == 4  # opened, joined, started, stepped
