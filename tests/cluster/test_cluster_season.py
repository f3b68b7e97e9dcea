"""The season's scripts and reads on a real 3-primary Redis Cluster (issue 29): a match
played through the service is rated and counted in its group's slot and the platform's
slot (no CROSSSLOT), /ranking, /perfil and the rebuild (a SCAN of every primary) work."""

from __future__ import annotations

import re
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: season_support

from season_support import play_match
from test_service_support import ANA, BIA, CHAT, FakeClock, make_service

from adapters.storage import season_scripts
from adapters.storage.connect import RedisTarget, open_store
from adapters.storage.redis_store import RedisStore
from adapters.storage.season import RedisSeason
from bot.season.ports import PLATFORM
from bot.season.rebuild import rebuild


@pytest.fixture
async def store(shared_cluster: list[int]) -> AsyncIterator[RedisStore]:
    target = RedisTarget(url=f"redis://127.0.0.1:{shared_cluster[0]}", mode="cluster",
                         timer_sets=4)
    made = await open_store(None, f"s-{uuid.uuid4().hex[:8]}", target)
    yield made
    await made.close()


def test_every_season_script_says_it_touches_one_slot() -> None:
    for name in ("COMMIT_GROUP", "COMMIT_PLATFORM", "REPLACE_RATINGS"):
        text = getattr(season_scripts, name)
        header = text.strip().splitlines()[0]
        assert header.startswith("-- One slot: "), (name, header)
        if set(re.findall(r"KEYS\[(\d)\]", text)) - {"1"}:
            assert "{season" in header, (name, header)


async def test_a_match_is_rated_and_ranked_on_the_cluster(store: RedisStore) -> None:
    season = RedisSeason.beside(store)
    svc = make_service(store, FakeClock(), season=season)
    await play_match(svc, store, CHAT, [ANA, BIA])
    before = await season.ratings(PLATFORM, [ANA.key, BIA.key])
    assert all(before)
    rows = await season.standings(CHAT.key, "all", 10)
    assert sorted(r.key for r in rows) == [ANA.key, BIA.key]
    assert [r.kind for r in await svc.profile(CHAT, ANA, "publico")] == ["reply"]
    text = (await svc.ranking(CHAT, BIA, "geral"))[0].text  # type: ignore[union-attr]
    assert text.splitlines()[1].startswith("1. Ana: rating ")
    await store.client.delete(season.keys.rating(PLATFORM))
    assert await rebuild(season) == 1
    assert await season.ratings(PLATFORM, [ANA.key, BIA.key]) == before
