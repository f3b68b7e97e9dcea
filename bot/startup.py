"""Start-up checks of the command line (``python -m bot``, the composition root): the
first bad setting as one line in the operator's language, the line for an error a start
meets, and the exit code each means (:data:`EXIT_SETTING` for a bad setting, 1 for what
lies outside the settings). Adapters are imported by name, only for their own settings
(``TelegramTuning``, ``DiscordTuning``) and errors, as ``bot/__main__.py`` does."""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from urllib.parse import unquote, urlparse

from pydantic import ValidationError

from bot.i18n import DEFAULT_LANG, Translator
from bot.settings import Settings, settings_error


class Words:
    """The translator the argument checks and start-up lines speak with (set by
    :func:`bot.__main__.main` to the operator's language)."""

    _ = Translator(DEFAULT_LANG)


EXIT_SETTING = 2
"""The exit code of every start-up that ends on a bad setting (a value malformed or out
of range, a token missing or refused, a ``REDIS_URL`` that is no URL or that Redis
refuses): the operator fixes the settings. 1 is for what lies outside them (Redis or the
platform not answering, an unforeseen error); docs/operator.md "Exit codes"."""


def bad_redis_url() -> str:
    """The line for a ``REDIS_URL`` that is no Redis URL (its value is not echoed)."""
    return Words._("REDIS_URL inválida: use redis://, rediss:// ou unix:// (ex.: "
                   "redis://localhost:6379/0)")


CHAT_PACKAGES = (("aiohttp", "aiohttp"), ("prometheus_client", "prometheus_client"),
                 ("matplotlib", "matplotlib"))
"""(module, distribution) every chat platform needs beside its own library: the web table
and the operator's endpoints (aiohttp), the metrics (prometheus_client), the match
pictures (matplotlib). ``make play`` installs none of them (tools/play_requirements.py)."""

PLATFORM_PACKAGES = {"telegram": ("telegram", "python-telegram-bot"),
                     "discord": ("discord", "discord.py")}
"""Each platform's own library: (module, distribution)."""

DISTRIBUTION = dict(CHAT_PACKAGES) | dict(PLATFORM_PACKAGES.values())
"""Module -> the distribution to install (``telegram`` is ``python-telegram-bot``)."""


def _platforms(command: str, settings: Settings) -> list[str]:
    """The platforms ``command`` starts: its own, or for ``serve`` those with a token."""
    if command in PLATFORM_PACKAGES:
        return [command]
    if command == "serve":
        return [name for name, token in (("telegram", settings.telegram_token),
                                         ("discord", settings.discord_token)) if token]
    return []


def served_platforms(settings: Settings) -> frozenset[str]:
    """The platforms the bot serves, as player keys (``{"tg", "dc"}``): those with a token
    (``TELEGRAM_TOKEN``, ``DISCORD_TOKEN``). ``/convidar`` names only these (issue 35)."""
    return frozenset(key for key, token in (("tg", settings.telegram_token),
                                            ("dc", settings.discord_token)) if token)


def missing_package(command: str, settings: Settings) -> str | None:
    """The line for the first package ``command`` needs that is not installed (a venv
    made by ``make play`` has only the terminal game's), None when all are: each
    platform's library, then :data:`CHAT_PACKAGES`. Looked up without importing them."""
    platforms = _platforms(command, settings)
    needed = [PLATFORM_PACKAGES[name] for name in platforms]
    needed += list(CHAT_PACKAGES) if platforms else []
    for module, _dist in needed:
        if importlib.util.find_spec(module) is None:
            return package_line(module, command)
    return None


def package_line(module: str, command: str | None = None) -> str:
    """One line: ``module``'s distribution is not installed, and how to install it."""
    package = DISTRIBUTION.get(module, module)
    if command is None:
        return Words._("Falta o pacote Python {package}: instale o bot com pip install . "
                       "(numa cópia do repositório: make venv)", package=package)
    return Words._("python -m bot {command} precisa do pacote Python {package}, que não "
                   "está instalado: instale o bot com pip install . (numa cópia do "
                   "repositório: make venv)", command=command, package=package)


