"""What this machine lacks for the whole test suite (``make test`` prints it first, issue
34): one line per suite that will be skipped, with what it needs; nothing when every
suite can run. Never fails: the suites skip themselves and say why; this only tells it
up front.

Usage: ``python tools/test_needs.py``
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def missing() -> list[str]:
    """One line per suite that cannot run here: ``"skipped: <suite>: needs <what>"``."""
    out = []
    chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    if importlib.util.find_spec("playwright") is None:
        out.append("skipped: tests/browser (the web table in Chromium): needs "
                   "pip install -e '.[browser]'")
    elif not (Path(chromium).is_file() or shutil.which(chromium)):
        out.append("skipped: tests/browser (the web table in Chromium): needs "
                   "apt-get install chromium (or CHROMIUM_PATH)")
    if not (ROOT / "node_modules" / "telegram-test-api").is_dir():
        out.append("skipped: tests/e2e and the Telegram browser test: needs Node.js and "
                   "npm (make test runs npm ci)")
    if not os.environ.get("REDIS_URL"):
        out.append("skipped: the Redis suites (webhook, restart, fake Discord, "
                   "reliability): needs a Redis at REDIS_URL=redis://host:6379/0")
    return out


if __name__ == "__main__":
    for line in missing():
        print(line)
