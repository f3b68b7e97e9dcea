"""The message refs' steps that share a round trip (issue 36, CPU per press): a table
edit reads its ref in the version check's script, a turn ping forgets the old pings and
keeps the new one in one script, a ref is stored by one script, and a hand edit on a
platform that replaces a hand only once it is gone (Telegram) uses the ref this worker
kept instead of reading it. Each is checked for
what it leaves in Redis and for the Redis commands a delivery sends (counted on the
client: fakeredis, and a real Redis when ``REDIS_URL`` is set)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from test_delivery import ANA, CHAT, Recorder, hand, table

from adapters.delivery import outbox
from adapters.delivery.coalesce import EditCoalescer
from adapters.delivery.outbox import Delivery
from adapters.delivery.refs import HAND_KEPT_S, GameRefs
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


class Telegramish(Recorder):
    """A platform whose hand message is only replaced once gone (as Telegram's)."""

    hand_replaced_when_gone = True


def worker(client: Any, prefix: str, first_ref: int, clock: Any = None) -> tuple[
        Delivery, Any, Counted]:
    """One worker's delivery on ``client`` (its message ids start after ``first_ref``)."""
    platform: Any = Telegramish()
    platform.count = first_ref
    refs = GameRefs(client, prefix, platform="xx") if clock is None else GameRefs(
        client, prefix, platform="xx", clock=clock)
    return (Delivery(platform, refs, EditCoalescer(gap_s=0, per_minute=10_000),
                     EditCoalescer(gap_s=0, per_minute=10_000)), platform, Counted(client))


async def _hand(delivery: Delivery, title: str) -> None:
    delivery.stage([hand(title)])
    await delivery.flush()


async def test_a_hand_edited_again_by_the_same_worker_sends_no_command(
        store_clients: Any, store_prefix: str) -> None:
    delivery, platform, sent = worker(store_clients(), store_prefix, 0)
    await _hand(delivery, "h1")
    assert sent.sent[0] == "HGET"  # the first: nothing kept, read
    sent.sent.clear()
    await _hand(delivery, "h2")
    await _hand(delivery, "h3")
    assert sent.sent == []  # the ref it wrote itself
    assert platform.calls == [("send_private", "hand:h1", "m1"),
                              ("edit_private", "m1", "hand:h2"),
                              ("edit_private", "m1", "hand:h3")]


async def test_a_platform_that_may_move_a_hand_reads_the_ref_every_time(
        setup_plain: Any) -> None:
    delivery, sent = setup_plain
    await _hand(delivery, "h1")
    sent.sent.clear()
    await _hand(delivery, "h2")
    assert sent.sent == ["HGET"]


@pytest.fixture
async def setup_plain(store_clients: Any, store_prefix: str) -> tuple[Delivery, Counted]:
    client = store_clients()
    platform: Any = Recorder()  # Discord-like: no hand_replaced_when_gone
    return (Delivery(platform, GameRefs(client, store_prefix, platform="xx"),
                     EditCoalescer(gap_s=0, per_minute=10_000),
                     EditCoalescer(gap_s=0, per_minute=10_000)), Counted(client))


async def test_a_hand_another_worker_replaced_is_read_again_and_edited_there(
        store_clients: Any, store_prefix: str) -> None:
    """Worker A keeps m1; worker B sends the hand anew (``/mao``: m101, m1 deleted).
    A's edit of m1 finds it gone: A reads Redis, edits m101, and posts nothing new."""
    a, pa, _sent_a = worker(store_clients(), store_prefix, 0)
    b, pb, _sent_b = worker(store_clients(), store_prefix, 100)
    await _hand(a, "h1")
    await b.fresh_hand(hand("h2"))
    assert pb.calls == [("send_private", "hand:h2", "m101"), ("delete_private", "m1")]
    pa.gone.add("m1")
    await _hand(a, "h3")
    assert pa.calls[1:] == [("edit_private", "m101", "hand:h3")]
    assert await a.refs.get("g1", "hand:1") == "m101"
    await _hand(a, "h4")  # kept again: the new one
    assert pa.calls[2:] == [("edit_private", "m101", "hand:h4")]


async def test_a_kept_hand_ref_is_read_again_after_hand_kept_s(
        store_clients: Any, store_prefix: str) -> None:
    """Another worker's new hand whose old message could not be deleted (it stays): A
    edits the old one at most HAND_KEPT_S, then reads Redis again."""
    now = [1000.0]
    a, pa, sent = worker(store_clients(), store_prefix, 0, clock=lambda: now[0])
    b, _pb, _sent_b = worker(store_clients(), store_prefix, 100)
    await _hand(a, "h1")
    await b.refs.put("g1", "hand:1", "m101")  # replaced; m1 still there
    now[0] += HAND_KEPT_S + 0.1
    sent.sent.clear()
    await _hand(a, "h2")
    assert sent.sent == ["HGET"]
    assert pa.calls[1:] == [("edit_private", "m101", "hand:h2")]


async def test_reading_the_game_s_refs_renews_the_kept_hands(
        store_clients: Any, store_prefix: str) -> None:
    """A turn ping reads every ref of the game (HGETALL): the hands kept are replaced by
    what Redis holds, so another worker's new hand is edited from then on."""
    a, pa, _sent = worker(store_clients(), store_prefix, 0)
    b, _pb, _sent_b = worker(store_clients(), store_prefix, 100)
    await _hand(a, "h1")
    await b.refs.put("g1", "hand:1", "m101")
    await a.deliver([TurnPing(player=BIA, chat=CHAT, game_id="g1", text="vez Bia")])
    await _hand(a, "h2")
    assert pa.calls[-1] == ("edit_private", "m101", "hand:h2")
    await b.refs.drop("g1", "hand:1")  # e.g. another worker found it gone
    await a.refs.all("g1")
    assert a.refs.known_hand("g1", "hand:1") is None


async def test_pings_over_reads_nothing_when_none_was_found_since_its_own_saves(
        store_clients: Any, store_prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn moved to someone with the hand open: PingsOver. After a read that found
    no ping (at version 4), the next one reads nothing while every save since the read
    was this worker's (``own_from`` <= 4) and HAND_KEPT_S has not passed; a save by
    another worker since (``own_from`` 5), a ping this worker sent, or the time passing
    makes it read again."""
    now = [1000.0]
    monkeypatch.setattr(outbox, "time", SimpleNamespace(monotonic=lambda: now[0]))
    a, pa, sent = worker(store_clients(), store_prefix, 0)

    def over(version: int, own_from: int | None) -> PingsOver:
        return PingsOver(chat=CHAT, game_id="g1", state_version=version, own_from=own_from)

    await a.deliver([over(4, 3)])
    assert sent.sent == ["HGETALL"]
    await a.deliver([over(6, 3)])  # its own saves 4, 5, 6 since the read
    assert sent.sent == ["HGETALL"]
    await a.deliver([over(7, None)])  # unknown: read
    assert sent.sent == ["HGETALL", "HGETALL"]
    await a.deliver([over(9, 8)])  # another worker saved 8 after the read at 7
    assert sent.sent == ["HGETALL"] * 3
    b, _pb, _sent_b = worker(store_clients(), store_prefix, 100)
    await b.deliver([TurnPing(player=BIA, chat=CHAT, game_id="g1", text="vez Bia")])
    await a.deliver([over(11, 10)])  # b's ping came with b's save 10: read, deleted
    assert sent.sent == ["HGETALL"] * 4 + ["EVALSHA"]
    assert pa.calls[-1] == ("delete_private", "m101")
    await a.deliver([TurnPing(player=ANA, chat=CHAT, game_id="g1", text="vez Ana")])
    sent.sent.clear()
    await a.deliver([over(12, 10)])  # its own ping since: read and deleted
    assert sent.sent[0] == "HGETALL" and pa.calls[-1] == ("delete_private", "m1")
    sent.sent.clear()
    now[0] += HAND_KEPT_S + 0.1
    await a.deliver([over(13, 10)])
    assert sent.sent == ["HGETALL"]
    assert await a.refs.all("g1") == {}
