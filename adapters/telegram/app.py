"""The Telegram bot process: python-telegram-bot 22 ``Application`` wiring and ``run``.

``run(settings)`` runs until interrupted: long polling, or a webhook server when
``WEBHOOK_URL`` is set (:mod:`adapters.telegram.webhook`: the
``X-Telegram-Bot-Api-Secret-Token`` header is checked against ``WEBHOOK_SECRET``, or a
secret derived from the token so every worker agrees; Telegram is answered after the
update is handled, and 503 once the worker is stopping, so a rolling deploy or a crash
makes Telegram send an unhandled update again).
``TELEGRAM_BASE_URL`` points the bot at another Bot API server (self-hosted, or the test
emulator); it is the server root, ``/bot<token>/<method>`` is appended.
``TELEGRAM_POLL_INTERVAL`` (seconds, default 0) spaces ``getUpdates`` calls for servers
that do not long-poll. Updates are handled concurrently, in order per game and chat
(:mod:`adapters.telegram.order`); a background loop steps the due games (AI moves,
timers, next deal, :mod:`adapters.delivery.ticks`) and delivers their effects.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlparse

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict
from telegram import BotCommand, Update
from telegram.ext import (
    AIORateLimiter,
    Application,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from adapters.delivery.coalesce import EditCoalescer
from adapters.delivery.commands import COMMANDS
from adapters.delivery.order import KeyedOrder
from adapters.delivery.outbox import CALLS_AT_ONCE
from adapters.delivery.stale import StaleTables
from adapters.delivery.ticks import STOP_WAIT_S, stop_on_signals, tick_loop, wind_down
from adapters.delivery.window import SharedWindow
from adapters.telegram import render
from adapters.telegram.calls import api
from adapters.telegram.handlers import Handlers
from adapters.telegram.i18n import Texts
from adapters.telegram.order import UpdateOrder
from adapters.telegram.outbox import Outbox
from adapters.telegram.refs import MessageRefs
from adapters.telegram.watched import watched_requests
from adapters.telegram.webhook import WebhookServer
from adapters.web.runtime import web_table
from bot.settings import Settings, described

log = logging.getLogger(__name__)

COMMAND_LANGS = {"pt": None, "en": "en", "it": "it"}  # None: the default (pt-BR) list


MAX_POLL_INTERVAL_S = 10.0
"""The longest ``TELEGRAM_POLL_INTERVAL``: a stop waits out the pause in progress, and
it must end well inside the 30 s a service manager gives (docs/operator.md's systemd
unit, ``TimeoutStopSec=30``) with the moves in hand still to finish (issue 30)."""


@described
class TelegramTuning(BaseSettings):
    """Adapter-only settings read from the environment (and ``.env``, as
    :class:`bot.settings.Settings`): ``telegram_poll_interval``, seconds between two
    ``getUpdates`` calls while polling, 0 to :data:`MAX_POLL_INTERVAL_S` (default 0:
    Telegram long-polls; about 0.5 for a Bot API server that does not, such as the test
    emulator). NaN, infinities and values out of range are refused (ValidationError)."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    telegram_poll_interval: float = Field(default=0.0, ge=0, le=MAX_POLL_INTERVAL_S,
                                          allow_inf_nan=False)


def api_base(base_url: str | None) -> tuple[str, str]:
    """PTB ``base_url`` and ``base_file_url`` for a Bot API server root (None: Telegram)."""
    if not base_url:
        return "https://api.telegram.org/bot", "https://api.telegram.org/file/bot"
    root = base_url.rstrip("/")
    if root.endswith("/bot"):
        root = root[: -len("/bot")]
    return f"{root}/bot", f"{root}/file/bot"


def webhook_secret(settings: Settings) -> str:
    """The webhook secret: ``WEBHOOK_SECRET``, or one derived from the token (same in every
    worker, unguessable without the token; Bot API allows ``A-Za-z0-9_-``, 1-256 chars)."""
    if settings.webhook_secret:
        return settings.webhook_secret
    token = settings.telegram_token or ""
    return hashlib.sha256(f"webhook:{token}".encode()).hexdigest()


