"""The browser harness itself: Debian's Chromium under Playwright opens a tiny aiohttp page
that talks over a WebSocket, :class:`chromium.Wire` records what the server sent, and a
request to another host is refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import chromium
import pytest
from aiohttp import WSMsgType, web
from threaded_app import ThreadedApp

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><meta charset="utf-8"><title>smoke</title>
<p id="said">-</p><button id="tap">tap</button><img src="https://example.org/a.png" alt="">
<script>
const ws = new WebSocket(`ws://${location.host}/ws`);
ws.onmessage = (e) => { document.getElementById('said').textContent = e.data; };
document.getElementById('tap').onclick = () => ws.send('tap ' + navigator.language);
</script>"""


class TinyServer(ThreadedApp):
    """An aiohttp app on a free port in a thread: ``/`` serves :data:`PAGE`, ``/ws``
    greets with ``hello`` and echoes ``echo: <frame>``."""

    def __init__(self) -> None:
        super().__init__("the tiny server", 10)

    async def make_app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self._page)
        app.router.add_get("/ws", self._ws)
        return app

    async def _page(self, _: web.Request) -> web.Response:
        return web.Response(text=PAGE, content_type="text/html")

    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str("hello")
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                await ws.send_str(f"echo: {msg.data}")
        return ws


@pytest.fixture
def tiny() -> Iterator[TinyServer]:
    server = TinyServer()
    yield server
    server.close()


def test_chromium_opens_a_page_and_its_websocket_and_the_wire_is_recorded(
        tiny: TinyServer, new_page: Any) -> None:
    page, wire = new_page(viewport=chromium.PHONE, locale="pt-BR")
    page.goto(tiny.url)
    page.wait_for_function("document.getElementById('said').textContent === 'hello'")
    page.click("#tap")
    page.wait_for_function("document.getElementById('said').textContent.startsWith('echo')")
    assert page.inner_text("#said") == "echo: tap pt-BR"
    assert page.viewport_size == {"width": 360, "height": 640}
    assert wire.sockets == 1
    assert [t for _, t in wire.frames] == ["hello", "echo: tap pt-BR"]
    assert [t for _, t in wire.sent] == ["tap pt-BR"]
    assert wire.bodies == [(tiny.url + "/", PAGE)]
    assert wire.outside == ["https://example.org/a.png"]  # refused, not fetched
    shot = chromium.screenshot(page, "smoke")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
