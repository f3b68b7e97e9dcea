"""The message refs' steps that share a round trip (issue 36, CPU per press): a table
edit reads its ref in the version check's script, a turn ping forgets the old pings and
keeps the new one in one script, a ref is stored by one script. Each is checked for
what it leaves in Redis and for the Redis commands a delivery sends (counted on the
client: fakeredis, and a real Redis when ``REDIS_URL`` is set)."""

from __future__ import annotations

from typing import Any

import pytest
from test_delivery import ANA, CHAT, Recorder, table

from adapters.delivery.coalesce import EditCoalescer
from adapters.delivery.outbox import Delivery
from adapters.delivery.refs import GameRefs
from bot.effects import PingsOver, PlayerRef, TurnPing

BIA = PlayerRef(platform="xx", user_id="2", name="Bia")


class Counted:
    """Counts the commands (a pipeline counts as one) sent through a client."""

    def __init__(self, client: Any) -> None:
        self.sent: list[str] = []
        real = client.execute_command

        async def counted(*args: Any, **options: Any) -> Any:
            self.sent.append(str(args[0]).upper())
            return await real(*args, **options)

        client.execute_command = counted


@pytest.fixture
async def refs(store_clients: Any, store_prefix: str) -> GameRefs:
    return GameRefs(store_clients(), store_prefix, platform="xx")


@pytest.fixture
async def counted(store_clients: Any, store_prefix: str) -> tuple[Delivery, Recorder,
                                                                   Counted]:
    client = store_clients()
    platform: Any = Recorder()
    delivery = Delivery(platform, GameRefs(client, store_prefix, platform="xx"),
                        EditCoalescer(gap_s=0, per_minute=10_000),
                        EditCoalescer(gap_s=0, per_minute=10_000))
    return delivery, platform, Counted(client)


async def test_the_version_check_answers_the_table_ref(refs: GameRefs) -> None:
    assert await refs.newest_table_ref("g1", 3) == (True, None)  # no table posted yet
    await refs.put("g1", "table", "m7")
    assert await refs.newest_table_ref("g1", 4) == (True, "m7")
    assert await refs.newest_table_ref("g1", 2) == (False, None)  # older: not shown
    await refs.put("g1", "table:-9", "m8")  # another place's table
    assert await refs.newest_table_ref("g1", 4, "table:-9") == (True, "m8")
    assert await refs.newest_table("g1", 3) is False  # the mark is the one kept: 4


async def test_swap_forgets_and_keeps_in_one_step(refs: GameRefs) -> None:
    await refs.put("g1", "ping:1", "m1")
    await refs.put("g1", "hand:1", "h1")
    await refs.swap("g1", ["ping:1"], "ping:2", "m2")
    assert await refs.all("g1") == {"hand:1": "h1", "ping:2": "m2"}
    await refs.swap("g1", ["ping:2", "ping:3"])  # forget only (one was never there)
    assert await refs.all("g1") == {"hand:1": "h1"}
    await refs.swap("g1", [], "ping:1", "m3")  # keep only
    assert await refs.all("g1") == {"hand:1": "h1", "ping:1": "m3"}
    ttl = await refs.client.ttl(refs.keys.refs("g1", "xx"))
    assert refs.ttl_s - 5 <= ttl <= refs.ttl_s


async def test_a_turn_ping_that_replaces_another_costs_two_commands(counted: Any) -> None:
    delivery, platform, sent = counted
    await delivery.deliver([TurnPing(player=ANA, chat=CHAT, game_id="g1", text="vez Ana")])
    sent.sent.clear()
    await delivery.deliver([TurnPing(player=BIA, chat=CHAT, game_id="g1", text="vez Bia")])
    assert sent.sent == ["HGETALL", "EVALSHA"]  # read the pings, then forget + keep
    assert platform.calls[1:] == [("delete_private", "m1"), ("ping", "vez Bia", "m2")]
    assert await delivery.refs.all("g1") == {"ping:2": "m2"}
    sent.sent.clear()
    await delivery.deliver([PingsOver(chat=CHAT, game_id="g1")])
    assert sent.sent == ["HGETALL", "EVALSHA"]
    assert await delivery.refs.all("g1") == {}


async def test_a_table_edit_reads_its_ref_in_the_version_check(counted: Any) -> None:
    delivery, platform, sent = counted
    await delivery.deliver([table("v0", 1, game="g0")])  # the scripts loaded
    await delivery.flush()
    sent.sent.clear()
    await delivery.deliver([table("v1", 1)])
    await delivery.flush()
    assert platform.calls[1:] == [("post", "table:v1", "m2")]
    assert sent.sent == ["EVALSHA", "EVALSHA"]  # the check (no ref yet), the new ref kept
    sent.sent.clear()
    await delivery.deliver([table("v2", 2)])
    await delivery.flush()
    assert platform.calls[2:] == [("edit", "m2", "table:v2")]
    assert sent.sent == ["EVALSHA"]  # the check, which answered the ref it edits