def build_application(settings: Settings, service: Any, refs: MessageRefs,
                      lang_of: Callable[[str], Awaitable[str]],
                      **builder_options: Any) -> tuple[Any, Handlers]:
    """An ``Application`` with the handlers over ``service`` and the ``Handlers`` object.

    ``builder_options``: ``request`` replaces the HTTP layer (tests pass a fake Bot API).
    Raises ValueError without a token.
    """
    if not settings.telegram_token:
        raise ValueError("TELEGRAM_TOKEN is not set")
    base_url, base_file_url = api_base(settings.telegram_base_url)
    builder = (Application.builder().token(settings.telegram_token).base_url(base_url)
               .base_file_url(base_file_url).rate_limiter(AIORateLimiter(max_retries=0)))
    if "request" in builder_options:
        builder = builder.request(builder_options["request"])
        builder = builder.get_updates_request(builder_options["request"])
    else:  # an answer ends an outage in the log (adapters/logcalm.py)
        calls, polls = watched_requests()
        builder = builder.request(calls).get_updates_request(polls)
    order = KeyedOrder(CALLS_AT_ONCE)  # updates side by side, each game in order (issue 36)
    application = builder.concurrent_updates(UpdateOrder(order)).build()
    group_edits = EditCoalescer(gap_s=3.0, per_minute=20,
                                shared=SharedWindow(refs.client, refs.prefix))
    stale = StaleTables(refs.client, refs.prefix, "tg", sets=settings.redis_timer_sets)
    handlers = Handlers(service, Outbox(application.bot, refs, lang_of, group_edits,
                                        stale=stale, order=order))
    links = getattr(service, "invite_links", None)
    if isinstance(links, dict):  # issue 35: /convidar's links
        links["tg"] = lambda code: invite_links(handlers.outbox, code)
    names = [name for name, _ in COMMANDS]
    application.add_handler(CommandHandler("start", handlers.start))
    application.add_handler(CommandHandler(names, handlers.command))
    application.add_handler(CallbackQueryHandler(handlers.press))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.migrated))
    application.add_error_handler(handlers.on_error)
    return application, handlers


def invite_links(outbox: Outbox, code: str) -> list[str]:
    """The links ``/convidar`` gives on Telegram for ``code`` (issue 35): the private
    chat's ``t.me/<bot>?start=c<code>`` (``/entrar <code>`` sent there), then, when the
    web table runs as a Mini App (``TELEGRAM_WEBAPP`` or ``TELEGRAM_MAIN_APP``), the Mini
    App's ``startapp=c<code>`` link, which seats the person from the page
    (adapters/web/server.py)."""
    out = [render.deep_link(outbox.username, f"c{code}")]
    web = outbox.platform.web
    app = web.mini_app(outbox.username, f"c{code}") if web is not None else None
    return [*out, app] if app else out


def running_line(settings: Settings, username: str, poll_interval: float) -> str:
    """The start-up log line (issue 30, operator trial O6): the bot's name, how updates
    come (polling and its pause, or the webhook: the address Telegram posts to, the
    address served, where the secret header comes from, never its value) and the Bot
    API server when it is not Telegram's. A token in the webhook's path is redacted by
    :mod:`adapters.logsafe` like any other."""
    if settings.webhook_url:
        url = urlparse(settings.webhook_url)
        port = f":{url.port}" if url.port else ""
        secret = "WEBHOOK_SECRET" if settings.webhook_secret else "derived from the token"
        how = (f"webhook: Telegram posts to {url.scheme}://{url.hostname}{port}"
               f"{url.path or '/'}, served on {settings.webhook_listen}:"
               f"{settings.webhook_port} (secret header: {secret})")
    elif poll_interval:
        how = f"polling, every {poll_interval:g} s"
    else:
        how = ("polling with no pause (TELEGRAM_POLL_INTERVAL=0: for Telegram, which "
               "long-polls)")
    server = (f"; Bot API server {settings.telegram_base_url}" if settings.telegram_base_url
              else "")
    return f"Telegram bot @{username} running: {how}{server}"


async def register_commands(application: Any) -> None:
    """``setMyCommands`` in pt-BR (default), English and Italian; a server that lacks the
    method is logged and ignored."""
    for lang, code in COMMAND_LANGS.items():
        _ = Texts(lang)
        commands = [BotCommand(name, _(text)) for name, text in COMMANDS]

        async def register(commands: list[BotCommand] = commands,
                           code: str | None = code) -> bool:
            return bool(await application.bot.set_my_commands(commands, language_code=code))

        await api("setMyCommands", register, transient=0)  # best effort, once


