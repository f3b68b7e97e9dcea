"""A cluster node that is up but silent (SIGSTOP: its sockets accept, it answers
nothing) under a press (issue 36): the press's first read waits no longer than what
its failover budget (:data:`adapters.storage.budget.BUDGET_S`, counted from the
update's arrival) has left, not the 10 s socket timeout, so the person hears back within
the budget: the press applied once (the replica was promoted in time) or refused with
"press again"; never "Algo deu errado", and the button works once the node is back.

About 20 s: ``pytest -m cluster tests/cluster/test_silent_node.py``.
"""

from __future__ import annotations

import asyncio
import signal
import uuid

from servers import HOST, Servers
from test_press_failover import GENERIC, TRY_AGAIN, Press, lobby_of, press, replicated, robots
from test_telegram_app import ANA, Clock, bot_on_fake_api

from adapters.storage.budget import BUDGET_S
from adapters.storage.connect import RedisTarget, open_store
from bot import Service

GROUP = {"id": -7301, "type": "group", "title": "Mesa"}


async def test_a_press_on_a_stopped_primary_is_answered_within_the_budget(
        servers: Servers) -> None:
    ports = servers.cluster()
    prefix = f"sn-{uuid.uuid4().hex[:8]}"
    store = await open_store(None, prefix, RedisTarget(url=f"redis://{HOST}:{ports[0]}",
                                                       mode="cluster"))
    clock = Clock()
    try:
        async with bot_on_fake_api(store, prefix, Service(store, clock, ai_pace_s=0),
                                   clock) as tg:
            await tg.command(ANA, "/novojogo", chat=GROUP, update_id=1)
            gid = await store.chat_game(f"tg:{GROUP['id']}")
            assert gid is not None
            node = store.client.get_node_from_key(store.keys.state(gid))
            victim = servers.nodes[int(node.port)].proc
            await asyncio.to_thread(replicated, int(node.port))  # the lobby is on a replica
            one = Press(GROUP, lobby_of(tg, GROUP))
            victim.send_signal(signal.SIGSTOP)  # up, sockets open, silent
            try:
                await press(tg, one, 2)
            finally:
                victim.send_signal(signal.SIGCONT)
            waited = one.ended - one.began
            said = [a.get("text") or "" for a in tg.fake.called("answerCallbackQuery")
                    if a["callback_query_id"] == one.query] + tg.fake.texts_to(GROUP["id"])
            got = robots(tg, GROUP)
            await asyncio.to_thread(servers.wait_cluster_ok, ports)
            if got == 0:  # refused: the same button, pressed again, works
                await press(tg, Press(GROUP, lobby_of(tg, GROUP)), 3)
            after = robots(tg, GROUP)
    finally:
        await store.close()
    print({"waited_s": round(waited, 2), "applied_at_once": got})
    assert not any(GENERIC in t for t in said), said
    assert got == 1 or any(TRY_AGAIN in t for t in said), (got, said)
    assert waited <= BUDGET_S + 1.0, waited  # not the 10 s socket timeout
    assert after == 1
