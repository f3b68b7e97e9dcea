"""One gate for Bot API calls: which platform faults are retried, ignored or passed on.

- ``RetryAfter``: wait the time Telegram asks for, then retry (a few times).
- ``NetworkError`` other than ``TimedOut`` (a 5xx answer, a dropped connection before an
  answer): retried after 0.5, 1 and 2 s, so a server hiccup loses no message (issue 12,
  "Faults"). A ``TimedOut`` is not retried: the request may have been carried out.
- ``BadRequest`` "message is not modified", "query is too old": not errors (None).
- "message to edit/delete not found", "message can't be edited": :class:`MessageGone`,
  so the caller posts a fresh message.
- ``Forbidden`` (the person never started the bot or blocked it) and ``ChatMigrated``
  (a group became a supergroup) propagate: the caller knows what to do.
- Any other ``TelegramError`` (including a method the server does not implement, as the
  test emulator answers for ``setMyCommands``) is logged and the bot carries on (None);
  so is a reply python-telegram-bot cannot read (``ok`` without ``result``: a
  ``KeyError`` inside PTB, seen from the emulator when a message is deleted twice).
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
import warnings
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.warnings import PTBDeprecationWarning

from adapters.delivery.platform import MessageGone
from adapters.ops.metrics import API_ERRORS, RATE_LIMITED

__all__ = ["GONE", "IGNORED", "MessageGone", "api", "retry_seconds"]
log = logging.getLogger(__name__)

T = TypeVar("T")

IGNORED = ("message is not modified", "query is too old", "query id is invalid")
GONE = ("message to edit not found", "message to delete not found",
        "message can't be edited", "message can't be deleted", "message_id_invalid")


def retry_seconds(exc: RetryAfter) -> float:
    """Seconds Telegram asked to wait (``retry_after`` is an int or a timedelta in PTB 22)."""
    with warnings.catch_warnings():  # PTB 22.2+ warns that this becomes a timedelta
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


async def api(what: str, call: Callable[[], Awaitable[T]], retries: int = 3,
              sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
              transient: int = 3) -> T | None:
    """Run ``call`` (a Bot API request named ``what`` for the log) under the rules above:
    up to ``retries`` waits for a flood limit and ``transient`` retries of a server error.

    Returns its result, or None when the call was ignored or failed and was logged.
    Raises ``Forbidden``, ``ChatMigrated`` and :class:`MessageGone`.
    """
    attempt = 0
    failures = 0
    while True:
        try:
            return await call()
        except RetryAfter as exc:
            RATE_LIMITED.labels("tg").inc()
            attempt += 1
            if attempt > retries:
                log.warning("%s: still flood-limited after %d retries", what, retries)
                return None
            await sleep(retry_seconds(exc))
        except (Forbidden, ChatMigrated):
            raise
        except BadRequest as exc:
            message = exc.message.lower()
            if any(part in message for part in IGNORED):
                return None
            if any(part in message for part in GONE):
                raise MessageGone(exc.message) from exc
            log.warning("%s: %s", what, exc.message)
            API_ERRORS.labels("tg").inc()
            return None
        except NetworkError as exc:
            if isinstance(exc, TimedOut) or failures >= transient:
                log.warning("%s failed: %s", what, exc)
                API_ERRORS.labels("tg").inc()
                return None
            await sleep(0.5 * 2 ** failures)
            failures += 1
        except TelegramError as exc:
            log.warning("%s failed: %s", what, exc)
            API_ERRORS.labels("tg").inc()
            return None
        except KeyError as exc:  # PTB reading a reply without "result"
            log.warning("%s: unreadable reply (missing %s)", what, exc)
            return None
