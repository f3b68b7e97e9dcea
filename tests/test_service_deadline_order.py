# ruff: noqa: F811  (pytest fixtures imported from test_service_support)
"""A deadline may come early, never late: a worker that dies right after a save whose
state calls for an *earlier* deadline must not leave the later one standing (found by
the reliability suite, tests/reliability/test_rel_faults.py: a person back from away
at a robot's turn, the worker SIGKILLed after the save, the game frozen until the idle
close 24 h later). Issue 12, "No game ... left frozen"; docs/service-api.md "Timers".
"""

from __future__ import annotations

import pytest
from test_service_faults import Faulty, Killed, deadline, robot_to_play
from test_service_support import (  # noqa: F401  (fixtures)
    ANA,
    CHAT,
    Backend,
    FakeClock,
    backend,
    clock,
    game_of,
    make_service,
    only,
    store,
)

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
    assert table.lines[-1].startswith("Robô 2 ")
