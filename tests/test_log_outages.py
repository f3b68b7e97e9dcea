"""One warning per outage, one line when it ends, repeated errors rate-limited
(adapters/logcalm.py; issue 38: a one-second Bot API outage wrote three ~100-line
tracebacks from ``telegram.ext.Updater``, a Redis Cluster outage 1,621 lines in 12 s).

Each outage is provoked for real and the log's lines counted: a Bot API answering 502
to ``getUpdates`` for a second, polled by the adapter's own application; Redis
unreachable for the tick loop's rounds: tests/test_log_outage_restart.py (a real
redis-server)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Iterator

import fakeredis
import pytest
import redis.asyncio
import redis.exceptions
from aiohttp import web

from adapters import logcalm, logsafe
from adapters.telegram.app import build_application
from adapters.telegram.refs import MessageRefs
from bot.settings import Settings

TOKEN = "777001:AAHoutageOUTAGEoutage"


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """The log as production writes it (root handler at INFO, logsafe and logcalm on),
    into a string."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    # earlier tests' event loops, collected meanwhile, say "Task was destroyed" here
    handler.addFilter(lambda record: record.name != "asyncio")
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # as adapters.telegram.app.serve
    logsafe.install([TOKEN])
    logcalm.install([handler], logcalm.Calm())
    try:
        yield out
    finally:
        logcalm.uninstall([handler])
        logsafe.uninstall()
        root.removeHandler(handler)
        root.setLevel(level)


class FlakyBotAPI:
    """A Bot API whose ``getUpdates`` answers 502 Bad Gateway while ``down`` is set."""

    def __init__(self) -> None:
        self.down = False
        self.polls = {"failed": 0, "answered": 0}

    async def handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if method == "getMe":
            return web.json_response({"ok": True, "result": {
                "id": 777001, "is_bot": True, "first_name": "Buraco", "username": "buraco_bot"}})
        if method == "getUpdates" and self.down:
            self.polls["failed"] += 1
            return web.json_response({"ok": False, "error_code": 502,
                                      "description": "Bad Gateway"}, status=502)
        if method == "getUpdates":
            self.polls["answered"] += 1
            await asyncio.sleep(0.05)
            return web.json_response({"ok": True, "result": []})
        return web.json_response({"ok": True, "result": True})


async def test_a_bot_api_outage_of_a_second_writes_one_warning_and_one_line_when_it_ends(
        log_lines: io.StringIO) -> None:
    api = FlakyBotAPI()
    app = web.Application()
    app.router.add_route("*", "/bot{token}/{method}", api.handle)
    runner = web.AppRunner(app, access_log=None)  # the fake's own lines are not the bot's
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]

    async def lang_of(chat_key: str) -> str:
        return "pt"

    settings = Settings(telegram_token=TOKEN, telegram_base_url=f"http://127.0.0.1:{port}",
                        _env_file=None)
    refs = MessageRefs(fakeredis.FakeAsyncRedis(), "t38")
    application, _handlers = build_application(settings, object(), refs, lang_of)
    try:
        async with application:
            await application.updater.start_polling(poll_interval=0.05)
            await asyncio.sleep(0.3)
            api.down = True
            await asyncio.sleep(1.0)
            api.down = False
            await asyncio.sleep(2.5)  # the retry loop waits 1, then 1.5 s after errors
            await application.updater.stop()
    finally:
        await runner.cleanup()
    assert api.polls["failed"] >= 1 and api.polls["answered"] >= 2
    lines = log_lines.getvalue().splitlines()
    assert len(lines) == 2, "\n".join(lines)
    assert lines[0] == (
        "WARNING telegram.ext.Updater: Telegram unreachable (NetworkError: Bad Gateway, from "
        "telegram.ext.Updater); further errors are summarised, one line when it is back")
    assert re.fullmatch(r"WARNING outage: Telegram is back after \d+\.\d s \(\d+ errors not "
                        r"shown\)", lines[1]), lines[1]
    assert TOKEN not in log_lines.getvalue()


def test_a_long_outage_says_it_goes_on_once_a_minute() -> None:
    now = [0.0]
    calm = logcalm.Calm(clock=lambda: now[0])
    shown = []
    for second in range(0, 150):
        now[0] = float(second)
        record = logging.LogRecord("adapters.delivery.ticks", logging.ERROR, __file__, 1,
                                   "tick failed", (), None)
        record.error = redis.exceptions.ConnectionError("Error 111 connecting")
        if calm.filter(record):
            shown.append((second, record.getMessage()))
    assert shown == [
        (0, "Redis unreachable (ConnectionError: Error 111 connecting, from "
            "adapters.delivery.ticks); further errors are summarised, one line when it is back"),
        (60, "Redis still unreachable: 60 errors in the last 60 s (last: ConnectionError: "
             "Error 111 connecting)"),
        (120, "Redis still unreachable: 60 errors in the last 60 s (last: ConnectionError: "
              "Error 111 connecting)")]


def test_a_repeated_error_is_written_five_times_a_minute_then_counted() -> None:
    now = [0.0]
    calm = logcalm.Calm(clock=lambda: now[0])
    shown = []
    for k in range(30):
        now[0] = k * 3.0  # one every 3 s: 20 in the first minute
        record = logging.LogRecord("bot.ticking", logging.ERROR, __file__, 1,
                                   "game %s: timer step failed (%s)", (f"g{k}", "KeyError"), None)
        record.template = record.msg
        if calm.filter(record):
            shown.append(record.getMessage())
    assert shown == [
        *[f"game g{k}: timer step failed (KeyError)" for k in range(5)],
        "game g20: timer step failed (KeyError) (15 more like it were not shown in the last "
        "60 s)",
        *[f"game g{k}: timer step failed (KeyError)" for k in range(21, 25)]]


def test_info_records_and_other_errors_pass_untouched() -> None:
    calm = logcalm.Calm(clock=lambda: 0.0)
    info = logging.LogRecord("bot", logging.INFO, __file__, 1, "started", (), None)
    assert all(calm.filter(info) for _ in range(50))
    other = logging.LogRecord("x", logging.ERROR, __file__, 1, "boom", (), None)
    other.error = ValueError("not an outage")
    assert calm.filter(other) and other.getMessage() == "boom"
    assert calm.outages == {}


def test_what_says_redis_or_a_cluster_is_unreachable_is_an_outage() -> None:
    """The errors a Redis or Redis Cluster outage raises (a node down, the cluster down,
    a failover in progress, no reachable node) open an outage; a command Redis refuses
    for its own reasons does not."""
    rex = redis.exceptions
    for err in (rex.ConnectionError("x"), rex.TimeoutError("x"), rex.ClusterDownError("x"),
                rex.ClusterError("TTL exhausted"), rex.TryAgainError("x"),
                rex.ReadOnlyError("x"), rex.SlotNotCoveredError("x"),
                rex.RedisClusterException("Redis Cluster cannot be connected")):
        assert logcalm.service_of(err) == "Redis", err
    assert logcalm.service_of(rex.ResponseError("WRONGTYPE")) is None
    wrapped = RuntimeError("tick")
    wrapped.__cause__ = rex.ConnectionError("down")
    assert logcalm.service_of(wrapped) == "Redis"
