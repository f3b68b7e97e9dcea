"""No line the bot prints or logs repeats a secret (docs/operator.md "Exit codes": "A
line never repeats the value of a secret"; issue 38): a token the platform refuses is
told in the operator's language without the library's text (python-telegram-bot's
``InvalidToken`` quoted the whole token, in English, on stderr, from ``telegram`` and
``serve``), and every other line that quotes a library's error (a Bot API URL, a Redis
URL with its password), printed or logged, and an unforeseen traceback, has the secrets
replaced by ``<secret>`` (adapters/logsafe.py)."""

from __future__ import annotations

import io
import logging
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import redis.exceptions
import telegram.error
from aiohttp import web
from threaded_app import RoutesApp

import adapters.telegram
from adapters import logsafe
from bot import __main__ as cli

TOKEN = "777001:AAHsecretSECRETsecret-xyz"
PASSWORD = "hunter2hunter2"
REFUSED = {
    None: "TELEGRAM_TOKEN recusado pelo Telegram: confira o token que o @BotFather deu",
    "en_US.UTF-8": "TELEGRAM_TOKEN refused by Telegram: check the token @BotFather gave",
    "it_IT.UTF-8": "TELEGRAM_TOKEN rifiutato da Telegram: controlla il token che ha dato "
                   "@BotFather",
}
NONE_RAN = {None: "Nenhuma plataforma pôde rodar: Telegram: ",
            "en_US.UTF-8": "No platform could run: Telegram: ",
            "it_IT.UTF-8": "Nessuna piattaforma è potuta partire: Telegram: "}


@pytest.fixture
def refusing_bot_api() -> Iterator[str]:
    """A Bot API root answering every method 401 Unauthorized, as Telegram does for a
    token it does not know."""
    async def refuse(request: web.Request) -> web.Response:
        return web.json_response({"ok": False, "error_code": 401,
                                  "description": "Unauthorized"}, status=401)

    server = RoutesApp("the refusing Bot API", [web.route("*", "/{tail:.*}", refuse)])
    yield server.url
    server.close()


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)  # no .env file
    for name in ("REDIS_URL", "DISCORD_TOKEN", "WEBHOOK_URL", "LANG", "LANGUAGE", "LC_ALL",
                 "LC_MESSAGES", "TELEGRAM_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_POLL_INTERVAL", "0.5")
    yield
    logsafe.uninstall()


@pytest.mark.usefixtures("env")
@pytest.mark.parametrize("lang", list(REFUSED))
@pytest.mark.parametrize("command", ["telegram", "serve"])
def test_a_refused_telegram_token_is_told_in_the_operators_language_never_shown(
        command: str, lang: str | None, refusing_bot_api: str,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    """The Bot API refuses the token at start-up (getMe 401): exit 2 and one line in
    pt-BR, English or Italian, not python-telegram-bot's "The token `…` was rejected by
    the server"; nothing on stdout or stderr (logs included) holds the token."""
    if lang:
        monkeypatch.setenv("LANG", lang)
    monkeypatch.setenv("TELEGRAM_BASE_URL", refusing_bot_api)
    caplog.set_level(logging.DEBUG)
    assert cli.main([command]) == 2
    assert caplog.records and TOKEN not in caplog.text
    out, err = capsys.readouterr()
    line = REFUSED[lang] if command == "telegram" else NONE_RAN[lang] + REFUSED[lang]
    assert err.splitlines()[-1] == line
    assert TOKEN not in out + err and TOKEN.split(":")[1] not in out + err
    assert "rejected" not in err


@pytest.mark.usefixtures("env")
@pytest.mark.parametrize(("error", "line"), [
    (telegram.error.NetworkError(f"POST https://api.telegram.org/bot{TOKEN}/getMe failed"),
     "Sem conexão com o Telegram: POST https://api.telegram.org/bot<secret>/getMe failed"),
    (redis.exceptions.ConnectionError(f"Error connecting to redis://:{PASSWORD}@10.0.0.9"),
     "Redis não responde (REDIS_URL): Error connecting to redis://:<secret>@10.0.0.9"),
])
def test_a_start_up_line_quoting_a_librarys_error_has_the_secrets_masked(
        error: Exception, line: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The one line a failed start prints quotes the library's error; a token in a Bot
    API URL, a Redis password in a URL, become ``<secret>`` (printed, not logged, so the
    log redaction did not reach them)."""
    monkeypatch.setenv("REDIS_URL", f"redis://:{PASSWORD}@127.0.0.1:1/0")

    def fail(settings: Any) -> None:
        raise error

    monkeypatch.setattr(adapters.telegram, "run", fail)
    monkeypatch.setattr(cli, "setting_line", lambda command, settings: None)  # no Redis check
    assert cli.main(["telegram"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == line
    assert TOKEN not in err and PASSWORD not in err


def test_an_uncaught_errors_traceback_has_the_secrets_masked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An unforeseen start-up error ends with its traceback (exit 1): printed by
    ``sys.excepthook``, or ``threading.excepthook`` in a thread, not by logging, so
    logsafe installs both to mask the secrets."""
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    logsafe.install([TOKEN])
    try:
        try:
            raise RuntimeError(f"the token `{TOKEN}` was rejected")
        except RuntimeError as err:
            sys.excepthook(RuntimeError, err, err.__traceback__)
        thread = threading.Thread(target=lambda: (_ for _ in ()).throw(ValueError(TOKEN)),
                                  name="worker")
        thread.start()
        thread.join()
    finally:
        logsafe.uninstall()
    text = stderr.getvalue()
    assert "RuntimeError: the token `<secret>` was rejected" in text
    assert "Exception in thread worker:" in text and "ValueError: <secret>" in text
    assert TOKEN not in text
    assert sys.excepthook is sys.__excepthook__


@pytest.mark.parametrize(("lang", "line"), [
    ("pt", "DISCORD_TOKEN recusado pelo Discord: confira o token da página \"Bot\" do "
           "Developer Portal"),
    ("en", "DISCORD_TOKEN refused by Discord: check the token of the Developer Portal's "
           "\"Bot\" page"),
    ("it", "DISCORD_TOKEN rifiutato da Discord: controlla il token della pagina \"Bot\" del "
           "Developer Portal"),
])
def test_a_refused_discord_token_is_told_whole_in_the_operators_language(
        lang: str, line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py's ``LoginFailure`` says "Improper token has been passed." in English:
    the line is the operator's language only."""
    import discord

    from bot.i18n import Translator
    from bot.startup import Words, setup_error

    monkeypatch.setattr(Words, "_", Translator(lang))
    assert setup_error(discord.LoginFailure("Improper token has been passed.")) == line
