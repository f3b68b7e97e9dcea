"""Run ``python -m bot serve`` (unmodified) with both platforms at once: Telegram on the Bot
API emulator (tests/e2e/tg_emulator.py), Discord on the fake Discord (fake_discord.py),
the web table on a loopback port, all on the real Redis at ``REDIS_URL`` under the fake's
key prefix (:func:`bot_run.prefix_of`, deleted afterwards by :func:`bot_run.forget`).

Also what a browser does on the web table (docs/web.md "Launch flow"): :class:`WebPage`
exchanges a one-use signed link (the hand's "Abrir a mesa" button) for a session at
``POST /api/session``, holds ``GET /ws`` open with that session, keeps every frame and
sends presses, from a thread of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import aiohttp
import httpx
from bot_run import REPO, prefix_of, wait_for
from fake_discord import FakeDiscord

E2E = REPO / "tests" / "e2e"
if str(E2E) not in sys.path:
    sys.path.insert(0, str(E2E))

from tg_emulator import Emulator, free_port  # noqa: E402

WEB_SECRET = "e2e-serve-web-secret-0123456789abcdef"


def serve_env(emu: Emulator, fake: FakeDiscord, url: str, web_port: int) -> dict[str, str]:
    """The environment of ``python -m bot serve`` on ``emu`` and ``fake`` (documented
    settings only: docs/operator.md, docs/discord.md, docs/web.md)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "TELEGRAM_", "WEBHOOK_", "WEB_"))}
    web = f"http://127.0.0.1:{web_port}"
    env.update(TELEGRAM_TOKEN=emu.token, TELEGRAM_BASE_URL=emu.bot_api_url,
               TELEGRAM_POLL_INTERVAL="0.02", DISCORD_TOKEN=fake.token,
               DISCORD_API_BASE=fake.api_base, REDIS_URL=url, REDIS_PREFIX=prefix_of(fake),
               AI_PACE_S="0", TURN_TIMER_S="900", LOG_LEVEL="INFO", PYTHONPATH=str(REPO),
               WEB_PORT=str(web_port), WEB_LISTEN="127.0.0.1", WEB_PUBLIC_URL=web + "/",
               WEB_SECRET=WEB_SECRET)
    return env


def reachable(base: str) -> bool:
    """Whether the web server answers ``GET /`` with 200."""
    try:
        return httpx.get(base + "/", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@contextlib.contextmanager
def run_serve(emu: Emulator, fake: FakeDiscord, workdir: Path, url: str, web_port: int,
              log_name: str = "serve.log",
              started: list[subprocess.Popen[bytes]] | None = None) -> Iterator[Path]:
    """``python -m bot serve`` for the ``with`` block; yields its log once Telegram polls,
    Discord has identified on the fake's gateway and the web table answers. ``started``
    receives the process (to SIGKILL it). Stopped with SIGTERM (SIGKILL after 10 s); an
    AssertionError inside the block gets the tail of the log appended."""
    log = workdir / log_name
    identified = fake.gateway.identifies
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, "-m", "bot", "serve"], cwd=workdir,
                                   env=serve_env(emu, fake, url, web_port), stdout=out,
                                   stderr=subprocess.STDOUT)
    if started is not None:
        started.append(process)
    base = f"http://127.0.0.1:{web_port}"
    try:
        wait_for(lambda: process.poll() is not None or (
            fake.gateway.identifies > identified and "Application started" in log.read_text()
            and reachable(base)), timeout=60, what="serve to be ready on both platforms")
        assert process.poll() is None, log.read_text()
        yield log
    except AssertionError as error:
        raise AssertionError(f"{error}\n--- {log_name}, last lines:\n"
                             f"{log.read_text()[-6000:]}") from None
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def link_token(url: str) -> str:
    """The one-use token in a signed web-table link (``<WEB_PUBLIC_URL>#t=<token>``)."""
    fragment = urlparse(url).fragment
    assert fragment.startswith("t="), url
    return fragment[2:]


class WebPage:
    """One person's web table as a browser holds it: a session from a signed link, the
    live WebSocket (reopened with the same session after the server went away, as the
    page does), every frame received, presses sent as the page sends them."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base
        answer = httpx.post(base + "/api/session", json={"token": token}, timeout=10)
        assert answer.status_code == 200, answer.text
        self.session = str(answer.json()["session"])
        self.game = str(answer.json()["game"])
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self._ids = 0
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._task: asyncio.Task[None] | None = None
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=10)

    async def _start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._hold())

    async def _stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _hold(self) -> None:
        async with aiohttp.ClientSession() as http:
            while True:
                with contextlib.suppress(aiohttp.ClientError, OSError):
                    async with http.ws_connect(self.base + "/ws") as ws:
                        await ws.send_str(json.dumps({"type": "hello", "session": self.session,
                                                      "version": self.version()}))
                        self._ws = ws
                        async for msg in ws:
                            if msg.type == aiohttp.WSMsgType.TEXT:
                                with self._lock:
                                    self.raw.append(str(msg.data))
                                    self.frames.append(json.loads(msg.data))
                self._ws = None
                await asyncio.sleep(0.2)

    def received(self) -> list[dict[str, Any]]:
        """Every frame received so far (a copy)."""
        with self._lock:
            return list(self.frames)

    def version(self) -> int:
        """The newest view version received (0: none)."""
        with self._lock:
            return max((int(f["version"]) for f in self.frames if f.get("type") == "view"),
                       default=0)

    def view(self) -> dict[str, Any] | None:
        """The newest view received."""
        with self._lock:
            views = [f for f in self.frames if f.get("type") == "view"]
        return max(views, key=lambda f: int(f["version"]))["view"] if views else None

    def live(self) -> bool:
        """Whether the WebSocket is open."""
        return self._ws is not None and not self._ws.closed

    def press(self, data: str) -> int:
        """Send a press of ``data`` (a payload taken from the view); its id."""
        self._ids += 1
        ident = self._ids
        ws = wait_for(lambda: self._ws if self.live() else None, what="the page's socket")
        asyncio.run_coroutine_threadsafe(
            ws.send_str(json.dumps({"type": "press", "id": ident, "data": data})),
            self._loop).result(timeout=10)
        return ident

    def answered(self, ident: int) -> dict[str, Any]:
        """The ``reply`` or ``done`` frame of press ``ident`` (waits for it)."""
        def probe() -> dict[str, Any] | None:
            with self._lock:
                return next((f for f in self.frames if f.get("id") == ident
                             and f.get("type") in ("reply", "done")), None)
        return wait_for(probe, timeout=10, what=f"the answer to press {ident}")

    def close(self) -> None:
        """Stop the page's thread."""
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._loop.close()


__all__ = ["WEB_SECRET", "WebPage", "free_port", "link_token", "run_serve", "serve_env"]
