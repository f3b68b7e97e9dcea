"""Telegram adapter (python-telegram-bot 22): ``run(settings)`` runs the bot; see
docs/telegram.md. Imports of PTB happen on first use so ``import adapters`` stays light."""

from __future__ import annotations

from typing import Any


def run(settings: Any) -> None:
    """Run the Telegram bot until interrupted (see :func:`adapters.telegram.app.run`)."""
    from adapters.telegram.app import run as run_app

    run_app(settings)
