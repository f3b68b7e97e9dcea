"""Discord adapter (discord.py 2.7): ``run(settings)`` runs the bot; see docs/discord.md.
Imports of discord.py happen on first use so ``import adapters`` stays light."""

from __future__ import annotations

from typing import Any


def run(settings: Any, sync_commands: bool = False, guild: int | None = None) -> None:
    """Run the Discord bot until interrupted, or sync its slash commands
    (see :func:`adapters.discord.process.run`)."""
    from adapters.discord.process import run as run_process

    run_process(settings, sync_commands, guild)
