"""Concurrency benchmark (issue 36): one worker, N games pressed at once, through the
adapters' ordering layer, the service and a real Redis behind a delaying proxy; the code
before and after the change measured in one run.

    .venv/bin/python bench/concurrency.py [--before PATH] [--games 100] \\
        [--delays-ms 0,0.5,2] [--seconds 5] [--rounds 2]

``--before`` is a checkout of the code before the change; without it a temporary ``git
worktree`` of :data:`BEFORE` (main before issue 36's first commit) is made and removed.

For each delay (0, 0.5 and 2 ms per command: a network round trip,
:mod:`bench._proxy` in a process of its own in front of ``REDIS_URL``, default database
15 of the local Redis) and each code tree (``--before``, then this one, ``--after``),
a fresh worker process (``--child``) imports that tree's ``adapters`` and ``bot``, starts
as that tree's ``python -m bot`` worker does (``adapters.ops.runtime.tune``, the garbage
collector's settings, where the tree has it), opens the store as the bot does
(:class:`bot.settings.Settings`, ``RedisTarget.of``: the ``REDIS_*`` settings, the URL
pointed at the proxy) and plays ``--games`` four-player
games (Buraco com morto and Tranca in turn), every game's people pressing one button
after another and all games at once, for ``--seconds``; ``--rounds`` times per delay
and tree, before and after alternating (the run of median actions/s is shown). Each
press goes as a chat adapter sends it: the service call and the staging of its views on
the delivery's coalescers (a no-op platform) inside the tree's ordering layer: the
process-wide ``Delivery.lock`` before, the game's line of ``Delivery.order`` after;
then the rest is delivered. A third run per round, ``1 line``, is the code after with
every call in one line of the order (the old lock's order on today's code), so that
after / 1 line is the ordering's own gain, apart from whatever else changed between
the two trees. The people play from their hand views only (draw from the
stock, discard the first card that is accepted, lay down red threes, start the next
deal), so no untimed engine work competes with the presses; each view's buttons are read
once, and the CPU time of that looking is shown apart (``people``, ms per press: it is
inside the worker's CPU figure, as a person's eyes are not).

Printed per delay and tree: action presses per second (draws, discards, threes) over
the whole worker, the p50 / p99 of an action press as the person waits for it
(queueing included), the worker's CPU time per press and its CPU use (% of one core:
near 100 the worker is CPU-bound, well below it on an idle machine it waits on Redis;
on a machine shared with other jobs, a worker that gets only a share of a core shows
that share here, and the ratio below shrinks towards 1), the median of 50 PINGs
through the proxy before the games start (``RTT``: the round trip as the machine's
load made it, the delay included); then the after/before ratio of
actions/s (issue 36's target: at least 3x at 0.5 ms with 100 games). The engine each
tree ran is shown (``compiled``: its ``.native`` build; a tree without one runs pure
Python, ``BURACO_NATIVE=0`` forces it): compare trees that run the same kind. The keys
of each run use a prefix of their own and are deleted at the end.

On a machine shared with other jobs, run it at a high priority (as root, ``nice -n -10``
before the command: the proxy and the workers inherit it), so that the others' load does
not decide the figures. ``BENCH_PROFILE=<file>`` makes each worker write a cProfile of
its measured seconds to that file (the last worker's stays).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# ``python bench/concurrency.py`` puts bench/ first on sys.path, where bench/engine.py
# would shadow the engine package: the code tree measured goes first instead (child).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
DEFAULT_URL = "redis://127.0.0.1:6379/15"
BEFORE = "601ac0b35374ba1dec1f638a09349b3d9cdec84c"
"""main's last commit before issue 36's ordering (one lock per worker)."""
PRESETS = ("buraco_morto", "tranca")
ONE_LINE = "bench:every game"
"""The line every call takes in the ``1 line`` runs: the code after, ordered as before."""
ACTIONS = ("c", "d", "3")


class NullPlatform:
    """A chat platform that renders and sends nothing (every message id is ``m``)."""

    name = "bench"
    web: Any = None
    hand_replaced_when_gone = True  # as Telegram's (adapters/delivery/platform.py)

    async def table(self, effect: Any) -> Any:
        return effect.view

    def hand(self, effect: Any) -> Any:
        return effect.view

    def text(self, text: str) -> Any:
        return text

    async def post(self, chat: Any, message: Any) -> str | None:
        return "m"

    async def edit(self, chat: Any, ref: str, message: Any) -> None:
        return None

    async def strip(self, ref: str, message: Any) -> None:
        return None

    def carries_hand(self, origin: Any, player: Any) -> bool:
        return False

    async def answer_hand(self, origin: Any, player: Any, message: Any) -> str | None:
        return "m"

    async def send_private(self, player: Any, message: Any, origin: Any = None) -> str | None:
        return "m"

    async def edit_private(self, player: Any, ref: str, message: Any) -> None:
        return None

    async def strip_private(self, user_id: str, ref: str) -> None:
        return None

    async def ping(self, effect: Any) -> str | None:
        return "m"

    async def delete_private(self, user_id: str, ref: str) -> None:
        return None

    async def send_file(self, chat: Any, filename: str, content: str) -> bool:
        return True

    async def send_picture(self, chat: Any, filename: str, content: bytes,
                           caption: str) -> bool:
        return True

    async def show_replay(self, effect: Any, origin: Any) -> None:
        return None

    async def answer(self, effect: Any, origin: Any) -> None:
        return None

    async def refused_notice(self, chat: Any, game_id: str, player: Any) -> None:
        return None


@dataclass
class Game:
    """One table as its people see it: the last table and hand views."""

    chat: Any
    preset: str
    people: list[Any]
    game_id: str = ""
    table: Any = None
    hands: dict[int, Any] = field(default_factory=dict)


@dataclass
class Worker:
    """The worker under test: its service, delivery and ordering layer, and the figures."""

    service: Any
    delivery: Any
    unpack: Any
    waits: list[float] = field(default_factory=list)
    actions: int = 0
    presses: int = 0
    updates: int = 0
    measuring: bool = False
    people_cpu: float = 0.0
    _index: dict[int, tuple[Any, dict[tuple[str, str | None], str]]] = field(
        default_factory=dict)

    def button(self, view: Any, code: str, arg: str | None = None) -> str | None:
        """The data of ``view``'s button with ``code`` (and ``arg``), else None. Each
        view's buttons are read once (views are immutable); the CPU time of the people's
        looking is counted apart (:attr:`people_cpu`)."""
        looked = time.process_time()
        try:
            return self._button(view, code, arg)
        finally:
            self.people_cpu += time.process_time() - looked

    def _button(self, view: Any, code: str, arg: str | None) -> str | None:
        if view is None:
            return None
        known = self._index.get(id(view))
        if known is None or known[0] is not view:
            found: dict[tuple[str, str | None], str] = {}
            for row in view.buttons:
                for b in row:
                    parts = self.unpack(b.data)
                    if parts is not None:
                        found.setdefault((parts[2], parts[3]), str(b.data))
                        found.setdefault((parts[2], None), str(b.data))
            if len(self._index) > 4096:
                self._index.clear()
            known = self._index[id(view)] = (view, found)
        return known[1].get((code, arg))

    async def press(self, game: Game, seat: int, data: str) -> bool:
        """One press as an adapter makes it; True unless it was refused."""
        self.updates += 1
        began = time.perf_counter()
        user = game.people[seat]
        key = f"bench:{self.updates}"
        order = getattr(self.delivery, "order", None)
        if order is not None:  # after: the game's line (or one line for every game)
            from adapters.delivery.order import game_key

            line = ONE_LINE if os.environ.get("BENCH_ONE_LINE") else game_key(game.game_id)
            async with order.ticket(line):
                effects = list(await self.service.press(user, data, update=key))
                staged = self.delivery.stage(effects)
        else:  # before: one lock for every call of the worker
            async with self.delivery.lock:
                effects = list(await self.service.press(user, data, update=key))
                staged = self.delivery.stage(effects)
        waited = time.perf_counter() - began
        rest = staged.rest if hasattr(staged, "rest") else staged
        await self.delivery.deliver(rest)
        looked = time.process_time()
        changed = absorb(game, effects)
        self.people_cpu += time.process_time() - looked
        if self.measuring:
            self.presses += 1
            if changed and self.unpack(data)[2] in ACTIONS:
                self.actions += 1
                self.waits.append(waited)
        return not any(e.kind == "reply" for e in effects)


def absorb(game: Game, effects: list[Any]) -> bool:
    """Keep the latest views; whether a table view came (the game changed)."""
    changed = False
    for e in effects:
        if e.kind == "table":
            game.game_id, game.table, changed = e.game_id, e.view, True
        elif e.kind == "hand":
            game.hands[e.seat] = e.view
    return changed


async def open_game(w: Worker, game: Game) -> None:
    """``/novojogo``, three "Entrar", "Iniciar"."""
    game.hands.clear()
    absorb(game, list(await w.service.new_game(game.chat, game.people[0], game.preset)))
    for seat in (1, 2, 3):
        data = w.button(game.table, "j", "")
        assert data is not None
        absorb(game, list(await w.service.press(game.people[seat], data)))
    data = w.button(game.table, "s", "")
    assert data is not None
    absorb(game, list(await w.service.press(game.people[0], data)))


async def play_turn(w: Worker, game: Game) -> None:
    """One turn of the seat to act: draw from the stock, lay down red threes, discard the
    first card accepted; or start the next deal; or open a new match."""
    if game.table is not None and not game.table.buttons:
        await open_game(w, game)
        return
    deal = w.button(game.table, "n")
    if deal is not None:
        await w.press(game, 0, deal)
        return
    seat = next((s for s, h in game.hands.items() if w.button(h, "c") is not None), None)
    if seat is None:
        seat = next(s for s, h in game.hands.items() if w.button(h, "d") is not None)
    else:
        await w.press(game, seat, str(w.button(game.hands[seat], "c")))
    while (three := w.button(game.hands[seat], "3")) is not None:
        if not await w.press(game, seat, three):
            break
    for index in range(len(game.hands[seat].cards)):
        toggle = w.button(game.hands[seat], "t", str(index))
        if toggle is None or not await w.press(game, seat, toggle):
            continue
        discard = w.button(game.hands[seat], "d")
        if discard is not None and await w.press(game, seat, discard):
            return
        clear = w.button(game.hands[seat], "z")
        if clear is not None:
            await w.press(game, seat, clear)
    raise RuntimeError(f"game {game.game_id}: no card could be discarded")


async def child(args: argparse.Namespace) -> dict[str, float]:
    """One worker on one code tree: open the games, play them all at once, measure."""
    sys.path.insert(0, str(Path(args.root).resolve()))
    if not wants_hiredis(Path(args.root)):  # as that tree installs: redis-py's own parser
        sys.modules["hiredis"] = None  # type: ignore[assignment]
    import engine
    from adapters.delivery.coalesce import EditCoalescer
    from adapters.delivery.outbox import Delivery
    from adapters.delivery.refs import GameRefs
    from adapters.storage.connect import RedisTarget, open_store
    from bot.effects import ChatRef, PlayerRef, unpack
    from bot.service import Service
    from bot.settings import Settings

    with contextlib.suppress(ImportError):  # the tree's worker start-up (issue 36)
        from adapters.ops import runtime

        runtime.tune()
    settings = Settings(redis_url=args.url)
    prefix = f"bench-conc-{secrets.token_hex(4)}"
    store = await open_store(settings.redis_url, prefix, RedisTarget.of(settings))

    class Clock:
        def now(self) -> float:
            return 1_900_000_000.0 + time.monotonic()

    service = Service(store, Clock(), ai_pace_s=0, threaded=False)
    delivery = Delivery(NullPlatform(), GameRefs(store.client, prefix, platform="bench"),
                        EditCoalescer(gap_s=3.0, per_minute=20),
                        EditCoalescer(gap_s=1.0, per_minute=60))
    w = Worker(service, delivery, unpack)
    games = [Game(ChatRef(platform="bench", chat_id=f"c{k}", title=f"Mesa {k}"),
                  PRESETS[k % 2], [PlayerRef(platform="bench", user_id=f"{k}-{s}",
                                             name=f"P{k}.{s}") for s in range(4)])
             for k in range(args.games)]
    try:
        rtts = []
        for _ in range(50):  # the round trip as it is now (a loaded machine lengthens it)
            sent = time.perf_counter()
            await store.client.ping()
            rtts.append(time.perf_counter() - sent)
        await asyncio.gather(*(open_game(w, g) for g in games))
        stop = time.monotonic() + args.seconds

        async def play(game: Game) -> None:
            while time.monotonic() < stop:
                await play_turn(w, game)

        profile = None
        if os.environ.get("BENCH_PROFILE"):
            import cProfile

            profile = cProfile.Profile()
            profile.enable()
        trips: list[float] = []
        with contextlib.suppress(ImportError):  # the tree's round trips, as observed
            from adapters.storage import observe

            class Trips:
                def roundtrip(self, node: str, seconds: float) -> None:
                    trips.append(seconds)

                def failed(self, node: str, error: BaseException) -> None:
                    pass

            observe.LISTENERS.append(Trips())
        w.measuring, w.people_cpu = True, 0.0
        began, cpu = time.monotonic(), time.process_time()
        await asyncio.gather(*(play(g) for g in games))
        wall, cpu = time.monotonic() - began, time.process_time() - cpu
        w.measuring, people = False, w.people_cpu
        counted, trips = len(trips), sorted(trips) or [0.0]
        if profile is not None:
            profile.disable()
            profile.dump_stats(os.environ["BENCH_PROFILE"])
    finally:
        with contextlib.suppress(Exception):  # the edits still queued write their refs
            await asyncio.wait_for(delivery.flush(), 15)  # before the keys are deleted
        keys = [k async for k in store.client.scan_iter(match=f"{prefix}*", count=1000)]
        for start in range(0, len(keys), 500):
            await store.client.delete(*keys[start:start + 500])
        await store.close()
    waits = sorted(w.waits) or [0.0]
    return {"actions_s": w.actions / wall, "presses_s": w.presses / wall,
            "cpu_ms": cpu * 1000 / max(w.presses, 1), "cpu_pct": cpu * 100 / wall,
            "people_ms": people * 1000 / max(w.presses, 1),
            "rtt_ms": sorted(rtts)[len(rtts) // 2] * 1000,
            "trip_ms": trips[len(trips) // 2] * 1000,
            "trips": counted / max(w.presses, 1),
            "native": float(engine.NATIVE),
            "p50_ms": waits[len(waits) // 2] * 1000,
            "p99_ms": waits[min(len(waits) - 1, int(len(waits) * 0.99))] * 1000}


def wants_hiredis(root: Path) -> bool:
    """Whether the tree at ``root`` lists ``hiredis`` among its dependencies
    (``pyproject.toml``): a tree that does not is run without it, as its own install
    would be, even when the shared environment has it (redis-py parses replies in C
    when it can import ``hiredis``; the code before issue 36 did not ask for it)."""
    try:
        text = (root / "pyproject.toml").read_text()
    except OSError:
        return False
    return '"hiredis' in text


def proxy(delay_ms: float, to: str) -> tuple[subprocess.Popen[str], int]:
    """A delaying proxy process in front of ``to`` (host:port), and its port."""
    proc = subprocess.Popen([sys.executable, str(HERE / "_proxy.py"), "--to", to,
                             "--delay-ms", str(delay_ms)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline().split()
    if line[:1] != ["ready"]:
        proc.kill()
        raise SystemExit(f"the proxy did not start: {line}")
    return proc, int(line[1])


def measure(root: str, url: str, args: argparse.Namespace,
            one_line: bool = False) -> dict[str, float]:
    """Run one worker process on code tree ``root`` against ``url`` (``one_line``: every
    call in one line of the order, as the process-wide lock did)."""
    env = dict(os.environ, BENCH_ONE_LINE="1" if one_line else "")
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "--root",
                          root, "--url", url, "--games", str(args.games), "--seconds",
                          str(args.seconds)], capture_output=True, text=True, check=False,
                         cwd=root, env=env)
    if out.returncode != 0:
        raise SystemExit(f"worker on {root} failed:\n{out.stderr[-3000:]}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def median_run(runs: list[dict[str, float]]) -> dict[str, float]:
    """The run of median actions/s among ``runs`` (the lower middle one of an even
    count)."""
    ordered = sorted(runs, key=lambda fig: fig["actions_s"])
    return ordered[(len(ordered) - 1) // 2]


def main() -> None:
    """Parse the options; as the driver, start the proxies and the workers and print."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", help="checkout of the code before the change "
                        "(default: a temporary worktree of BEFORE)")
    parser.add_argument("--after", default=str(ROOT), help="code tree after (this one)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--delays-ms", default="0,0.5,2")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2,
                        help="runs per delay and tree, alternating (the median is shown)")
    parser.add_argument("--no-one-line", action="store_true",
                        help="skip the '1 line' runs (before and after only)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--root", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(child(args))))
        return
    if args.before:
        drive(args, args.before)
        return
    with tempfile.TemporaryDirectory(prefix="buraco-before-") as tmp:
        tree = str(Path(tmp) / "tree")
        git = ["git", "-C", str(ROOT)]
        made = subprocess.run([*git, "worktree", "add", "--detach", tree, BEFORE],
                              capture_output=True, text=True, check=False)
        if made.returncode != 0:
            raise SystemExit(f"no worktree of {BEFORE[:10]} (pass --before): "
                             f"{made.stderr.strip()}")
        try:
            drive(args, tree)
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", tree],
                           capture_output=True, check=False)


