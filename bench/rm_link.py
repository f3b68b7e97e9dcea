"""The Node subprocess that runs BotRafa (``bench/rm_bot.mjs``), for ``bench/vs_rm.py``:
JSON lines both ways, a time limit on every answer, restart after a failure."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
from pathlib import Path
from types import TracebackType
from typing import IO, Any

HERE = Path(__file__).resolve().parent
TIMEOUT_S = 120.0
"""Longest wait for one line from RM (a move takes milliseconds; a loaded machine where
RM runs at ``nice 10`` may starve it for seconds)."""
START_TIMEOUT_S = 600.0
"""Longest wait for RM's "ready" line (Node, RM's WASM and 1 MB of weights to load)."""


class RmFailure(RuntimeError):
    """The subprocess died, went silent past :data:`TIMEOUT_S` or wrote no JSON."""


def rm_commit(checkout: Path) -> str:
    """The checkout's commit (``git rev-parse HEAD``), or ``"unknown"`` for a plain copy."""
    try:
        out = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"],
                             capture_output=True, text=True, timeout=10, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


class RmBot:
    """``node bench/rm_bot.mjs CHECKOUT``; its stderr (RM's own log) is discarded, or
    appended to the file ``VS_RM_NODE_LOG`` names."""

    def __init__(self, checkout: Path) -> None:
        self.checkout = checkout
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        """Start the subprocess."""
        log = os.environ.get("VS_RM_NODE_LOG")
        with open(log or os.devnull, "ab") as err:  # the child keeps its own copy
            self.proc = subprocess.Popen(
                ["node", str(HERE / "rm_bot.mjs"), str(self.checkout)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
            )
        try:
            ready = self.recv(START_TIMEOUT_S)
            if ready.get("op") != "ready":
                raise RmFailure(f"RM started with {ready!r}, not ready")
        except RmFailure:
            self.stop()
            raise

    def _pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        if self.proc is None or self.proc.stdin is None or self.proc.stdout is None:
            raise RmFailure("RM subprocess not running")
        return self.proc.stdin, self.proc.stdout

    def send(self, obj: dict[str, Any]) -> None:
        """Write one JSON line; :class:`RmFailure` if the pipe is closed."""
        stdin, _ = self._pipes()
        try:
            stdin.write(json.dumps(obj, separators=(",", ":")).encode() + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise RmFailure(f"RM subprocess gone ({err})") from None

    def recv(self, timeout: float = TIMEOUT_S) -> dict[str, Any]:
        """Read one JSON object; :class:`RmFailure` on silence, exit or bad JSON."""
        _, stdout = self._pipes()
        with selectors.DefaultSelector() as sel:
            sel.register(stdout, selectors.EVENT_READ)
            if not sel.select(timeout):
                raise RmFailure(f"RM silent for {timeout:.0f} s")
        line = stdout.readline()
        if not line:
            raise RmFailure("RM subprocess exited")
        try:
            msg = json.loads(line)
        except ValueError:
            raise RmFailure(f"RM wrote no JSON: {line[:80]!r}") from None
        if not isinstance(msg, dict):
            raise RmFailure(f"RM wrote no object: {line[:80]!r}")
        return msg

    def stop(self) -> None:
        """End the subprocess (close its input, then kill it if it lingers)."""
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()

    def restart(self) -> None:
        """Stop and start again (after a :class:`RmFailure`)."""
        self.stop()
        self.start()

    def __enter__(self) -> RmBot:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
