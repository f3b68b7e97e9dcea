"""Run the real bot process, ``python -m bot discord`` (unmodified), against the fake Discord,
and clean up after it in Redis.

The bot reaches the fake through its documented settings (docs/discord.md):
``DISCORD_TOKEN``, ``DISCORD_API_BASE`` (REST root; the gateway URL comes from the fake's
``GET /gateway/bot``), ``REDIS_URL``, ``AI_PACE_S``, ``TURN_TIMER_S``, ``LOG_LEVEL``.
A restart mid-deal needs the game to outlive the process, so these tests use a real Redis:
the server of ``REDIS_URL`` (else ``redis://127.0.0.1:6379``), in a database that holds no
keys when the test starts. Not the shared test database 15 itself: the bot process has no
key prefix setting, and its tick loop takes every due game it finds there, other helpers'
Telegram games included (tests/discord/NEEDS.md items 5 and 6).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit, urlunsplit

import redis
from fake_discord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]
FALLBACK_REDIS = "redis://127.0.0.1:6379/15"
T = TypeVar("T")


def wait_for(probe: Callable[[], T | None], timeout: float = 20.0, what: str = "") -> T:
    """Call ``probe`` every 20 ms until it returns something truthy; AssertionError after
    ``timeout`` seconds, naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or probe}")
        time.sleep(0.02)


def redis_url() -> str | None:
    """A URL on the server of ``REDIS_URL`` (else the local one) whose database is empty
    now, trying 14 down to 1; None when the server does not answer or none is empty."""
    parts = urlsplit(os.environ.get("REDIS_URL") or FALLBACK_REDIS)
    for db in range(14, 0, -1):
        url = urlunsplit((parts.scheme, parts.netloc, f"/{db}", "", ""))
        try:
            client = redis.Redis.from_url(url, socket_connect_timeout=1)
            try:
                if client.dbsize() == 0:
                    return url
            finally:
                client.close()
        except redis.RedisError:
            return None
    return None


def bot_env(fake: FakeDiscord, url: str, **extra: str) -> dict[str, str]:
    """The environment of a bot process pointed at ``fake`` and the Redis at ``url``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "TELEGRAM_", "WEBHOOK_"))}
    env.update(DISCORD_TOKEN=fake.token, DISCORD_API_BASE=fake.api_base, REDIS_URL=url,
               AI_PACE_S="0", TURN_TIMER_S="900", LOG_LEVEL="INFO", PYTHONPATH=str(REPO),
               **extra)
    return env


def sync_commands(fake: FakeDiscord, workdir: Path, url: str) -> str:
    """``python -m bot discord --sync --guild <guild>``: registers the slash commands in the
    fake's guild and exits 0. Returns its output."""
    done = subprocess.run([sys.executable, "-m", "bot", "discord", "--sync", "--guild",
                           str(fake.guild_id)], cwd=workdir, env=bot_env(fake, url),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


@contextlib.contextmanager
def run_bot(fake: FakeDiscord, workdir: Path, url: str, log_name: str = "bot.log",
            **extra: str) -> Iterator[Path]:
    """``python -m bot discord`` for the ``with`` block; yields its log file once it has
    identified on the fake's gateway. Stopped with SIGTERM (SIGKILL after 10 s). An
    AssertionError inside the block gets the tail of the bot's log appended."""
    log = workdir / log_name
    before = fake.gateway.identifies
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, "-m", "bot", "discord"], cwd=workdir,
                                   env=bot_env(fake, url, **extra), stdout=out,
                                   stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: fake.gateway.identifies > before or process.poll() is not None,
                 timeout=60, what="the bot to identify on the gateway")
        assert process.poll() is None, log.read_text()
        yield log
    except AssertionError as error:
        raise AssertionError(f"{error}\n--- {log_name}, last lines:\n"
                             f"{log.read_text()[-6000:]}") from None
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def forget(url: str, fake: FakeDiscord, game_ids: set[str]) -> None:
    """Delete every key this run made: the keys naming the fake's channel, guild, people
    or interactions, and the games' own keys (and their timer entries)."""
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        ids = [fake.channel_id, fake.guild_id, *fake.people]
        keys: set[str] = set()
        for some in ids:
            keys |= set(client.scan_iter(match=f"*{some}*"))
        interactions = {str(i) for i in fake.interactions}
        keys |= {k for k in client.scan_iter(match="*seen*")
                 if set(k.split(":")) & interactions}
        for game in game_ids:
            keys |= set(client.scan_iter(match=f"*{{{game}}}*"))
            for zset in client.scan_iter(match="*timers*", _type="zset"):
                client.zrem(zset, game)
        if keys:
            client.delete(*keys)
    finally:
        client.close()
