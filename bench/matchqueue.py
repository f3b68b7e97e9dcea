"""The queue to find players with 10,000 people waiting (issue 35): the Redis bytes each
entry costs and the time of one formation round (one FORM script) while the queue drains.

    REDIS_URL=redis://127.0.0.1:6379/15 .venv/bin/python bench/matchqueue.py [--people 10000]

Fills one queue (``bossa_nova:4``) with ``--people`` entries whose ratings are spread as a
season's are (normal, mean 1000, sd 150), measures ``MEMORY USAGE`` of the queue's keys
per entry, then runs formation rounds (20 tables each at most, as the service does) a
second after they all joined (bands of 55) until one forms nothing, timing each round.
Its keys are under a fresh prefix, deleted at the end. Needs a real Redis.
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
from pathlib import Path

import redis.asyncio as aioredis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from adapters.storage.keys import StoreKeys
from adapters.storage.queue import RedisQueue
from bot import matchmaking
from bot.effects import ChatRef, PlayerRef
from bot.model import new_game_id


async def main(people: int) -> None:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise SystemExit("REDIS_URL is needed (a real Redis)")
    client = aioredis.from_url(url, decode_responses=True)
    prefix = f"bench-queue-{uuid.uuid4().hex[:8]}"
    queue = RedisQueue(client, prefix)
    rng = random.Random(35)
    t0 = time.time()
    try:
        for start in range(0, people, 50):
            await asyncio.gather(*(queue.join(
                f"tg:{n}", "bossa_nova:4", round(rng.gauss(1000, 150)), t0,
                matchmaking.entry(ChatRef(platform="tg", chat_id="-100", title="Grupo"),
                                  PlayerRef(platform="tg", user_id=str(n), name=f"Pessoa {n}"),
                                  0, t0))
                for n in range(start, min(people, start + 50))))
        keys = [k async for k in client.scan_iter(match=StoreKeys(prefix).pattern())]
        used = sum([int(await client.memory_usage(k) or 0) for k in keys])
        print(f"{people} waiting: {used / people:.0f} bytes of Redis per entry "
              f"({used / 1e6:.1f} MB in {len(keys)} keys)")
        times: list[float] = []
        tables = 0
        while True:
            began = time.perf_counter()
            _expired, formed = await queue.form(
                "bossa_nova:4", 4, t0 + 1, matchmaking.QUEUE_TTL_S,
                (matchmaking.BAND_BASE, matchmaking.BAND_PER_S, matchmaking.BAND_MAX),
                [new_game_id() for _ in range(20)])
            times.append(time.perf_counter() - began)
            tables += len(formed)
            if not formed:
                break
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"{len(times)} formation rounds, {tables} tables formed, "
              f"{await queue.waiting('bossa_nova:4')} left waiting; round time median "
              f"{statistics.median(times) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
              f"first {times and max(times) * 1000:.1f} ms at most")
    finally:
        keys = [k async for k in client.scan_iter(match=StoreKeys(prefix).pattern())]
        if keys:
            await client.delete(*keys)
        await client.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=10_000)
    asyncio.run(main(parser.parse_args().people))
