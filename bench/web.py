"""Web table benchmark (issue 27): how fast a save reaches an open web table, and what an
open table costs a worker.

Usage: ``REDIS_URL=redis://127.0.0.1:6379/15 python bench/web.py [--samples N]
[--busy 500] [--idle 2000] [--idle-s 45]``.

Two processes on the real Redis (``REDIS_URL``, default database 15, a key prefix of the
run's own, deleted at the end): one **web worker** (``bench/web.py --worker``: the
store, the service and :class:`adapters.web.server.WebServer` of ``python -m bot``, on
a loopback port, nothing else in its event loop) and this script, which plays the
people: it creates four-player ``buraco_morto`` games through ``Service.press`` on its own
service (another worker, as a chat adapter would), opens WebSocket connections to the web
worker as pages do (``hello`` with a session signed by the run's secret), and presses.

Measured:

* **save to page**: a card toggle (``t``/``u``, a save like any move) pressed by seat 0 of
  a game; the time from just before ``service.press`` to the moment seat 0's page
  receives the ``view`` frame of the new version (save in Redis, ``PUBLISH``, the
  worker's hub reads the game and builds the view, the frame crosses the socket). p50
  and p99 over ``--samples`` presses, with 1 open connection and with ``--busy``
  connections on the worker (four pages for each game, presses spread over the games).
  The press's own time (the service on this side, ``bench/service.py``'s figure) is
  printed apart.
* **memory per connection**: the worker's resident memory (``VmRSS``) with every page of
  ``--idle`` connections open minus before any, divided by the number.
* **idle connections**: ``--idle`` pages stay open ``--idle-s`` seconds (past the
  server's 30 s heartbeat), then one save in every game: every page must get its view.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import aiohttp  # noqa: E402

from adapters.storage.connect import open_store  # noqa: E402
from adapters.storage.redis_store import RedisStore  # noqa: E402
from adapters.web import auth  # noqa: E402
from bench._args import positive_int  # noqa: E402
from bench._presses import find_button  # noqa: E402
from bot import SystemClock  # noqa: E402
from bot.effects import ChatRef, Effect, PlayerRef, View  # noqa: E402
from bot.service import Service  # noqa: E402

SECRET = b"bench-web-secret-" + secrets.token_bytes(8).hex().encode()
PLAYERS = 4
UPDATES = [0]
"""The count of presses made: each press's update key is new (a repeated key is a
redelivery, which changes nothing)."""


# ---- the web worker --------------------------------------------------------------------
async def serve_worker(url: str, prefix: str, secret: bytes) -> None:
    """The web worker: store, service and web server on a free loopback port; prints
    ``READY <port>`` and serves until its standard input closes."""
    from aiohttp import web

    from adapters.web.server import Site, WebServer

    store = await open_store(url, prefix)
    service = Service(store, SystemClock(), ai_pace_s=0.0)
    server = WebServer(secret)
    await server.attach(Site("tg", store, service, None))
    runner = web.AppRunner(server.app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=4096)
    await site.start()
    port = runner.addresses[0][1]
    print(f"READY {port}", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # until the parent closes our stdin
    await server.detach("tg")
    await runner.cleanup()


def rss_kib(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB (``VmRSS``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


# ---- the people --------------------------------------------------------------------------
@dataclass
class Table:
    """One game as its people see it: the chat, the people, the last views of each."""

    chat: ChatRef
    people: list[PlayerRef]
    game_id: str = ""
    table: View | None = None
    hands: dict[int, View] = field(default_factory=dict)

    def absorb(self, effects: list[Effect]) -> None:
        """Keep the latest table and hand views."""
        for eff in effects:
            if eff.kind == "table":
                self.game_id, self.table = eff.game_id, eff.view
            elif eff.kind == "hand":
                self.hands[eff.seat] = eff.view


@dataclass
class Client:
    """One open page: its socket, the highest version it was sent and when it came."""

    ws: Any
    latest: int = 0
    arrived: float = 0.0
    waiters: list[tuple[int, asyncio.Future[float]]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    async def read(self) -> None:
        """Record each ``view`` frame's version and arrival time until the socket ends."""
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            got = json.loads(msg.data)
            if got.get("type") != "view":
                continue
            now, version = time.perf_counter(), int(got["version"])
            if version <= self.latest:
                continue
            self.latest, self.arrived = version, now
            for wanted, waiter in list(self.waiters):
                if version > wanted and not waiter.done():
                    waiter.set_result(now)
            self.waiters = [(v, w) for v, w in self.waiters if not w.done()]

    def above(self, version: int) -> asyncio.Future[float]:
        """A future of the arrival time of the first view newer than ``version``."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.latest > version:
            future.set_result(self.arrived)
        else:
            self.waiters.append((version, future))
        return future


async def open_table(service: Service, n: int) -> Table:
    """Game ``n``: ``/novojogo buraco_morto``, three people press "Entrar", "Iniciar"."""
    people = [PlayerRef(platform="tg", user_id=str(10_000 * (n + 1) + s), name=f"P{s}")
              for s in range(PLAYERS)]
    table = Table(ChatRef(platform="tg", chat_id=str(-1_000_000 - n), title=f"Bench {n}"),
                  people)
    table.absorb(await service.new_game(table.chat, people[0], "buraco_morto"))
    for seat in range(1, PLAYERS):
        data = find_button(table.table, "j", "")
        assert data is not None
        table.absorb(await service.press(people[seat], data))
    data = find_button(table.table, "s", "")
    assert data is not None
    table.absorb(await service.press(people[0], data))
    assert len(table.hands) == PLAYERS, "the game did not start"
    return table


async def connect(http: aiohttp.ClientSession, port: int, table: Table, seat: int) -> Client:
    """Open seat ``seat``'s page of ``table`` and wait for its first view."""
    person = auth.Person("tg", table.people[seat].user_id, table.people[seat].name,
                         table.game_id)
    session = auth.session_token(SECRET, person, "pt", time.time())
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", heartbeat=None,
                               max_msg_size=0)
    client = Client(ws)
    client.task = asyncio.get_running_loop().create_task(client.read())
    await ws.send_str(json.dumps({"type": "hello", "session": session, "version": 0}))
    await asyncio.wait_for(client.above(0), 30)
    return client


