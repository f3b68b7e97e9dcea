"""The service's tournament calls (issue 29, docs/season.md "Torneios"): ``/torneio``,
its buttons, the walkover deadline and opening each match's table in the group.
:class:`bot.service.Service` extends :class:`TournamentCalls`.

A group holds one table at a time (:meth:`GameStore.bind_chat`), so a tournament's
matches are played one after another in the group: each is called with an "Estou aqui"
button; once everyone of both sides pressed it, the table opens with them seated
(partners across) and starts. A tournament's state is its record
(:mod:`.followup`), never a worker's memory."""

from __future__ import annotations

import logging

from bot import lobby, upkeep, views
from bot.buttons import UNKNOWN
from bot.chat_calls import CHAT_BIND_TTL_S
from bot.effects import ChatRef, Effect, PlayerRef, Reply, Say, TableView, number
from bot.i18n import N_, Translator
from bot.model import CorruptGame, Game, Seat, encode, new_game_id
from bot.outcome import Refusal
from bot.season import config
from bot.season.tournament import flow, picture, texts
from bot.season.tournament.followup import (
    TIMER_PREFIX,
    Render,
    TournamentConflict,
    UseCase,
    commit,
    load,
    post_call,
    rearm,
    timer_id,
    unposted,
)
from bot.season.tournament.model import Tournament
from bot.ticking import TimerCalls

log = logging.getLogger(__name__)
RETRY_S = 60.0
"""Seconds until a match's table that could not open (another table in the group) is
tried again."""
BOARD_WORDS = {"tabela", "chave", "classificacao", "classificação", "table", "standings",
               "bracket", "tabella", "classifica"}
CANCEL_WORDS = {"cancelar", "cancel", "annulla"}
NO_TOURNAMENTS = N_("Torneios não estão disponíveis neste bot.")
BUSY = N_("Há outro jogo aberto neste grupo: a partida do torneio começa quando ele "
          "acabar (ou for cancelado com /cancelar).")


