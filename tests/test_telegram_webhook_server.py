"""The webhook server answers Telegram only after the update is handled (issue 36, rolling
deploys): 403 for a wrong secret, 400 for a body that is not an update, 503 once the
worker is stopping, 200 when the handlers are done; a stop waits for the updates in hand
(adapters/telegram/webhook.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from net_support import free_port
from telegram.ext import SimpleUpdateProcessor

from adapters.telegram.webhook import SECRET_HEADER, WebhookServer

SECRET = "s3cret_token-1"
UPDATE = {"update_id": 7, "message": {"message_id": 1, "date": 0, "text": "/placar",
                                      "chat": {"id": -5, "type": "group", "title": "M"}}}


class FakeApplication:
    """What the server uses of a python-telegram-bot ``Application``: ``bot`` (for
    ``Update.de_json``), ``update_processor`` and ``process_update``, which here waits
    for ``release`` and records the update ids it handled."""

    def __init__(self) -> None:
        self.bot = None
        self.update_processor = SimpleUpdateProcessor(8)
        self.release = asyncio.Event()
        self.handled: list[int] = []

    async def process_update(self, update: Any) -> None:
        await self.release.wait()
        self.handled.append(update.update_id)


async def serving() -> tuple[WebhookServer, FakeApplication, str]:
    app = FakeApplication()
    port = free_port()
    server = WebhookServer(app, SECRET, "127.0.0.1", port, "hook")
    await server.start()
    return server, app, f"http://127.0.0.1:{port}/hook"


async def test_a_wrong_or_missing_secret_is_refused_with_403_and_nothing_is_handled() -> None:
    server, app, url = await serving()
    app.release.set()
    async with httpx.AsyncClient() as client:
        wrong = await client.post(url, json=UPDATE, headers={SECRET_HEADER: "guess"})
        missing = await client.post(url, json=UPDATE)
        bad = await client.post(url, content=b"[1,", headers={SECRET_HEADER: SECRET})
    await server.stop(1)
    assert (wrong.status_code, missing.status_code, bad.status_code) == (403, 403, 400)
    assert app.handled == []


async def test_the_answer_comes_only_after_the_update_is_handled() -> None:
    server, app, url = await serving()
    async with httpx.AsyncClient() as client:
        sent = asyncio.ensure_future(client.post(url, json=UPDATE,
                                                 headers={SECRET_HEADER: SECRET}))
        await asyncio.sleep(0.3)
        assert not sent.done() and server.pending() == 1  # handling: no answer yet
        app.release.set()
        answer = await sent
    await server.stop(1)
    assert (answer.status_code, app.handled, server.pending()) == (200, [7], 0)


async def test_a_stopping_worker_refuses_new_updates_with_503_and_answers_those_in_hand(
        ) -> None:
    server, app, url = await serving()
    async with httpx.AsyncClient() as client:
        in_hand = asyncio.ensure_future(client.post(url, json=UPDATE,
                                                    headers={SECRET_HEADER: SECRET}))
        await asyncio.sleep(0.3)
        server.refuse()
        late = await client.post(url, json={**UPDATE, "update_id": 8},
                                 headers={SECRET_HEADER: SECRET})
        stopping = asyncio.ensure_future(server.stop(5))
        await asyncio.sleep(0.1)
        assert not stopping.done()  # the stop waits for the update in hand
        app.release.set()
        answer = await in_hand
        await stopping
    assert (late.status_code, answer.status_code, app.handled) == (503, 200, [7])
