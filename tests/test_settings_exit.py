"""Issue 30 "Exit codes mean one thing": every bad setting the bot reads ends the start
with its one line and exit code 2, before anything connects (here Redis does not answer
at ``REDIS_URL``, which would be exit 1 if it were reached first); the settings of
``.env`` count as the environment's; ``python -m bot serve`` without tokens speaks one
language. docs/operator.md "Exit codes"."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adapters import logsafe
from bot import __main__ as cli

ROOT = Path(__file__).resolve().parents[1]
DOWN = "redis://127.0.0.1:1/0"  # nothing listens there
NAMES = ("REDIS_URL", "REDIS_PREFIX", "TELEGRAM_TOKEN", "TELEGRAM_BASE_URL", "WEBHOOK_URL",
         "WEBHOOK_SECRET", "WEBHOOK_LISTEN", "WEBHOOK_PORT", "TELEGRAM_POLL_INTERVAL",
         "DISCORD_TOKEN", "DISCORD_API_BASE", "DISCORD_SHARD_COUNT", "DISCORD_SHARD_IDS",
         "TURN_TIMER_S", "AI_PACE_S", "LOG_LEVEL", "STATE_CODEC", "DOCS_URL", "LANGUAGE",
         "LC_ALL", "LC_MESSAGES", "LANG", "METRICS_PORT", "WEB_PORT", "WEB_PUBLIC_URL",
         "REDIS_DB", "REDIS_TIMER_SETS", "REDIS_MODE")
POLL = "TELEGRAM_POLL_INTERVAL inválido ('{}'): use um número de 0 a 10 (segundos)."


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)  # no .env file unless a test writes one
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    yield
    logsafe.uninstall()


TG = {"TELEGRAM_TOKEN": "123:abc", "REDIS_URL": DOWN}
BAD_DB = ("REDIS_URL inválida: depois de host:porta vem só o número do banco (ex.: "
          "redis://localhost:6379/0)")
NO_HOST = ("REDIS_URL inválida: diga o host e, se quiser, a porta, de 1 a 65535 (ex.: "
           "redis://localhost:6379/0)")
DC = {"DISCORD_TOKEN": "x", "REDIS_URL": DOWN}
BOTH = {**TG, **DC}
CASES = [
    ("play", {"REDIS_URL": "notaurl"},
     "REDIS_URL inválida: use redis://, rediss:// ou unix:// (ex.: redis://localhost:6379/0)"),
    ("telegram", {"TELEGRAM_TOKEN": "1:a", "REDIS_URL": "redis://u:hunter2@h:x/0"},
     "REDIS_URL inválida: use redis://, rediss:// ou unix:// (ex.: redis://localhost:6379/0)"),
    ("telegram", {**TG, "REDIS_PREFIX": "a b"},
     "REDIS_PREFIX inválido ('a b'): use de 1 a 40 letras, algarismos, '_', '.' ou '-'."),
    ("telegram", {**TG, "WEBHOOK_PORT": "0"},
     "WEBHOOK_PORT inválido ('0'): use um número inteiro de 1 a 65535."),
    ("telegram", {**TG, "WEBHOOK_URL": "http://bot.example.org/tg"},
     "WEBHOOK_URL inválido: use um endereço https:// (ex.: https://bot.example.org/tg)."),
    ("telegram", {**TG, "WEBHOOK_SECRET": "not secret!"},
     "WEBHOOK_SECRET inválido: use de 1 a 256 letras, algarismos, '_' ou '-'."),
    ("telegram", {**TG, "TELEGRAM_BASE_URL": "127.0.0.1:8081"},
     "TELEGRAM_BASE_URL inválido ('127.0.0.1:8081'): use um endereço http:// ou https://."),
    ("telegram", {**TG, "TELEGRAM_POLL_INTERVAL": "x"},
     POLL.format("x")),
    ("telegram", {**TG, "TURN_TIMER_S": "5"},
     "TURN_TIMER_S inválido ('5'): use um número inteiro de 10 a 86400 (segundos)."),
    ("telegram", {**TG, "AI_PACE_S": "61"},
     "AI_PACE_S inválido ('61'): use um número de 0 a 60 (segundos)."),
    ("telegram", {**TG, "LOG_LEVEL": "loud"},
     "LOG_LEVEL inválido ('LOUD'): use DEBUG, INFO, WARNING, ERROR ou CRITICAL."),
    ("telegram", {**TG, "STATE_CODEC": "z9"}, "STATE_CODEC inválido ('z9'): use z1 / z2 / z3."),
    ("discord", {**DC, "DISCORD_API_BASE": "discord.com/api/v10"},
     "DISCORD_API_BASE inválido ('discord.com/api/v10'): use um endereço http:// ou https://."),
    ("discord", {**DC, "DISCORD_SHARD_COUNT": "abc"},
     "DISCORD_SHARD_COUNT inválido ('abc'): use um número inteiro a partir de 1"),
    ("serve", {**BOTH, "DISCORD_SHARD_IDS": "0"},
     "DISCORD_SHARD_IDS precisa de DISCORD_SHARD_COUNT e de números menores que ele"),
    ("serve", {**BOTH, "TELEGRAM_POLL_INTERVAL": "-"},
     POLL.format("-")),
    # the operator trial's O4: no NaN, infinity, negative or huge number gets through
    # (TELEGRAM_POLL_INTERVAL=1e9 made a stop wait for ever; 40 outlasted systemd's 30 s)
    *[("telegram", {**TG, "TELEGRAM_POLL_INTERVAL": value}, POLL.format(value))
      for value in ("nan", "inf", "-1", "1e9", "40", "10.5")],
    *[("telegram", {**TG, "AI_PACE_S": value},
       f"AI_PACE_S inválido ('{value}'): use um número de 0 a 60 (segundos).")
      for value in ("nan", "-inf", "-1", "1e9")],
    *[("telegram", {**TG, "TURN_TIMER_S": value}, f"TURN_TIMER_S inválido ('{value}'): use "
       "um número inteiro de 10 a 86400 (segundos).") for value in ("nan", "1e9", "90.5")],
    *[("telegram", {**TG, name: value}, f"{name} inválido ('{value}'): use um número "
       f"inteiro de {low} a {high}.") for name, value, low, high in (
          ("WEBHOOK_PORT", "-1", 1, 65535), ("WEBHOOK_PORT", "1e9", 1, 65535),
          ("METRICS_PORT", "nan", 1, 65535), ("METRICS_PORT", "0", 1, 65535),
          ("WEB_PORT", "inf", 1, 65535), ("REDIS_DB", "-1", 0, 1000000),
          ("REDIS_TIMER_SETS", "inf", 1, 1024), ("REDIS_TIMER_SETS", "0", 1, 1024))],
    # an address with no host or a port out of range passed the pattern, failed when used
    *[("telegram", {**TG, "WEBHOOK_URL": url}, "WEBHOOK_URL inválido: use um endereço "
       "https:// (ex.: https://bot.example.org/tg).") for url in (
          "https://bot.example.org:99999/tg", "https://:8443/tg", "https://h:-1/tg")],
    *[(command, {**env, name: url}, f"{name} inválido ('{url}'): use um endereço http:// "
       "ou https://.") for command, env, name, url in (
          ("telegram", TG, "TELEGRAM_BASE_URL", "http://127.0.0.1:0"),
          ("telegram", TG, "DOCS_URL", "https://h:65536/d"),
          ("discord", DC, "DISCORD_API_BASE", "http://:9000/api"))],
    # a database that is no number was database 0 without a word
    *[(command, {**TG, "REDIS_URL": url}, BAD_DB) for command, url in (
        ("telegram", "redis://127.0.0.1:1/abc"), ("play", "redis://127.0.0.1:1/15x"),
        ("telegram", "redis://:hunter2@127.0.0.1:1/0/1"), ("play", "rediss://127.0.0.1:1/x"))],
    # issue 38: an address without a host (redis-py took it as localhost) or port 0
    *[(command, {**TG, "REDIS_URL": url}, NO_HOST) for command, url in (
        ("telegram", "redis:///3"), ("play", "redis:///3"), ("telegram", "rediss:///0"),
        ("telegram", "redis://:hunter2@/3"), ("play", "redis://:6379/0"),
        ("telegram", "redis://127.0.0.1:0/0"), ("play", "redis://"))],
    ("telegram", {"REDIS_URL": DOWN},
     "TELEGRAM_TOKEN não definido: peça um token ao @BotFather e rode "
     "TELEGRAM_TOKEN=<token> python -m bot telegram"),
    ("discord", {"REDIS_URL": DOWN}, "DISCORD_TOKEN não definido: crie um bot em "
     "https://discord.com/developers/applications (README)"),
    ("serve", {"REDIS_URL": DOWN}, "Nenhum token definido: TELEGRAM_TOKEN e/ou DISCORD_TOKEN"),
]


@pytest.mark.parametrize(("command", "env", "line"), CASES,
                         ids=[f"{c}-{'-'.join(e)}" for c, e, _l in CASES])
def test_every_bad_setting_exits_2_with_its_one_line_before_connecting(
        command: str, env: dict[str, str], line: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert (cli.main([command]), capsys.readouterr().err) == (2, line + "\n")


@pytest.mark.parametrize(("setting", "line"), [
    ("TELEGRAM_POLL_INTERVAL=x", POLL.format("x")),
    ("DISCORD_SHARD_COUNT=0", "DISCORD_SHARD_COUNT inválido ('0'): use um número inteiro a "
     "partir de 1"),
])
def test_an_adapter_setting_in_dot_env_is_read_as_from_the_environment(
        setting: str, line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A copied ``.env.example`` holds every setting: the adapters' own read it too."""
    (tmp_path / ".env").write_text(
        f"TELEGRAM_TOKEN=1:a\nDISCORD_TOKEN=x\nREDIS_URL={DOWN}\n{setting}\n", encoding="utf-8")
    assert (cli.main(["serve"]), capsys.readouterr().err) == (2, line + "\n")


