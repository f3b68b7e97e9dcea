"""The game service: every use case the chat adapters call (docs/service-api.md).

Each call loads the game (one store key with a version), runs a pure use case from
:mod:`bot.lobby`, :mod:`bot.turns`, :mod:`bot.results` or :mod:`bot.timers`, saves with
compare-and-set (on conflict: reload and run again, so the use case re-verifies), then
does the follow-ups (deadline, record, ranking, unbinding the chat) and returns the
effects; that plumbing is in :mod:`bot.runner`, the timers in :mod:`bot.ticking`. A refused request
returns a :class:`Reply` with the reason and saves nothing.
"""

from __future__ import annotations

import logging

from bot import (
    buttons,
    coach,
    info,
    invites,
    lobby,
    matchmaking,
    phrases,
    places,
    play,
    replay,
    results,
    robot,
    timers,
    turns,
    upkeep,
    views,
)
from bot.chat_calls import CHAT_BIND_TTL_S, ChatCalls
from bot.coach_calls import CoachCalls
from bot.effects import ChatRef, Closed, Effect, PlayerRef, Reply, Say, number, unpack
from bot.i18n import N_, Translator
from bot.invite_calls import InviteCalls
from bot.model import DEFAULT_CODEC, Codec, CorruptGame, Game, check_codec, encode, new_game_id
from bot.outcome import Outcome, Refusal
from bot.ports import Clock, GameStore
from bot.queue_calls import QUEUE_ID, QUEUE_LEAVE, QueueStore
from bot.runner import CORRUPT, UPDATE_TTL_S, UseCase
from bot.season import config
from bot.season.calls import SeasonCalls
from bot.season.config import ConfigCalls
from bot.season.ports import SeasonStore
from bot.season.tournament import texts as tournament_texts
from bot.season.tournament.calls import TournamentCalls
from bot.ticking import HANDOFF_S
from bot.verify_calls import VerifyCalls

__all__ = ["HANDOFF_S", "Service"]

log = logging.getLogger(__name__)
LOBBY_CODES = {"j", "lv", "ai", "ar", "sh", "v", "s", "x"}
TABLE_CODES = LOBBY_CODES | {"n", phrases.CODE}
"""Codes of the group's lobby and table buttons: their payload's version is always 0."""


def _here(game: Game, chat: ChatRef | None) -> bool:
    """Whether a press came from the game's own chat: an admin's rights hold there only
    (not in another group, nor in a private chat, where the adapter names none)."""
    return chat is not None and chat.key == game.chat.key


