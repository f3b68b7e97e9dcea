# ruff: noqa: F811  (pytest fixtures imported from the support modules)
"""Ratings (issue 29 "Ratings"): openskill Plackett-Luce per group and across groups,
updated once per finished match in the follow-up that counts the ranking, robots at a
fixed strength, away people at a lower weight, rebuilt from the kept matches."""

from __future__ import annotations

from typing import Any

import pytest
from season_support import Redis, play_match, redis, worker  # noqa: F401
from test_service_support import ANA, BIA, CAIO, CHAT, CHAT2, DANI, FakeClock, game_of

from adapters.storage.season import RedisSeason
from bot.season.facts import MatchFacts
from bot.season.ports import PLATFORM
from bot.season.rating import Entrant, Rating, rate, shown
from bot.season.rebuild import rebuild


def test_winner_up_loser_down_exact_openskill_values() -> None:
    new = rate([[Entrant("a")], [Entrant("b")]], [0, 1], {})
    assert new["a"] == Rating(27.635389493140497, 8.06590141354368, 1)
    assert new["b"] == Rating(22.364610506859503, 8.06590141354368, 1)
    assert (shown(25.0, 25 / 3), new["a"].shown, new["b"].shown) == (1000, 1069, 963)
    assert new["a"].provisional


def test_a_bigger_upset_moves_more() -> None:
    strong, weak = Rating(30.0, 3.0, 20), Rating(20.0, 3.0, 20)
    expected = rate([[Entrant("s")], [Entrant("w")]], [0, 1], {"s": strong, "w": weak})
    upset = rate([[Entrant("s")], [Entrant("w")]], [1, 0], {"s": strong, "w": weak})
    assert expected["s"].mu == pytest.approx(30.249900088, abs=1e-9)
    assert upset["w"].mu == pytest.approx(20.990390459, abs=1e-9)
    # the favourite's win moves it 0.25; the outsider's win moves it 0.99
    assert upset["w"].mu - weak.mu > 3.9 * (expected["s"].mu - strong.mu)
    assert upset["s"].mu < strong.mu and not upset["s"].provisional


def test_robots_are_fixed_strength_opponents_dificil_worth_more() -> None:
    vs_easy = rate([[Entrant("a")], [Entrant(None, robot="facil")]], [0, 1], {})
    vs_hard = rate([[Entrant("a")], [Entrant(None, robot="dificil")]], [0, 1], {})
    assert list(vs_easy) == ["a"]  # the robot's own new rating is thrown away
    assert vs_hard["a"].mu > vs_easy["a"].mu > 25.0


def test_a_person_away_at_the_end_gets_half_the_change() -> None:
    full = rate([[Entrant("a")], [Entrant("b")]], [0, 1], {})
    half = rate([[Entrant("a", 0.5)], [Entrant("b")]], [0, 1], {})
    assert half["a"].mu - 25.0 == pytest.approx((full["a"].mu - 25.0) / 2)
    assert half["a"].sigma ** 2 == pytest.approx(((25 / 3) ** 2 + full["a"].sigma ** 2) / 2)
    assert half["b"] == full["b"]


def test_sides_of_two_and_three_people() -> None:
    pairs = rate([[Entrant("a"), Entrant("c")], [Entrant("b"), Entrant("d")]], [0, 1], {})
    assert pairs["a"] == pairs["c"] and pairs["a"].mu > 25.0 > pairs["b"].mu
    teams = rate([[Entrant(k) for k in "ace"], [Entrant(k) for k in "bdf"]], [1, 0], {})
    assert teams["b"].mu > 25.0 > teams["a"].mu and len(teams) == 6


async def _ratings(season: RedisSeason, scope: str, *people: Any) -> list[Rating]:
    return [Rating.parse(t) for t in await season.ratings(scope, [p.key for p in people])]


async def test_a_match_played_through_the_service_rates_both_scopes(redis: Redis) -> None:
    clock = FakeClock()
    svc, store, season = worker(redis, clock)
    gid, _effects = await play_match(svc, store, CHAT, [ANA, BIA])
    _v, game = await game_of(store, gid=gid)
    winner, loser = (ANA, BIA) if game.winner == 0 else (BIA, ANA)
    expected = rate([[Entrant(winner.key)], [Entrant(loser.key)]], [0, 1], {})
    assert await _ratings(season, CHAT.key, winner, loser) == [expected[winner.key],
                                                              expected[loser.key]]
    assert await _ratings(season, PLATFORM, winner, loser) == [expected[winner.key],
                                                              expected[loser.key]]
    facts = MatchFacts.model_validate_json(await season.load_facts(gid) or "")
    assert [(p.key, p.side) for p in facts.people] == [(ANA.key, 0), (BIA.key, 1)]
    # a second match in another group moves the platform rating, not this group's
    await play_match(svc, store, CHAT2, [ANA, BIA])
    assert (await _ratings(season, CHAT.key, winner))[0].n == 1
    assert (await _ratings(season, PLATFORM, winner))[0].n == 2


