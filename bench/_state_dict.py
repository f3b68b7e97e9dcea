"""Build the preset dictionary of the ``"z2:"`` state encoding (bot/model.py, issue 13).

Usage: ``python bench/_state_dict.py OUT`` writes ``OUT`` (a tool, not a benchmark:
``make bench`` skips ``_*.py``). The frozen dictionary is ``bot/state-dict-1.bin`` and
must never change: every state stored as ``"z2:"`` needs the very bytes it was
compressed with; a new dictionary gets a new file and prefix. At 6ecbb0b this script
wrote that file byte for byte; a later engine or AI may play the seeded games
differently, which changes the output, never the frozen file.

The dictionary is the JSON of three seeded games as ``bot.model.to_json`` writes them
(``tg`` seats, the engine's ``normal`` AI playing): buraco_morto at turn 12, tranca at
turn 24 and buraco_morto at turn 36 (the last bytes weigh most in deflate), about 13 KB.
Its figures are in bench/README.md "Service speed (issue 13)".
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from bot import play  # noqa: E402
from bot.effects import ChatRef, PlayerRef  # noqa: E402
from bot.model import Game, Seat, to_json  # noqa: E402
from engine.ai import choose  # noqa: E402
from engine.cards import full_deck  # noqa: E402
from engine.view import view_for  # noqa: E402

GAMES = (("buraco_morto", 12, 1), ("tranca", 24, 2), ("buraco_morto", 36, 3))


def sample_state(preset: str, turns: int, seed: int) -> bytes:
    """The stored JSON of a 4-seat ``preset`` game after ``turns`` actions (seeded)."""
    rng = random.Random(seed)
    people = [PlayerRef(platform="tg", user_id=str(rng.randrange(10**8, 10**10)),
                        name=f"Jogador {k + 1}") for k in range(4)]
    chat = ChatRef(platform="tg", chat_id=str(-rng.randrange(10**12, 10**13)), title="Mesa")
    game = Game(id="".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789")
                           for _ in range(8)), chat=chat, creator=people[0], preset=preset,
                status="playing", seats=[Seat(player=p) for p in people],
                created=1.8e9, touched=1.8e9, turn_since=1.8e9, step_at=1.8e9)
    rules = play.rules_of(game)
    names = [p.name for p in people]
    deck = full_deck(rules.jokers)
    game.match = play.new_match(rules, names, lambda _r: rng.sample(deck, len(deck)))
    for _ in range(turns):
        state = play.deal_of(game)
        if state.over:
            break
        play.act(game, choose(view_for(state, state.turn), "normal", rng=rng))
    return to_json(game)


def main() -> None:
    """Write the dictionary to the path given."""
    data = b"".join(sample_state(*spec) for spec in GAMES)
    Path(sys.argv[1]).write_bytes(data)
    print(f"{len(data)} bytes")


if __name__ == "__main__":
    main()
