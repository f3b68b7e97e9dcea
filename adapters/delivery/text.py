"""Text helpers both chat adapters use on service texts."""

from __future__ import annotations

VS16 = "\ufe0f"
RED_SUITS = ("♥", "♦")


def redden(text: str) -> str:
    """``"7♥ 10♦ 3♠"`` -> ``"7♥️ 10♦️ 3♠"`` (idempotent): the emoji variation selector makes
    Telegram and Discord draw hearts and diamonds red (DESIGN "What the people see")."""
    for suit in RED_SUITS:
        text = text.replace(suit + VS16, suit).replace(suit, suit + VS16)
    return text
