"""An aiohttp application served on a free loopback port from an event loop in a daemon
thread, so a synchronous test can reach it (the harness's tiny page in
``browser/test_browser_smoke``, the in-process web table of ``browser/inproc``, and the
fake platform roots that refuse a token: :class:`RoutesApp`)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from aiohttp import web

T = TypeVar("T")


class ThreadedApp:
    """Starts at construction: ``url`` is ``http://127.0.0.1:<port>`` once the app is
    served (AssertionError naming ``what`` after ``start_s`` seconds without it).
    Subclasses give the app in :meth:`make_app` and may stop more in :meth:`stop`."""

    def __init__(self, what: str, start_s: float) -> None:
        self.loop = asyncio.new_event_loop()
        self.url = ""
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._ready.wait(start_s), f"{what} did not start"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._start())
        self._ready.set()
        self.loop.run_forever()

    async def _start(self) -> None:
        self.runner = web.AppRunner(await self.make_app())
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", 0).start()
        self.url = f"http://127.0.0.1:{self.runner.addresses[0][1]}"

    async def make_app(self) -> web.Application:
        """The application to serve (run on the server's loop)."""
        raise NotImplementedError

    async def stop(self) -> None:
        """Stop serving (run on the server's loop by :meth:`close`)."""
        await self.runner.cleanup()

    def call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the server's loop and return its result (30 s at most)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def close(self) -> None:
        """:meth:`stop`, then end the loop and its thread."""
        self.call(self.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)


class RoutesApp(ThreadedApp):
    """A :class:`ThreadedApp` serving ``routes`` (``web.get(...)``, ``web.route(...)``),
    started within 10 s."""

    def __init__(self, what: str, routes: list[web.RouteDef]) -> None:
        self.routes = routes
        super().__init__(what, 10)

    async def make_app(self) -> web.Application:
        app = web.Application()
        app.add_routes(self.routes)
        return app
