"""Platform-neutral game service: lobby, turns, timers, views, i18n, scoreboard.

Adapters call :class:`Service` and render the returned effects (docs/service-api.md).
"""

from __future__ import annotations

import time

from bot.effects import (
    Button,
    CardFace,
    ChatRef,
    Closed,
    Document,
    Effect,
    HandView,
    Picture,
    PingsOver,
    PlayerRef,
    ReplayView,
    Reply,
    Say,
    TableView,
    Tell,
    TurnPing,
    View,
)


class SystemClock:
    """The production clock: ``time.time()``."""

    def now(self) -> float:
        """Current Unix time in seconds."""
        return time.time()


def __getattr__(name: str) -> object:
    # Service imports the engine; load it lazily so ``bot.effects`` stays light.
    if name == "Service":
        from bot.service import Service

        return Service
    raise AttributeError(name)


__all__ = [
    "Button", "CardFace", "ChatRef", "Closed", "Document", "Effect", "HandView", "Picture",
    "PingsOver", "PlayerRef", "ReplayView", "Reply", "Say", "Service", "SystemClock",
    "TableView", "Tell", "TurnPing", "View",
]
