"""The chat calls that read a game or the chat's settings rather than play a move
(docs/service-api.md): the stored table (:meth:`ChatCalls.table_of`), ``/placar``,
``/exportar``, ``/idioma``, ``/ajuda``, ``/regras`` and a chat's move to a new id.
:class:`bot.service.Service` adds the lobby and the turns; the plumbing is
:class:`bot.runner.GameRunner`'s."""

from __future__ import annotations

import contextlib
import logging
from typing import Literal

from bot import info, places, play, views
from bot.effects import ChatRef, Document, Effect, PlayerRef, Reply
from bot.i18n import N_, Translator, norm_lang
from bot.info import record_filename
from bot.model import CorruptGame
from bot.outcome import Refusal
from bot.runner import CORRUPT, UPDATE_TTL_S, GameRunner

log = logging.getLogger(__name__)
CHAT_BIND_TTL_S = 30 * 86_400
"""A chat's binding outlives any game (it is removed when the game closes, and a binding
to a game that no longer exists is dropped on sight), so long matches keep their chat."""
FILE_FAILED = N_("Não consegui enviar o arquivo da partida agora: tente /exportar de novo "
                 "daqui a pouco.")
"""Said in the chat when the platform refuses the record's file (a trial: /exportar
answered nothing)."""


class ChatCalls(GameRunner):
    """The reading calls of :class:`bot.service.Service` (see the module docstring);
    ``turn_timer_s`` is the service's default turn deadline, told by ``/regras``;
    ``docs_url`` where ``/ajuda``'s link to the player's guide points (``DOCS_URL``)."""

    turn_timer_s: int
    docs_url: str | None = None

    async def _stored(self, gid: str) -> tuple[int, str] | Literal[False] | None:
        """Game ``gid`` as stored (None: there is none), or False when it cannot be read:
        a damaged state, or a key of the wrong type (logged)."""
        try:
            got = await self.store.load_game(gid)
        except CorruptGame as err:
            log.error("game %s: stored state unreadable (%s)", gid, err)
            return False
        return got if got is None or self._readable(gid, got) else False

    def _readable(self, gid: str, got: tuple[int, str]) -> bool:
        """Whether the stored game ``got`` and its match can be read (else it is logged)."""
        try:
            game = self._parsed(gid, got)
            if game.match is not None:
                play.match_of(game)
        except CorruptGame as err:
            log.error("game %s: stored state unreadable (%s)", gid, err)
            return False
        return True


    async def table_of(self, game_id: str) -> list[Effect]:
        """The table view of game ``game_id`` as stored now (``[]`` when it is gone): a
        worker re-renders a table another worker left stale (adapters/delivery/stale.py)."""
        got = await self._stored(game_id)
        if not got:
            return []
        game = self._parsed(game_id, got)
        return places.spread(game, [views.table_effect(game).model_copy(
            update={"state_version": got[0]})])

    async def scoreboard(self, chat: ChatRef, user: PlayerRef, *,
                         update: str | None = None) -> list[Effect]:
        """``/placar``: the match deal by deal and the chat's all-time ranking."""
        if not await self._fresh(update, chat):
            return []
        lang = await self._lang(chat)
        gid = await self._active(chat) or await self.store.get_setting(chat.key, "last_game")
        stored = await self._stored(gid) if gid else None
        game = self._parsed(gid, stored) if gid and stored else None  # unreadable: no match
        try:
            rows = await self.store.ranking(chat.key)
        except CorruptGame as err:
            log.error("chat %s: ranking unreadable (%s)", chat.key, err)
            rows = []
        you = user.key if chat.platform in views.SOLO_PLATFORMS else None
        _ = Translator(lang)
        text = info.scoreboard_text(game, rows, _, you)
        if stored is False:  # a trial: the match was left out without a word
            text = f"{_(CORRUPT)}\n\n{text}"
        return [Reply(player=user, text=text)]

    async def export(self, chat: ChatRef, user: PlayerRef, *,
                     update: str | None = None) -> list[Effect]:
        """``/exportar``: the last finished game's record, never the record of the game in
        play, whose hands are hidden: during a match the chat's earlier finished one is
        given (``/ajuda``: "the record of the last finished match"; a trial was refused it)."""
        if not await self._fresh(update, chat):
            return []
        active = await self._active(chat)  # a game found over is closed out first
        gid = await self.store.get_setting(chat.key, "last_game")
        if active is not None and gid in (None, active):
            return await self._reply(chat, user, N_(
                "O registro só sai depois do fim da partida."))
        try:
            record = await self.store.load_record(gid) if gid else None
        except CorruptGame as err:
            log.error("game %s: record unreadable (%s)", gid, err)
            return await self._reply(chat, user, CORRUPT)
        if record is None:
            return await self._reply(chat, user, N_("Ainda não há partida terminada neste grupo."))
        failed = Translator(await self._lang(chat))(FILE_FAILED)
        return [Document(chat=chat, filename=record_filename(gid or "", record), content=record,
                         failed=failed)]

    async def set_language(self, chat: ChatRef, user: PlayerRef, lang: str = "", *,
                           update: str | None = None) -> list[Effect]:
        """``/idioma [pt|en|it]``: the chat's language (no argument lists them). The
        update is marked seen once the language is set and the table relabelled (both
        idempotent), so a redelivery after a crash in between sets it."""
        code = norm_lang(lang) if lang.strip() else None
        if code is None:
            if not await self._fresh(update, chat):
                return []
            said = info.languages(Translator(await self._lang(chat)), lang)
            return [Reply(player=user, text=said)]
        if update is not None and await self.store.was_seen(update, chat.key):
            return []
        await self.store.set_setting(chat.key, "lang", code)
        out = await self._reply(chat, user, N_("Idioma do grupo: português."), code)
        gid = await self._active(chat)
        if gid is not None:
            with contextlib.suppress(CorruptGame):  # an unreadable table stays as it is
                out += await self._run(gid, None, lambda g: info.relabel(g, code))
        if update is not None:
            await self.store.first_seen(update, UPDATE_TTL_S, chat.key)
        return out

    async def help(self, chat: ChatRef, user: PlayerRef) -> list[Effect]:
        """``/ajuda``: the commands, then the link to the player's guide in the chat's
        language (:func:`bot.info.guide_link`)."""
        _ = Translator(await self._lang(chat))
        return [Reply(player=user, text=info.help_text(_, info.guide_link(self.docs_url,
                                                                          _.lang)))]

    async def rules_text(self, chat: ChatRef, user: PlayerRef, preset: str = "") -> list[Effect]:
        """``/regras [preset [option=value ...]]``: :func:`bot.info.rules_for`, the chat's
        game's table being the one told without a preset."""
        _ = Translator(await self._lang(chat))
        table = None
        if not preset.strip():
            gid = await self._active(chat)
            stored = await self._stored(gid) if gid else None
            table = play.rules_of(self._parsed(gid, stored)) if gid and stored else None
        try:
            return [Reply(player=user, text=info.rules_for(
                preset, table, self.turn_timer_s, _, chat.platform))]
        except Refusal as err:
            return [Reply(player=user, text=err.render(_))]

    async def move_chat(self, old: ChatRef, new: ChatRef) -> list[Effect]:
        """The platform moved a chat (Telegram ``ChatMigrated``): its active game, language
        and last finished game follow it to ``new``."""
        for name in ("lang", "last_game"):
            value = await self.store.get_setting(old.key, name)
            if value is not None:
                await self.store.set_setting(new.key, name, value)
        gid = await self._active(old)
        if gid is None:
            return []
        effects: list[Effect] = []
        with contextlib.suppress(CorruptGame):  # its chat binding moves all the same
            effects = await self._run(gid, None, lambda g: info.move_chat(g, new))
        await self.store.unbind_chat(old.key, gid)
        await self.store.bind_chat(new.key, gid, CHAT_BIND_TTL_S)
        return effects

