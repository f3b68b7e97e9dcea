"""Drive a command through a pseudo-terminal as a person types (issue 30: the terminal
items are tested on ``python -m bot play`` itself, not only on the console adapter)."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """``argv`` (default ``python -m bot play ...``) run in ``cwd`` on a pty of ``cols``
    columns (with ``controlling``, as its controlling terminal, so Ctrl-C signals it);
    :meth:`expect` reads until a text shows, :meth:`type` sends a line. ``text``
    is everything printed so far, without colours and carriage returns."""

    def __init__(self, argv: list[str], cwd: Path = ROOT, cols: int = 120,
                 env: dict[str, str] | None = None, controlling: bool = False) -> None:
        self.master, slave = pty.openpty()
        os.set_blocking(self.master, False)
        import fcntl
        import struct
        import termios

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
        base = {k: v for k, v in os.environ.items()
                if k not in ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "REDIS_URL")}
        base.update({"LANG": "C.UTF-8", "COLUMNS": str(cols), "TERM": "xterm"}, **(env or {}))
        def take_terminal() -> None:  # the pty becomes the program's own terminal:
            os.setsid()  # Ctrl-C typed (\x03) signals it as a person's terminal does
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=slave, stdout=slave, stderr=slave,
                                     env=base, start_new_session=not controlling,
                                     preexec_fn=take_terminal if controlling else None,
                                     close_fds=True)
        os.close(slave)
        self.raw = b""
        self.seen = 0  # where the next expect starts looking

    @classmethod
    def bot_play(cls, *args: str, **kw: object) -> Terminal:
        """``python -m bot play ARGS`` with the robots' pause off."""
        return cls([sys.executable, "-m", "bot", "play", "--pause", "0", *args], **kw)  # type: ignore[arg-type]

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def _read(self, timeout: float) -> bool:
        ready, _w, _x = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the child closed the terminal
            return False
        self.raw += chunk
        return bool(chunk)

    def expect(self, what: str, timeout: float = 60.0) -> str:
        """Read until ``what`` shows after the last match; returns what came before it.
        ``AssertionError`` with the text so far when it does not come in ``timeout`` s."""
        end = time.monotonic() + timeout
        while True:
            at = self.text.find(what, self.seen)
            if at >= 0:
                before, self.seen = self.text[self.seen:at], at + len(what)
                return before
            left = end - time.monotonic()
            if left <= 0 or (not self._read(min(left, 0.5)) and self.proc.poll() is not None
                             and not self._read(0)):
                raise AssertionError(f"{what!r} did not show; the terminal read:\n{self.text}")

    def ctrl_c(self) -> None:
        """Press Ctrl-C (with ``controlling``: the terminal sends SIGINT)."""
        os.write(self.master, b"\x03")

    def type(self, line: str) -> None:
        """Type ``line`` and Enter."""
        os.write(self.master, line.encode() + b"\r")

    def close(self, timeout: float = 20.0) -> int:
        """Wait for the program to end (killed after ``timeout`` s); its exit code."""
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self._read(0.2)
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        code = self.proc.wait()
        while self._read(0):
            pass
        os.close(self.master)
        return code