async def toggle(service: Service, table: Table, stamp: list[int]) -> tuple[float, float]:
    """Seat 0 toggles its first card (a save). Returns ``(start, pressed)``: perf_counter
    before and after ``service.press``."""
    hand = table.hands[0]
    data = find_button(hand, "u", "0") or find_button(hand, "t", "0")
    assert data is not None, "no card button"
    stamp[0] += 1
    start = time.perf_counter()
    effects = await service.press(table.people[0], data, update=f"bench-web:{stamp[0]}")
    pressed = time.perf_counter()
    table.absorb(effects)
    return start, pressed


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def latency(service: Service, tables: list[Table], pages: dict[str, Client],
                  samples: int) -> tuple[list[float], list[float]]:
    """``samples`` toggles spread over ``tables``: (save-to-page seconds, press seconds)."""
    stamp, lat, press = UPDATES, [], []
    for k in range(samples):
        table = tables[k % len(tables)]
        client = pages[table.game_id]
        shown = client.above(client.latest)
        start, pressed = await toggle(service, table, stamp)
        arrived = await asyncio.wait_for(shown, 10)
        lat.append(arrived - start)
        press.append(pressed - start)
    return lat, press


def ms(values: list[float]) -> str:
    """``p50 x ms, p99 y ms``."""
    return (f"p50 {statistics.median(values) * 1000:.2f} ms, "
            f"p99 {quantile(values, 0.99) * 1000:.2f} ms")


