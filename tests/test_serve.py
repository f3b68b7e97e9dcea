"""``python -m bot serve``: every platform whose token is set runs in one process; one
that cannot start (or stops with an error) is logged in one line and the others keep
running; when none can run the process exits with one line: 2 when every one failed for
a bad setting (a refused token), else 1."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import pytest
import telegram.error

from adapters.discord import process
from adapters.telegram import app
from bot import __main__ as cli

TG_REFUSED = "TELEGRAM_TOKEN recusado pelo Telegram: confira o token que o @BotFather deu"
DC_REFUSED = ("DISCORD_TOKEN recusado pelo Discord: confira o token da página \"Bot\" do "
              "Developer Portal")


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.chdir(tmp_path)  # no .env file
    for name in ("REDIS_URL", "DISCORD_API_BASE", "DISCORD_SHARD_COUNT", "DISCORD_SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("DISCORD_TOKEN", "x")


def refusing(err: Exception) -> Any:
    async def serve(settings: Any, stop: asyncio.Event) -> None:
        raise err
    return serve


@pytest.mark.usefixtures("env")
def test_discord_failing_at_start_up_leaves_telegram_running(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str]) -> None:
    served: list[str] = []

    async def telegram_serve(settings: Any, stop: asyncio.Event) -> None:
        await asyncio.sleep(0.3)  # still running well after Discord failed
        served.append("telegram ran to its end")

    monkeypatch.setattr(app, "serve", telegram_serve)
    monkeypatch.setattr(process, "serve", refusing(discord.LoginFailure("bad token")))
    with caplog.at_level(logging.ERROR, logger="bot"):
        assert cli.main(["serve"]) == 0
    assert served == ["telegram ran to its end"]
    assert [r.getMessage() for r in caplog.records if r.name == "bot"] == [
        f"Discord parou: {DC_REFUSED} (as outras plataformas continuam)"]
    assert capsys.readouterr().err == ""


@pytest.mark.usefixtures("env")
def test_telegram_failing_leaves_discord_running(monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[str] = []

    async def discord_serve(settings: Any, stop: asyncio.Event) -> None:
        await asyncio.sleep(0.3)
        served.append("discord ran to its end")

    monkeypatch.setattr(app, "serve", refusing(telegram.error.NetworkError("no route")))
    monkeypatch.setattr(process, "serve", discord_serve)
    assert cli.main(["serve"]) == 0
    assert served == ["discord ran to its end"]


@pytest.mark.usefixtures("env")
def test_no_platform_able_to_run_for_their_refused_tokens_exits_2_with_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Both tokens refused: bad settings, exit 2 (docs/operator.md "Exit codes")."""
    monkeypatch.setattr(app, "serve", refusing(telegram.error.InvalidToken("refused")))
    monkeypatch.setattr(process, "serve", refusing(discord.LoginFailure("bad token")))
    assert cli.main(["serve"]) == 2
    assert capsys.readouterr().err == (
        f"Nenhuma plataforma pôde rodar: Telegram: {TG_REFUSED}; Discord: {DC_REFUSED}\n")


@pytest.mark.usefixtures("env")
def test_the_last_platform_to_stop_does_not_say_the_others_go_on(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(app, "serve", refusing(telegram.error.InvalidToken("refused")))
    monkeypatch.setattr(process, "serve", refusing(discord.LoginFailure("bad token")))
    with caplog.at_level(logging.ERROR, logger="bot"):
        assert cli.main(["serve"]) == 2
    assert [r.getMessage() for r in caplog.records if r.name == "bot"] == [
        f"Telegram parou: {TG_REFUSED} (as outras plataformas continuam)",
        f"Discord parou: {DC_REFUSED}"]


@pytest.mark.usefixtures("env")
def test_one_platform_unreachable_and_one_refused_exits_1(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Not every failure was a setting (Telegram did not answer): exit 1."""
    monkeypatch.setattr(app, "serve", refusing(telegram.error.NetworkError("no route")))
    monkeypatch.setattr(process, "serve", refusing(discord.LoginFailure("bad token")))
    assert cli.main(["serve"]) == 1
    assert capsys.readouterr().err == (
        "Nenhuma plataforma pôde rodar: Telegram: Sem conexão com o Telegram: no route; "
        f"Discord: {DC_REFUSED}\n")
