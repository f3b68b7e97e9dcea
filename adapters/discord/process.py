"""Running the Discord bot: ``run(settings)`` until SIGINT/SIGTERM, ``sync`` of the slash
commands (only when asked: ``python -m bot discord --sync [--guild ID]``), and the
adapter's settings (docs/discord.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
import discord.http
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from adapters.delivery.ticks import stop_on_signals
from adapters.discord.app import BuracoClient
from adapters.discord.shards import shard_settings
from adapters.web.runtime import web_table
from bot.settings import checked_address, described

log = logging.getLogger(__name__)


def _no_voice(record: logging.LogRecord) -> bool:
    return "voice will NOT be supported" not in record.getMessage()  # the bot has no voice


logging.getLogger("discord.client").addFilter(_no_voice)


@described
class DiscordTuning(BaseSettings):
    """Adapter-only settings read from the environment (and ``.env``, as
    :class:`bot.settings.Settings`)."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    discord_api_base: str | None = Field(default=None, pattern=r"^https?://[^\s/]+(/\S*)?$")
    discord_shard_count: str | None = None
    discord_shard_ids: str | None = None

    @field_validator("discord_api_base", mode="before")
    @classmethod
    def _unset_when_empty(cls, value: Any) -> Any:
        """``DISCORD_API_BASE=`` (as a copied ``.env.example`` leaves it) means unset."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("discord_api_base")
    @classmethod
    def _address(cls, value: str | None) -> str | None:
        return checked_address(value)


def check_tuning() -> None:
    """Read the adapter's settings as a start would: raises pydantic's
    ``ValidationError`` or :class:`adapters.discord.shards.ShardSettingError` for a bad one
    (``python -m bot`` checks them before it connects to anything)."""
    tuning = DiscordTuning()
    shard_settings(tuning.discord_shard_count, tuning.discord_shard_ids)


def point_at(api_base: str | None) -> None:
    """Send REST calls to ``api_base`` (e.g. ``http://127.0.0.1:9000/api/v10``, the test
    fake); None keeps Discord's. The gateway URL comes from ``GET /gateway/bot``."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")


async def _client(settings: Any, store: Any, tick: bool = True) -> BuracoClient:
    from adapters.ops.metrics import MeteredService
    from adapters.storage.queue import RedisQueue
    from adapters.storage.season import RedisSeason
    from bot import SystemClock
    from bot.service import Service
    from bot.startup import served_platforms

    tuning = DiscordTuning()
    point_at(tuning.discord_api_base)
    count, ids = shard_settings(tuning.discord_shard_count, tuning.discord_shard_ids)
    core = Service(
        store, SystemClock(), turn_timer_s=settings.turn_timer_s, ai_pace_s=settings.ai_pace_s,
        compress=settings.state_codec, season=RedisSeason.beside(store),
        docs_url=settings.docs_url, invite_ttl_s=settings.invite_ttl_s,
        queue=RedisQueue(store.client, settings.redis_prefix),
        queue_ttl_s=settings.queue_ttl_s)
    core.served = served_platforms(settings)  # /convidar names only these (issue 35)
    service = MeteredService(core)

    async def lang_of(chat_key: str) -> str:
        return (await store.get_setting(chat_key, "lang")) or "pt"

    return BuracoClient(service, store.client, lang_of, prefix=settings.redis_prefix,
                        shard_ids=ids, shard_count=count, tick=tick,
                        timer_sets=settings.redis_timer_sets)


async def serve(settings: Any, stop: asyncio.Event | None = None) -> None:
    """Run the bot until ``stop`` is set (or SIGINT/SIGTERM): log in (a bad token raises
    ``discord.LoginFailure``), connect every shard, tick; on stop, finish the deliveries
    in flight and close. Raises what ends the connection (e.g. no gateway)."""
    from adapters.ops.metrics import watch_discord_rate_limits
    from adapters.ops.server import start_ops, stop_ops
    from adapters.storage.connect import open_settings_store

    if not settings.discord_token:
        raise SystemExit("DISCORD_TOKEN is not set: create a bot at "
                         "https://discord.com/developers/applications (README)")
    store = await open_settings_store(settings)
    ops = None
    try:
        watch_discord_rate_limits()
        ops = await start_ops(store, settings.metrics_port)
        client = await _client(settings, store)
        client.follow_ups = client.service.follow_ups  # the coach's reviews (issue 37)
        client.follow_ups.deliver = client.delivery.deliver
        stop = stop or stop_on_signals()
        async with client, web_table(settings, store, client.service, "dc",
                                     client.delivery.deliver,
                                     client.delivery.order,
                                     discord_api=DiscordTuning().discord_api_base) as links:
            client.delivery.platform.web = links  # type: ignore[attr-defined]
            await client.login(settings.discord_token)
            log.info("%s", running_line(client))
            running = asyncio.ensure_future(client.connect(reconnect=True))
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if running.done():
                running.result()  # the connection ended: raise its error
            log.info("stopping: delivering what is pending")
            await client.shutdown()
            with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
                await running
    finally:
        await stop_ops(ops)
        await store.close()


def running_line(client: Any) -> str:
    """The start-up log line once logged in (issue 30, operator trial O6): the bot's
    name and the shards this process runs (``DISCORD_SHARD_COUNT`` /
    ``DISCORD_SHARD_IDS``, or as many as Discord asks)."""
    count, ids = client.shard_count, client.shard_ids
    shards = (f"shards {', '.join(map(str, ids))} of {count}" if ids is not None else
              f"all {count} shards" if count else "the shards Discord asks for")
    return f"Discord bot {client.user} running: gateway, {shards}"


async def sync(settings: Any, guild: int | None) -> list[str]:
    """Register the slash commands (globally, or in ``guild`` at once) and return their
    names. Only on request: registration is rate-limited by Discord."""
    from adapters.storage.connect import open_settings_store

    if not settings.discord_token:
        raise SystemExit("DISCORD_TOKEN is not set")
    store = await open_settings_store(settings)
    try:
        client = await _client(settings, store, tick=False)
        async with client:
            await client.login(settings.discord_token)
            target = discord.Object(id=guild) if guild else None
            if target is not None:
                client.tree.copy_global_to(guild=target)
            synced = await client.tree.sync(guild=target)
            return [command.name for command in synced]
    finally:
        await store.close()


def run(settings: Any, sync_commands: bool = False, guild: int | None = None) -> None:
    """``python -m bot discord [--sync [--guild ID]]``."""
    if sync_commands:
        names = asyncio.run(sync(settings, guild))
        where = f"guild {guild}" if guild else "global"
        print(f"{len(names)} slash commands synced ({where}): {', '.join(names)}")
        return
    asyncio.run(serve(settings))
