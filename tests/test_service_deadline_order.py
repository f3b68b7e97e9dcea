"""A deadline may come early, never late. A worker that dies right after a save whose
state calls for an *earlier* deadline must not leave the later one standing (found by
the reliability suite, tests/reliability/test_rel_faults.py: a person back from away
at a robot's turn, the worker SIGKILLed after the save, the game frozen until the idle
close 24 h later); and a slow worker's deadline, computed from a state another worker
has replaced since, must not overwrite the newer one. Issue 12, "No game ... left
frozen"; docs/service-api.md "Timers".
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from test_service_faults import Faulty, Killed, deadline, robot_to_play
from test_service_support import ANA, BIA, CHAT, Backend, FakeClock, game_of, make_service, only

from bot import play


async def test_a_worker_killed_after_a_person_came_back_leaves_the_robot_its_deadline(
        backend: Backend, clock: FakeClock) -> None:
    store = Faulty(backend.make())
    svc = make_service(store, clock)
    gid = await robot_to_play(svc)
    clock.advance(1)
    await svc.tick()  # Robô 2 draws
    for _ in range(2):  # it is Ana's turn after the robot's moves: two timeouts
        while play.deal_of((await game_of(store))[1]).turn != 0:
            await svc.tick()
        clock.advance(90)
        await svc.tick()
    _v, game = await game_of(store)
    assert game.seats[0].away
    while play.deal_of((await game_of(store))[1]).turn == 0:  # the robot plays for Ana
        await svc.tick()
    assert await deadline(store, gid) == game.touched + 86_400  # nobody present: waits
    store.fail("save_game", Killed("after the save"), after=True)
    with pytest.raises(Killed):
        await svc.come_back(CHAT, ANA)
    _v, game = await game_of(store)
    assert not game.seats[0].away and play.deal_of(game).turn == 1
    heir = make_service(backend.make(), clock)
    assert await deadline(store, gid) <= clock.now()  # the robot's step is due now
    table = only(await heir.tick(), "table").view
    assert table.lines[-1] == "Ana comprou do monte e descartou 10♦. Robô 2 comprou do monte."


class Paused:
    """Wraps a store: its next ``set_deadline`` waits until ``go`` is set."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.go, self.waiting = inner, asyncio.Event(), asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def set_deadline(self, gid: str, due: float) -> None:
        if not self.go.is_set():
            self.waiting.set()
            await self.go.wait()
        await self.inner.set_deadline(gid, due)


async def test_a_slow_workers_stale_deadline_does_not_outlive_a_newer_save(
        backend: Backend, clock: FakeClock) -> None:
    """Worker A's tick finds nothing due (its claim came early) and is slow to write the
    deadline of the state it read, Ana's 90 s timer; meanwhile worker B saves Ana's
    leaving, which hands her seat to the robot, due now. A's late write must not stand:
    it is written again from the stored state."""
    svc = make_service(backend.make(), clock)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    gid = str((await svc.start(CHAT, ANA))[0].game_id)
    await svc.store.set_deadline(gid, clock.now())  # an early claim: nothing is due yet
    paused = Paused(backend.make())
    a = make_service(paused, clock)
    a._swept_at = clock.now()  # no sweep in this tick
    ticking = asyncio.create_task(a.tick())
    await asyncio.wait_for(paused.waiting.wait(), 10)
    b = make_service(backend.make(), clock)
    await b.leave(CHAT, ANA)  # the robot plays Ana's seat, Bia is there: due at once
    _v, game = await game_of(svc.store)
    assert game.seats[0].away and play.deal_of(game).turn == 0
    assert await deadline(svc.store, gid) <= clock.now()
    paused.go.set()
    await asyncio.wait_for(ticking, 10)
    assert await deadline(svc.store, gid) <= clock.now()  # the robot is due, not in 90 s
