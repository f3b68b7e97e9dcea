"""Deliver the service's effects through the Bot API (docs/service-api.md "Effects").

- ``TableView``: the chat's one table message, posted once and then edited in place,
  through the group :class:`EditCoalescer` (one edit per 3 s per chat, 20 a minute).
  A lobby gets an extra URL button that seats a person and opens the private chat.
- ``HandView``: the person's one hand message per game, edited in place (coalesced per
  message, 1 s apart, latest wins). A refused DM (``Forbidden``) tells the group once per
  game and person, with a deep-link button that opens the private chat.
- ``TurnPing``: a short new DM (edits do not ring the phone); the previous one is deleted.
- ``Say`` / ``Tell`` / ``Document``: new messages; ``Reply``: returned to the caller, who
  answers the callback query or replies to the command.
- ``Closed``: the table and hand messages lose their buttons; message ids are forgotten.
``ChatMigrated`` on a group call moves the game to the new chat id and retries there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, InputFile, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import ChatMigrated, Forbidden

from adapters.telegram import render
from adapters.telegram.calls import MessageGone, api
from adapters.telegram.coalesce import EditCoalescer
from adapters.telegram.i18n import N_, Texts
from adapters.telegram.refs import MessageRefs
from bot.effects import (
    ChatRef,
    Closed,
    Document,
    Effect,
    HandView,
    PlayerRef,
    Reply,
    Say,
    TableView,
    Tell,
    TurnPing,
)

log = logging.getLogger(__name__)

DM_REFUSED = N_("{name}, não consigo te mandar mensagem no privado. Toque no botão abaixo e depois em Iniciar para receber a sua mão.")  # noqa: E501


@dataclass
class Origin:
    """Where a service call came from: a command (reply in ``chat_id`` to ``message_id``)
    or a button press (``replies`` collects toast texts for the callback answer)."""

    chat_id: int | None = None
    message_id: int | None = None
    replies: list[str] = field(default_factory=list)
    alert: bool = False

    def absorb(self, effects: list[Effect]) -> list[Effect]:
        """Take the ``Reply`` texts (toasts of a press) and return the other effects."""
        rest: list[Effect] = []
        for effect in effects:
            if isinstance(effect, Reply):
                self.replies.append(effect.text)
                self.alert = self.alert or effect.alert
            else:
                rest.append(effect)
        return rest


class Outbox:
    """Renders effects for one bot. ``lang_of(chat_key)`` gives a chat's language."""

    def __init__(self, bot: Bot, refs: MessageRefs,
                 lang_of: Callable[[str], Awaitable[str]],
                 group_edits: EditCoalescer | None = None,
                 dm_edits: EditCoalescer | None = None) -> None:
        self.bot = bot
        self.refs = refs
        self.lang_of = lang_of
        self.lock = asyncio.Lock()
        self.group_edits = group_edits or EditCoalescer(gap_s=3.0, per_minute=20)
        self.dm_edits = dm_edits or EditCoalescer(gap_s=1.0, per_minute=60)
        self._tables: dict[str, tuple[int, str]] = {}
        self._dm_ok: set[str] = set()

    @property
    def username(self) -> str:
        """The bot's @username (known once the bot is initialized)."""
        return str(self.bot.username)

    def stage(self, effects: list[Effect]) -> list[Effect]:
        """Queue the table, hand and closing effects on their coalescers now, without
        awaiting, so they keep the order of the service calls that made them; return the
        other effects for :meth:`deliver`. Call it right after the service call (under
        :attr:`lock`, which the handlers and the tick loop share)."""
        rest: list[Effect] = []
        for effect in effects:
            if isinstance(effect, TableView):
                self._queue_table(effect)
            elif isinstance(effect, HandView):
                self._queue_hand(effect)
            elif isinstance(effect, Closed):
                self._queue_closed(effect)
            else:
                rest.append(effect)
        return rest

    async def deliver(self, effects: list[Effect], origin: Origin | None = None) -> None:
        """Render every effect, in order; faults are handled here (see module doc)."""
        for effect in self.stage(effects):
            try:
                await self._one(effect, origin)
            except Exception:  # one failed effect must not drop the others
                log.exception("delivering %s failed", effect.kind)

    async def _one(self, effect: Effect, origin: Origin | None) -> None:
        if isinstance(effect, Reply):
            await self._reply(effect, origin)
        elif isinstance(effect, Say):
            await self._group_send(effect.chat, render.plain_html(effect.text))
        elif isinstance(effect, Tell):
            await self._dm(effect.player, render.plain_html(effect.text))
        elif isinstance(effect, TurnPing):
            await self._ping(effect)
        elif isinstance(effect, Document):
            await self._document(effect)

    # ---- group -------------------------------------------------------------------------
    def _queue_table(self, effect: TableView) -> None:
        text = render.view_html(effect.view)
        lobby = "j" in render.codes(effect.view)
        self._tables[effect.game_id] = (int(effect.chat.chat_id), text)

        async def show() -> None:
            extra = None
            if lobby:
                _ = Texts(await self.lang_of(effect.chat.key))
                extra = [[render.link_button(_("Entrar e abrir o privado"), self.username,
                                             f"j{effect.game_id}")]]
            markup = render.keyboard(effect.view.buttons, extra)
            if effect.state_version and not await self.refs.newest_table(
                    effect.game_id, effect.state_version):
                return  # another worker already showed a newer table
            await self._post_or_edit_table(effect.chat, effect.game_id, text, markup)

        self.group_edits.submit(effect.chat.chat_id, show)

    def _queue_hand(self, effect: HandView) -> None:
        key = f"{effect.game_id}:{effect.player.user_id}"
        self.dm_edits.submit(key, lambda: self._hand(effect))

    async def _post_or_edit_table(self, chat: ChatRef, game_id: str, text: str,
                                  markup: InlineKeyboardMarkup | None) -> None:
        ref = await self.refs.table(game_id)
        if ref is not None and ref[0] == await self.target(chat):
            try:
                await api("editMessageText", lambda: self.bot.edit_message_text(
                    text, chat_id=ref[0], message_id=ref[1], parse_mode=ParseMode.HTML,
                    reply_markup=markup))
                return
            except MessageGone:
                pass
            except ChatMigrated as exc:
                await self.chat_migrated(ref[0], int(exc.new_chat_id))
        sent = await self._group_send(chat, text, markup)
        if sent is not None:
            await self.refs.set_table(game_id, sent.chat_id, sent.message_id)

    async def _group_send(self, chat: ChatRef, text: str,
                          markup: InlineKeyboardMarkup | None = None) -> Message | None:
        """Send to a group; on ``ChatMigrated`` remember the new id and send there."""
        chat_id = await self.target(chat)
        try:
            return await api("sendMessage", lambda: self.bot.send_message(
                chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup))
        except ChatMigrated as exc:
            new_id = int(exc.new_chat_id)
            await self.chat_migrated(chat_id, new_id)
            return await api("sendMessage", lambda: self.bot.send_message(
                new_id, text, parse_mode=ParseMode.HTML, reply_markup=markup))
        except Forbidden as exc:  # the bot was removed from the group
            log.warning("group %s refused a message: %s", chat_id, exc.message)
            return None

    async def target(self, chat: ChatRef) -> int:
        """The Telegram chat id to write to for the service's ``chat`` (a group that became
        a supergroup is written to under its new id)."""
        chat_id = int(chat.chat_id)
        return await self.refs.successor(chat_id) or chat_id

    async def chat_migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its game stays under the old id in the service,
        and the adapter writes to (and reads from) the new one."""
        await self.refs.set_migration(old_chat_id, new_chat_id)

    def _queue_closed(self, effect: Closed) -> None:
        known = self._tables.pop(effect.game_id, None)
        game_id = effect.game_id

        async def close() -> None:
            ref = await self.refs.table(game_id)
            if ref is not None:
                await self._drop_buttons(ref[0], ref[1], known[1] if known else None)
            for name, value in (await self.refs.all(game_id)).items():
                if name.startswith("hand:"):
                    await self._drop_buttons(int(name[5:]), int(value), None)
                elif name.startswith("ping:"):
                    await self._delete(int(name[5:]), int(value))
            await self.refs.forget_game(game_id)

        self.group_edits.submit(effect.chat.chat_id, close)

    async def _drop_buttons(self, chat_id: int, message_id: int, text: str | None) -> None:
        try:
            if text is None:
                await api("editMessageReplyMarkup", lambda: self.bot.edit_message_reply_markup(
                    chat_id=chat_id, message_id=message_id, reply_markup=None))
            else:
                await api("editMessageText", lambda: self.bot.edit_message_text(
                    text, chat_id=chat_id, message_id=message_id, parse_mode=ParseMode.HTML))
        except (MessageGone, ChatMigrated, Forbidden):
            pass

    async def _document(self, effect: Document) -> None:
        payload = InputFile(effect.content.encode(), filename=effect.filename)
        chat_id = await self.target(effect.chat)
        try:
            await api("sendDocument", lambda: self.bot.send_document(chat_id, payload))
        except (ChatMigrated, Forbidden) as exc:
            log.warning("sendDocument to %s refused: %s", effect.chat.chat_id, exc)

    # ---- people ------------------------------------------------------------------------
    async def _reply(self, effect: Reply, origin: Origin | None) -> None:
        if origin is None:
            await self._dm(effect.player, render.plain_html(effect.text))
            return
        chat_id, quoted = origin.chat_id, origin.message_id
        if chat_id is None:
            origin.replies.append(effect.text)
            origin.alert = origin.alert or effect.alert
            return
        reply = ReplyParameters(quoted, allow_sending_without_reply=True) if quoted else None
        try:
            await api("sendMessage", lambda: self.bot.send_message(
                chat_id, render.plain_html(effect.text), parse_mode=ParseMode.HTML,
                reply_parameters=reply))
        except (ChatMigrated, Forbidden) as exc:
            log.warning("reply in %s refused: %s", chat_id, exc)

    async def _hand(self, effect: HandView) -> None:
        user_id = effect.player.user_id
        text = render.view_html(effect.view)
        markup = render.keyboard(effect.view.buttons)
        message_id = await self.refs.message(effect.game_id, "hand", user_id)
        if message_id is not None:
            try:
                await api("editMessageText", lambda: self.bot.edit_message_text(
                    text, chat_id=int(user_id), message_id=message_id,
                    parse_mode=ParseMode.HTML, reply_markup=markup))
                return
            except MessageGone:
                pass
            except Forbidden:
                await self.dm_refused(effect.chat, effect.game_id, effect.player)
                return
        sent = await self._dm(effect.player, text, markup, effect.chat, effect.game_id)
        if sent is not None:
            await self.refs.set_message(effect.game_id, "hand", user_id, sent.message_id)

    async def _ping(self, effect: TurnPing) -> None:
        user_id = effect.player.user_id
        previous = await self.refs.message(effect.game_id, "ping", user_id)
        sent = await self._dm(effect.player, render.plain_html(effect.text), None,
                              effect.chat, effect.game_id)
        if sent is not None:
            await self.refs.set_message(effect.game_id, "ping", user_id, sent.message_id)
        if previous is not None:
            await self._delete(int(user_id), previous)

    async def _delete(self, chat_id: int, message_id: int) -> None:
        with contextlib.suppress(MessageGone, ChatMigrated, Forbidden):
            await api("deleteMessage", lambda: self.bot.delete_message(chat_id, message_id))

    async def _dm(self, player: PlayerRef, text: str, markup: Any = None,
                  chat: ChatRef | None = None, game_id: str | None = None) -> Message | None:
        """A new private message; a refusal is recorded (and told to ``chat`` if given)."""
        try:
            sent = await api("sendMessage", lambda: self.bot.send_message(
                int(player.user_id), text, parse_mode=ParseMode.HTML, reply_markup=markup))
        except (Forbidden, ChatMigrated):
            if chat is not None and game_id is not None:
                await self.dm_refused(chat, game_id, player)
            else:
                await self.refs.set_dm_state(player.user_id, False)
            return None
        if sent is not None and player.user_id not in self._dm_ok:
            self._dm_ok.add(player.user_id)
            await self.refs.set_dm_state(player.user_id, True)
        return sent

    async def dm_refused(self, chat: ChatRef, game_id: str, player: PlayerRef) -> None:
        """The person never started the bot (or blocked it): say so in the group, once per
        game, with a button that opens the private chat and shows their hand."""
        self._dm_ok.discard(player.user_id)
        await self.refs.set_dm_state(player.user_id, False)
        if not await self.refs.flag(game_id, f"dm:{player.user_id}"):
            return
        _ = Texts(await self.lang_of(chat.key))
        text = _(DM_REFUSED, name=player.name)
        button = render.link_button(_("Abrir o privado"), self.username, f"h{game_id}")
        await self._group_send(chat, render.plain_html(text), InlineKeyboardMarkup([[button]]))

    async def dm_known(self, user_id: str) -> bool:
        """True when the bot is known to be able to write to the person."""
        if user_id in self._dm_ok:
            return True
        ok = await self.refs.dm_state(user_id) is True
        if ok:
            self._dm_ok.add(user_id)
        return ok

    async def mark_dm_ok(self, user_id: str) -> None:
        """The person opened the private chat (``/start``)."""
        self._dm_ok.add(user_id)
        await self.refs.set_dm_state(user_id, True)

    async def flush(self) -> None:
        """Wait for every coalesced edit (tests, shutdown)."""
        await self.dm_edits.flush()
        await self.group_edits.flush()