async def serve(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Run the bot until ``stop`` is set (or SIGINT/SIGTERM): open the store, build the
    service and the application, register the commands, receive updates, tick."""
    from adapters.ops.metrics import MeteredService
    from adapters.ops.series import pending_from
    from adapters.ops.server import start_ops, stop_ops
    from adapters.storage.connect import open_settings_store
    from adapters.storage.queue import RedisQueue
    from adapters.storage.season import RedisSeason
    from bot import SystemClock
    from bot.service import Service
    from bot.startup import served_platforms

    logging.getLogger("httpx").setLevel(logging.WARNING)  # its INFO lines carry the token
    store = await open_settings_store(settings)
    core = Service(
        store, SystemClock(), turn_timer_s=settings.turn_timer_s, ai_pace_s=settings.ai_pace_s,
        compress=settings.state_codec, season=RedisSeason.beside(store),
        docs_url=settings.docs_url, invite_ttl_s=settings.invite_ttl_s,
        queue=RedisQueue(store.client, settings.redis_prefix),
        queue_ttl_s=settings.queue_ttl_s)
    core.served = served_platforms(settings)  # /convidar names only these (issue 35)
    service = MeteredService(core)
    ops = None  # started in the try: a port in use still closes the store

    async def lang_of(chat_key: str) -> str:
        return (await store.get_setting(chat_key, "lang")) or "pt"

    refs = MessageRefs(store.client, settings.redis_prefix, layout=store.layout)
    application, handlers = build_application(settings, service, refs, lang_of)
    service.follow_ups.deliver = handlers.outbox.deliver  # the coach's reviews (issue 37)
    pending_from(application.update_queue.qsize)  # the operator's intake lag (issue 36)
    stop = stop or stop_on_signals()
    updates = [Update.MESSAGE, Update.CALLBACK_QUERY]
    hook = (WebhookServer(application, webhook_secret(settings), settings.webhook_listen,
                          settings.webhook_port, urlparse(settings.webhook_url).path)
            if settings.webhook_url else None)
    if hook is not None:
        pending_from(hook.pending)
    try:
        ops = await start_ops(store, settings.metrics_port)
        async with application:
            await register_commands(application)
            await application.start()
            if hook is not None:  # answers after handling: a rolling deploy loses nothing
                await hook.start()
                await application.bot.set_webhook(
                    settings.webhook_url, secret_token=webhook_secret(settings),
                    allowed_updates=updates)
            else:
                await application.updater.start_polling(
                    poll_interval=TelegramTuning().telegram_poll_interval,
                    allowed_updates=updates)
            log.info("%s", running_line(settings, application.bot.username,
                                        TelegramTuning().telegram_poll_interval))
            async with web_table(settings, store, service, "tg", handlers.outbox.deliver,
                                 handlers.outbox.order) as links:
                handlers.outbox.platform.web = links
                halt = asyncio.Event()
                ticking = asyncio.get_running_loop().create_task(
                    tick_loop(service, handlers.outbox, stop=halt))
                await stop.wait()
                if hook is not None:  # no new updates (503: Telegram sends them again)
                    hook.refuse()
                else:
                    await application.updater.stop()
                began = time.monotonic()
                await wind_down(ticking, halt, handlers.outbox,  # finish what runs
                                follow_ups=service.follow_ups)
                if hook is not None:  # answer what was handled, then close
                    await hook.stop(STOP_WAIT_S)
                log.info("stopping: updates in hand finished in %.1f s",
                         time.monotonic() - began)
            await application.stop()
    finally:
        await stop_ops(ops)
        await store.close()


def run(settings: Settings) -> None:
    """Run the bot until interrupted (polling, or webhook when ``WEBHOOK_URL`` is set).

    Exits with a message (``SystemExit``) when ``TELEGRAM_TOKEN`` is not set."""
    if not settings.telegram_token:
        raise SystemExit("TELEGRAM_TOKEN is not set: get a token from @BotFather and run "
                         "TELEGRAM_TOKEN=<token> python -m bot telegram")
    asyncio.run(serve(settings))
