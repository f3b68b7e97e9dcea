"""Order where order matters, nowhere else (issue 36): the calls of one game run one after
another in arrival order; calls of different games run at the same time.

A :class:`KeyedOrder` keeps one line per key (:func:`game_key`, :func:`chat_key`). A
caller takes its place in its key's line at once, without awaiting (:meth:`KeyedOrder.
ticket`), when its update arrives, and waits for its turn only when it reaches the part
that must be ordered (the service call and the staging of its views, DESIGN "Order per
game, not per worker"): what it does before (a chat-ref read) or after (answers,
deliveries) runs beside the other calls of its game. A ticket is released when its
holder is done with the ordered part, or when it gives up (an error, a cancellation, an
update that never called the service): the next in line never waits for one that will not come, nor
overtakes one that is still running.

A key's line is forgotten as soon as it is empty, so the order holds as many entries as
keys with work in hand: no growth with the number of games seen. ``limit`` bounds the
calls running at once (a semaphore taken after the key's turn, so a long line for one
game holds none of the others' places; a call running longer than ``slow_s`` leaves the
bound, so calls stuck on a dying Redis node never fill it). :meth:`KeyedOrder.drained`
waits until no ticket is outstanding (a clean stop: :func:`adapters.delivery.ticks.
wind_down`).

The tick loop (:mod:`adapters.delivery.ticks`), the Telegram update processor
(:mod:`adapters.telegram.order`), the Discord interactions and the web table's presses
of one process share one order (:attr:`adapters.delivery.outbox.Delivery.order`), so a
game's timer step is ordered with its presses.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import TracebackType

from bot.effects import unpack

SLOW_S = 1.0
"""Seconds after which a running call stops counting against :attr:`KeyedOrder.limit`."""


def game_key(game_id: str) -> str:
    """The line of game ``game_id``: its presses, its timer steps, its web presses."""
    return f"g:{game_id}"


def chat_key(chat_id: str | int) -> str:
    """The line of a chat's calls that name no game (commands, ``/start``)."""
    return f"c:{chat_id}"


GAME_COMMANDS = frozenset({"entrar", "sair", "robo", "iniciar", "mao", "voltar", "cancelar",
                           "placar", "dica", "revisao", "exportar"})
"""Commands that act on or show the chat's game (``/entrar`` with no code, ``/sair``,
``/robo``, ``/iniciar``, ``/mao``, ``/voltar``, ``/cancelar``, ``/placar``, ``/dica``,
``/revisao``, ``/exportar``): each runs in that game's line, after the presses and timer
steps of the game that came before it (:class:`GamePlace`). The others (``/novojogo``,
``/idioma``, ``/config``, ``/ranking``, the queue's, ...) act on the chat or the person
and stay in the chat's line."""


def press_key(data: str, chat_id: str | int | None) -> str:
    """The line of a button press: its game's when the payload names one (``<game>|...``,
    :func:`bot.effects.unpack`), else its chat's (``""`` when it has neither)."""
    parts = unpack(data)
    if parts is not None and parts[0]:
        return game_key(parts[0])
    return chat_key(chat_id) if chat_id is not None else ""


class Ticket:
    """One place in a key's line. ``async with ticket:`` waits for the places before it
    (and for room under the order's ``limit``), then holds the turn until the block ends;
    :meth:`release` gives the place up (idempotent; the block's end calls it). A ticket
    is entered at most once (RuntimeError otherwise)."""

    def __init__(self, order: KeyedOrder, key: str, before: asyncio.Future[None] | None) -> None:
        self.key = key
        self.used = False
        self._order = order
        self._before = before
        self._done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._released = False
        self._bounded = False

    @property
    def done(self) -> asyncio.Future[None]:
        """Resolved once this place and every place before it are over."""
        return self._done

    async def __aenter__(self) -> Ticket:
        if self.used:
            raise RuntimeError(f"ticket of {self.key!r} entered twice")
        self.used = True
        try:
            if self._before is not None and not self._before.done():
                await asyncio.shield(self._before)
            if self._order.bound is not None:
                await self._order.bound.acquire()
                self._bounded = True
                asyncio.get_running_loop().call_later(self._order.slow_s, self._unbound)
        except BaseException:
            self.release()
            raise
        return self

    async def __aexit__(self, kind: type[BaseException] | None, err: BaseException | None,
                        trace: TracebackType | None) -> None:
        self.release()

    def release(self) -> None:
        """Give the place up: the next in line runs once every place before this one is
        over too (a ticket released early never lets the next overtake its own
        predecessor)."""
        if self._released:
            return
        self._released = True
        self._unbound()
        before = self._before
        if before is None or before.done():
            self._finish()
        else:
            before.add_done_callback(lambda _f: self._finish())

    def _unbound(self) -> None:
        """Give back this call's room under the limit (at its end, or once it has run
        ``slow_s``: it waits on Redis then, not on the CPU)."""
        if self._bounded and self._order.bound is not None:
            self._order.bound.release()
            self._bounded = False

    def _finish(self) -> None:
        if not self._done.done():
            self._done.set_result(None)
        self._order._over(self)


