"""Command line, the composition root (the only place that wires adapters):

    python -m bot play [--variant V] [--players N] [--robos NIVEIS] [--pause S] [--idioma L]
    python -m bot telegram
    python -m bot discord [--sync [--guild ID]]
    python -m bot serve

``play`` runs a match in the terminal against AI seats on the store of ``REDIS_URL``
(the embedded fakeredis store when unset); ``telegram`` runs the Telegram bot,
``discord`` the Discord bot (``--sync`` registers its slash commands and exits), ``serve``
every platform whose token is set, in one process, on the one Redis of ``REDIS_URL`` (one
that cannot start is logged and the others keep running).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import logging
import os
import signal
import sys
from typing import Any

from pydantic import ValidationError

from bot import SystemClock
from bot.cli_args import build_parser, engine_kind
from bot.i18n import Translator, argparse_language, env_lang, norm_lang
from bot.model import READ_CODECS
from bot.settings import Settings, settings_error
from bot.startup import (
    EXIT_SETTING,
    Words,
    exit_code,
    serve_line,
    setting_line,
    setup_error,
)
from engine.cli_i18n import tolerant_output


async def _play(settings: Settings, args: argparse.Namespace, lang: str) -> int:
    from rich.console import Console

    from adapters.console.app import ConsoleGame
    from adapters.storage.connect import open_settings_store
    from adapters.storage.season import RedisSeason
    from bot.service import Service

    store = await open_settings_store(settings)
    try:
        service = Service(store, SystemClock(), turn_timer_s=3600, ai_pace_s=0.0,
                          next_deal_s=3600.0, compress=settings.state_codec,
                          season=RedisSeason.beside(store))
        variant, players, levels = args.variant, args.players, args.levels
        while True:  # a variant typed at the prompt starts the next match (issue 30)
            # highlight off: rich would colour the numbers and quoted words of our texts
            # on its own ("Robô 2" with a cyan 2, issue 30 T6); the game styles its own
            game = ConsoleGame(service, Console(highlight=False), pause_s=args.pause,
                               lang=lang)
            if not await game.setup(variant, players, levels):
                return 2
            await game.play()
            if game.next_variant is None:
                return 0
            variant, lang = game.next_variant, game._.lang
            players, levels = game.next_seats  # those of the match left, where they fit
    finally:
        await store.close()  # its background tasks cancelled and awaited (issue 38)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    tolerant_output()  # a terminal that cannot show ♣ or ç gets "?", not a traceback
    lang = _argv_lang(sys.argv[1:] if argv is None else argv) or env_lang(os.environ)
    Words._ = _ = Translator(lang)
    with argparse_language(lang):
        args = build_parser(_).parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as err:
        print(settings_error(err, _), file=sys.stderr)
        return EXIT_SETTING
    from adapters import logsafe

    logsafe.install(logsafe.secrets_of(settings.telegram_token, settings.discord_token,
                                       settings.webhook_secret, settings.redis_password,
                                       settings.redis_sentinel_password, settings.web_secret,
                                       redis_url=settings.redis_url))
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from adapters import logcalm

    logcalm.install(logging.getLogger().handlers)  # one warning per outage (issue 38)
    bad = setting_line(args.command, settings)
    if bad is not None:
        print(bad, file=sys.stderr)
        return EXIT_SETTING
    try:
        if args.command == "play":
            return _run_play(settings, args, args.lang or lang)
        if args.command == "ratings-rebuild":
            return asyncio.run(_rebuild(settings))
        logging.getLogger("bot").info(
            "engine: %s; states written as %s (this release reads %s)", engine_kind(),
            settings.state_codec, ", ".join(READ_CODECS))
        if args.command in ("telegram", "discord", "serve") and not getattr(
                args, "sync", False):
            from adapters.ops import runtime

            runtime.tune()  # a worker: the collector's thresholds (issue 36)
        if args.command == "discord" and args.sync:
            names = asyncio.run(importlib.import_module("adapters.discord.process").sync(
                settings, args.guild))
            print(_synced(names, args.guild))
        elif args.command == "discord":
            importlib.import_module("adapters.discord").run(settings, False, None)
        elif args.command == "serve":
            return asyncio.run(_serve_all(settings))
        else:
            importlib.import_module("adapters.telegram").run(settings)
    except Exception as err:
        while isinstance(err, ExceptionGroup) and err.exceptions:  # from _serve_all
            err = err.exceptions[0]
        line = setup_error(err)
        if line is None:
            raise  # its traceback, secrets out (logsafe's excepthook), exit 1
        print(logsafe.redact(line), file=sys.stderr)
        return exit_code(err)
    return 0


async def _rebuild(settings: Settings) -> int:
    """``ratings-rebuild``: replay every kept match's facts into the ratings
    (:mod:`bot.season.rebuild`), print how many."""
    from adapters.storage.connect import open_settings_store
    from adapters.storage.season import RedisSeason
    from bot.season.rebuild import rebuild

    store = await open_settings_store(settings)
    try:
        count = await rebuild(RedisSeason.beside(store))
    finally:
        await store.close()
    print(Words._("Ratings recalculados de {n} partidas.", n=count))
    return 0


async def _serve_all(settings: Settings) -> int:
    """Every platform whose token is set, in one process, until SIGINT/SIGTERM. One that
    fails (at start-up or later) is logged in one line and the others keep running; when
    none is left running and one failed, one line on stderr and exit code 1."""
    servers: list[tuple[str, Any]] = []
    if settings.telegram_token:
        servers.append(("Telegram", importlib.import_module("adapters.telegram.app").serve))
    if settings.discord_token:
        servers.append(("Discord", importlib.import_module("adapters.discord.process").serve))
    logging.getLogger("bot").info("%s", serve_line(settings))
    if len(servers) > 1:  # one embedded store for both, when there is no REDIS_URL
        importlib.import_module("adapters.storage.connect").share_embedded()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    failed: list[tuple[str, int]] = []
    await asyncio.gather(*(_serve_one(name, serve, settings, stop, failed, len(servers))
                           for name, serve in servers))
    if len(failed) == len(servers):
        from adapters import logsafe

        print(logsafe.redact(Words._("Nenhuma plataforma pôde rodar: {failed}",
                                     failed="; ".join(line for line, _code in failed))),
              file=sys.stderr)
        return min(code for _line, code in failed)  # 2 only when every one was a setting
    return 0


async def _serve_one(name: str, serve: Any, settings: Settings, stop: asyncio.Event,
                     failed: list[tuple[str, int]], total: int) -> None:
    """Run one platform's ``serve``; what ends it with an error is logged in one line
    (``setup_error``'s, or the error with its traceback when unforeseen; saying the
    other platforms go on only while one of the ``total`` still runs) and added to
    ``failed`` with its exit code (:func:`exit_code`), so the other platforms are not
    cancelled with it."""
    try:
        await serve(settings, stop)
    except Exception as err:
        inner = err
        while isinstance(inner, ExceptionGroup) and inner.exceptions:
            inner = inner.exceptions[0]
        line = setup_error(inner)
        failed.append((f"{name}: {line or type(inner).__name__}",
                       exit_code(inner) if line is not None else 1))
        log, _ = logging.getLogger("bot"), Words._
        others = len(failed) < total  # another platform is still running
        if line is not None:
            log.error("%s", _("{name} parou: {line} (as outras plataformas continuam)",
                              name=name, line=line) if others else
                      _("{name} parou: {line}", name=name, line=line))
        else:
            log.exception("%s", _("{name} parou por um erro inesperado (as outras "
                                  "plataformas continuam)", name=name) if others else
                          _("{name} parou por um erro inesperado", name=name))


def _synced(names: list[str], guild: int | None) -> str:
    """The line ``discord --sync`` ends with: how many slash commands, where, which."""
    _ = Words._
    return _.n("{n} comando de barra registrado ({where}): {names}",
               "{n} comandos de barra registrados ({where}): {names}", len(names),
               where=_("servidor {guild}", guild=guild) if guild else _("global"),
               names=", ".join(names))


def _argv_lang(argv: list[str]) -> str | None:
    """The language of ``--idioma X`` / ``--idioma=X`` in ``argv`` (read before parsing,
    so that help and errors are in it), None when absent or not a language."""
    for k, word in enumerate(argv):
        name, eq, value = word.partition("=")
        if name in ("--idioma", "--language"):
            return norm_lang(value if eq else (argv[k + 1] if k + 1 < len(argv) else ""))
    return None


def _run_play(settings: Settings, args: argparse.Namespace, lang: str) -> int:
    """The terminal match on a plain event loop: ``asyncio.run`` would catch the first
    Ctrl-C itself and leave ``input()`` waiting. Ctrl-C at a prompt, or while the game
    draws or plays, is the console's ``q`` (:meth:`adapters.console.app.ConsoleGame.ask`,
    :class:`adapters.console.tty.CtrlC`); one where Python takes no signal handler, or
    before the game is set up, ends the run cleanly, "Até a próxima!" and exit 0 (the
    open game is dropped by the next run)."""
    from adapters.console.tty import own_foreground

    loop = asyncio.new_event_loop()
    try:
        with own_foreground():  # under make play, a Ctrl-C is the game's only (issue 38)
            return loop.run_until_complete(_play(settings, args, lang))
    except KeyboardInterrupt:
        print()
        print(Translator(lang)("Até a próxima!"))
        return 0
    finally:
        _cancel_pending(loop)
        loop.close()


def _cancel_pending(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel and await every task still pending on ``loop`` (a Ctrl-C that ended
    ``run_until_complete`` leaves them), as ``asyncio.run`` does: no "Task was destroyed
    but it is pending!" at exit."""
    tasks = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in tasks:
        task.cancel()
    if tasks:
        with contextlib.suppress(BaseException):
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))

if __name__ == "__main__":
    sys.exit(main())
