"""Run the real bot process, ``python -m bot discord`` (unmodified), against the fake Discord,
and clean up after it in Redis.

The bot reaches the fake through its documented settings (docs/discord.md):
``DISCORD_TOKEN``, ``DISCORD_API_BASE`` (REST root; the gateway URL comes from the fake's
``GET /gateway/bot``), ``REDIS_URL``, ``AI_PACE_S``, ``TURN_TIMER_S``, ``LOG_LEVEL``.
A restart mid-deal needs the game to outlive the process, so these tests use a real Redis:
``REDIS_URL`` (unset: the tests are skipped, as every test needing a real Redis), with
this run's own key prefix (``REDIS_PREFIX``, :func:`prefix_of`): the games of other tests
in that shared database are not this bot's, and :func:`forget` deletes exactly this
run's keys.
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

import redis
from fake_discord import FakeDiscord, start_fake
from fake_model import Person

REPO = Path(__file__).resolve().parents[2]
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
    """``REDIS_URL`` when it is set and answers PING, else None (README: tests that need
    a real Redis run only when ``REDIS_URL`` is set; CI sets it)."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1)
        try:
            client.ping()
        finally:
            client.close()
    except redis.RedisError:
        return None
    return url


def prefix_of(fake: FakeDiscord) -> str:
    """The run's key prefix: named after the fake's application id (new every run)."""
    return f"e2e-dc-{fake.app_id}"


def bot_env(fake: FakeDiscord, url: str, **extra: str) -> dict[str, str]:
    """The environment of a bot process pointed at ``fake`` and the Redis at ``url``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "TELEGRAM_", "WEBHOOK_"))}
    env.update(DISCORD_TOKEN=fake.token, DISCORD_API_BASE=fake.api_base, REDIS_URL=url,
               REDIS_PREFIX=prefix_of(fake), AI_PACE_S="0", TURN_TIMER_S="900",
               LOG_LEVEL="INFO", PYTHONPATH=str(REPO), **extra)
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
            argv: list[str] | None = None, started: list[subprocess.Popen[bytes]] | None = None,
            **extra: str) -> Iterator[Path]:
    """``python -m bot discord`` for the ``with`` block; yields its log file once it has
    identified on the fake's gateway (``started`` receives the process, to signal it).
    Stopped with SIGTERM (SIGKILL after 10 s). An
    AssertionError inside the block gets the tail of the bot's log appended. ``argv``
    replaces the command after the interpreter (default ``-m bot discord``)."""
    log = workdir / log_name
    before = fake.gateway.identifies
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, *(argv or ["-m", "bot", "discord"])],
                                   cwd=workdir,
                                   env=bot_env(fake, url, **extra), stdout=out,
                                   stderr=subprocess.STDOUT)
    if started is not None:
        started.append(process)
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


def forget(url: str, fake: FakeDiscord) -> None:
    """Delete every key of this run (its prefix); no other key is touched."""
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        keys = list(client.scan_iter(match=f"{prefix_of(fake)}:*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@contextlib.contextmanager
def synced_fake(token: str, people: list[Person], workdir: Path,
                url: str) -> Iterator[FakeDiscord]:
    """A running fake Discord for the ``with`` block, with ``people`` in its guild and the
    bot's slash commands synced (:func:`sync_commands`); this run's keys are deleted in
    the Redis at ``url`` after it (:func:`forget`)."""
    with start_fake(token, people) as fake:
        sync_commands(fake, workdir, url)
        try:
            yield fake
        finally:
            forget(url, fake)
