"""Issue 30 "Whoever runs the bot", the operator trial's O6: the start-up log says how
the process runs. Telegram says polling (and its pause) or webhook (where Telegram
posts, what is served, where the secret header comes from: never a secret's value);
Discord its shards; the web table and the operator's endpoints their addresses; ``serve``
which platforms it started and which it skipped, and why. docs/operator.md "Start-up
log"."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from net_support import free_port

from adapters import logsafe
from adapters.discord.process import running_line as discord_line
from adapters.ops.server import start_ops, stop_ops
from adapters.storage import RedisStore
from adapters.telegram.app import running_line
from adapters.web.runtime import web_table
from bot import __main__ as cli
from bot.memstore import MemoryStore
from bot.settings import Settings
from bot.startup import serve_line

TOKEN = "424242:AAE-secret_Token-value"
HEADER = "header-secret_0123456789"
DOWN = "redis://127.0.0.1:1/0"  # nothing listens there


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, telegram_token=TOKEN, **values)  # type: ignore[arg-type]


def test_telegram_says_it_polls_with_no_pause_by_default() -> None:
    assert running_line(settings(), "BuracoBot", 0.0) == (
        "Telegram bot @BuracoBot running: polling with no pause (TELEGRAM_POLL_INTERVAL=0: "
        "for Telegram, which long-polls)")


def test_telegram_says_its_polling_pause_and_the_bot_api_server() -> None:
    line = running_line(settings(telegram_base_url="http://127.0.0.1:8081"), "B", 0.5)
    assert line == ("Telegram bot @B running: polling, every 0.5 s; Bot API server "
                    "http://127.0.0.1:8081")


def test_telegram_in_webhook_mode_says_the_address_and_never_the_secret() -> None:
    line = running_line(settings(webhook_url="https://bot.example.org:8443/tg",
                                 webhook_secret=HEADER, webhook_port=9000), "B", 0.0)
    assert line == ("Telegram bot @B running: webhook: Telegram posts to "
                    "https://bot.example.org:8443/tg, served on 0.0.0.0:9000 (secret "
                    "header: WEBHOOK_SECRET)")
    derived = running_line(settings(webhook_url="https://bot.example.org/"), "B", 0.0)
    assert derived.endswith("posts to https://bot.example.org/, served on 0.0.0.0:8443 "
                            "(secret header: derived from the token)")


def test_a_token_in_the_webhook_path_is_redacted_in_the_log(
        caplog: pytest.LogCaptureFixture) -> None:
    logsafe.install(logsafe.secrets_of(TOKEN, HEADER))
    try:
        with caplog.at_level(logging.INFO):
            logging.getLogger("adapters.telegram.app").info("%s", running_line(
                settings(webhook_url=f"https://bot.example.org/{TOKEN}",
                         webhook_secret=HEADER), "B", 0.0))
    finally:
        logsafe.uninstall()
    assert caplog.messages == ["Telegram bot @B running: webhook: Telegram posts to "
                               "https://bot.example.org/<secret>, served on 0.0.0.0:8443 "
                               "(secret header: WEBHOOK_SECRET)"]


@pytest.mark.parametrize(("count", "ids", "shards"), [
    (None, None, "the shards Discord asks for"), (4, None, "all 4 shards"),
    (4, [2, 3], "shards 2, 3 of 4")])
def test_discord_says_its_shards(count: int | None, ids: list[int] | None,
                                 shards: str) -> None:
    client = SimpleNamespace(user="Buraco#1234", shard_count=count, shard_ids=ids)
    assert discord_line(client) == f"Discord bot Buraco#1234 running: gateway, {shards}"


@pytest.mark.parametrize(("telegram", "discord", "line"), [
    (TOKEN, "", "serve: starting Telegram; Discord skipped (DISCORD_TOKEN is empty)"),
    (TOKEN, None, "serve: starting Telegram; Discord skipped (DISCORD_TOKEN is not set)"),
    (None, "x" * 10, "serve: starting Discord; Telegram skipped (TELEGRAM_TOKEN is not set)"),
    (TOKEN, "x" * 10, "serve: starting Telegram and Discord")])
def test_serve_says_which_platforms_it_starts_and_why_it_skips_one(
        telegram: str | None, discord: str | None, line: str) -> None:
    assert serve_line(Settings(_env_file=None, telegram_token=telegram,
                               discord_token=discord)) == line


def test_serve_logs_that_line_at_start_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          caplog: pytest.LogCaptureFixture) -> None:
    """As the operator met it: ``DISCORD_TOKEN=`` in a copied ``.env.example``."""
    monkeypatch.chdir(tmp_path)
    for name in ("REDIS_URL", "WEBHOOK_URL", "METRICS_PORT", "WEB_PORT", "LANG",
                 "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text(f"TELEGRAM_TOKEN={TOKEN}\nDISCORD_TOKEN=\n"
                                   f"REDIS_URL={DOWN}\n", encoding="utf-8")
    try:
        with caplog.at_level(logging.INFO, logger="bot"):
            assert cli.main(["serve"]) == 1  # Redis does not answer
    finally:
        logsafe.uninstall()
    assert "serve: starting Telegram; Discord skipped (DISCORD_TOKEN is empty)" in (
        caplog.messages)
    assert all(TOKEN not in message for message in caplog.messages)


async def test_the_operator_s_endpoints_log_their_address(
        redis_store: RedisStore, caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()  # the endpoints read the store's Redis client (/health/ready)
    with caplog.at_level(logging.INFO, logger="adapters.ops.server"):
        runner = await start_ops(redis_store, port, host="127.0.0.1")
    await stop_ops(runner)
    assert caplog.messages == [f"operator's endpoints on 127.0.0.1:{port} (/metrics, "
                               "/health/live, /health/ready)"]


async def test_the_web_table_logs_where_it_listens_and_its_public_address(
        caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()
    config = Settings(_env_file=None, web_port=port, web_listen="127.0.0.1",
                      web_public_url="https://mesa.example.org/", web_secret="x" * 20,
                      telegram_token=TOKEN)
    with caplog.at_level(logging.INFO, logger="adapters.web.runtime"):
        async with web_table(config, MemoryStore(), object(), "tg", None):
            pass
    assert caplog.messages == [f"web table on 127.0.0.1:{port}, public address "
                               "https://mesa.example.org/"]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    yield
    logsafe.uninstall()


def test_a_port_already_taken_is_one_line_and_exit_1(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``METRICS_PORT`` (or ``WEB_PORT``, ``WEBHOOK_PORT``) held by another process was a
    raw traceback; it is one line, exit 1 (often passing: an old process still holds it,
    so a service manager's restart may help)."""
    monkeypatch.chdir(tmp_path)
    for name in ("REDIS_URL", "WEBHOOK_URL", "WEB_PORT", "LANG", "LANGUAGE", "LC_ALL",
                 "LC_MESSAGES", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.setenv("METRICS_PORT", str(port))
        monkeypatch.setenv("TELEGRAM_TOKEN", TOKEN)
        assert cli.main(["telegram"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Não consegui abrir a porta (WEBHOOK_PORT, WEB_PORT ou "
                          "METRICS_PORT): [Errno 98] error while attempting to bind on "
                          f"address ('0.0.0.0', {port}): ")
    assert err.count("\n") == 1
