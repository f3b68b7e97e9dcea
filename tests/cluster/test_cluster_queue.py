"""The queue to find players on a real 3-primary Redis Cluster (issue 35): every step of
the queue is one Lua script over keys of the ``{mm}`` hash tag (adapters/storage/queue.py),
so on a cluster each runs in one slot with no CROSSSLOT. The service-level queue tests of
tests/test_queue.py run here once more, unchanged, against the cluster (the game keys
spread over the three primaries), the fault test of 1,000 people on two workers
included."""

from __future__ import annotations

import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: test_queue

import test_queue
from test_queue import (  # noqa: F401  (collected here, on the cluster's ``redis``)
    test_a_bad_request_is_told_and_queues_nobody,
    test_a_blocked_person_is_never_matched_with_who_blocked_them,
    test_a_closed_private_chat_is_told_where_the_person_queued,
    test_a_formed_game_whose_worker_died_before_its_deadline_gets_one,
    test_a_kill_before_the_seat_is_saved_leaves_the_person_free_to_queue,
    test_a_kill_right_after_the_seat_is_saved_leaves_it_known_to_the_queue,
    test_a_matchmade_table_is_named_by_a_person_never_by_an_id,
    test_a_person_at_a_group_table_is_not_queued,
    test_a_person_queued_or_seated_is_told_so,
    test_a_refused_entrar_puts_a_queued_person_back_in_their_place,
    test_a_stale_leave_button_after_the_table_formed_says_so_and_changes_nothing,
    test_a_table_formed_by_a_worker_that_died_is_made_by_another,
    test_a_thousand_people_joining_and_leaving_on_two_workers,
    test_an_entry_expires_with_a_message,
    test_an_invitation_does_not_seat_someone_playing_another_game,
    test_four_people_queued_get_one_table_in_their_private_chats,
    test_leave_at_a_group_table_names_it_and_changes_nothing,
    test_leaving_rewrites_the_queue_answer,
    test_leaving_the_queue,
    test_people_of_both_platforms_share_a_table,
    test_robots_fill_the_table_after_the_wait_asked,
    test_taking_a_seat_leaves_the_queue_so_no_table_seats_them_twice,
    test_the_band_widens_with_the_wait,
    test_the_leave_button_under_the_answer_leaves_the_queue,
    test_the_queue_answer_is_kept_and_rewritten_without_its_button_when_the_table_forms,
)

from adapters.storage.connect import RedisTarget, client_for
from adapters.storage.keys import StoreKeys
from adapters.storage.queue import FORM, JOIN, LEAVE, SIT, UNSIT
from adapters.storage.redis_store import RedisStore


class ClusterRedis:
    """tests/season_support.py's ``Redis`` on the cluster: clients of the cluster under
    one fresh prefix, its keys deleted afterwards."""

    kind = "cluster"

    def __init__(self, port: int) -> None:
        self.target = RedisTarget(url=f"redis://127.0.0.1:{port}", mode="cluster",
                                  timer_sets=4)
        self.prefix = f"q-{uuid.uuid4().hex[:8]}"
        self.clients: list[Any] = []

    def client(self) -> Any:
        made = client_for(self.target)
        self.clients.append(made)
        return made

    def store(self) -> RedisStore:
        return RedisStore(self.client(), self.prefix, timer_sets=4, cluster=True)

    async def close(self) -> None:
        client = self.client()
        keys = [k async for k in client.scan_iter(match=StoreKeys(self.prefix).pattern())]
        for key in keys:  # one slot each
            await client.delete(key)
        for made in self.clients:
            await made.aclose()


@pytest.fixture
async def redis(shared_cluster: list[int]) -> AsyncIterator[ClusterRedis]:
    made = ClusterRedis(shared_cluster[0])
    yield made
    await made.close()


def test_every_queue_script_names_its_one_slot() -> None:
    """Each script's first line says it keeps to one slot, and every key the queue
    makes carries the ``{mm}`` tag (so a cluster runs each script on one node)."""
    for text in (JOIN, LEAVE, SIT, UNSIT, FORM):
        assert text.strip().splitlines()[0].startswith("-- One slot: "), text[:60]
    assert StoreKeys("p").queue("q:buraco:4") == "p:{mm}:q:buraco:4"


async def test_the_queue_keys_live_in_one_slot_of_the_cluster(redis: ClusterRedis) -> None:
    """After a formation, every queue key of the prefix hashes to the one ``{mm}``
    slot, and the formed game's keys to its own."""
    from adapters.storage.keys import slot

    svc = test_queue.worker(redis, test_queue.FakeClock())  # type: ignore[arg-type]
    for i in range(1, 5):
        await svc.seek(test_queue.GROUP, test_queue.tg(i), "buraco 4")
    await svc.seek(test_queue.GROUP, test_queue.tg(9), "tranca 2")
    await svc.block(test_queue.GROUP, test_queue.tg(9), "ninguém")
    await svc.form_tables()
    client = redis.client()
    keys = [k async for k in client.scan_iter(match=f"{redis.prefix}:{{mm}}:*")]
    assert len(keys) >= 4
    assert {slot(k) for k in keys} == {slot(f"{redis.prefix}:{{mm}}:who")}
