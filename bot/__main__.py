"""Command line, the composition root (the only place that wires adapters):

    python -m bot play [--variant V] [--players N] [--pause S]
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
import signal
import sys
from typing import Any

from pydantic import ValidationError

from bot import SystemClock
from bot.model import norm_level
from bot.settings import Settings, settings_error

MAX_PAUSE_S = 60.0


def _variant(text: str) -> str:
    """``--variant``: a non-empty preset name (and options)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("diga a variante, ex.: --variant tranca")
    return text


def _pause(text: str) -> float:
    """``--pause``: seconds between AI moves, 0 to 60."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"número de segundos inválido: {text!r}") from None
    if not 0 <= value <= MAX_PAUSE_S:
        raise argparse.ArgumentTypeError(f"use de 0 a {MAX_PAUSE_S:g} segundos")
    return value


def _levels(text: str) -> list[str]:
    """``--robos``: AI levels, one for every robot or one per robot seat in turn
    (``facil``, ``normal``, ``dificil``; accents and English accepted)."""
    parts = [part.strip() for part in text.split(",")]
    levels = [norm_level(part) if part else None for part in parts]
    if any(lv is None for lv in levels):
        raise argparse.ArgumentTypeError(
            f"nível inválido: {text!r} (use facil, normal ou dificil, ex.: --robos dificil "
            "ou --robos facil,dificil)")
    return [lv for lv in levels if lv is not None]


def _setup_error(err: BaseException) -> str | None:
    """One line for an ordinary setup mistake (Redis unreachable, bad ``REDIS_URL``,
    bad or unverifiable ``TELEGRAM_TOKEN``), None for anything else."""
    import redis.exceptions

    if isinstance(err, redis.exceptions.ConnectionError):
        return f"Redis não responde (REDIS_URL): {err}"
    if isinstance(err, redis.exceptions.ResponseError):  # e.g. a database number it lacks
        return f"Redis recusou a conexão (REDIS_URL): {err}"
    if isinstance(err, ValueError) and "redis" in str(err).lower():
        return f"REDIS_URL inválida: {err}"
    if "discord" in sys.modules:
        import aiohttp
        import discord

        if isinstance(err, discord.LoginFailure):
            return f"DISCORD_TOKEN recusado pelo Discord: {err}"
        if isinstance(err, discord.PrivilegedIntentsRequired):
            return f"O Discord recusou as intents pedidas: {err}"
        if isinstance(err, discord.GatewayNotFound | aiohttp.ClientError | discord.HTTPException):
            return f"Sem conexão com o Discord: {err}"
    if isinstance(err, ValueError) and str(err).startswith("DISCORD_SHARD"):
        return str(err)
    if "telegram" in sys.modules:
        import telegram.error

        if isinstance(err, telegram.error.InvalidToken):
            return f"TELEGRAM_TOKEN recusado pelo Telegram: {err}"
        if isinstance(err, telegram.error.NetworkError):
            return f"Sem conexão com o Telegram: {err}"
    return None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Buraco bot")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="jogar no terminal contra robôs")
    play.add_argument("--variant", default="buraco", type=_variant,
                      help="buraco, buraco_morto, bossa_nova, tranca, justificado, altaneira "
                           "(and options, e.g. 'tranca target=3000')")
    play.add_argument("--players", type=int, default=None,
                      help="número de lugares (os que a variante aceita: 2, 3, 4 ou 6)")
    play.add_argument("--robos", "--robots", dest="levels", type=_levels, default=["normal"],
                      help="nível dos robôs: facil, normal ou dificil; vários separados por "
                           "vírgula valem lugar a lugar (padrão: normal)")
    play.add_argument("--pause", type=_pause, default=0.6,
                      help="segundos entre jogadas dos robôs (0 a 60)")
    sub.add_parser("telegram", help="rodar o bot do Telegram")
    dc = sub.add_parser("discord", help="rodar o bot do Discord")
    dc.add_argument("--sync", action="store_true",
                    help="registrar os comandos de barra e sair (só quando mudarem)")
    dc.add_argument("--guild", type=int, default=None,
                    help="com --sync: registrar só neste servidor (ID), na hora")
    sub.add_parser("serve", help="rodar todas as plataformas com token definido")
    return parser


async def _play(settings: Settings, variant: str, players: int | None, pause: float,
                levels: list[str]) -> int:
    from rich.console import Console

    from adapters.console.app import ConsoleGame
    from adapters.storage import open_store
    from bot.service import Service

    store = await open_store(settings.redis_url, settings.redis_prefix)
    service = Service(store, SystemClock(), turn_timer_s=3600, ai_pace_s=0.0,
                      next_deal_s=3600.0)
    game = ConsoleGame(service, Console(), pause_s=pause)
    if not await game.setup(variant, players, levels):
        return 2
    await game.play()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as err:
        print(settings_error(err), file=sys.stderr)
        return 2
    from adapters import logsafe

    logsafe.install(logsafe.secrets_of(settings.telegram_token, settings.discord_token,
                                       settings.webhook_secret, redis_url=settings.redis_url))
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        if args.command == "play":
            return _run_play(settings, args)
        if args.command == "discord":
            importlib.import_module("adapters.discord").run(settings, args.sync, args.guild)
        elif args.command == "serve":
            return asyncio.run(_serve_all(settings))
        else:
            importlib.import_module("adapters.telegram").run(settings)
    except Exception as err:
        while isinstance(err, ExceptionGroup) and err.exceptions:  # from _serve_all
            err = err.exceptions[0]
        line = _setup_error(err)
        if line is None:
            raise
        print(line, file=sys.stderr)
        return 1
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
    if not servers:
        raise SystemExit("Nenhum token definido: TELEGRAM_TOKEN e/ou DISCORD_TOKEN")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    failed: list[str] = []
    await asyncio.gather(*(_serve_one(name, serve, settings, stop, failed)
                           for name, serve in servers))
    if len(failed) == len(servers):
        print(f"Nenhuma plataforma pôde rodar: {'; '.join(failed)}", file=sys.stderr)
        return 1
    return 0


async def _serve_one(name: str, serve: Any, settings: Settings, stop: asyncio.Event,
                     failed: list[str]) -> None:
    """Run one platform's ``serve``; what ends it with an error is logged in one line
    (``_setup_error``'s, or the error with its traceback when unforeseen) and added to
    ``failed``, so the other platforms are not cancelled with it."""
    try:
        await serve(settings, stop)
    except Exception as err:
        inner = err
        while isinstance(inner, ExceptionGroup) and inner.exceptions:
            inner = inner.exceptions[0]
        line = _setup_error(inner)
        failed.append(f"{name}: {line or type(inner).__name__}")
        log = logging.getLogger("bot")
        if line is not None:
            log.error("%s parou: %s (as outras plataformas continuam)", name, line)
        else:
            log.exception("%s parou por um erro inesperado (as outras plataformas continuam)",
                          name)


def _run_play(settings: Settings, args: argparse.Namespace) -> int:
    """The terminal match on a plain event loop: ``asyncio.run`` would catch the first
    Ctrl-C itself and leave ``input()`` waiting; here it ends the match (exit 130)."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(_play(settings, args.variant, args.players, args.pause,
                                                     args.levels))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    finally:
        loop.close()

if __name__ == "__main__":
    sys.exit(main())
