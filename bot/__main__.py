"""Command line, the composition root (the only place that wires adapters):

    python -m bot play [--variant V] [--players N] [--pause S]
    python -m bot telegram

``play`` runs a match in the terminal against AI seats on the store of ``REDIS_URL``
(the embedded fakeredis store when unset); ``telegram`` runs the Telegram bot.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot import SystemClock
from bot.settings import Settings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Buraco bot")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="jogar no terminal contra robôs")
    play.add_argument("--variant", default="buraco",
                      help="buraco, buraco_morto, bossa_nova, tranca, justificado, altaneira "
                           "(and options, e.g. 'tranca target=3000')")
    play.add_argument("--players", type=int, default=None, help="número de lugares (2, 3, 4, 6)")
    play.add_argument("--pause", type=float, default=0.6, help="segundos entre jogadas dos robôs")
    sub.add_parser("telegram", help="rodar o bot do Telegram")
    return parser


async def _play(settings: Settings, variant: str, players: int | None, pause: float) -> int:
    from rich.console import Console

    from adapters.console.app import ConsoleGame
    from adapters.storage import open_store
    from bot.service import Service

    store = await open_store(settings.redis_url)
    service = Service(store, SystemClock(), turn_timer_s=3600, ai_pace_s=0.0,
                      next_deal_s=3600.0)
    game = ConsoleGame(service, Console(), pause_s=pause)
    if not await game.setup(variant, players):
        return 2
    await game.play()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(argv)
    settings = Settings()
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "play":
        try:
            return asyncio.run(_play(settings, args.variant, args.players, args.pause))
        except KeyboardInterrupt:
            return 130
    import importlib

    telegram = importlib.import_module("adapters.telegram")
    run = getattr(telegram, "run", None) or importlib.import_module("adapters.telegram.app").run
    run(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