def test_empty_addresses_in_dot_env_count_as_unset(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``WEBHOOK_URL=`` as a copied ``.env.example`` may leave it: polling, not a refusal
    (Redis not answering is then what stops the start, exit 1)."""
    (tmp_path / ".env").write_text(
        f"TELEGRAM_TOKEN=1:a\nREDIS_URL={DOWN}\nWEBHOOK_URL=\nWEBHOOK_SECRET=\n"
        "TELEGRAM_BASE_URL=\nDISCORD_API_BASE=\n", encoding="utf-8")
    assert cli.main(["telegram"]) == 1
    assert capsys.readouterr().err.startswith("Redis não responde (REDIS_URL): ")


def test_an_http_webhook_is_accepted_for_a_bot_api_server_of_one_s_own(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A local Bot API server (``TELEGRAM_BASE_URL``, as the emulator of tests/e2e) posts
    to ``http://`` too: not refused; the unreachable server is then what stops it."""
    for name, value in {"TELEGRAM_TOKEN": "1:a", "WEBHOOK_URL": "http://127.0.0.1:1/hook",
                        "TELEGRAM_BASE_URL": "http://127.0.0.1:1"}.items():
        monkeypatch.setenv(name, value)
    assert cli.main(["telegram"]) == 1
    assert capsys.readouterr().err.startswith("Sem conexão com o Telegram: ")


@pytest.mark.parametrize(("lang", "line"), [
    ("C.UTF-8", "Nenhum token definido: TELEGRAM_TOKEN e/ou DISCORD_TOKEN"),
    ("en_US.UTF-8", "No token set: TELEGRAM_TOKEN and/or DISCORD_TOKEN"),
    ("it_IT.UTF-8", "Nessun token impostato: TELEGRAM_TOKEN e/o DISCORD_TOKEN"),
])
def test_serve_without_tokens_says_one_line_in_one_language(lang: str, line: str,
                                                            tmp_path: Path) -> None:
    """As a person runs it: the whole of stderr is the one line in the locale's language
    (no English start-up log line before a Portuguese refusal), exit 2."""
    env = {k: v for k, v in os.environ.items() if k not in NAMES}
    # pure Python: whether a compiled build is current is tests/test_engine_native.py's
    # business (a stale one adds its own line, in English, for the developer)
    env.update(LANG=lang, PYTHONPATH=str(ROOT), BURACO_NATIVE="0")
    done = subprocess.run([sys.executable, "-m", "bot", "serve"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr, done.stdout) == (2, line + "\n", "")


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/15", "redis://127.0.0.1:6379/",
                                 "redis://127.0.0.1:6379", "rediss://:pw@h:6380/0?ssl=1",
                                 "redis://h:6379/%31", "unix:///run/redis.sock?db=3"])
