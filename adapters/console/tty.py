"""The terminal's prompt (issue 30): line editing, Ctrl-L, and what was typed ahead.

- :func:`line_reader`: ``input`` with line editing and history where Python has
  ``readline`` (GNU readline: Ctrl-L is bound so the line comes back starting with
  :data:`CLEAR_KEY`, and the game clears the screen, redraws the table and puts the
  half-typed line back, :func:`prefill`). Without readline a terminal passes Ctrl-L as
  the character itself, which the game reads the same way.
- :func:`flush_typeahead`: drops what was typed while the robots played, so it is not
  run at the next prompt unasked (``termios.tcflush``; only on a terminal).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import IO, Any

CLEAR_KEY = "\x0c"
"""Ctrl-L: a line holding it asks for the screen to be cleared and the table redrawn."""

CLEAR_BINDING = r'"\C-l": "\C-a\C-v\C-l\C-j"'
"""GNU readline macro for Ctrl-L: to the line's start, insert a literal Ctrl-L (quoted
insert, so the key does not call itself), accept the line."""


def _readline() -> Any:
    """The ``readline`` module, or None where Python has none (Windows)."""
    try:
        import readline
    except ImportError:
        return None
    return readline


def line_reader() -> Callable[[str], str]:
    """``input`` with line editing and history (arrow keys) where Python has the
    ``readline`` module, Ctrl-L bound as :data:`CLEAR_BINDING` (not on libedit, whose own
    Ctrl-L clears the screen); plain ``input`` where it has none."""
    readline = _readline()
    if readline is not None and "libedit" not in (readline.__doc__ or ""):
        readline.parse_and_bind(CLEAR_BINDING)
    return input


def prefill(text: str) -> bool:
    """Put ``text`` on the next prompt's line, to be edited or run with Enter (readline's
    pre-input hook, once); drops the Ctrl-L line readline kept in its history. False
    where there is no readline (the caller runs ``text`` instead: the person pressed
    Enter after it)."""
    readline = _readline()
    if readline is None:
        return False
    last = readline.get_current_history_length()
    if last and CLEAR_KEY in (readline.get_history_item(last) or ""):
        readline.remove_history_item(last - 1)

    def hook() -> None:
        readline.insert_text(text)
        readline.redisplay()
        readline.set_pre_input_hook(None)

    readline.set_pre_input_hook(hook)
    return True


def flush_typeahead(stream: IO[str] | None = None) -> bool:
    """Drop the input typed but not read yet on ``stream`` (stdin by default) when it is
    a terminal; True when something was dropped. Nothing happens off a terminal (a
    script piped in is read line by line) nor where ``termios`` is missing."""
    stream = stream if stream is not None else sys.stdin
    try:
        import fcntl
        import termios
        if not stream.isatty():
            return False
        fd = stream.fileno()
        waiting = bytearray(4)
        fcntl.ioctl(fd, termios.FIONREAD, waiting)
        termios.tcflush(fd, termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):
        return False
    return int.from_bytes(waiting, sys.byteorder) > 0


def no_flush() -> bool:
    """The typeahead flush of a game that reads a script: nothing to drop."""
    return False


def no_prefill(_text: str) -> bool:
    """The prefill of a game that reads a script: none (the rest of the line runs)."""
    return False


__all__ = ["CLEAR_KEY", "flush_typeahead", "line_reader", "no_flush", "no_prefill", "prefill"]
