"""Robot turns at a table shown on Telegram and Discord (issue 35): how long each robot
turn takes when a Telegram process and a Discord process share the timers, against the
code before the change (a process handed back every game whose *own* chat was of the
other platform, due again a second later), in one run.

    .venv/bin/python bench/crossplatform.py [--turns 40] [--pace 1.0]

A Telegram group's table (Ana) with a Discord person (Zé, away: a robot plays his seat)
and two robots, on one in-memory store; two "processes" (two services, platforms
``{"tg"}`` and ``{"dc"}``) each claim due games every 0.5 s, a quarter second apart, as
two tick loops do (adapters/delivery/ticks.py), or, as ``python -m bot serve`` now runs
them, both stepping the games of both platforms; Ana plays her turns at once by buttons.
A robot turn is timed from the move that gave it the turn to its own move; the ideal is
the robots' pace (``AI_PACE_S``) plus up to one tick. ``before`` puts back the old test
(:func:`bot.ticking.shown_on` as ``game.chat.platform in platforms``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bot import play, robot, ticking
from bot.effects import ChatRef, PlayerRef, pack
from bot.memstore import MemoryStore
from bot.model import Game, decode
from bot.service import Service

TG = ChatRef(platform="tg", chat_id="-100", title="Grupo")
DC = ChatRef(platform="dc", chat_id="900", title="#mesa")
ANA = PlayerRef(platform="tg", user_id="1", name="Ana")
ZE = PlayerRef(platform="dc", user_id="77", name="Zé")
BIA = PlayerRef(platform="tg", user_id="2", name="Bia")
TICK_S = 0.5


class Clock:
    def now(self) -> float:
        return time.time()


async def load(store: MemoryStore, gid: str) -> Game:
    got = await store.load_game(gid)
    assert got is not None
    return decode(got[1], gid)


async def table(store: MemoryStore, pace: float,
                both: bool) -> tuple[Service, Service, str]:
    """The table, started, and the two processes' services: with ``both``, Zé joined
    from a Discord channel by code; else Bia from the same Telegram group."""
    tg = Service(store, Clock(), ai_pace_s=pace, chooser=None, threaded=False)
    dc = Service(store, Clock(), ai_pace_s=pace, chooser=None, threaded=False)
    await tg.new_game(TG, ANA, "buraco")
    if both:
        code = (await tg.invite(TG, ANA))[0].text.split(": ", 1)[1].split("\n", 1)[0]
        await dc.join_code(DC, ZE, code)
    else:
        await tg.join(TG, BIA)
    await tg.add_ai(TG, ANA, "")
    await tg.add_ai(TG, ANA, "")
    await tg.start(TG, ANA)
    gid = str(await store.chat_game(TG.key))
    if both:  # away: a robot plays the seat (Ana is not: no pause)
        await dc.leave(DC, ZE)
    else:
        await tg.leave(TG, BIA)
    return tg, dc, gid


async def process(svc: Service, platforms: frozenset[str], offset: float,
                  stop: asyncio.Event, rng: random.Random) -> None:
    """A tick loop: claim due games every :data:`TICK_S` (give or take 10%, as a real
    loop's rounds vary) and step each."""
    await asyncio.sleep(offset)
    while not stop.is_set():
        for gid in await svc.due(limit=5):
            await svc.tick_game(gid, platforms=platforms)
        await asyncio.sleep(TICK_S * rng.uniform(0.9, 1.1))


async def ana_plays(svc: Service, store: MemoryStore, gid: str, stop: asyncio.Event) -> None:
    """Ana's turns, at once, by buttons (the safe move)."""
    while not stop.is_set():
        game = await load(store, gid)
        seat = game.seat_of(ANA)
        if game.status == "playing" and play.deal_of(game).turn == seat:
            assert seat is not None
            action = robot.fallback_move(play.deal_of(game), seat)
            ver = game.seats[seat].ver
            if action.do == "draw":
                await svc.press(ANA, pack(gid, ver, "c"))
            else:
                i = play.view_of(game, seat).hand.index(action.card)
                await svc.press(ANA, pack(gid, ver, "t", i))
                await svc.press(ANA, pack(gid, ver, "d" if action.do == "discard" else "3"))
        await asyncio.sleep(0.01)  # the in-memory store never waits: let the others run


async def timed(turns: int, pace: float, limit_s: float, both: bool = True,
                serve: bool = False, alone: bool = False) -> list[float]:
    """Seconds each robot turn took, ``turns`` of them (fewer when ``limit_s`` passes
    first: the last one counted as far as it got)."""
    store = MemoryStore(Clock())
    tg, dc, gid = await table(store, pace, both)
    stop = asyncio.Event()
    rng = random.Random(35)
    every = frozenset({"tg", "dc"}) if serve else None  # one process, both loops
    tasks = [asyncio.create_task(process(tg, every or frozenset({"tg"}), 0.0, stop, rng)),
             asyncio.create_task(ana_plays(tg, store, gid, stop))]
    if not alone:
        tasks.append(asyncio.create_task(process(dc, every or frozenset({"dc"}), TICK_S / 2,
                                                 stop, rng)))
    took: list[float] = []
    last = (-1, -1)
    since = start = time.monotonic()
    while len(took) < turns:
        if time.monotonic() - start > limit_s:
            took.append(time.monotonic() - since)
            break
        game = await load(store, gid)
        if game.status != "playing":
            break
        deal = play.deal_of(game)
        now = (len(game.deals), deal.turn)
        if now != last:
            if last[1] >= 0 and game.seats[last[1]].robot_plays:
                took.append(time.monotonic() - since)
            last, since = now, time.monotonic()
        await asyncio.sleep(0.005)
    stop.set()
    await asyncio.gather(*tasks)
    return took


async def main(turns: int, pace: float) -> None:
    new = ticking.shown_on

    def old(game: Game, platforms: frozenset[str]) -> bool:
        return game.chat.platform in platforms

    modes = [("table on both platforms, two processes: before", old, True, False, False),
             ("table on both platforms, two processes: after", new, True, False, False),
             ("Telegram-only table, two processes (handed back, as before)", new, False,
              False, False),
             ("Telegram-only table, one process serving both: after", new, False, True,
              False),
             ("Telegram-only table, Telegram process alone (the ideal)", new, False, False,
              True)]
    for name, test, both, serve, alone in modes:
        ticking.shown_on = test
        took = await timed(turns, pace, limit_s=turns * 6 * pace, both=both, serve=serve,
                           alone=alone)
        took.sort()
        print(f"{name}: {len(took)} robot turns, median {statistics.median(took):.2f} s, "
              f"mean {statistics.fmean(took):.2f} s, max {took[-1]:.2f} s")
    print(f"(pace {pace} s, ticks every {TICK_S} s)")
    ticking.shown_on = new


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--pace", type=float, default=1.0)
    args = parser.parse_args()
    asyncio.run(main(args.turns, args.pace))
