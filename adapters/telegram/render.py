"""Render the service's platform-neutral views as Telegram messages (HTML) and inline
keyboards.

- The title is bold, the lines follow as plain text (HTML-escaped); a message never goes
  over Telegram's 4096 characters.
- Hearts and diamonds get the emoji variation selector (``♥️ ♦️``) so Telegram draws them
  red; spades and clubs stay black text glyphs (DESIGN "What the people see").
- Buttons carry the service's opaque ``Button.data`` unchanged (at most 64 bytes); extra
  URL buttons (deep links ``https://t.me/<bot>?start=<payload>``) are added by the caller.
"""

from __future__ import annotations

import html

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from adapters.delivery.text import RED_SUITS, VS16, redden
from bot.effects import Button, View, unpack

__all__ = ["MAX_TEXT", "RED_SUITS", "VS16", "codes", "deep_link", "keyboard", "link_button",
           "plain_html", "redden", "view_html"]
MAX_TEXT = 4096


def view_html(view: View) -> str:
    """The message text of ``view``: bold title, then its lines, in Telegram HTML."""
    lines = [f"<b>{html.escape(redden(view.title))}</b>"]
    lines += [html.escape(redden(line)) for line in view.lines]
    text = "\n".join(lines)
    if len(text) > MAX_TEXT:
        text = text[: MAX_TEXT - 1].rsplit("\n", 1)[0] + "\n…"
    return text


def plain_html(text: str) -> str:
    """A plain service text (results, notices) as Telegram HTML."""
    text = html.escape(redden(text))
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def keyboard(rows: list[list[Button]],
             extra: list[list[InlineKeyboardButton]] | None = None
             ) -> InlineKeyboardMarkup | None:
    """Inline keyboard of the view's buttons plus ``extra`` rows; None when empty."""
    built = [[InlineKeyboardButton(redden(b.label), callback_data=b.data) for b in row]
             for row in rows if row]
    built += [row for row in (extra or []) if row]
    return InlineKeyboardMarkup(built) if built else None


def codes(view: View) -> set[str]:
    """The action codes of the view's buttons (``"j"``, ``"h"``, ``"t"``...)."""
    found = set()
    for row in view.buttons:
        for button in row:
            parts = unpack(button.data)
            if parts is not None:
                found.add(parts[2])
    return found


def deep_link(bot_username: str, payload: str) -> str:
    """``https://t.me/<bot>?start=<payload>``: opens the private chat and sends
    ``/start <payload>`` (payload: up to 64 characters of ``A-Za-z0-9_-``)."""
    return f"https://t.me/{bot_username}?start={payload}"


def link_button(label: str, bot_username: str, payload: str) -> InlineKeyboardButton:
    """A URL button opening the private chat with ``payload``."""
    return InlineKeyboardButton(label, url=deep_link(bot_username, payload))
