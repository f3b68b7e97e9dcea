"""No token and no hidden card in any log record, at any level (issue 12 item 7,
GUIDE "Standards"): a real python-telegram-bot ``Bot`` with its real httpx transport
talks to a local fake Bot API at DEBUG; a discord.py-shaped DEBUG record and a failing
request's traceback are cleaned the same way (``adapters/logsafe.py``)."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from telegram import Bot

from adapters import logsafe
from bot import __main__ as cli

TOKEN = "424242:AAE-secret_Token-value"
HAND = "Sua mão (11 cartas): 7♥ 10♠ A♦ 2♣ 🃏"
CARDS = ("7♥", "10♠", "A♦", "2♣")
ME = {"id": 424242, "is_bot": True, "first_name": "Buraco", "username": "BuracoTestBot"}


class _FakeBotAPI(BaseHTTPRequestHandler):
    """Answers getMe and sendMessage as the Bot API does, for one token."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode()
        method = self.path.rsplit("/", 1)[-1]
        if not self.path.startswith(f"/bot{TOKEN}/"):
            reply: dict[str, Any] = {"ok": False, "error_code": 401,
                                     "description": "Unauthorized"}
        elif method == "getMe":
            reply = {"ok": True, "result": ME}
        else:
            params = json.loads(body) if body.startswith("{") else {}
            reply = {"ok": True, "result": {
                "message_id": 7, "date": 0, "chat": {"id": 42, "type": "private"},
                "text": params.get("text", HAND)}}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet (the server's own access log is not under test)."""


@pytest.fixture
def api_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeBotAPI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/bot"
    server.shutdown()
    server.server_close()


@pytest.fixture
def debug_logs(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    logsafe.uninstall()  # whatever an earlier test (python -m bot) installed
    caplog.set_level(logging.DEBUG)
    for name in ("telegram", "httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    yield caplog
    logsafe.uninstall()
    for name in ("telegram", "httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.NOTSET)


async def send_hand(api_url: str) -> None:
    async with Bot(TOKEN, base_url=api_url) as bot:
        await bot.send_message(chat_id=42, text=HAND)


def written(caplog: pytest.LogCaptureFixture) -> str:
    """Everything the records would write: messages and tracebacks, formatted."""
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    return "\n".join(formatter.format(r) for r in caplog.records)


async def test_without_the_filter_ptb_logs_the_token_and_the_hand(
        api_url: str, debug_logs: pytest.LogCaptureFixture) -> None:
    """The leak the filter exists for (so the next test can fail)."""
    await send_hand(api_url)
    text = written(debug_logs)
    assert TOKEN in text and "7♥" in text


async def test_a_real_bot_call_at_debug_logs_neither_token_nor_cards(
        api_url: str, debug_logs: pytest.LogCaptureFixture) -> None:
    logsafe.install([TOKEN])
    await send_hand(api_url)
    text = written(debug_logs)
    assert debug_logs.records, "PTB logged nothing at DEBUG"
    assert TOKEN not in text and "AAE-secret" not in text
    assert not [card for card in CARDS if card in text]
    # what the log still says: which endpoint was called, and the token's place
    assert "sendMessage" in text
    assert f"{logsafe.SECRET}/sendMessage" in text


def test_a_discord_http_debug_record_keeps_the_route_and_hides_the_payload(
        debug_logs: pytest.LogCaptureFixture) -> None:
    logsafe.install(["discord-bot-token-xyz"])
    log = logging.getLogger("discord.http")
    log.debug("%s %s with %s has returned %s", "POST",
              "https://discord.com/api/v10/channels/123/messages",
              {"content": HAND}, 200)
    log.debug("Authorization: Bot %s", "discord-bot-token-xyz")
    assert [r.getMessage() for r in debug_logs.records] == [
        "POST https://discord.com/api/v10/channels/123/messages with <hidden> has returned 200",
        "Authorization: Bot <secret>"]


def test_a_traceback_with_the_token_is_redacted(debug_logs: pytest.LogCaptureFixture) -> None:
    logsafe.install([TOKEN])
    try:
        raise ConnectionError(f"cannot reach https://api.telegram.org/bot{TOKEN}/getMe")
    except ConnectionError:
        logging.getLogger("bot.service").exception("update %s failed", 12)
    text = written(debug_logs)
    assert "update 12 failed" in text and "ConnectionError" in text
    assert TOKEN not in text and "bot<secret>/getMe" in text


def test_the_bot_installs_the_filter_at_start_up(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
        debug_logs: pytest.LogCaptureFixture) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("REDIS_URL", "redis://:redis-pass-123@127.0.0.1:1/15")
    seen: list[str] = []

    def run(settings: Any) -> None:
        logging.getLogger("telegram.ext").debug("token %s, url %s", settings.telegram_token,
                                                settings.redis_url)
        seen.append(debug_logs.records[-1].getMessage())

    monkeypatch.setattr("adapters.telegram.app.run", run)
    assert cli.main(["telegram"]) == 0
    assert seen == ["token <secret>, url redis://:<secret>@127.0.0.1:1/15"]
    logging.getLogger("x").warning("redis://:redis-pass-123@host")
    assert debug_logs.records[-1].getMessage() == "redis://:<secret>@host"


def test_a_bad_turn_timer_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 12 item 4: no pydantic traceback, the accepted range named (README)."""
    monkeypatch.chdir(tmp_path)
    for value, line in [
        ("5", "TURN_TIMER_S inválido ('5'): use um número inteiro de 10 a 86400 (segundos)."),
        ("noventa",
         "TURN_TIMER_S inválido ('noventa'): use um número inteiro de 10 a 86400 (segundos)."),
    ]:
        monkeypatch.setenv("TURN_TIMER_S", value)
        assert cli.main(["play"]) == 2
        assert capsys.readouterr().err.splitlines() == [line]
    monkeypatch.delenv("TURN_TIMER_S")
    monkeypatch.setenv("LOG_LEVEL", "verbose")
    assert cli.main(["play"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "LOG_LEVEL inválido ('VERBOSE'): use DEBUG, INFO, WARNING, ERROR ou CRITICAL."]
    monkeypatch.delenv("LOG_LEVEL")
    monkeypatch.setenv("STATE_CODEC", "z4")  # the words it takes, not "use um número"
    assert cli.main(["play"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "STATE_CODEC inválido ('z4'): use z1 / z2 / z3."]


def test_a_card_given_as_a_platform_log_argument_is_hidden(
        debug_logs: pytest.LogCaptureFixture) -> None:
    """Hidden cards never in logs (DEVELOPERS standards): a ``Card`` is a ``float``
    underneath (issue 13), yet it is not let through as a plain number."""
    from engine.cards import Card

    logsafe.install(["discord-bot-token-xyz"])
    logging.getLogger("discord.http").debug("drew %s of %s", Card.parse("7h"), 3.5)
    assert [r.getMessage() for r in debug_logs.records] == ["drew <hidden> of 3.5"]


def test_a_discord_interaction_token_in_a_webhook_url_is_redacted(
        debug_logs: pytest.LogCaptureFixture) -> None:
    """discord.py's webhook logger writes each interaction's URL at DEBUG; its token
    (which answers and edits the person's ephemeral hand for 15 minutes) is no configured
    secret, so it is found by its place in the path (a trial saw short fake tokens pass
    the 120-character rule)."""
    logsafe.install(["discord-bot-token-xyz"])
    log = logging.getLogger("discord.webhook.async_")
    log.debug("Webhook ID %s with %s %s has returned status code %s", 99, "POST",
              "https://discord.com/api/v10/interactions/555/tok_EN-1.x/callback", 204)
    log.debug("Webhook ID %s with %s %s has returned status code %s", 99, "PATCH",
              "https://discord.com/api/v10/webhooks/77/aW50ZXJhY3Rpb246/messages/@original",
              200)
    assert [r.getMessage() for r in debug_logs.records] == [
        "Webhook ID 99 with POST https://discord.com/api/v10/interactions/555/<secret>/callback"
        " has returned status code 204",
        "Webhook ID 99 with PATCH https://discord.com/api/v10/webhooks/77/<secret>"
        "/messages/@original has returned status code 200"]
