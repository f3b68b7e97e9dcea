"""Shared helpers of the terminal tests (tests/test_console*.py, tests/test_narration.py):
a :class:`adapters.console.app.ConsoleGame` over the in-memory store that reads scripted
lines instead of the keyboard and prints into a string."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

from rich.console import Console
from test_service_support import FakeClock, make_service

from adapters.console.app import ConsoleGame
from bot.memstore import MemoryStore
from engine.cards import Card
from engine.rules import Rules


def typed_game(lines: list[str], deck_fn: Callable[[Rules], list[Card]], width: int = 200,
               echo: bool = True, echo_chars: int | None = None,
               **service_kw: Any) -> tuple[ConsoleGame, io.StringIO]:
    """A terminal game dealt by ``deck_fn`` that reads ``lines``, then end of input
    (EOFError), printing on a ``width``-column console without colour; with ``echo``
    each prompt is printed followed by ``<line>`` (its first ``echo_chars`` characters,
    all when None). ``service_kw`` go to :func:`test_service_support.make_service`.
    Returns the game and what it printed."""
    clock = FakeClock()
    svc = make_service(MemoryStore(clock), clock, deck_fn=deck_fn, **service_kw)
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None)
    feed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        line = next(feed, None)
        if line is None:
            raise EOFError
        if echo:
            console.print(f"{prompt}<{line[:echo_chars]}>")
        return line

    return ConsoleGame(svc, console, read=read), out


async def played(read: Callable[[str], str], preset: str, players: int,
                 **service_kw: Any) -> tuple[ConsoleGame, str]:
    """A whole terminal match of ``preset`` for ``players`` (set up, then played until
    ``read`` raises EOFError or the person quits) on a 120-column console without colour,
    ``read`` answering every prompt; ``service_kw`` go to
    :func:`test_service_support.make_service`. Returns the game and what it printed."""
    clock = FakeClock()
    svc = make_service(MemoryStore(clock), clock, **service_kw)
    out = io.StringIO()
    game = ConsoleGame(svc, Console(file=out, width=120, color_system=None), read=read)
    assert await game.setup(preset, players)
    await game.play()
    return game, out.getvalue()
