"""``python tests/browser/scripted_bot.py telegram|discord|serve``: the bot's own command
line (``python -m bot ...``, unchanged), with every new deal dealt from a known deck.

The only difference from ``python -m bot``: the service's ``deck_fn`` (the test hook of
:class:`bot.service.Service`, DESIGN example 4) reads the decks of ``SCRIPTED_DECKS`` (a
JSON file: a list of decks, each a list of card codes top first), one per deal in order;
past the last one the deal is shuffled as in production. Everything else (settings,
adapters, web server, store) is the real process.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.service import Service
from engine.cards import Card
from engine.rules import Rules


def _decks() -> Iterator[list[Card]]:
    for codes in json.loads(Path(os.environ["SCRIPTED_DECKS"]).read_text()):
        yield [Card.parse(code) for code in codes]


_queue = _decks()


def _deck_fn(_: Rules) -> list[Card] | None:
    return next(_queue, None)  # None: bot.play shuffles with SystemRandom


_real_init = Service.__init__


def _init(self: Service, *args: Any, **kwargs: Any) -> None:
    kwargs["deck_fn"] = _deck_fn
    _real_init(self, *args, **kwargs)


Service.__init__ = _init  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.argv[0] = "python -m bot"
    runpy.run_module("bot", run_name="__main__", alter_sys=False)
