"""The terminal's prompt (issue 30): line editing, Ctrl-L, and what was typed ahead.

- :func:`line_reader`: ``input`` with line editing and history where Python has
  ``readline`` (GNU readline: Ctrl-L is bound so the line comes back starting with
  :data:`CLEAR_KEY`, and the game clears the screen, redraws the table and puts the
  half-typed line back, :func:`prefill`). Without readline a terminal passes Ctrl-L as
  the character itself, which the game reads the same way.
- :func:`flush_typeahead`: drops what was typed while the robots played, so it is not
  run at the next prompt unasked (``termios.tcflush``; only on a terminal).
- :class:`CtrlC`: Ctrl-C while the game draws, plays a move or lets the robots play is
  noted, not raised, and taken at the next safe point (issue 30: it left a half-drawn
  table); at a prompt it raises ``KeyboardInterrupt`` as usual.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from types import FrameType
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


class CtrlC:
    """Ctrl-C (SIGINT) held back while the game is busy (issue 30).

    Inside :meth:`deferred` a Ctrl-C only sets :attr:`pressed` (and :attr:`event`, to
    wake a wait on the running loop, set through ``call_soon_threadsafe`` as a signal
    handler must): the table being printed is printed whole, the move being played is
    played and saved whole, and the game takes the press at its next safe point
    (:meth:`take`). Inside :meth:`raising` (a prompt's ``input``) Ctrl-C raises
    ``KeyboardInterrupt`` again, so a prompt is left at once. Off the main thread, where
    Python takes no signal handler, both are no-ops and Ctrl-C raises as usual."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.pressed = False
        self._active = False
        self._loop: asyncio.AbstractEventLoop | None = None

    def take(self) -> bool:
        """Whether Ctrl-C was pressed since the last take; forgets it."""
        was, self.pressed = self.pressed, False
        self.event.clear()
        return was

    def _on_signal(self, _signum: int, _frame: FrameType | None) -> None:
        self.pressed = True
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.event.set)

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        """Hold Ctrl-C back inside (re-entrant); the handler from before is put back."""
        if self._active:
            yield
            return
        try:
            before = signal.signal(signal.SIGINT, self._on_signal)
        except ValueError:  # not the main thread: Ctrl-C raises as before
            yield
            return
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None
        self._active = True
        try:
            yield
        finally:
            self._active = False
            signal.signal(signal.SIGINT, before if before is not None
                          else signal.default_int_handler)

    @contextlib.contextmanager
    def raising(self) -> Iterator[None]:
        """Inside :meth:`deferred`, let Ctrl-C raise ``KeyboardInterrupt`` (a prompt)."""
        if not self._active:
            yield
            return
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, self._on_signal)


@contextlib.contextmanager
def own_foreground(stream: IO[str] | None = None) -> Iterator[bool]:
    """Inside, this process is the terminal's foreground process group on its own, when
    it was started in the foreground as part of another process's group (``make play``:
    make leads the group); True then, False when nothing needed doing (started by a
    shell, which gives each job its own group; not a terminal; no job control).

    Why (issue 38): the terminal sends Ctrl-C to the whole foreground group, so make got
    the SIGINT the game handles as ``q``, waited for the game to end and then killed
    itself with it: ``make play`` exited 130 where ``python -m bot play`` exits 0. Ctrl-Z
    still suspends the whole job: the game hands the terminal back, rejoins make's group
    and stops it with itself; on ``fg`` it takes the terminal again. On the way out the
    terminal goes back to make's group."""
    stream = stream if stream is not None else sys.stdin
    try:
        import os

        fd = stream.fileno()
        group = os.getpgrp()
        if not stream.isatty() or group == os.getpid() or os.tcgetpgrp(fd) != group:
            yield False
            return
        os.setpgid(0, 0)
        _foreground(fd, os.getpgrp())
    except (AttributeError, OSError, ValueError):  # no job control here
        yield False
        return

    def suspend(_signum: int, _frame: FrameType | None) -> None:
        """Ctrl-Z: the whole job (make and the game) stops, as without this; ``fg``
        continues it and the game takes the terminal back."""
        _foreground(fd, group)
        os.setpgid(0, group)
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.killpg(group, signal.SIGTSTP)  # make and this process stop here
        signal.signal(signal.SIGTSTP, suspend)  # continued (fg)
        os.setpgid(0, 0)
        _foreground(fd, os.getpgrp())

    try:
        before = signal.signal(signal.SIGTSTP, suspend)
    except ValueError:  # not the main thread
        before = None
    try:
        yield True
    finally:
        if before is not None:
            signal.signal(signal.SIGTSTP, before)
        with contextlib.suppress(OSError):
            _foreground(fd, group)
            os.setpgid(0, group)


def _foreground(fd: int, group: int) -> None:
    """Make ``group`` the terminal's foreground process group (SIGTTOU ignored meanwhile:
    a background process may not otherwise change it)."""
    import os

    before = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    try:
        os.tcsetpgrp(fd, group)
    finally:
        signal.signal(signal.SIGTTOU, before)


__all__ = ["CLEAR_KEY", "CtrlC", "flush_typeahead", "line_reader", "no_flush", "no_prefill",
           "own_foreground", "prefill"]
