"""The webhook server: Telegram's answer comes after the update is handled (issue 36,
rolling deploys).

python-telegram-bot's own webhook server answers 200 as soon as an update is in its
queue: a worker killed (SIGKILL, an OOM, a host lost) before handling it loses it, since
Telegram delivers an acknowledged update only once, and on a stop the queue's rest is
dropped. Here, as in python-telegram-bot's "custom webhook" examples, a small aiohttp
server feeds the application itself, and answers:

- **403** to a request without the right ``X-Telegram-Bot-Api-Secret-Token`` (compared
  in constant time): nothing is read, nothing changes;
- **400** to a body that is not an update;
- **503** once the worker is stopping (:meth:`WebhookServer.stop`): the update was not
  taken, so Telegram sends it again, to another worker behind the same URL or to this
  one restarted;
- **200** only after the update's handlers are done (its service call made and answered,
  in its game's order: :class:`adapters.telegram.order.UpdateOrder`). A worker that dies
  before that never answers, so Telegram redelivers; one that dies after its save but
  before the answer is redelivered too, and the update's idempotency key (the save
  writes it, :mod:`adapters.telegram.handlers`) makes the second delivery change nothing.

A stop first refuses new requests (503), then waits up to ``wait_s`` for the ones in
hand to be handled and answered, then closes the server (a request still in hand past
that gets no answer and is redelivered).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from typing import Any

from aiohttp import web
from telegram import Update

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class WebhookServer:
    """Serves ``path`` on ``listen``:``port`` for ``application`` (module docstring);
    ``secret``: the value Telegram must send in :data:`SECRET_HEADER`."""

    def __init__(self, application: Any, secret: str, listen: str, port: int,
                 path: str) -> None:
        self.application = application
        self.secret = secret.encode()
        self.listen = listen
        self.port = port
        self.path = "/" + path.lstrip("/")
        self.stopping = False
        self.in_hand: set[asyncio.Task[None]] = set()
        self._runner: web.AppRunner | None = None

    async def handle(self, request: web.Request) -> web.Response:
        """One delivery: 403, 400, 503 or, once the update is handled, 200."""
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self.secret):
            return web.Response(status=403, text="wrong secret token")
        if self.stopping:
            return web.Response(status=503, text="stopping: send it again")
        try:
            data = json.loads(await request.read())
            update = Update.de_json(data, self.application.bot)
        except (ValueError, TypeError, KeyError, AttributeError):
            log.warning("webhook: a request that is not an update was refused")
            return web.Response(status=400, text="not an update")
        if update is None:
            return web.Response(status=400, text="not an update")
        task = asyncio.get_running_loop().create_task(self._process(update))
        self.in_hand.add(task)
        task.add_done_callback(self.in_hand.discard)
        await asyncio.shield(task)  # a dropped connection does not cancel the handling
        return web.Response(status=200)

    async def _process(self, update: Update) -> None:
        processor = self.application.update_processor
        await processor.process_update(update, self.application.process_update(update))

    def pending(self) -> int:
        """Updates received and not yet answered (the operator's intake gauge)."""
        return len(self.in_hand)

    async def start(self) -> None:
        """Listen (the webhook is set with Telegram by the caller)."""
        app = web.Application(client_max_size=1 << 20)
        app.router.add_post(self.path, self.handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.listen, self.port).start()

    def refuse(self) -> None:
        """From now on answer 503 to every update (the worker is stopping)."""
        self.stopping = True

    async def stop(self, wait_s: float) -> None:
        """Refuse new updates (503), wait up to ``wait_s`` s for those in hand, close."""
        self.refuse()
        if self.in_hand:  # waited for, never cancelled: one past wait_s is redelivered
            await asyncio.wait(set(self.in_hand), timeout=wait_s)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