class KeyedOrder:
    """Lines of calls per key (module docstring). ``limit``: most calls running at once
    (None: no bound; ValueError below 1); a call that has run ``slow_s`` seconds no
    longer counts against it (it goes on: one stuck on a dying Redis node must not keep
    the other games' calls waiting)."""

    def __init__(self, limit: int | None = None, slow_s: float = SLOW_S) -> None:
        if limit is not None and limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit!r}")
        self.limit = limit
        self.slow_s = slow_s
        self._bound: asyncio.Semaphore | None = None
        self._tails: dict[str, Ticket] = {}
        self._out = 0
        self._idle: asyncio.Event | None = None

    @property
    def bound(self) -> asyncio.Semaphore | None:
        """The semaphore of ``limit`` (made in the running loop on first use)."""
        if self._bound is None and self.limit is not None:
            self._bound = asyncio.Semaphore(self.limit)
        return self._bound

    def ticket(self, key: str) -> Ticket:
        """Take the next place in ``key``'s line now (no await: the order of the calls
        to this method is the order of the turns)."""
        tail = self._tails.get(key)
        ticket = Ticket(self, key, tail.done if tail is not None else None)
        self._tails[key] = ticket
        self._out += 1
        if self._idle is not None:
            self._idle.clear()
        return ticket

    def _over(self, ticket: Ticket) -> None:
        if self._tails.get(ticket.key) is ticket:
            del self._tails[ticket.key]
        self._out -= 1
        if self._out == 0 and self._idle is not None:
            self._idle.set()

    @property
    def outstanding(self) -> int:
        """Tickets taken and not yet over (waiting or running)."""
        return self._out

    def __len__(self) -> int:
        """Keys with a line (work in hand)."""
        return len(self._tails)

    async def drained(self) -> None:
        """Wait until no ticket is outstanding."""
        if self._out == 0:
            return
        if self._idle is None:
            self._idle = asyncio.Event()
        await self._idle.wait()


class GamePlace:
    """A command's place that follows it to its game (issue 36: the presses and timer
    steps of one game keep their order, and a command acting on the game is one of its
    calls). ``place`` is the command's place in its chat's line, taken when it arrived;
    in that place's turn ``game_of()`` names the chat's game (None: it has none), and the
    command takes the next place in that game's line there and then and gives its chat
    place up, so the chat's commands reach their game in the order they arrived and a
    press of the game that came first runs first. With no game the command runs in its
    chat's turn. Entered once, like a :class:`Ticket`; :meth:`release` gives up every
    place it holds."""

    def __init__(self, order: KeyedOrder, place: Ticket,
                 game_of: Callable[[], Awaitable[str | None]]) -> None:
        self.key = place.key
        self._order = order
        self._chat = place
        self._game_of = game_of
        self._game: Ticket | None = None

    async def __aenter__(self) -> GamePlace:
        await self._chat.__aenter__()
        try:
            game_id = await self._game_of()
        except BaseException:
            self._chat.release()
            raise
        if game_id:
            self._game = self._order.ticket(game_key(game_id))
            self._chat.release()
            await self._game.__aenter__()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, err: BaseException | None,
                        trace: TracebackType | None) -> None:
        self.release()

    def release(self) -> None:
        """Give up the places held (idempotent)."""
        self._chat.release()
        if self._game is not None:
            self._game.release()