def redis_db_line(url: str) -> str | None:
    """The line for a ``REDIS_URL`` whose path is not a database number (``/abc``,
    ``/15x``: redis-py would silently use database 0), None when it is one or absent."""
    if url.startswith("unix:"):
        return None  # its database is the query's db=N, which redis-py checks itself
    if re.fullmatch(r"/?\d*", unquote(urlparse(url).path)):
        return None
    return Words._("REDIS_URL inválida: depois de host:porta vem só o número do banco "
                   "(ex.: redis://localhost:6379/0)")


def redis_host_line(url: str) -> str | None:
    """The line for a ``redis://`` or ``rediss://`` ``REDIS_URL`` without a host, or with
    port 0 (``redis:///3``, ``redis://:pw@/3``, ``redis://h:0/0``: redis-py takes them,
    the first two as localhost; docs/operator.md "Exit codes" says an address without a
    host exits 2, issue 38), None otherwise. The value is never echoed."""
    if url.startswith("unix:"):
        return None  # a socket path, no host
    parsed = urlparse(url)
    if parsed.hostname and parsed.port != 0:
        return None
    return Words._("REDIS_URL inválida: diga o host e, se quiser, a porta, de 1 a 65535 "
                   "(ex.: redis://localhost:6379/0)")


def setting_line(command: str, settings: Settings) -> str | None:
    """The line of the first bad setting ``command`` would meet, checked before anything
    connects (so a bad value is told even while Redis or the platform is down), None when
    all are good: a missing token, a package the command needs but the venv lacks
    (:func:`missing_package`), a ``REDIS_URL`` redis-py cannot parse, without a host
    (:func:`redis_host_line`) or whose database is no number (its value is never echoed:
    it may hold a password), an adapter's own setting (``TELEGRAM_POLL_INTERVAL``,
    ``DISCORD_SHARD_COUNT`` / ``DISCORD_SHARD_IDS``)."""
    from redis.connection import parse_url

    telegram = command == "telegram" or (command == "serve" and settings.telegram_token)
    discord = command == "discord" or (command == "serve" and settings.discord_token)
    missing = missing_token(command, settings) or missing_package(command, settings)
    if missing is not None:
        return missing
    if settings.redis_url is not None:
        try:
            parse_url(settings.redis_url)  # type: ignore[no-untyped-call]
        except ValueError:
            return bad_redis_url()
        bad_url = redis_host_line(settings.redis_url) or redis_db_line(settings.redis_url)
        if bad_url is not None:
            return bad_url
    try:
        if telegram:
            importlib.import_module("adapters.telegram.app").TelegramTuning()
        if discord:
            importlib.import_module("adapters.discord.process").check_tuning()
    except Exception as err:
        line = setup_error(err)
        if line is None:
            raise  # unforeseen: its traceback, exit 1
        return line
    return None


def exit_code(err: BaseException) -> int:
    """:data:`EXIT_SETTING` for a start-up error a setting caused (a token the platform
    refuses, a database number or password Redis refuses), else 1."""
    import redis.exceptions

    if isinstance(err, ModuleNotFoundError):  # an install that lacks a package
        return EXIT_SETTING
    if isinstance(err, ValidationError | redis.exceptions.ResponseError
                  | redis.exceptions.AuthenticationError):
        return EXIT_SETTING
    if isinstance(err, ValueError) and "redis" in str(err).lower():
        return EXIT_SETTING
    refused: tuple[type[BaseException], ...] = ()
    if "telegram" in sys.modules:
        refused += (importlib.import_module("telegram.error").InvalidToken,)
    if "discord" in sys.modules:
        refused += (importlib.import_module("discord").LoginFailure,)
    if "adapters.discord.shards" in sys.modules:
        refused += (importlib.import_module("adapters.discord.shards").ShardSettingError,)
    return EXIT_SETTING if isinstance(err, refused) else 1


