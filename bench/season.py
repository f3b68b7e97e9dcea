"""The season's costs (issue 29): rating one finished match, and ``/ranking`` of a group
with 10,000 finished matches.

Usage: ``python bench/season.py [--matches 10000] [--runs 200]``; with ``REDIS_URL``
set (e.g. ``redis://127.0.0.1:6379/15``) on that Redis, else on the embedded fakeredis.
Keys go under a fresh prefix that is deleted at the end.

1. A four-person bossa_nova match is played to its end by the engine's ``normal`` AI
   (seeded decks), then timed: deriving its facts from the game and its record
   (``facts_of``: the record replayed deal by deal for the clean canastras of aces),
   the openskill update alone (``rated``), the match picture (drawn anew each run, and
   from its cache; the PNG's size), and the whole season follow-up on the store
   (``followup.count``: facts, the group's script, the platform's script, the picture,
   the same chart each run so from the cache), each time under a new game id so every
   run really counts.
2. A group gets ``--matches`` synthetic finished matches among 40 people (counted by the
   same scripts), then ``/ranking`` (all time and this week) and ``/ranking geral`` are
   timed through the service: each reads 10 members of a sorted set, never the matches.
3. The profile's picture of one of them (their rating trend and variants): drawn anew
   and from its cache, its PNG's size, and ``/perfil`` through the service.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from adapters.storage.connect import open_store  # noqa: E402
from adapters.storage.keys import StoreKeys  # noqa: E402
from adapters.storage.season import RedisSeason  # noqa: E402
from bot import robot  # noqa: E402
from bot.effects import ChatRef, PlayerRef  # noqa: E402
from bot.model import Game, Seat  # noqa: E402
from bot.season import followup  # noqa: E402
from bot.season.facts import MatchFacts, Person, SideFacts, facts_of  # noqa: E402
from bot.service import Service  # noqa: E402
from engine.cards import full_deck  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.rules import make_rules  # noqa: E402

CHAT = ChatRef(platform="tg", chat_id="-1", title="bench")
T0 = 1_800_000_000.0


class Clock:
    """A fixed clock (the week of the synthetic matches)."""

    def now(self) -> float:
        return T0 + 86_400


def finished_game(seed: int = 3) -> tuple[Game, dict[str, Any]]:
    """A four-person bossa_nova match played to its end by ``normal``, and its record."""
    rules = make_rules("bossa_nova", {})
    names = ["Ana", "Bia", "Caio", "Dani"]
    match = Match.new(rules, names)
    rng = random.Random(seed)
    chooser = robot.engine_chooser()
    while not match.over:
        deck = full_deck(rules.jokers)
        rng.shuffle(deck)
        match.start_deal(deck)
        while not match.deal_state.over:
            state = match.deal_state
            match.act(robot.ai_move(state, state.turn, "normal", chooser))
    people = [PlayerRef(platform="tg", user_id=str(i), name=n) for i, n in enumerate(names)]
    game = Game(id="bench001", chat=CHAT, creator=people[0], preset="bossa_nova",
                status="over", seats=[Seat(player=p) for p in people], created=T0,
                touched=T0, deal_end_at=T0, match=match.to_json(), winner=match.winner)
    return game, match.record()


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


async def amedian_ms(fn: Callable[[int], Awaitable[Any]], runs: int) -> float:
    times = []
    for i in range(runs):
        start = time.perf_counter()
        await fn(i)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


VARIANTS = ("bossa_nova", "tranca", "buraco", "buraco_morto")
"""The synthetic matches' variants, in turn (the profiles' bars)."""


def synthetic(i: int, rng: random.Random) -> MatchFacts:
    """Match ``i`` of the group: two pairs of the group's 40 people, random totals, the
    variants of :data:`VARIANTS` in turn."""
    who = rng.sample(range(40), 4)
    totals = [rng.randrange(-500, 3000), rng.randrange(-500, 3000)]
    winner = 0 if totals[0] >= totals[1] else 1
    return MatchFacts(
        game_id=f"m{i}", chat=CHAT.key, ended_at=T0 + i, variant=VARIANTS[i % 4], winner=winner,
        people=[Person(key=f"tg:{w}", name=f"P{w}", seat=s, side=s % 2)
                for s, w in enumerate(who)],
        sides=[SideFacts(total=t, rank=0 if s == winner else 1) for s, t in enumerate(totals)])


async def profile_costs(season: RedisSeason, svc: Service, user: PlayerRef) -> None:
    """The profile's picture (issue 29) of ``user`` after the group's matches: drawn anew
    and from its cache, its PNG's size, and ``/perfil`` through the service."""
    from bot.i18n import Translator
    from bot.season import picture, profile_picture

    fields, trend = await season.profile(CHAT.key, user.key)
    chart = profile_picture.chart_of(user.name, fields, trend, Translator("pt"))
    assert chart is not None

    def fresh() -> bytes:
        picture._cache.clear()  # drawn anew each run, not from the cache
        return profile_picture.draw(chart)

    print(f"profile picture ({len(chart.trend)} ratings, {len(chart.labels)} variant(s), "
          f"PNG {len(fresh()):,} bytes): {median_ms(fresh, 20):.1f} ms to draw, "
          f"{median_ms(lambda: profile_picture.draw(chart), 200):.3f} ms from the cache")
    ms = await amedian_ms(lambda _i: svc.profile(CHAT, user), 50)
    print(f"/perfil through the service (reads, the picture from its cache): {ms:.2f} ms")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL") or None
    prefix = f"bench-season-{uuid.uuid4().hex[:8]}"
    store = await open_store(url, prefix)
    season = RedisSeason.beside(store)
    try:
        print(f"store: {'Redis at REDIS_URL' if url else 'embedded fakeredis'}")
        game, record = finished_game()
        facts = facts_of(game, record)
        assert facts is not None
        print(f"match: bossa_nova, 4 people, {len(facts.deals)} deals, "
              f"{sum(len(d.get('actions', [])) for d in record.get('deals', [record]))} actions")
        print(f"facts_of (record replayed deal by deal): "
              f"{median_ms(lambda: facts_of(game, record), 20):.2f} ms")
        print(f"rated (openskill, 2 sides of 2): "
              f"{median_ms(lambda: followup.rated(facts, {}), 1000):.3f} ms")

        from bot.i18n import Translator
        from bot.season import picture

        chart = picture.chart_of(game, facts, Translator("pt"))

        def fresh_picture() -> bytes:
            picture._cache.clear()  # drawn anew each run, not from the cache
            return picture.draw(chart)

        fresh_picture()  # matplotlib's first import and font cache, not timed
        print(f"match picture ({len(facts.deals)} deals, PNG {len(fresh_picture()):,} bytes): "
              f"{median_ms(fresh_picture, 20):.1f} ms to draw, "
              f"{median_ms(lambda: picture.draw(chart), 200):.3f} ms from the cache")

        async def count(i: int) -> None:
            await followup.count(season, game.model_copy(update={"id": f"g{i}"}), record)

        print(f"followup.count (facts + group + platform scripts + cached picture): "
              f"{await amedian_ms(count, args.runs):.2f} ms")
        rng = random.Random(1)
        start = time.perf_counter()
        for i in range(args.matches):
            await followup.count_group(season, synthetic(i, rng))
        took = time.perf_counter() - start
        print(f"counted {args.matches} matches in the group: {took:.1f} s "
              f"({1000 * took / args.matches:.2f} ms each)")
        svc = Service(store, Clock(), season=season, threaded=False)
        user = PlayerRef(platform="tg", user_id="0", name="P0")
        for word in ("sempre", "semana", "geral"):
            got = await svc.ranking(CHAT, user, word)
            lines = got[0].text.count("\n")  # type: ignore[union-attr]
            ms = await amedian_ms(lambda _i, w=word: svc.ranking(CHAT, user, w), args.runs)
            print(f"/ranking {word}: {ms:.2f} ms ({lines} rows)")
        await profile_costs(season, svc, user)
    finally:
        keys = [k async for k in store.client.scan_iter(match=StoreKeys(prefix).pattern())]
        for i in range(0, len(keys), 500):
            await store.client.delete(*keys[i:i + 500])
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