class Service(ChatCalls, SeasonCalls, ConfigCalls, CoachCalls, VerifyCalls, TournamentCalls,
              InviteCalls):
    """Platform-neutral game service over a :class:`GameStore` and a :class:`Clock`.

    ``turn_timer_s`` default turn deadline; ``ai_pace_s`` seconds between two AI actions
    of one game; ``next_deal_s`` pause before the next deal; ``idle_s`` closing of a
    lobby or game nobody acted in. ``chooser`` is the AI (default ``engine.ai.choose``
    when present, else the fallback of :mod:`bot.robot`). ``deck_fn(rules)`` gives each
    deal's deck (tests); None shuffles with ``secrets.SystemRandom``. ``threaded`` runs
    timer steps (AI thinking) in a worker thread so the event loop stays responsive.
    ``compress`` is how states are written (:data:`bot.model.Codec`, default
    :data:`bot.model.DEFAULT_CODEC`; every form is read, :func:`bot.model.decode`);
    ``ValueError`` for a value that is no codec. Loading, saving and timers are
    :class:`bot.runner.GameRunner`'s; the reading calls (``/placar``, ``/idioma``, ...)
    :class:`bot.chat_calls.ChatCalls`'. ``season``: where a finished match's ratings,
    rankings by period, profiles and achievements are counted (issue 29,
    :mod:`bot.season`); None counts none of them. ``docs_url``: where ``/ajuda``'s link
    to the player's guide points (``DOCS_URL``, :func:`bot.info.guide_link`).
    ``invite_ttl_s``: how long a ``/convidar`` code seats someone (``INVITE_TTL_S``);
    ``queue_ttl_s``: how long a ``/procurar`` entry waits (``QUEUE_TTL_S``).
    ``queue``: the queue to find players (issue 35, :mod:`bot.queue_calls`; None: the
    queue is not available, as on the in-memory store).
    """

    def __init__(self, store: GameStore, clock: Clock, *, turn_timer_s: int = 90,
                 ai_pace_s: float = 1.0, next_deal_s: float = 30.0, idle_s: float = 86_400.0,
                 chooser: robot.Chooser | str | None = "engine",
                 deck_fn: play.DeckFn | None = None, threaded: bool = True,
                 compress: Codec = DEFAULT_CODEC, season: SeasonStore | None = None,
                 docs_url: str | None = None,
                 invite_ttl_s: int = invites.INVITE_TTL_S,
                 queue: QueueStore | None = None,
                 queue_ttl_s: int = matchmaking.QUEUE_TTL_S) -> None:
        super().__init__(
            store, clock, pacing=timers.Pacing(ai_pace_s, next_deal_s, idle_s),
            chooser=robot.engine_chooser() if isinstance(chooser, str) else chooser,
            deck_fn=deck_fn, threaded=threaded, compress=check_codec(compress))
        self.turn_timer_s = turn_timer_s
        self.invite_ttl_s = invite_ttl_s
        self.queue = queue
        self.queue_ttl_s = queue_ttl_s
        self.invite_links = {}  # per platform, set by its adapter (bot/invite_calls.py)
        self.season = season
        self.docs_url = docs_url

    # Lobby ------------------------------------------------------------------------
    async def new_game(self, chat: ChatRef, user: PlayerRef, args: str = "",
                       is_admin: bool = False, *, update: str | None = None) -> list[Effect]:
        """``/novojogo [preset] [k=v ...]``: open a lobby (or point to the chat's game).

        ``update`` is marked applied to the game in the step that creates it and marked
        seen once the call is done: its redelivery after a crash in between answers with
        that game's table, as its own result, not with "there is a game already"; after
        the call was done it changes nothing. The group's saved settings (``/config``,
        :mod:`bot.season.config`) give the table and timer when ``args`` leaves them out,
        and may reserve opening tables to its admins (``is_admin``)."""
        if update is not None and await self.store.was_seen(update, chat.key):
            return []
        lang = await self._lang(chat)
        existing = await self._active(chat)
        if existing is not None:
            mine = await self._opened_by(existing, update)
            return mine if mine is not None else await self._existing(chat, user, existing,
                                                                      lang)
        now = self.clock.now()
        house = await config.house_of(self.store, chat.key)  # /config (issue 29)
        if house.admins_only and not is_admin:
            return [Reply(player=user, text=Translator(lang)(config.ADMINS_ONLY))]
        try:
            game = lobby.open_game(new_game_id(), chat, user, config.table_args(house, args),
                                   lang, now, house.timer or self.turn_timer_s)
            game.coach = house.coach  # issue 37: /config dicas, when the table opens
        except Refusal as err:
            return [Reply(player=user, text=err.render(Translator(lang)))]
        held = await self.hold_seat(game.id, user)  # issue 35: recorded before the save
        await self.store.create_game(game.id, encode(game, self.compress), self.ttl_s,
                                     update, now)
        if not await self.store.bind_chat(chat.key, game.id, CHAT_BIND_TTL_S):
            await self.store.delete_game(game.id)
            await self.took_seat(game.id, user, held)  # no game: undone
            other = await self.store.chat_game(chat.key)
            return await self._existing(chat, user, other or "", lang)
        await upkeep.schedule(self.store, game, self.pacing, self.season)
        await self._announce(game.id, 1)
        if update is not None:  # marked once done: a redelivery after a crash is served
            await self.store.first_seen(update, UPDATE_TTL_S, chat.key)
        await self.took_seat(game.id, user, held)  # issue 35: out of the queue
        return [views.table_effect(game)]

    async def _opened_by(self, gid: str, update: str | None) -> list[Effect] | None:
        """The table of game ``gid`` when ``update`` opened it (a redelivered /novojogo),
        its deadline set again (the crash may have come before it); else None."""
        if update is None:
            return None
        try:
            applied, got = await self.store.load_for_update(gid, update)
        except CorruptGame:
            return None  # told by _existing
        if not applied or got is None or not self._readable(gid, got):
            return None
        game = self._parsed(gid, got)
        await upkeep.schedule(self.store, game, self.pacing, self.season)
        return places.spread(game, [views.table_effect(game).model_copy(
            update={"state_version": got[0]})])

    async def _existing(self, chat: ChatRef, user: PlayerRef, gid: str,
                        lang: str) -> list[Effect]:
        stored = await self._stored(gid)
        if stored is False:
            return await self._reply(chat, user, CORRUPT, lang)
        out = await self._reply(chat, user, N_("Já há um jogo neste grupo: veja a mesa dele."),
                                lang)
        if not stored:
            return out
        game = self._parsed(gid, stored)
        return out + places.spread(game, [views.table_effect(game)])

    async def _chat_call(self, chat: ChatRef, user: PlayerRef, update: str | None,
                         fn: UseCase) -> list[Effect]:
        gid = await self._chat_game(chat, user, update)
        return gid if isinstance(gid, list) else await self._run(gid, user, fn, update=update,
                                                                 chat=chat)

    async def join(self, chat: ChatRef, user: PlayerRef, *,
                   update: str | None = None) -> list[Effect]:
        """``/entrar``: take the next free seat of the chat's lobby (and leave the queue,
        :meth:`took_seat`)."""
        gid = await self._chat_game(chat, user, update)
        if isinstance(gid, list):
            return gid
        held = await self.hold_seat(gid, user)
        out = await self._run(gid, user,
                              lambda g: invites.join_from(g, user, chat, self.clock.now()),
                              update=update, chat=chat)
        await self.took_seat(gid, user, held)
        return out

    async def join_game(self, game_id: str, user: PlayerRef, *,
                        update: str | None = None) -> list[Effect]:
        """Deep link ``/start j<game_id>``: join by game id (from a private chat)."""
        held = await self.hold_seat(game_id, user)
        out = await self._run(game_id, user, lambda g: lobby.join(g, user, self.clock.now()),
                              update=update)
        await self.took_seat(game_id, user, held)
        return out

    async def leave(self, chat: ChatRef, user: PlayerRef, *,
                    update: str | None = None) -> list[Effect]:
        """``/sair``: leave the chat's lobby; in a running game the AI keeps the seat
        until ``/voltar`` or ``/entrar``."""
        return await self._chat_call(chat, user, update,
                                     lambda g: lobby.leave(g, user, self.clock.now()))

    async def add_ai(self, chat: ChatRef, user: PlayerRef, level: str = "", *,
                     update: str | None = None) -> list[Effect]:
        """``/robo [facil|normal|dificil]``: the creator adds an AI seat."""
        return await self._chat_call(chat, user, update,
                                     lambda g: lobby.add_ai(g, user, level, self.clock.now()))

    async def start(self, chat: ChatRef, user: PlayerRef, *,
                    update: str | None = None) -> list[Effect]:
        """``/iniciar``: the creator starts the match."""
        return await self._chat_call(chat, user, update,
                                     lambda g: lobby.start(g, user, self.clock.now(), self.deck_fn))

    async def cancel(self, chat: ChatRef, user: PlayerRef, is_admin: bool = False, *,
                     update: str | None = None) -> list[Effect]:
        """``/cancelar``: the creator or an admin of the chat the table was opened in
        closes the game (an admin of a guest's group, a place of the table by invitation,
        has no say: issue 35). A game whose stored
        state cannot be read (nobody can tell its creator) is closed by an admin: the chat
        is freed and the state left to expire, for a person to look at."""
        gid = await self._chat_game(chat, user, update)
        if isinstance(gid, list):
            return gid
        if is_admin and await self._stored(gid) is False:
            if not await self._fresh(update, chat):
                return []
            await self.store.unbind_chat(chat.key, gid)
            await self.store.clear_deadline(gid)
            text = Translator(await self._lang(chat))(N_("Jogo cancelado por {name}."),
                                                      name=user.name)
            return [Say(chat=chat, text=text), Closed(chat=chat, game_id=gid)]
        return await self._run(
            gid, user, lambda g: lobby.cancel(g, user, is_admin and _here(g, chat)),
            update=update, chat=chat)

    async def has_table(self, chat: ChatRef) -> bool:
        """Whether ``chat`` is a place of a live game (a group's, or a private chat where a
        table the queue formed, or a seat taken by invitation, lives: issue 35), so the
        table's commands work there."""
        return await self._active(chat) is not None

    async def game_of(self, chat: ChatRef) -> str | None:
        """The id of the game ``chat`` is bound to (one read; the game may be over or gone
        since: the call that follows says so), or None: what an adapter lines a command
        acting on the chat's game up by (adapters/delivery/order.py ``GamePlace``)."""
        return await self.store.chat_game(chat.key)

    async def needs_admin(self, user: PlayerRef, *, chat: ChatRef | None = None,
                          game_id: str | None = None) -> bool:
        """Whether closing the game of ``chat`` (or game ``game_id``) by ``user``, or
        taking a robot off its lobby (:data:`bot.buttons.ADMIN_CODES`), turns on ``user``
        being a chat admin, so the adapter asks the platform only then: not for
        its creator or the only person at the table, nor when there is no game to close,
        nor in a chat the table is only shown in (a guest's group, issue 35: its admins
        are not the table's); always for a game whose state cannot be read (an admin
        closes it)."""
        gid = game_id or (await self._active(chat) if chat is not None else None)
        try:
            got = await self.store.load_game(gid) if gid else None
            game = self._parsed(gid or "", got) if got is not None else None
            return game is not None and not lobby.may_cancel(game, user) and (
                chat is None or _here(game, chat))  # a guest chat's admins have no say
        except CorruptGame:
            return True

    # Buttons ------------------------------------------------------------------------
    async def press(self, user: PlayerRef, data: str, is_admin: bool = False, *,
                    update: str | None = None, chat: ChatRef | None = None,
                    private: bool = False) -> list[Effect]:
        """Any button: decode ``data`` and do it (see :meth:`act`). ``chat`` is where it
        was pressed, when the platform says: a payload that is no button of ours is
        answered in its language; ``private``: pressed in the person's own private chat
        with the bot (what is sent privately needs no "sent to you privately" then)."""
        parsed = unpack(data)
        if parsed is None:
            return await self._unknown(user, chat, None, update)
        gid, version, code, arg = parsed
        if code == QUEUE_LEAVE and gid == QUEUE_ID and buttons.is_ours(code, arg):
            return await self.unseek(chat, user, update=update)  # issue 35: "Sair da fila"
        if code in tournament_texts.CODES:  # issue 29: gid is the tournament's id
            return await self.tournament_press(user, gid, code, arg, is_admin,
                                               update=update, chat=chat)
        return await self.act(gid, user, version, code, arg, is_admin=is_admin,
                              update=update, chat=chat, private=private)

    async def act(self, game_id: str, user: PlayerRef, version: int, code: str,
                  arg: str = "", *, is_admin: bool = False, update: str | None = None,
                  chat: ChatRef | None = None, private: bool = False) -> list[Effect]:
        """One decoded button press by ``user`` on game ``game_id``; ``update`` (the
        platform's update key) makes a redelivery of an applied press a no-op. A code or
        argument no button carries (:mod:`bot.buttons`) gets "Botão desconhecido." and
        changes nothing."""
        if not buttons.is_ours(code, arg):
            return await self._unknown(user, chat, game_id, update)
        if code == "h":
            return await self.show_hand_of(game_id, user)
        if code == coach.CODE:  # issue 37: the hand's "Dica", reads and saves nothing
            return await self.hint_press(game_id, user, version, private)
        if code == coach.REVIEW_CODE:  # issue 37: "Revisão da mão N", the same
            return await self.review_press(game_id, user, number(arg), private)
        if code == replay.CODE:  # a /replay step: reads the record, saves nothing
            return await self.replay_press(game_id, user, version, arg, chat=chat)
        held = await self.hold_seat(game_id, user) if code == "j" else None  # issue 35
        out = await self._run(game_id, user,
                              lambda g: self._dispatch(g, user, version, code, arg,
                                                       is_admin and _here(g, chat), chat),
                              update=update, chat=chat)
        if code == "j":  # Entrar: out of the queue (issue 35)
            await self.took_seat(game_id, user, held)
        return out

    async def _unknown(self, user: PlayerRef, chat: ChatRef | None, gid: str | None,
                       update: str | None) -> list[Effect]:
        """"Botão desconhecido." in the language of ``chat``, else of game ``gid``."""
        if not await self._fresh(update, chat):
            return []
        lang = await self._lang(chat) if chat is not None else await self._game_lang(gid)
        return await self._reply(None, user, buttons.UNKNOWN, lang)

    def _dispatch(self, game: Game, user: PlayerRef, version: int, code: str, arg: str,
                  is_admin: bool, chat: ChatRef | None = None) -> Outcome:
        now = self.clock.now()
        if code in TABLE_CODES and version != 0:
            raise Refusal(buttons.UNKNOWN)  # lobby and table buttons carry 0, never more
        if code in LOBBY_CODES:
            lobby.require_lobby(game)
            if code == "x":
                return lobby.cancel(game, user, is_admin)
            if code == "s":
                return lobby.start(game, user, now, self.deck_fn)
            if code == "sh":
                return lobby.toggle_shuffle(game, user, now, lobby.button_flag(arg))
            if code == "v":
                return lobby.set_variant(game, user, lobby.button_number(arg), now)
            if code == "ai":
                return lobby.add_ai(game, user, "normal", now,
                                    lobby.button_number(arg) if arg else None)
            if code == "ar":
                return lobby.remove_ai(game, user, lobby.button_number(arg), now, is_admin)
            if code == "j":  # from another place of the table, only with a code (issue 35)
                return invites.join_from(game, user, chat, now)
            return lobby.leave(game, user, now)
        seat = game.seat_of(user)
        if code == phrases.CODE:  # issue 35: a preset phrase, from any place
            return phrases.say(game, seat, lobby.button_number(arg), now)
        if code == "n":
            if seat is None:
                raise Refusal(N_("Você não está nesta partida."))
            return results.next_deal(game, now, seat, self.deck_fn,
                                     lobby.button_number(arg))
        return turns.press(game, turns.check_seat(game, seat, version), code, arg, now)

    # Information ------------------------------------------------------------------
    async def show_hand(self, chat: ChatRef, user: PlayerRef, *,
                        update: str | None = None) -> list[Effect]:
        """``/mao``: the person's private hand view of the chat's game."""
        gid = await self._chat_game(chat, user, None)
        return gid if isinstance(gid, list) else await self.show_hand_of(gid, user)

    async def show_hand_of(self, game_id: str, user: PlayerRef) -> list[Effect]:
        """The hand view of ``user`` in game ``game_id`` (the "Minha mão" button)."""
        return await self._run(game_id, user, lambda g: info.hand_outcome(g, user))

    async def come_back(self, chat: ChatRef, user: PlayerRef, *,
                        update: str | None = None) -> list[Effect]:
        """``/voltar``: take the seat back from the AI that stood in."""
        return await self._chat_call(chat, user, update,
                                     lambda g: lobby.come_back(g, user, self.clock.now()))
