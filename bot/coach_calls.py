"""``/dica``, the hand's "Dica" button and ``/revisao`` as service calls (issue 37):
:class:`bot.service.Service` extends :class:`CoachCalls`; the words are
:mod:`bot.coach`'s, the thinking :mod:`engine.ai.coach`'s.

Nothing here saves a game: a hint or a review reads the stored game, thinks off the
event loop (:meth:`CoachCalls._think`: at most :data:`THINKING_AT_ONCE` at a time per
worker), and answers the person alone; the automatic reviews at a deal's end are sent
after the call that ended it has answered (:meth:`CoachCalls._after_deal`). The hint
is built from ``view_for(state, seat)`` only. A press answers with a
:class:`~bot.effects.Reply` (the presser's toast, ephemeral answer, page or terminal
line); a typed command, which may come from the group, with a
:class:`~bot.effects.Tell` (a private message) and a reply that says where it went.
A stale press (a hand that changed since) is told so, out of turn too; pressing again
on the same hand gives the same hint (it is drawn from the view alone).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from bot import buttons, coach, play, turns
from bot.effects import ChatRef, Effect, PlayerRef, Reply, Tell
from bot.i18n import N_, Translator
from bot.model import CorruptGame, Game
from bot.outcome import Refusal
from bot.replay_calls import ReplayCalls
from bot.runner import UPDATE_TTL_S
from engine.errors import IllegalAction
from engine.rules import Rules

log = logging.getLogger(__name__)


THINKING_AT_ONCE: Final = 2
"""Hints and reviews one worker thinks at the same time (:meth:`CoachCalls._think`)."""


@dataclass(frozen=True, slots=True)
class _Deal:
    """What a review of one finished deal needs, copied from its game: the game's id,
    chat key and language, its rules and seat count, the deal's ``index`` (0-based) and
    its ``record`` (docs/record-format.md)."""

    game_id: str
    chat_key: str
    lang: str
    rules: Rules
    players: int
    index: int
    record: dict[str, Any]

    @classmethod
    def of(cls, game: Game, index: int, record: dict[str, Any]) -> _Deal:
        return cls(game.id, game.chat.key, game.lang, play.rules_of(game), len(game.seats),
                   index, record)


class CoachCalls(ReplayCalls):
    """The coach's calls (see the module docstring)."""

    _thinking: asyncio.Semaphore | None = None
    """Bounds the hints and reviews thinking at once (made at the first one)."""

    async def hint_press(self, game_id: str, user: PlayerRef, version: int,
                         private: bool = False) -> list[Effect]:
        """The hand's "Dica" button: the hint as the presser's own answer (one too long
        for a toast as a private message, said so unless ``private``: pressed in the
        private chat). Refused (with the reason, nothing changed) at a table without the
        coach, for a person not seated, out of the person's turn, or from a hand that
        changed since (stale)."""
        game = await self._coach_game(game_id)
        if game is None:
            return await self._reply(None, user, N_("Esta partida terminou."))
        _ = Translator(game.lang)
        try:
            seat = self._hint_seat(game, user, version)
        except Refusal as err:
            return [Reply(player=user, text=err.render(_))]
        text = await self._hint_text(game, seat, _)
        if len(text) > coach.TOAST_MAX:  # a long lay-down: whole, in a private message
            told = Tell(player=user, chat=game.notices_of(seat), text=text)
            return [told] if private else [told, Reply(player=user, text=_(coach.SENT))]
        return [Reply(player=user, text=text, alert=True)]

    async def hint(self, chat: ChatRef, user: PlayerRef, *,
                   update: str | None = None) -> list[Effect]:
        """``/dica``: the hint for the person's turn at the chat's table, sent privately
        (never in the group); the command is answered with where it went."""
        if not await self._fresh(update, chat):
            return []
        lang = await self._lang(chat)
        gid = await self._active(chat)
        game = await self._coach_game(gid) if gid else None
        if game is None:
            return await self._reply(
                chat, user, N_("Não há jogo aberto neste grupo. Use /novojogo."), lang)
        _ = Translator(game.lang)
        try:
            seat = self._hint_seat(game, user, None)
        except Refusal as err:
            return [Reply(player=user, text=err.render(_))]
        text = await self._hint_text(game, seat, _)
        return [Tell(player=user, chat=game.notices_of(seat), text=text),
                Reply(player=user, text=_(coach.SENT))]

    async def review(self, chat: ChatRef, user: PlayerRef, args: str = "", *,
                     update: str | None = None) -> list[Effect]:
        """``/revisao``: the person's three costliest decisions of the last finished deal
        of the chat's table (or of its last finished match), with the points the robot
        estimates each cost, sent privately. ``/revisao auto`` (``off``) turns on (off)
        the person's own setting: each deal's review sent when it ends
        (:meth:`_after_deal`); other words are refused, nothing changed."""
        if not await self._fresh(update, chat):
            return []
        lang = await self._lang(chat)
        word = args.strip().lower()
        if word:
            if word not in coach.AUTO_ON | coach.AUTO_OFF:
                return await self._reply(chat, user, coach.AUTO_BAD, lang)
            on = word in coach.AUTO_ON
            await self.store.set_setting(user.key, coach.AUTO_SETTING, "on" if on else "off")
            if not on:
                return await self._reply(chat, user, coach.AUTO_OFF_TEXT, lang)
            return await self._auto_on(chat, user, lang)
        gid = await self._active(chat) or await self.store.get_setting(chat.key, "last_game")
        game = await self._coach_game(gid) if gid else None
        if game is None or game.match is None:
            return await self._reply(chat, user, coach.NO_DEAL, lang)
        return await self._review_of(game, user, None)

    async def _auto_on(self, chat: ChatRef, user: PlayerRef, lang: str) -> list[Effect]:
        """The answer to ``/revisao auto``: the setting is the person's own and applies
        at the tables that have the coach; typed at a queue table (which has none), it
        says so too."""
        gid = await self._active(chat)
        game = await self._coach_game(gid) if gid else None
        _ = Translator(lang)
        text = _(coach.AUTO_ON_TEXT)
        if game is not None and game.matched:
            text = "\n".join([text, _(coach.AUTO_MATCHED)])
        return [Reply(player=user, text=text)]

    async def review_press(self, game_id: str, user: PlayerRef, deal: int | None,
                           private: bool = False) -> list[Effect]:
        """The hand's "Revisão da mão N" button (``deal``: N, 1-based): that deal's review,
        as ``/revisao``'s (``private``: pressed in the person's private chat, where the
        review arrives: no "sent to you privately" then). A deal the game never
        finished is "Botão desconhecido."."""
        game = await self._coach_game(game_id)
        if game is None or game.match is None:
            return await self._reply(None, user, N_("Esta partida terminou."))
        if deal is None or not 1 <= deal <= len(game.deals):
            return [Reply(player=user, text=Translator(game.lang)(buttons.UNKNOWN))]
        return await self._review_of(game, user, deal - 1, private)

    async def _review_of(self, game: Game, user: PlayerRef, index: int | None,
                         private: bool = False) -> list[Effect]:
        """The review of deal ``index`` (0-based; None: the last finished one) for
        ``user``, privately (with a line that says so unless ``private``: asked from the
        private chat itself), or the one line that says why there is none."""
        _ = Translator(game.lang)
        seat = game.seat_of(user)
        if seat is None:
            return [Reply(player=user, text=_(coach.NOT_SEATED))]
        if not coach.enabled(game):
            return [Reply(player=user, text=_(coach.refusal_text(game)))]
        found = await self._deal_record(game, index)
        if found is None:
            return [Reply(player=user, text=_(coach.NO_DEAL))]
        text = await self._reviewed(_Deal.of(game, *found), seat)
        if text is None:
            return [Reply(player=user, text=_(coach.NO_DEAL))]
        told = Tell(player=user, chat=game.notices_of(seat), text=text)
        return [told] if private else [told, Reply(player=user, text=_(coach.SENT))]

    async def _reviewed(self, deal: _Deal, seat: int) -> str | None:
        """The text of ``deal``'s review for ``seat`` (None: its record does not replay),
        thought off the event loop within :data:`THINKING_AT_ONCE`."""
        from engine.ai import coach as engine_coach  # the search, loaded when first asked

        try:
            costs = await self._think(engine_coach.review, deal.rules, deal.players,
                                      deal.record, seat)
        except (IllegalAction, LookupError, TypeError, ValueError) as err:
            log.error("game %s: deal %d not reviewable (%s)", deal.game_id, deal.index + 1,
                      type(err).__name__)
            return None
        return coach.review_text(deal.players, deal.index + 1, costs,
                                 Translator(deal.lang), deal.rules)

    async def _after_deal(self, game: Game) -> list[Effect]:
        """The review of the deal just ended for each person at ``game`` whose own
        setting asks for it (``/revisao auto``), privately, once per deal and person (a
        marker set first: a worker that dies before sending leaves that review to the
        hand's "Revisão da mão N" button, never sends it twice).

        The reviews never hold up the call that ended the deal (issue 37: up to 2.5 s of
        CPU per person): with the service's :attr:`follow_ups` delivering, they are
        thought and sent after the call has answered (:class:`bot.later.FollowUps`),
        from what the game holds now (its deal record, seats and chats, copied: the
        game object goes on to other calls); without, they are the call's own effects."""
        if not game.deals or not coach.enabled(game):
            return []
        found = await self._deal_record(game, len(game.deals) - 1)
        if found is None:
            return []
        deal = _Deal.of(game, *found)
        people = [(seat, person, game.notices_of(seat)) for seat, person in game.humans()]
        return await self.follow_ups.run(lambda: self._auto_reviews(deal, people),
                                         f"game {game.id}: reviews of deal {deal.index + 1}")

    async def _auto_reviews(self, deal: _Deal,
                            people: list[tuple[int, PlayerRef, ChatRef]]) -> list[Effect]:
        """:meth:`_after_deal`'s reviews: one :class:`Tell` per person who asked."""
        out: list[Effect] = []
        for seat, person, chat in people:
            if await self.store.get_setting(person.key, coach.AUTO_SETTING) != "on":
                continue
            marker = f"rv:{deal.game_id}:{deal.index + 1}:{person.key}"
            if not await self.store.first_seen(marker, UPDATE_TTL_S, deal.chat_key):
                continue
            text = await self._reviewed(deal, seat)
            if text is not None:
                out.append(Tell(player=person, chat=chat, text=text))
        return out

    async def _think(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` (a hint or a review: CPU-bound) off the event loop, at most
        :data:`THINKING_AT_ONCE` at a time in this worker; the others wait their turn
        (issue 36: many people asking at once must not starve the other games' presses
        of the worker's CPU)."""
        if self._thinking is None:
            self._thinking = asyncio.Semaphore(THINKING_AT_ONCE)
        async with self._thinking:
            return await self._off_loop(fn, *args)

    # Helpers ------------------------------------------------------------------------
    async def _coach_game(self, gid: str | None) -> Game | None:
        """The stored game ``gid`` (None: gone or unreadable)."""
        try:
            got = await self.store.load_game(gid) if gid else None
        except CorruptGame:
            return None
        return self._parsed(gid or "", got) if got is not None else None

    @staticmethod
    def _hint_seat(game: Game, user: PlayerRef, version: int | None) -> int:
        """The person's seat when a hint may be given now (``version``: the pressed
        hand's, checked as any hand button's; None for the typed command); else
        :class:`Refusal`."""
        if not coach.enabled(game):
            raise Refusal(coach.refusal_text(game))
        seat = game.seat_of(user)
        current = game.seats[seat].ver if seat is not None else 0
        seat = turns.check_seat(game, seat, current if version is None else version)
        if play.deal_of(game).turn != seat:
            raise Refusal(coach.NOT_YOUR_TURN)
        return seat

    async def _hint_text(self, game: Game, seat: int, _: Translator) -> str:
        from engine.ai import coach as engine_coach  # the search, loaded when first asked

        view = play.view_of(game, seat)  # the one gate: the seat's view and nothing else
        got = await self._think(engine_coach.hint, view)
        return coach.hint_line(got, _, view.rules)

    async def _deal_record(self, game: Game,
                           index: int | None) -> tuple[int, dict[str, Any]] | None:
        """``(index, record)`` of the game's finished deal ``index`` (None: the last
        finished one): from the match while it holds it, else from the record key
        (where it went when the next deal was dealt); None when there is none."""
        match = play.match_of(game)
        done = [i for i, log_ in enumerate(match.logs) if log_.result is not None]
        if index is None:
            index = done[-1] if done else None
        if index is None or index not in done:
            return None
        log_ = match.logs[index]
        if not log_.archived:
            return index, log_.to_json()
        try:
            raw = await self.store.load_record(game.id)
        except CorruptGame:
            return None
        deals = (json.loads(raw) if raw else {}).get("deals") or []
        if index < len(deals) and isinstance(deals[index], dict):
            return index, deals[index]
        return None
