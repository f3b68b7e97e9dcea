"""python-telegram-bot's concurrent update processing, in order where order matters
(issue 36): :class:`UpdateOrder` is the ``BaseUpdateProcessor`` handed to
``ApplicationBuilder.concurrent_updates``. Updates are handled at once and side by side;
each takes, as it arrives, its place in the line of its game (a button press: the game
its callback data names; ``/start j<game>`` and ``/start h<game>``: that game) or else of
its chat (:mod:`adapters.delivery.order`). The handler waits for that place only around
its service call (:meth:`adapters.telegram.handlers.Handlers.call`), so the presses of
one game are applied in the order they arrived while other games go on.

The update's arrival is marked too (:mod:`adapters.deadline`): the press histogram and a
Redis retry budget count from it.
"""

from __future__ import annotations

from collections.abc import Awaitable
from contextvars import ContextVar
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from adapters import deadline
from adapters.delivery.order import KeyedOrder, Ticket, chat_key, game_key, press_key
from adapters.ops.series import handling

UPDATES_IN_HAND = 1024
"""Updates one worker takes in at once (running, or waiting for their game's turn): past
it python-telegram-bot leaves the next ones in its queue. The service calls that run at
once are bounded by the order's own limit (:data:`adapters.delivery.outbox.CALLS_AT_ONCE`)."""
PLACE: ContextVar[Ticket | None] = ContextVar("place", default=None)
"""The place in its line of the update being handled (None: not taken by the processor,
e.g. a handler called directly by a test)."""
OPENS_GAME = ("j", "h")  # /start payloads that name a game: join it, send its hand


def order_key(update: object) -> str:
    """The line an update belongs to: ``g:<game>`` for a button press whose data names a
    game and for ``/start j<game>`` / ``h<game>``, ``c:<chat id>`` for anything else
    from a chat, ``""`` for an update with neither (a line of its own kind)."""
    if not isinstance(update, Update):
        return ""
    query = update.callback_query
    if query is not None:
        chat = query.message.chat.id if query.message is not None else None
        return press_key(query.data or "", chat)
    message = update.effective_message
    if message is None:
        return ""
    words = (message.text or "").split()
    if len(words) == 2 and words[0].split("@")[0] == "/start" \
            and words[1][:1] in OPENS_GAME and len(words[1]) > 1:
        return game_key(words[1][1:])
    return chat_key(message.chat.id)


class UpdateOrder(BaseUpdateProcessor):
    """Handles updates concurrently, each in its line of ``order`` (module docstring);
    at most ``in_hand`` at once (:data:`UPDATES_IN_HAND`)."""

    def __init__(self, order: KeyedOrder, in_hand: int = UPDATES_IN_HAND) -> None:
        super().__init__(in_hand)
        self.order = order

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Mark the arrival, take the update's place in its line, handle it; the place is
        given up when the handler is done, whatever happened (its service call may have
        given it up already)."""
        deadline.arrive()
        place = self.order.ticket(order_key(update))
        token = PLACE.set(place)
        try:
            with handling():  # in the operator's intake gauges from now (issue 36)
                await coroutine
        finally:
            place.release()
            PLACE.reset(token)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to free: the lines empty as their updates end."""