def test_a_redis_url_with_a_database_number_or_none_is_accepted(url: str) -> None:
    from bot.startup import redis_db_line

    assert redis_db_line(url) is None


OPTIONAL = "WEB_PORT, WEB_PUBLIC_URL, METRICS_PORT, TURN_TIMER_S, AI_PACE_S, DOCS_URL, LOG_LEVEL."


@pytest.mark.parametrize(("lang", "command", "sentences"), [
    (None, "telegram", [
        "Obrigatória: TELEGRAM_TOKEN (o token que o @BotFather dá).",
        "O modelo .env.example, na raiz do repositório, traz todas, com faixa e padrão; "
        "docs/operator.md (\"Settings\") explica cada uma.",
        "Opcionais: WEBHOOK_URL, WEBHOOK_SECRET, WEBHOOK_PORT, TELEGRAM_BASE_URL, "
        f"TELEGRAM_POLL_INTERVAL, {OPTIONAL}"]),
    ("en_US.UTF-8", "discord", [
        "Required: DISCORD_TOKEN (the token of the Developer Portal's \"Bot\" page).",
        "The model .env.example, at the root of the repository, lists them all with range "
        "and default; docs/operator.md (\"Settings\") explains each one.",
        "Recommended: REDIS_URL (e.g. redis://127.0.0.1:6379/0), where the games are kept;",
        f"Optional: DISCORD_SHARD_COUNT, DISCORD_SHARD_IDS, DISCORD_API_BASE, {OPTIONAL}"]),
    ("it_IT.UTF-8", "serve", [
        "Obbligatoria: TELEGRAM_TOKEN e/o DISCORD_TOKEN (gira ogni piattaforma con un token).",
        "Il modello .env.example, nella radice del repository, le elenca tutte con intervallo "
        "e valore predefinito; docs/operator.md (\"Settings\") spiega ciascuna.",
        f"Facoltative: WEBHOOK_URL, TELEGRAM_POLL_INTERVAL, DISCORD_SHARD_COUNT, {OPTIONAL}"]),
])
def test_chat_command_help_names_the_required_settings_and_where_they_are_explained(
        lang: str | None, command: str, sentences: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 38: ``python -m bot telegram --help`` (discord, serve) named no setting; it
    says which are required, points at ``.env.example`` and docs/operator.md, in the
    operator's language."""
    if lang:
        monkeypatch.setenv("LANG", lang)
    with pytest.raises(SystemExit) as done:
        cli.main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())  # the help is wrapped at 79 columns
    assert done.value.code == 0
    assert [sentence for sentence in sentences if sentence not in out] == [], out