def drive(args: argparse.Namespace, before: str) -> None:
    """Measure every delay on ``before`` and ``args.after``, and print."""
    base = os.environ.get("REDIS_URL") or DEFAULT_URL
    head, _, rest = base.partition("://")
    hostport, _, db = rest.partition("/")
    creds, _, server = hostport.rpartition("@")
    login = f"{creds}@" if creds else ""
    trees = (("before", before, False), ("after", args.after, False),
             ("1 line", args.after, True))[:2 if args.no_one_line else 3]
    print(f"before {before}: hiredis {'yes' if wants_hiredis(Path(before)) else 'no'}; "
          f"after {args.after}: hiredis {'yes' if wants_hiredis(Path(args.after)) else 'no'}")
    print(f"{args.games} games at once on one worker, {args.seconds:g} s a run, median of "
          f"{args.rounds} runs alternating, Redis {base}; load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'delay':>6} {'code':<7} {'actions/s':>10} {'presses/s':>10} {'p50 ms':>8} "
          f"{'p99 ms':>8} {'CPU ms/press':>13} {'people':>7} {'CPU %':>6} {'RTT ms':>7} "
          f"{'trip ms':>7} {'trips':>5} engine")
    for delay in (float(d) for d in args.delays_ms.split(",")):
        proc, port = proxy(delay, server)
        runs: dict[str, list[dict[str, float]]] = {name: [] for name, _r, _o in trees}
        try:
            for _round in range(args.rounds):
                for name, root, one_line in trees:
                    runs[name].append(measure(root, f"{head}://{login}127.0.0.1:{port}/{db}",
                                              args, one_line))
        finally:
            proc.kill()
        got = {name: median_run(found) for name, found in runs.items()}
        for name, fig in got.items():
            print(f"{delay:>6g} {name:<7} {fig['actions_s']:>10.0f} {fig['presses_s']:>10.0f} "
                  f"{fig['p50_ms']:>8.1f} {fig['p99_ms']:>8.1f} {fig['cpu_ms']:>13.2f} "
                  f"{fig['people_ms']:>7.2f} {fig['cpu_pct']:>6.0f} {fig['rtt_ms']:>7.2f} "
                  f"{fig.get('trip_ms', 0):>7.2f} {fig.get('trips', 0):>5.1f} "
                  f"{'compiled' if fig['native'] else 'Python'}")
        if len({fig["native"] for fig in got.values()}) > 1:
            print(f"{delay:>6g} the trees ran different engines (compiled and pure Python): "
                  "not comparable; BURACO_NATIVE=0 runs both as pure Python")
        ratio = got["after"]["actions_s"] / max(got["before"]["actions_s"], 1e-9)
        cpu = got["before"]["cpu_ms"] / max(got["after"]["cpu_ms"], 1e-9)
        line = (f"{delay:>6g} after/before actions/s: {ratio:.2f}x; CPU per press "
                f"before/after: {cpu:.2f}x")
        if "1 line" in got:
            alone = got["after"]["actions_s"] / max(got["1 line"]["actions_s"], 1e-9)
            line += f"; after/1 line (the ordering alone): {alone:.1f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
