"""The cost of a ``/replay`` step (issue 29 "Spectators").

Usage: ``python bench/replay.py [--runs 200]`` (no Redis: the steps read the record
only; the service's store is the embedded one).

A four-person bossa_nova match is played to its end by the engine's ``normal`` AI
(seeded decks, the match of ``bench/season.py``). Then timed:

1. Reading the record (``replay.read``: JSON, cards and actions parsed), and replaying
   the whole match from its start (``engine.record.replay``): what a step would cost if
   each press replayed everything.
2. A step of the longest deal through ``replay.step_view``: the first press of a deal
   (its positions every 16 moves made), a press of a deal already kept (the worst step:
   15 moves past a kept position), and a deal's start.
3. A press through the service (``Service.press``: the chat's settings, the record read
   from the store, the step drawn in a worker thread).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from bench.season import CHAT, Clock, amedian_ms, finished_game, median_ms  # noqa: E402
from bot import replay  # noqa: E402
from bot.effects import PlayerRef  # noqa: E402
from bot.memstore import MemoryStore  # noqa: E402
from bot.service import Service  # noqa: E402
from engine.record import replay as replay_record  # noqa: E402


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    import engine

    print(f"engine: {'compiled' if engine.NATIVE else 'pure Python'}")
    _game, record = finished_game()
    text = json.dumps(record)
    gid = "bench001"
    tape = replay.read(text)
    moves = [tape.moves(d) for d in range(len(tape.deals))]
    longest = max(range(len(moves)), key=lambda d: moves[d])
    print(f"match: bossa_nova, 4 people, {len(moves)} deals, {sum(moves)} moves "
          f"(longest deal {moves[longest]}), record {len(text):,} bytes")
    print(f"read the record: {median_ms(lambda: replay.read(text), 50):.2f} ms; "
          f"replay the whole match from its start: "
          f"{median_ms(lambda: replay_record(record), 10):.1f} ms")
    digest, tape = replay.tape_of(gid, text)
    key = (gid, digest)

    def first_press() -> Any:
        replay._frames.clear()  # the deal's positions made anew
        return replay.step_view(gid, 1, CHAT, "pt", key, tape, longest, moves[longest] // 2)

    worst = moves[longest] // replay.EVERY * replay.EVERY  # 15 moves past a kept position
    print(f"step of the longest deal: first press {median_ms(first_press, 20):.2f} ms, "
          f"kept deal {median_ms(lambda: replay.step_view(gid, 1, CHAT, 'pt', key, tape, longest, worst), args.runs):.2f} ms "  # noqa: E501
          f"(move {worst}), deal start "
          f"{median_ms(lambda: replay.step_view(gid, 1, CHAT, 'pt', key, tape, longest, 0), args.runs):.2f} ms")  # noqa: E501
    store = MemoryStore()
    service = Service(store, Clock(), threaded=True)
    await store.save_record(gid, text)
    await store.set_setting(CHAT.key, "last_game", gid)
    ana = PlayerRef(platform="tg", user_id="1", name="Ana")
    await service.replay(CHAT, ana)
    data = f"{gid}|1|rp|{longest}.{worst}"
    got = await service.press(ana, data, chat=CHAT)
    assert got[0].kind == "replay", got
    print(f"press through the service (worker thread): "
          f"{await amedian_ms(lambda _i: service.press(ana, data, chat=CHAT), args.runs):.2f} ms")


if __name__ == "__main__":
    asyncio.run(main())