async def run(args: argparse.Namespace) -> int:
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
    prefix = f"bench-web-{secrets.token_hex(6)}"
    worker = subprocess.Popen(
        [sys.executable, __file__, "--worker", "--prefix", prefix],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "REDIS_URL": url, "BENCH_WEB_SECRET": SECRET.decode()})
    assert worker.stdout is not None and worker.stdin is not None
    line = worker.stdout.readline()
    if not line.startswith("READY"):
        raise SystemExit(f"the web worker did not start: {line!r}")
    port = int(line.split()[1])
    store = await open_store(url, prefix)
    service = Service(store, SystemClock(), ai_pace_s=0.0)
    games = max(1, args.idle // PLAYERS)
    connector = aiohttp.TCPConnector(limit=0)
    http = aiohttp.ClientSession(connector=connector)
    clients: list[Client] = []
    try:
        print(f"web worker pid {worker.pid} on port {port}; Redis {url}, prefix {prefix}")
        tables = [await open_table(service, n) for n in range(games)]
        base_rss = rss_kib(worker.pid)

        # 1 open connection
        first = await connect(http, port, tables[0], 0)
        clients.append(first)
        lat, press = await latency(service, tables[:1], {tables[0].game_id: first},
                                   args.samples)
        print(f"save -> page, 1 connection ({args.samples} saves): {ms(lat)}"
              f" (service.press alone: {ms(press)})")

        # --busy connections: four pages a game
        busy_games = tables[: max(1, args.busy // PLAYERS)]
        seat0: dict[str, Client] = {tables[0].game_id: first}
        for table in busy_games:
            for seat in range(PLAYERS):
                if table is tables[0] and seat == 0:
                    continue
                client = await connect(http, port, table, seat)
                clients.append(client)
                if seat == 0:
                    seat0[table.game_id] = client
        lat, press = await latency(service, busy_games, seat0, args.samples)
        print(f"save -> page, {len(clients)} connections ({args.samples} saves over "
              f"{len(busy_games)} games): {ms(lat)} (service.press alone: {ms(press)})")

        # --idle connections, memory and a long idle
        for table in tables[len(busy_games):]:
            for seat in range(PLAYERS):
                clients.append(await connect(http, port, table, seat))
        await asyncio.sleep(2)
        full_rss = rss_kib(worker.pid)
        print(f"memory: worker {base_rss / 1024:.1f} MiB with no page, "
              f"{full_rss / 1024:.1f} MiB with {len(clients)} pages: "
              f"{(full_rss - base_rss) / len(clients):.1f} KiB per connection")
        print(f"{len(clients)} pages idle for {args.idle_s} s ...", flush=True)
        await asyncio.sleep(args.idle_s)
        open_now = sum(1 for c in clients if not c.ws.closed)
        stamp, waits, started = UPDATES, [], time.perf_counter()
        by_game: dict[str, list[Client]] = {}
        for client, table in zip(clients, _owners(tables, busy_games), strict=True):
            by_game.setdefault(table.game_id, []).append(client)
        for table in tables:
            waits += [c.above(c.latest) for c in by_game[table.game_id]]
            await toggle(service, table, stamp)
        done = await asyncio.wait_for(asyncio.gather(*waits), 60)
        print(f"after the idle wait: {open_now}/{len(clients)} connections open; one save "
              f"in each of {len(tables)} games reached all {len(done)} pages in "
              f"{max(done) - started:.2f} s")
        return 0 if open_now == len(clients) == len(done) else 1
    finally:
        for client in clients:
            await client.ws.close()
        await http.close()
        await _forget(store, prefix)
        await store.client.aclose()
        worker.stdin.close()
        worker.wait(timeout=30)


def _owners(tables: list[Table], busy: list[Table]) -> list[Table]:
    """The table of each client, in the order :func:`run` opened them."""
    owners = [tables[0]]
    owners += [t for t in busy for s in range(PLAYERS) if not (t is tables[0] and s == 0)]
    owners += [t for t in tables[len(busy):] for _ in range(PLAYERS)]
    return owners


async def _forget(store: RedisStore, prefix: str) -> None:
    """Delete every key of the run's prefix (and nothing else)."""
    keys = [k async for k in store.client.scan_iter(match=f"{prefix}:*", count=1000)]
    for i in range(0, len(keys), 500):
        await store.client.delete(*keys[i:i + 500])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=positive_int, default=300)
    parser.add_argument("--busy", type=positive_int, default=500)
    parser.add_argument("--idle", type=positive_int, default=2000)
    parser.add_argument("--idle-s", type=float, default=45.0)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
        asyncio.run(serve_worker(url, args.prefix, os.environ["BENCH_WEB_SECRET"].encode()))
        return 0
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
