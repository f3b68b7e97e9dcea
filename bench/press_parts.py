"""The parts of a warm action press, one by one, on a mid-game state (issue 13).

Usage: ``python bench/press_parts.py [--n N] [--part NAME] [--seed S]``

A four-player buraco_morto game is opened through :class:`bot.service.Service` on the
embedded store (seeded deck, no Redis), then played by random legal moves through
``bot.turns.apply_action`` (the path a press takes, narration included) until turn 30 of
its first deal. Each part of what one press costs on that game then runs ``N`` times in
a loop and prints microseconds per call (median of 5 rounds; caches warm, so a press in
place costs more, bench/README.md "Seventh look"). With ``--part`` only that part runs
(after one call to warm it), for an instruction count: ``valgrind --tool=callgrind
python bench/press_parts.py --part table --n 200`` minus the same with ``--n 0``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from adapters.storage.redis_store import open_store  # noqa: E402
from bench.service import BenchClock, seeded_decks  # noqa: E402
from bot import hands, play, turns, views  # noqa: E402
from bot.effects import ChatRef, PlayerRef  # noqa: E402
from bot.i18n import Translator  # noqa: E402
from bot.model import Game, decode, encode, to_json  # noqa: E402
from bot.service import Service  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.simulate import random_action  # noqa: E402

TURNS = 30


async def mid_game(seed: int) -> tuple[Game, str]:
    """A 4-player buraco_morto game at turn :data:`TURNS` and its stored text."""
    store = await open_store(None)
    svc = Service(store, BenchClock(), ai_pace_s=0, threaded=False, deck_fn=seeded_decks(seed))
    people = [PlayerRef(platform="bench", user_id=str(k), name=f"P{k}") for k in range(4)]
    chat = ChatRef(platform="bench", chat_id="c", title="Mesa")
    await svc.new_game(chat, people[0], "buraco_morto")
    for person in people[1:]:
        await svc.join(chat, person)
    await svc.start(chat, people[0])
    gid = await store.chat_game(chat.key)
    got = await store.load_game(gid or "")
    assert got is not None, "the game did not open"
    await store.close()
    game, rng, now = decode(got[1]), random.Random(seed), BenchClock().now()
    while play.deal_of(game).turn_count < TURNS and not play.deal_of(game).over:
        state, now = play.deal_of(game), now + 5.0  # as people play: the narration ages
        turns.apply_action(game, state.turn, random_action(state, rng), now, True).resolved()
    return game, encode(game)


def parts(game: Game, text: str) -> dict[str, Callable[[], object]]:
    """What one press does, by name: the views, the codec and the engine's JSON."""
    seat = play.deal_of(game).turn
    match, _, stored = play.match_of(game), Translator(game.lang), game.match
    assert stored is not None
    return {
        "table": lambda: views.table_view(game, _),
        "hand_on_turn": lambda: hands.hand_view(game, seat, _),
        "hand_waiting": lambda: hands.hand_view(game, (seat + 1) % 4, _),
        "encode": lambda: encode(game),
        "to_json": lambda: to_json(game),
        "match_to_json": match.to_json,
        "decode": lambda: decode(text),
        "match_from_json": lambda: Match.from_json(stored),
    }


def main() -> None:
    """Parse the options, build the state, run the parts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=2000, help="calls per round (default 2000)")
    parser.add_argument("--part", default=None, help="run only this part (for callgrind)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    game, text = asyncio.run(mid_game(args.seed))
    table = parts(game, text)
    if args.part is not None:
        fn = table[args.part]
        fn()
        for _i in range(args.n):
            fn()
        return
    print(f"buraco_morto, 4 players, turn {play.deal_of(game).turn_count}: "
          f"stored {len(text)} B, JSON {len(to_json(game))} B")
    for name, fn in table.items():
        rounds = []
        for _r in range(5):
            t0 = time.perf_counter()
            for _i in range(args.n):
                fn()
            rounds.append((time.perf_counter() - t0) / args.n)
        print(f"{name:16s} {1e6 * statistics.median(rounds):8.1f} µs")


if __name__ == "__main__":
    main()