def setup_error(err: BaseException) -> str | None:
    """One line for an ordinary setup mistake (Redis unreachable, bad ``REDIS_URL``,
    bad or unverifiable ``TELEGRAM_TOKEN``), None for anything else. A refused token
    is told in the operator's language without the library's text (python-telegram-bot's
    ``InvalidToken`` quotes the whole token in English, issue 38); the other lines quote
    the library's error, so whoever prints them passes them through
    ``adapters.logsafe.redact`` (a URL of the Bot API holds the token)."""
    import redis.exceptions

    if isinstance(err, ModuleNotFoundError) and err.name:  # make play's venv, say
        return package_line(err.name.split(".")[0])
    if isinstance(err, ValidationError):  # an adapter's own setting, read at start-up
        return settings_error(err, Words._)
    if isinstance(err, redis.exceptions.ResponseError | redis.exceptions.AuthenticationError):
        return Words._("Redis recusou a conexão (REDIS_URL): {err}", err=err)
    if isinstance(err, redis.exceptions.ConnectionError):  # the setting to check named
        return Words._("Redis não responde ({setting}): {err}",
                       setting=getattr(err, "setting", "REDIS_URL"), err=err)
    if isinstance(err, ValueError) and "redis" in str(err).lower():  # redis-py's own words
        return bad_redis_url()
    if isinstance(err, OSError) and "bind" in str(err):  # a port taken or not allowed
        return Words._("Não consegui abrir a porta (WEBHOOK_PORT, WEB_PORT ou "
                       "METRICS_PORT): {err}", err=err)
    if "discord" in sys.modules:
        import aiohttp
        import discord

        if isinstance(err, discord.LoginFailure):  # its text is English, never the token's
            return Words._("DISCORD_TOKEN recusado pelo Discord: confira o token da página "
                           "\"Bot\" do Developer Portal")
        if isinstance(err, discord.PrivilegedIntentsRequired):
            return Words._("O Discord recusou as intents pedidas: {err}", err=err)
        if isinstance(err, discord.GatewayNotFound | aiohttp.ClientError | discord.HTTPException):
            return Words._("Sem conexão com o Discord: {err}", err=err)
    if "adapters.discord.app" in sys.modules:
        from adapters.discord.shards import ShardSettingError

        if isinstance(err, ShardSettingError):
            return err.line(Words._.lang)
    if "telegram" in sys.modules:
        import telegram.error

        if isinstance(err, telegram.error.InvalidToken):  # its text quotes the token
            return Words._("TELEGRAM_TOKEN recusado pelo Telegram: confira o token que o "
                           "@BotFather deu")
        if isinstance(err, telegram.error.NetworkError):
            return Words._("Sem conexão com o Telegram: {err}", err=err)
    return None


def missing_token(command: str, settings: Settings) -> str | None:
    """The line, in the operator's language, for ``telegram``, ``discord`` or ``serve``
    run without the token(s) it needs; None when they are set (or for ``play``)."""
    if command == "telegram" and not settings.telegram_token:
        return Words._("TELEGRAM_TOKEN não definido: peça um token ao @BotFather e "
                        "rode TELEGRAM_TOKEN=<token> python -m bot telegram")
    if command == "discord" and not settings.discord_token:
        return Words._("DISCORD_TOKEN não definido: crie um bot em "
                        "https://discord.com/developers/applications (README)")
    if command == "serve" and not (settings.telegram_token or settings.discord_token):
        return Words._("Nenhum token definido: TELEGRAM_TOKEN e/ou DISCORD_TOKEN")
    return None


def serve_line(settings: Settings) -> str:
    """The start-up log line of ``python -m bot serve`` (issue 30, operator trial O6):
    the platforms it starts and those it skips, with why (``DISCORD_TOKEN`` unset or
    empty: a copied ``.env.example`` leaves it ``DISCORD_TOKEN=``); never a value."""
    started, skipped = [], []
    for name, variable, token in (("Telegram", "TELEGRAM_TOKEN", settings.telegram_token),
                                  ("Discord", "DISCORD_TOKEN", settings.discord_token)):
        if token:
            started.append(name)
        else:
            why = "is empty" if token == "" else "is not set"
            skipped.append(f"{name} skipped ({variable} {why})")
    return "; ".join([f"serve: starting {' and '.join(started) or 'nothing'}", *skipped])
