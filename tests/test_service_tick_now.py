"""The games a sequential tick claims are each stepped at the time of their own step
(``Service.tick``, bot/ticking.py): a step that takes long (a robot thinking on a loaded
machine, a slow save) must not make the next game's step run at the tick's start time,
which would stamp its move in the past and set its next deadline already overdue (the
reliability suite's burst saw a live game whose deadline lay tens of game seconds
before the workers stopped)."""

from __future__ import annotations

from typing import Any

from test_service_support import ANA, CHAT, FakeClock, make_service

from bot import timers
from bot.model import decode

SLOW_SAVE_S = 40.0


async def test_each_game_of_a_tick_is_stepped_at_its_own_time(store: Any,
                                                               clock: FakeClock) -> None:
    svc = make_service(store, clock)
    chats = [CHAT.model_copy(update={"chat_id": str(-100 - i)}) for i in range(2)]
    gids = []
    for chat in chats:
        await svc.new_game(chat, ANA, "buraco timer=60")
        await svc.add_ai(chat, ANA, "")
        await svc.start(chat, ANA)
        gids.append(await store.chat_game(chat.key))
    clock.advance(3_600)  # every timer has run out: both games are due
    save = store.save_game

    async def slow_save(*args: Any, **kw: Any) -> bool:
        done: bool = await save(*args, **kw)
        clock.advance(SLOW_SAVE_S)  # the save (or the move before it) took 40 s
        return done

    store.save_game = slow_save
    began = clock.now()
    await svc.tick()
    stamps = []
    for gid in gids:
        got = await store.load_game(gid)
        assert got is not None
        game = decode(got[1])
        stamps.append((game.step_at, timers.next_due(game, svc.pacing)))
    # the first game stepped at the tick's start, the second once the first was saved
    assert sorted(stamps) == [(began, began), (began + SLOW_SAVE_S, began + SLOW_SAVE_S)]
