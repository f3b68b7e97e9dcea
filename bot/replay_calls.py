"""``/replay`` and its step buttons as service calls (issue 29): :class:`Service` extends
:class:`ReplayCalls`; the steps themselves are :mod:`bot.replay`'s.

The chat's last finished match is its ``last_game`` setting, written by the idempotent
follow-up :func:`bot.upkeep.close_out` after the match's record (a worker that died
before writing it leaves the game's deadline, and the next worker, or this call's
:meth:`GameRunner._active`, closes it out again). Each ``/replay`` bumps the chat's
replay serial (setting :data:`bot.replay.SETTING`): the buttons of an older replay
message, or of an earlier match, are stale. A step button changes nothing stored.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bot import buttons, replay
from bot.effects import ChatRef, Effect, PlayerRef, ReplayView, View
from bot.i18n import DEFAULT_LANG
from bot.model import CorruptGame
from bot.runner import GameRunner

log = logging.getLogger(__name__)
FAULTS = (replay.BadRecord, ArithmeticError, LookupError, TypeError, ValueError)
"""What drawing a step of a damaged record may raise (the engine's refusals are
:class:`bot.replay.BadRecord` already): told as :data:`bot.replay.UNREADABLE`."""


class ReplayCalls(GameRunner):
    """``/replay`` and its step buttons (see the module docstring)."""

    async def replay(self, chat: ChatRef, user: PlayerRef, args: str = "", *,
                     update: str | None = None) -> list[Effect]:
        """``/replay``: the chat's last finished match at its first step, as a new
        message whose buttons step through it; one line when there is none yet or its
        record cannot be read. ``args`` are ignored."""
        if not await self._fresh(update, chat):
            return []
        lang = await self._lang(chat)
        await self._active(chat)  # a match found over is closed out first (its record)
        gid = await self.store.get_setting(chat.key, "last_game")
        serial = int(await self.store.get_setting(chat.key, replay.SETTING) or "0") + 1
        shown = await self._step(chat, user, lang, gid, serial, (0, 0))
        if isinstance(shown, View) and gid is not None:
            await self.store.set_setting(chat.key, replay.SETTING, str(serial))
            return [ReplayView(chat=chat, game_id=gid, view=shown)]
        return shown if isinstance(shown, list) else []

    async def replay_press(self, gid: str, user: PlayerRef, serial: int, arg: str, *,
                           chat: ChatRef | None) -> list[Effect]:
        """A step button of a replay message in ``chat``: that step, edited in place.
        A step the record does not have (a forged or altered button) is
        "Botão desconhecido."; a button of a replaced replay message, or of a match
        that is no longer the chat's last, :data:`bot.replay.STALE`. Nothing is saved."""
        step = replay.parse_arg(arg)
        if chat is None or step is None:
            return await self._reply(chat, user, buttons.UNKNOWN,
                                     None if chat else DEFAULT_LANG)
        lang = await self._lang(chat)
        last = await self.store.get_setting(chat.key, "last_game")
        current = await self.store.get_setting(chat.key, replay.SETTING)
        if gid != last or str(serial) != current:
            return await self._reply(chat, user, replay.STALE, lang)
        shown = await self._step(chat, user, lang, gid, serial, step)
        if isinstance(shown, View):
            return [ReplayView(chat=chat, game_id=gid, view=shown)]
        return shown

    async def _step(self, chat: ChatRef, user: PlayerRef, lang: str, gid: str | None,
                    serial: int, step: tuple[int, int]) -> View | list[Effect]:
        """The view of ``step`` of game ``gid``'s record, or the one line that says why
        there is none (no match, an unreadable record, a step it does not have)."""
        try:
            text = await self.store.load_record(gid) if gid else None
        except CorruptGame as err:
            log.error("game %s: record unreadable (%s)", gid, err)
            return await self._reply(chat, user, replay.UNREADABLE, lang)
        if gid is None or text is None:
            return await self._reply(chat, user, replay.NO_MATCH, lang)
        try:
            digest, tape = await self._off_loop(replay.tape_of, gid, text)
            if not tape.holds(*step):
                return await self._reply(chat, user, buttons.UNKNOWN, lang)
            view: View = await self._off_loop(replay.step_view, gid, serial, chat, lang,
                                              (gid, digest), tape, *step)
        except FAULTS as err:
            log.error("game %s: record not replayable (%s)", gid, type(err).__name__)
            return await self._reply(chat, user, replay.UNREADABLE, lang)
        return view

    async def _off_loop(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker thread (inline when the service is not threaded)."""
        return await asyncio.to_thread(fn, *args) if self.threaded else fn(*args)