class TournamentCalls(TimerCalls):
    """``/torneio`` and its buttons over :attr:`season` (see the module docstring)."""

    async def tournament(self, chat: ChatRef, user: PlayerRef, args: str = "",
                         is_admin: bool = False, *,
                         update: str | None = None) -> list[Effect]:
        """``/torneio [todos|mata] [duplas|individual] [variante] [alvo=N] [wo=M]``: open
        the group's tournament (sign-up by button); ``/torneio tabela``: the standings or
        bracket, with its picture, and the current call again; ``/torneio cancelar``:
        its creator or an admin ends it. One clear line for anything refused."""
        if not await self._fresh(update, chat):
            return []
        lang = await self._lang(chat)
        _ = Translator(lang)
        if self.season is None:
            return [Reply(player=user, text=_(NO_TOURNAMENTS))]
        word = args.strip().lower()
        if word in BOARD_WORDS:
            return await self._board(chat, user, _)
        if word in CANCEL_WORDS:
            def stop(t: Tournament | None) -> tuple[Tournament, Render]:
                if t is None:
                    raise Refusal(flow.NOT_RUNNING)
                was = t.current
                flow.cancel(t, user, is_admin)
                return t, lambda s, v: texts.cancelled(s, was, user.name, v,
                                                       Translator(s.lang))
            return await self._commit(chat, user, _, stop)

        def open_(t: Tournament | None) -> tuple[Tournament, Render]:
            flow.opened(t)
            new = flow.open_tournament(new_game_id(), chat, user, args, lang)
            return new, lambda s, v: [texts.signup_view(s, v, _)]
        return await self._commit(chat, user, _, open_)

    async def _commit(self, chat: ChatRef, user: PlayerRef, _: Translator,
                      fn: UseCase) -> list[Effect]:
        """:func:`.followup.commit` for a person: a refusal is their one line. The
        group's timer is then set again if it was lost (:func:`.followup.rearm`)."""
        assert self.season is not None
        now = self.clock.now()
        try:
            done = await commit(self.store, self.season, chat.key, fn, shown=True)
        except Refusal as err:
            await rearm(self.store, (await load(self.season, chat.key))[1], chat.key, now)
            return [Reply(player=user, text=err.render(_))]
        except TournamentConflict:
            return [Reply(player=user, text=_(
                "Muita gente jogando ao mesmo tempo: tente de novo."))]
        await rearm(self.store, (await load(self.season, chat.key))[1], chat.key, now)
        return [] if done is None else done[1]

    async def _board(self, chat: ChatRef, user: PlayerRef, _: Translator) -> list[Effect]:
        assert self.season is not None
        version, t = await load(self.season, chat.key)
        if t is None:
            return [Reply(player=user, text=_(flow.NOT_RUNNING))]
        await rearm(self.store, t, chat.key, self.clock.now())
        text = texts.board_text(t, _)  # one message: the picture with it as caption
        shown = picture.pictured(t, text, await picture.drawn(t, _)) \
            if t.status != "signup" else None
        out: list[Effect] = [shown or Reply(player=user, text=text)]
        if t.status == "signup":
            out.append(texts.signup_view(t, version, _))
        elif t.status == "running" and t.current is not None and \
                t.matches[t.current].game is None:
            out.append(texts.call_view(t, t.current, version, _))
        return out

    async def tournament_press(self, user: PlayerRef, tid: str, code: str, arg: str,
                               is_admin: bool = False, *, update: str | None = None,
                               chat: ChatRef | None = None) -> list[Effect]:
        """A tournament button (:data:`.texts.CODES`) pressed in ``chat``: sign up, leave,
        start, cancel, "Estou aqui". A button of another tournament than the group's
        (stale or forged) is refused as old; one outside a group, or with an argument
        no such button carries, is unknown."""
        if not await self._fresh(update, chat):
            return []
        _ = Translator(await self._lang(chat) if chat is not None else "pt")
        index = number(arg) if code == texts.PRESENT else None
        if chat is None or self.season is None or (
                code in texts.NO_ARG and arg) or (code == texts.PRESENT and index is None):
            return [Reply(player=user, text=_(UNKNOWN))]
        gid = new_game_id()
        opened: list[bool] = []

        def press(t: Tournament | None) -> tuple[Tournament, Render]:
            if t is None or t.id != tid:
                raise Refusal(flow.OLD_BUTTON)
            if code == texts.PRESENT:
                assert index is not None
                opened[:] = [flow.show_up(t, user, index, gid)]
                return t, lambda s, v: [texts.call_view(s, index, v, Translator(s.lang))]
            if code == texts.SIGN_UP:
                flow.sign_up(t, user)
            elif code == texts.LEAVE:
                flow.leave(t, user)
            elif code == texts.CANCEL:
                was = t.current
                flow.cancel(t, user, is_admin)
                return t, lambda s, v: texts.cancelled(s, was, user.name, v,
                                                       Translator(s.lang))
            else:
                notes = flow.start(t, user, self.clock.now())
                return t, lambda s, v: [texts.signup_view(s, v, Translator(s.lang)),
                                        *texts.announced(s, notes, v, Translator(s.lang))]
            return t, lambda s, v: [texts.signup_view(s, v, Translator(s.lang))]

        out = await self._commit(chat, user, _, press)
        if opened and opened[0]:
            out += await self.open_match(chat.key, gid)
        return out

    async def open_match(self, chat_key: str, gid: str) -> list[Effect]:
        """Open and start game ``gid`` of the group's current match with its people
        seated (idempotent: a step done before is skipped, so a tick redoes what a dead
        worker left); when another table holds the group, say so and try again in
        :data:`RETRY_S`."""
        assert self.season is not None
        _v, t = await load(self.season, chat_key)
        if t is None or t.status != "running" or t.current is None:
            return []
        m = t.matches[t.current]
        if m.game != gid:
            return []
        now = self.clock.now()
        got = await self.store.load_game(gid)
        out: list[Effect] = []
        if got is None:
            game = await self._match_game(t, gid, now)
            rendered = lobby.start(game, game.creator, now, self.deck_fn).resolved()
            await self.store.create_game(gid, encode(game, self.compress), self.ttl_s,
                                         None, now)
            out = [e.model_copy(update={"state_version": 1})
                   if isinstance(e, TableView) else e for e in rendered]
        else:
            try:
                game = self._parsed(gid, got)
            except CorruptGame:
                return []
            out = [views.table_effect(game)]
        if game.status != "over" and await self.store.chat_game(chat_key) != gid:
            await self._active(t.chat)  # a table over but not closed out frees the group
            if not await self.store.bind_chat(chat_key, gid, CHAT_BIND_TTL_S):
                await self.store.delete_game(gid)  # opened again at the retry
                await self.store.set_deadline(timer_id(chat_key), now + RETRY_S)
                return [Say(chat=t.chat, text=Translator(t.lang)(BUSY))]
        await upkeep.schedule(self.store, game, self.pacing, self.season)
        await self._announce(gid, 1)
        await self.store.clear_deadline(timer_id(chat_key))
        return out

    async def _match_game(self, t: Tournament, gid: str, now: float) -> Game:
        """The lobby of match ``t.current`` with its people seated, not yet started."""
        people = flow.players(t, t.matches[t.current or 0])
        house = await config.house_of(self.store, t.chat.key)
        game = lobby.open_game(gid, t.chat, people[0], f"{t.preset} {t.args}".strip(),
                               t.lang, now, house.timer or self.turn_timer_s)
        game.seats = [Seat(player=p) for p in people]
        return game

    turn_timer_s: int = 90

    async def _tick_one(self, gid: str, now: float,
                        platforms: frozenset[str] | None) -> list[Effect]:
        """A tournament's deadline (``torneio:<chat key>``): the call shown when it never
        was (its walkover time starting then), the walkover of a side that did not show,
        or the retry of a match's table; else a game's step."""
        if not gid.startswith(TIMER_PREFIX):
            return await super()._tick_one(gid, now, platforms)
        chat_key = gid[len(TIMER_PREFIX):]
        if platforms is not None and chat_key.split(":", 1)[0] not in platforms:
            await self.store.set_deadline(gid, now + 1.0)
            return []
        if self.season is None:
            return []
        _v, t = await load(self.season, chat_key)
        if t is None or t.status != "running" or t.current is None:
            await self.store.clear_deadline(gid)
            return []
        m = t.matches[t.current]
        if m.game is not None:
            return await self.open_match(chat_key, m.game)
        if unposted(t):
            return await post_call(self.store, self.season, chat_key, now)
        if t.due is not None and now < t.due:
            await self.store.set_deadline(gid, t.due)
            return []

        notes: list[flow.Note] = []

        def wo(s: Tournament | None) -> tuple[Tournament, Render] | None:
            try:
                notes[:] = flow.walkover(s, now) if s is not None else []
            except Refusal:  # ended meanwhile
                return None
            if s is None or not notes:
                return None
            return s, lambda x, v: texts.announced(x, notes, v, Translator(x.lang))

        done = await commit(self.store, self.season, chat_key, wo, shown=True)
        if done is None:
            await self.store.clear_deadline(gid)
            return []
        return await picture.after_round(done[0], notes, done[1])
