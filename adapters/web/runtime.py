"""Running the web table inside the bot's process (docs/web.md "Settings"): one aiohttp
server per process on ``WEB_PORT``, on the event loop the bot already has; each chat
platform of the process (``python -m bot telegram|discord|serve``) attaches its store,
service and delivery to it with :func:`web_table`, and gets the :class:`WebLinks` its
views' buttons carry.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from adapters.delivery.order import KeyedOrder
from adapters.web import auth
from adapters.web.activity import DiscordActivity
from adapters.web.server import Deliver, Site, WebServer

log = logging.getLogger(__name__)


def web_secret(settings: Any) -> bytes:
    """``WEB_SECRET``, or a key derived from the bot tokens (every worker with the same
    tokens agrees; unguessable without them)."""
    if settings.web_secret:
        return str(settings.web_secret).encode()
    seed = f"web-table:{settings.telegram_token or ''}|{settings.discord_token or ''}"
    return hashlib.sha256(seed.encode()).digest()


@dataclass(frozen=True)
class WebLinks:
    """The links the chat views carry to the web table. ``public_url`` is the page's
    address (``WEB_PUBLIC_URL``), ``webapp`` the Mini App's short name (or None)."""

    public_url: str
    secret: bytes
    webapp: str | None = None
    activity: bool = False
    """"Abrir a mesa" on Discord launches the Activity (``DISCORD_ACTIVITY``)."""

    main_app: bool = False
    """The bot's main Mini App (@BotFather, "Bot Settings" > "Configure Mini App") is
    the page (``TELEGRAM_MAIN_APP``): without a named one, links are
    ``https://t.me/<bot>?startapp=...``."""

    def mini_app(self, bot_username: str, start: str) -> str | None:
        """The Mini App's direct link opening the page with ``start`` as its signed
        ``start_param`` (a game id, or an invitation's ``c<código>``, issue 35):
        ``https://t.me/<bot>/<app>?startapp=<start>`` for a named Mini App
        (``TELEGRAM_WEBAPP``), else ``https://t.me/<bot>?startapp=<start>`` for the
        bot's main Mini App (``TELEGRAM_MAIN_APP``); None without either."""
        if not bot_username:
            return None
        if self.webapp:
            return f"https://t.me/{bot_username}/{self.webapp}?startapp={start}"
        if self.main_app:
            return f"https://t.me/{bot_username}?startapp={start}"
        return None

    def signed(self, platform: str, user_id: str, game_id: str,
               now: float | None = None) -> str:
        """The page's address with a one-use link token for this person and game in
        its fragment (``#t=...``: never sent to a server, never in an access log)."""
        token = auth.link_token(self.secret, platform, user_id, game_id,
                                time.time() if now is None else now)
        return f"{self._base()}#t={token}"

    def _base(self) -> str:
        return self.public_url if self.public_url.endswith("/") else self.public_url + "/"


@dataclass
class _Running:
    server: WebServer
    runner: web.AppRunner
    users: int = 0


_RUNNING: dict[int, _Running] = {}
"""The process's web server while some platform uses it (by port)."""


@contextlib.asynccontextmanager
async def web_table(settings: Any, store: Any, service: Any, platform: str,
                    deliver: Deliver | None,
                    order: KeyedOrder | None = None,
                    discord_api: str | None = None) -> AsyncIterator[WebLinks | None]:
    """Serve ``platform``'s games on the web table while inside (None, and nothing
    served, when ``WEB_PORT`` is unset). ``order``: the platform's lines of calls per
    game (its delivery's), which the web presses join. The first platform starts the
    server, the last one stops it. Discord's, with ``DISCORD_CLIENT_ID`` and
    ``DISCORD_CLIENT_SECRET``, also serves the table as an Activity (``discord_api``:
    Discord's REST base, else Discord's own)."""
    port = settings.web_port
    if not port:
        yield None
        return
    secret = web_secret(settings)
    running = _RUNNING.get(port)
    if running is None:
        server = WebServer(secret, settings.telegram_token)
        runner = web.AppRunner(server.app, access_log=None)  # no paths, no tokens logged
        await runner.setup()
        await web.TCPSite(runner, settings.web_listen, port).start()
        running = _RUNNING[port] = _Running(server, runner)
        log.info("web table on %s:%d, public address %s", settings.web_listen, port,
                 settings.web_public_url)
    running.users += 1
    if platform == "dc" and settings.discord_client_id and settings.discord_client_secret:
        running.server.activity = DiscordActivity(
            str(settings.discord_client_id), str(settings.discord_client_secret),
            str(settings.discord_token or ""), discord_api)
    await running.server.attach(Site(platform, store, service, deliver,
                                     order=KeyedOrder() if order is None else order))
    try:
        yield WebLinks(str(settings.web_public_url), secret, settings.telegram_webapp,
                       activity=platform == "dc" and running.server.activity is not None
                       and bool(settings.discord_activity),
                       main_app=bool(getattr(settings, "telegram_main_app", False)))
    finally:
        await running.server.detach(platform)
        running.users -= 1
        if running.users == 0:
            del _RUNNING[port]
            await running.runner.cleanup()