async def test_a_robot_partner_and_opponents_rate_only_the_people(redis: Redis) -> None:
    svc, store, season = worker(redis, FakeClock())
    gid, _effects = await play_match(svc, store, CHAT, [ANA, BIA], "tranca",
                                     robots=["facil", "dificil"])
    _v, game = await game_of(store, gid=gid)
    facts = MatchFacts.model_validate_json(await season.load_facts(gid) or "")
    # seats Ana, Bia, Robô 3 (facil), Robô 4 (dificil): Ana with the easy robot
    assert [s.robots for s in facts.sides] == [["facil"], ["dificil"]]
    levels = {"facil": 0, "dificil": 1}
    sides = [[Entrant(p.key)] + [Entrant(None, robot=r) for r in facts.sides[p.side].robots]
             for p in facts.people]
    ranks = [0, 1] if game.winner == 0 else [1, 0]
    expected = rate(sides, ranks, {})
    assert levels and await _ratings(season, CHAT.key, ANA, BIA) == [expected[ANA.key],
                                                                     expected[BIA.key]]
    assert await store.client.hkeys(season.keys.rating(CHAT.key)) == [ANA.key, BIA.key]


class Killed(BaseException):
    """A worker killed at this point (not an Exception: nothing catches it)."""


class DyingSeason(RedisSeason):
    """A season store whose worker dies once at ``where``."""

    where = ""

    async def commit_group(self, *args: Any, **kw: Any) -> Any:
        if self.where == "before_group":
            self.where = ""
            raise Killed
        got = await super().commit_group(*args, **kw)
        if self.where == "after_group":
            self.where = ""
            raise Killed
        return got

    async def commit_platform(self, *args: Any, **kw: Any) -> Any:
        got = await super().commit_platform(*args, **kw)
        if self.where == "after_platform":
            self.where = ""
            raise Killed
        return got


@pytest.mark.parametrize("where", ["before_group", "after_group", "after_platform"])
async def test_a_worker_killed_in_the_follow_ups_then_another_counts_once(
        redis: Redis, where: str) -> None:
    clock = FakeClock()
    first_store = redis.store()
    dying = DyingSeason(first_store.client, first_store.keys.prefix)
    dying.where = where
    svc1, store1, _s1 = worker(redis, clock, season=dying)
    with pytest.raises(Killed):
        await play_match(svc1, store1, CHAT, [ANA, BIA])
    svc2, store2, season2 = worker(redis, clock)
    clock.advance(3600)  # the dead worker's deadline comes due on another worker
    await svc2.tick()
    await svc2.tick()
    assert await store2.chat_game(CHAT.key) is None
    assert [r.n for r in await _ratings(season2, CHAT.key, ANA, BIA)] == [1, 1]
    assert [r.n for r in await _ratings(season2, PLATFORM, ANA, BIA)] == [1, 1]
    assert [(row[2]) for row in await store2.ranking(CHAT.key)] == [1, 1]
    rows = await season2.standings(CHAT.key, "all", 10)
    assert sorted((s.key, s.matches) for s in rows) == [(ANA.key, 1), (BIA.key, 1)]
    # one more redo of every follow-up (the sweep, /novojogo in the chat) counts nothing
    from bot import upkeep
    _v, game = await game_of(store2, gid=await store2.get_setting(CHAT.key, "last_game"))
    assert await upkeep.close_out(store2, game, season2) == []
    assert [r.n for r in await _ratings(season2, PLATFORM, ANA, BIA)] == [1, 1]


async def test_ratings_rebuild_from_the_kept_matches_gives_the_same(redis: Redis) -> None:
    clock = FakeClock()
    svc, store, season = worker(redis, clock)
    for chat, people in ((CHAT, [ANA, BIA]), (CHAT, [ANA, CAIO]), (CHAT2, [BIA, DANI])):
        await play_match(svc, store, chat, people)
        clock.advance(600)  # the rebuild replays them in the order they ended
    people = [ANA, BIA, CAIO, DANI]
    before = {scope: await _ratings(season, scope, *people)
              for scope in (CHAT.key, CHAT2.key, PLATFORM)}
    for scope in (CHAT.key, CHAT2.key, PLATFORM):
        await store.client.delete(season.keys.rating(scope))
    assert await rebuild(season) == 3
    after = {scope: await _ratings(season, scope, *people)
             for scope in (CHAT.key, CHAT2.key, PLATFORM)}
    assert after == before
    assert [r.n for r in after[PLATFORM]] == [2, 2, 1, 1]


def test_python_m_bot_ratings_rebuild_says_how_many() -> None:
    """The command line: on the embedded store (no REDIS_URL) nothing is kept yet."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "TELEGRAM_TOKEN", "DISCORD_TOKEN")}
    done = subprocess.run([sys.executable, "-m", "bot", "ratings-rebuild"], capture_output=True,
                          text=True, env={**env, "LANG": "pt_BR.UTF-8"}, timeout=120)
    assert (done.returncode, done.stdout) == (0, "Ratings recalculados de 0 partidas.\n")
