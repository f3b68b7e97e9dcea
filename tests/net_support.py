"""Shared helper of the tests that serve on a loopback port (the ops server, the webhook
server, the web table): a port free a moment ago. (tests/e2e/tg_emulator.py keeps its own
copy: tools/screenshots.py imports it without tests/ on its path.)"""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port that was free on 127.0.0.1 a moment ago (bound to port 0, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
