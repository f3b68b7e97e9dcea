"""Issue 12 defect 8: idempotency markers must not outweigh the games. A live game's
state plus its markers stay within 8 KB on a real Redis (``MEMORY USAGE``), however many
presses it has seen."""

from __future__ import annotations

import itertools
import os
import uuid

import pytest
from test_service_support import ANA, BIA, CHAT, FakeClock, make_service

from adapters.storage import open_store
from bot import play, robot
from bot.effects import pack
from bot.model import decode

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                reason="MEMORY USAGE needs a real Redis (REDIS_URL)")


async def test_state_and_markers_of_a_game_at_turn_30_fit_in_8_kb() -> None:
    store = await open_store(os.environ["REDIS_URL"], prefix=f"test-{uuid.uuid4().hex}")
    clock = FakeClock()
    svc = make_service(store, clock)
    updates = itertools.count(10_000)
    try:
        await svc.new_game(CHAT, ANA, "buraco", update=f"tg:9:u:{next(updates)}")
        await svc.join(CHAT, BIA, update=f"tg:9:u:{next(updates)}")
        await svc.start(CHAT, ANA, update=f"tg:9:u:{next(updates)}")
        gid = await store.chat_game(CHAT.key)
        assert gid is not None
        presses = 0
        while True:
            got = await store.load_game(gid)
            assert got is not None
            game = decode(got[1])
            state = play.deal_of(game)
            if game.status != "playing" or state.turn_count >= 30:
                break
            seat = state.turn
            player = game.seats[seat].player
            action = robot.fallback_move(state, seat)
            ver = game.seats[seat].ver
            data = [pack(gid, ver, "c")] if action.do == "draw" else [
                pack(gid, ver, "t", play.view_of(game, seat).hand.index(action.card)),
                pack(gid, ver, "d" if action.do == "discard" else "3")]
            for payload in data:
                await svc.press(player, payload, update=f"tg:9:u:{next(updates)}")
                presses += 1
        assert state.turn_count == 30 and presses >= 80
        used = [await store.client.memory_usage(k)
                for k in (store.keys.state(gid), store.keys.applied(gid))]
        assert await store.client.zcard(store.keys.applied(gid)) == 64
        assert sum(used) <= 8 * 1024, used
        leftover = [k async for k in store.client.scan_iter(
            match=f"{store.keys.prefix}:*:seen:*")]  # a marker is in its chat's slot
        assert len(leftover) == 1  # only the /novojogo marker: presses leave no key of their own
    finally:
        keys = [k async for k in store.client.scan_iter(match=store.keys.pattern())]
        if keys:
            await store.client.delete(*keys)
        await store.close()
