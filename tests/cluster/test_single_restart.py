"""One Redis (``REDIS_MODE=single``, the default) restarted under presses (issue 36): a
restart costs a delay, not a press. The store's calls are retried within the same
budget as a cluster or Sentinel failover (:data:`adapters.storage.budget.BUDGET_S`,
from the update's arrival; a press is applied once: the idempotency keys), and only
a Redis that stays down past it gets the person the "press again" message, with the
button still working afterwards.

The Redis here is a spare-port ``redis-server`` with ``appendonly yes`` and
``appendfsync always`` (what docs/deploy.md asks of a single Redis), so its restart
keeps every acknowledged write. About 30 s: ``pytest -m cluster
tests/cluster/test_single_restart.py``.
"""

from __future__ import annotations

import asyncio
import uuid

from servers import HOST, Servers
from test_press_failover import GENERIC, TRY_AGAIN, Press, lobby_of, press, robots
from test_telegram_app import ANA, Clock, Tg, bot_on_fake_api

from adapters.storage.budget import BUDGET_S
from adapters.storage.connect import RedisTarget, open_store
from bot import Service

GROUPS = 8
DOWN_S = 1.5
"""How long the Redis is down in the restart test (well inside the budget)."""


def said_to(tg: Tg, one: Press) -> list[str]:
    """The press's answer (toast) and what its group was told."""
    return [a.get("text") or "" for a in tg.fake.called("answerCallbackQuery")
            if a["callback_query_id"] == one.query] + tg.fake.texts_to(one.group["id"])



async def test_presses_in_flight_at_a_redis_restart_are_each_applied_once(
        servers: Servers) -> None:
    port = servers.single()
    servers.kill(port)
    servers.start(port, "--appendonly", "yes", "--appendfsync", "always")
    prefix = f"sr-{uuid.uuid4().hex[:8]}"
    store = await open_store(f"redis://{HOST}:{port}/0", prefix, RedisTarget(
        url=f"redis://{HOST}:{port}/0"))
    clock = Clock()
    groups = [{"id": -7400 - i, "type": "group", "title": f"Mesa {i}"} for i in range(GROUPS)]
    try:
        async with bot_on_fake_api(store, prefix, Service(store, clock, ai_pace_s=0),
                                   clock) as tg:
            for k, group in enumerate(groups):
                await tg.command(ANA, "/novojogo", chat=group, update_id=1 + k)
            presses = [Press(g, lobby_of(tg, g)) for g in groups]
            sent = [asyncio.ensure_future(press(tg, p, 100 + k))
                    for k, p in enumerate(presses)]
            while not all(p.began for p in presses):  # every press has started
                await asyncio.sleep(0)
            killed = servers.kill(port)  # blocks the loop: no press moves on meanwhile
            await asyncio.sleep(DOWN_S)
            await asyncio.to_thread(servers.restart, port)
            await asyncio.gather(*sent)
            in_flight = sum(p.began <= killed <= p.ended for p in presses)
            got = {g["id"]: robots(tg, g) for g in groups}
            said = [t for p in presses for t in said_to(tg, p)]
    finally:
        await store.close()
    print({"in_flight": in_flight, "slowest_s": round(max(p.ended - p.began
                                                         for p in presses), 2)})
    assert in_flight == GROUPS
    assert set(got.values()) == {1}, got  # each press applied, once
    assert not any(GENERIC in t or TRY_AGAIN in t for t in said), said


async def test_a_press_while_the_redis_stays_down_past_the_budget_says_press_again(
        servers: Servers) -> None:
    """Redis down for longer than the budget: the press is retried for the budget, then
    refused with "press again" (not "Algo deu errado"); once Redis is back, the same
    button adds its robot."""
    port = servers.single()
    servers.kill(port)
    servers.start(port, "--appendonly", "yes", "--appendfsync", "always")
    prefix = f"sr-{uuid.uuid4().hex[:8]}"
    store = await open_store(f"redis://{HOST}:{port}/0", prefix, RedisTarget(
        url=f"redis://{HOST}:{port}/0"))
    clock = Clock()
    group = {"id": -7501, "type": "group", "title": "Mesa"}
    try:
        async with bot_on_fake_api(store, prefix, Service(store, clock, ai_pace_s=0),
                                   clock) as tg:
            await tg.command(ANA, "/novojogo", chat=group, update_id=1)
            one = Press(group, lobby_of(tg, group))
            servers.kill(port)
            await press(tg, one, 2)
            said = said_to(tg, one)
            await asyncio.to_thread(servers.restart, port)
            await press(tg, Press(group, lobby_of(tg, group)), 3)
            after = robots(tg, group)
    finally:
        await store.close()
    waited = one.ended - one.began
    print({"refused_after_s": round(waited, 1)})
    assert any(TRY_AGAIN in t for t in said), said
    assert not any(GENERIC in t for t in said), said
    assert BUDGET_S - 1.0 <= waited <= BUDGET_S + 2.0  # retried for the budget, no longer
    assert after == 1
