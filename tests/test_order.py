"""Order where order matters, nowhere else (issue 36): adapters/delivery/order.py's lines
per game, and the tick loop that steps due games concurrently in them, with its bound
and its clean stop."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from adapters.delivery.order import KeyedOrder, chat_key, game_key, press_key
from adapters.delivery.ticks import tick_loop, wind_down
from bot.effects import ChatRef, TableView, View

try:
    from test_delivery import setup, table
except ImportError:  # pragma: no cover - package-style test import
    from tests.test_delivery import setup, table

__all__ = ["setup"]  # the fixture, used by name below


async def test_calls_of_one_key_run_in_the_order_their_tickets_were_taken() -> None:
    order = KeyedOrder()
    done: list[int] = []

    async def call(n: int, ticket: Any) -> None:
        async with ticket:
            await asyncio.sleep(0.03 * (3 - n))  # the first is the slowest
            done.append(n)

    tickets = [order.ticket("g:a") for _ in range(3)]  # taken on arrival, in order
    await asyncio.gather(*(call(n, t) for n, t in reversed(list(enumerate(tickets)))))
    assert done == [0, 1, 2]


async def test_a_held_key_holds_no_other_key() -> None:
    order = KeyedOrder()
    held = asyncio.Event()
    done: list[str] = []

    async def call(key: str, gate: asyncio.Event | None) -> None:
        async with order.ticket(key):
            if gate is not None:
                await gate.wait()
            done.append(key)

    a = asyncio.ensure_future(call("g:a", held))
    behind = asyncio.ensure_future(call("g:a", None))
    await asyncio.wait_for(call("g:b", None), 1.0)
    assert done == ["g:b"]  # game b went by while a waits; a's second waits for a
    held.set()
    await asyncio.gather(a, behind)
    assert done == ["g:b", "g:a", "g:a"]


async def test_a_ticket_given_up_early_does_not_let_the_next_overtake_the_one_before() -> None:
    order = KeyedOrder()
    gate = asyncio.Event()
    done: list[str] = []
    first, skipped, third = (order.ticket("g:a") for _ in range(3))

    async def run(name: str, ticket: Any, wait: bool) -> None:
        async with ticket:
            if wait:
                await gate.wait()
            done.append(name)

    running = asyncio.ensure_future(run("first", first, True))
    skipped.release()  # an update that never called the service
    last = asyncio.ensure_future(run("third", third, False))
    await asyncio.sleep(0.05)
    assert done == []
    gate.set()
    await asyncio.gather(running, last)
    assert done == ["first", "third"]


async def test_a_cancelled_waiter_gives_its_place_up_and_lines_are_forgotten_when_empty(
        ) -> None:
    order = KeyedOrder()
    gate = asyncio.Event()

    async def run(gated: bool) -> str:
        async with order.ticket("g:a"):
            if gated:
                await gate.wait()
            return "ran"

    head = asyncio.ensure_future(run(True))
    waiter = asyncio.ensure_future(run(False))
    tail = asyncio.ensure_future(run(False))
    await asyncio.sleep(0.01)
    waiter.cancel()
    gate.set()
    assert await asyncio.gather(head, tail) == ["ran", "ran"]
    assert waiter.cancelled()
    assert (len(order), order.outstanding) == (0, 0)  # no entry left behind


async def test_the_limit_bounds_calls_running_at_once_over_every_key() -> None:
    order = KeyedOrder(limit=3)
    running, peak = 0, 0

    async def call(key: str) -> None:
        nonlocal running, peak
        async with order.ticket(key):
            running += 1
            peak = max(peak, running)
            await asyncio.sleep(0.01)
            running -= 1

    await asyncio.gather(*(call(f"g:{n % 7}") for n in range(20)))
    assert peak == 3
    assert len(order) == 0


async def test_a_call_stuck_past_slow_s_leaves_the_limit_and_the_others_run() -> None:
    """Room for one call at a time; game a's call hangs (its Redis node died): after
    ``slow_s`` it no longer counts, and game b's call runs while a's still waits."""
    order = KeyedOrder(limit=1, slow_s=0.1)
    gate = asyncio.Event()
    done: list[str] = []

    async def call(key: str, wait: bool) -> None:
        async with order.ticket(key):
            if wait:
                await gate.wait()
            done.append(key)

    stuck = asyncio.ensure_future(call("g:a", True))
    await asyncio.sleep(0.01)
    other = asyncio.ensure_future(call("g:b", False))
    await asyncio.sleep(0.05)
    assert done == []  # within slow_s the limit holds
    await asyncio.wait_for(other, 1.0)
    assert done == ["g:b"] and not stuck.done()
    gate.set()
    await stuck
    assert done == ["g:b", "g:a"] and order.outstanding == 0


async def test_drained_waits_for_every_ticket_outstanding() -> None:
    order = KeyedOrder()
    ticket = order.ticket("c:1")
    waiting = asyncio.ensure_future(order.drained())
    await asyncio.sleep(0.01)
    assert not waiting.done()
    ticket.release()
    await asyncio.wait_for(waiting, 1.0)
    await asyncio.wait_for(order.drained(), 1.0)  # nothing outstanding: at once


def test_keys_name_the_game_of_a_press_else_its_chat() -> None:
    assert press_key("ab12cd34|3|d|5", -100) == game_key("ab12cd34") == "g:ab12cd34"
    assert press_key("not a payload", -100) == chat_key(-100) == "c:-100"
    assert press_key("", None) == ""


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        KeyedOrder(limit=0)


class Due:
    """A service whose ``games`` come due at once: ``due`` hands out as many as asked,
    ``tick_game`` shows each game's table after ``step_s`` (``held`` games wait for
    ``gate`` first), recording how many ran at once."""

    def __init__(self, games: list[str], step_s: float = 0.02,
                 held: frozenset[str] = frozenset()) -> None:
        self.left = list(games)
        self.step_s, self.held = step_s, held
        self.gate = asyncio.Event()
        self.asked: list[int] = []
        self.stepped: list[str] = []
        self.running = self.peak = 0

    async def due(self, limit: int) -> list[str]:
        self.asked.append(limit)
        out, self.left = self.left[:limit], self.left[limit:]
        return out

    async def tick_game(self, gid: str, platforms: frozenset[str] | None = None) -> list[Any]:
        assert platforms == frozenset({"xx"})
        self.running += 1
        self.peak = max(self.peak, self.running)
        if gid in self.held:
            await self.gate.wait()
        await asyncio.sleep(self.step_s)
        self.running -= 1
        self.stepped.append(gid)
        chat = ChatRef(platform="xx", chat_id=f"-{gid}", title=gid)  # a chat per game
        return [TableView(chat=chat, game_id=gid, view=View(title=f"after {gid}"),
                          state_version=1)]

    async def table_of(self, game_id: str) -> list[Any]:
        return []


async def test_the_tick_loop_steps_due_games_concurrently_never_more_than_its_bound(
        setup: Any) -> None:
    delivery, platform = setup
    service = Due([f"g{n}" for n in range(10)])
    halt = asyncio.Event()
    ticking = asyncio.ensure_future(tick_loop(service, delivery, every_s=0.01, stop=halt,
                                              bound=3))
    while len(service.stepped) < 10:
        await asyncio.sleep(0.01)
    await wind_down(ticking, halt, delivery, wait_s=5.0)
    assert service.peak == 3
    assert max(service.asked) == 3  # never claims (leases) more than it has room for
    assert sorted(service.stepped) == [f"g{n}" for n in range(10)]
    assert sorted(c[1] for c in platform.calls) == sorted(
        f"table:after g{n}" for n in range(10))


async def test_a_held_game_holds_neither_the_other_games_ticks_nor_their_presses(
        setup: Any) -> None:
    delivery, platform = setup
    service = Due(["gA", "gB"], step_s=0.0, held=frozenset({"gA"}))
    halt = asyncio.Event()
    ticking = asyncio.ensure_future(tick_loop(service, delivery, every_s=0.01, stop=halt))
    while service.stepped != ["gB"]:
        await asyncio.sleep(0.01)
    async with delivery.order.ticket(game_key("gB")):  # a press of game B: its turn now
        pressed_b = True
    a_press = delivery.order.ticket(game_key("gA"))  # a press of A waits for A's step
    entering = asyncio.ensure_future(a_press.__aenter__())
    await asyncio.sleep(0.05)
    assert pressed_b and not entering.done() and service.stepped == ["gB"]
    service.gate.set()
    await asyncio.wait_for(entering, 1.0)
    assert service.stepped == ["gB", "gA"]  # A's step before A's press
    a_press.release()
    await wind_down(ticking, halt, delivery, wait_s=5.0)
    assert [c[1] for c in platform.calls] == ["table:after gB", "table:after gA"]


async def test_a_step_that_hangs_on_redis_leaves_the_bound_and_the_others_go_on(
        setup: Any) -> None:
    """With room for one step at a time, game A's step hangs (its Redis node is gone):
    after ``slow_s`` it no longer counts, and B and C are stepped while A still waits."""
    delivery, _platform = setup
    service = Due(["gA", "gB", "gC"], step_s=0.0, held=frozenset({"gA"}))
    halt = asyncio.Event()
    ticking = asyncio.ensure_future(tick_loop(service, delivery, every_s=0.01, stop=halt,
                                              bound=1, slow_s=1.0))
    # A is claimed first and holds the only room until slow_s (1 s, long enough for a
    # loaded machine to reach this check well inside it): nothing else is stepped.
    await asyncio.wait_for(_until(lambda: service.asked == [1]), 2.0)
    assert (service.stepped, service.asked) == ([], [1])  # A holds the only room
    await asyncio.wait_for(_until(lambda: service.stepped == ["gB", "gC"]), 5.0)
    assert service.peak == 2  # A (out of the bound) and one more, never two more
    service.gate.set()
    await wind_down(ticking, halt, delivery, wait_s=5.0)
    assert service.stepped == ["gB", "gC", "gA"]


async def test_an_upkeep_that_hangs_on_redis_holds_no_robot_move(setup: Any) -> None:
    """The stale tables' claim waits on a dead Redis node (its set's slot is there): the
    due games are claimed and stepped all the same, round after round (before: every
    round waited for the upkeep, and every game's robot stood still 3-4 s when one of
    three primaries died, tests/cluster/test_failover_isolation.py)."""
    delivery, _platform = setup
    stuck = asyncio.Event()
    redone: list[int] = []

    async def redo(retable: Any, limit: int = 10, rehand: Any = None) -> int:
        redone.append(1)
        await stuck.wait()
        return 0

    delivery.redo = redo
    service = Due([f"g{n}" for n in range(6)], step_s=0.0)
    halt = asyncio.Event()
    ticking = asyncio.ensure_future(tick_loop(service, delivery, every_s=0.01, stop=halt,
                                              bound=2))
    await asyncio.wait_for(_until(lambda: len(service.stepped) == 6), 2.0)
    assert redone == [1]  # one upkeep at a time: the hung one is not started again
    stuck.set()
    await asyncio.wait_for(_until(lambda: len(redone) >= 2), 2.0)  # the next round's
    await wind_down(ticking, halt, delivery, wait_s=5.0)
    assert sorted(service.stepped) == [f"g{n}" for n in range(6)]


async def _until(check: Any) -> None:
    while not check():
        await asyncio.sleep(0.01)


async def test_sigterm_waits_for_every_call_in_hand_and_delivers_their_views(
        setup: Any) -> None:
    """Presses of three games in flight (one of them queued behind another of its game)
    when the stop comes: each finishes its service call and its table is shown."""
    delivery, platform = setup
    halt = asyncio.Event()
    ticking = asyncio.ensure_future(tick_loop(Due([]), delivery, every_s=0.01, stop=halt))

    async def press(gid: str, title: str, delay: float) -> None:
        async with delivery.order.ticket(game_key(gid)):
            await asyncio.sleep(delay)  # the service call
            delivery.stage([table(title, 0, game=gid)])

    presses = [asyncio.ensure_future(press(g, t, d)) for g, t, d in (
        ("g1", "one", 0.2), ("g2", "two", 0.1), ("g1", "three", 0.05))]
    await asyncio.sleep(0.01)
    await wind_down(ticking, halt, delivery, wait_s=5.0)
    assert all(p.done() for p in presses)
    assert platform.calls == [("post", "table:two", "m1"), ("post", "table:one", "m2"),
                              ("edit", "m2", "table:three")]  # g1's in its presses' order
