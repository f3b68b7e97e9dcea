"""Telegram's side of the shared delivery (:mod:`adapters.delivery.outbox`): rendering and
Bot API calls only (docs/telegram.md).

- Table: HTML message; a lobby gets an extra URL button that seats a person and opens the
  private chat. ``ChatMigrated`` on a group call moves the game to the new chat id and
  the call is retried there.
- Hand, turn ping, ``Tell``: DMs; ``Forbidden`` is a refused DM, told to the group once
  with a deep-link button that opens the private chat.
- ``Reply``: a reply to the command, or a toast collected in :class:`Origin` for the
  callback answer.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    Message,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import ChatMigrated, Forbidden

from adapters.delivery.coalesce import EditCoalescer
from adapters.delivery.order import KeyedOrder
from adapters.delivery.outbox import Delivery
from adapters.delivery.platform import MessageGone, PrivateRefused
from adapters.delivery.stale import StaleTables
from adapters.telegram import render
from adapters.telegram.calls import api
from adapters.telegram.i18n import N_, Texts
from adapters.telegram.refs import MessageRefs
from bot.effects import (
    ChatRef,
    Effect,
    HandView,
    PlayerRef,
    ReplayView,
    Reply,
    TableView,
    TurnPing,
)
from bot.i18n import Translator
from bot.webview import OPEN_TABLE

log = logging.getLogger(__name__)

MAX_CAPTION = 1024
"""Characters of a photo's caption Telegram takes."""
DM_REFUSED = N_("{name}, não consigo te mandar mensagem no privado. Toque no botão abaixo e depois em Iniciar para receber a sua mão.")  # noqa: E501


@dataclass
class Origin:
    """Where a service call came from: a command (reply in ``chat_id`` to ``message_id``)
    or a button press (``replies`` collects toast texts for the callback answer)."""

    chat_id: int | None = None
    message_id: int | None = None
    replies: list[str] = field(default_factory=list)
    alert: bool = False
    pressed: tuple[int, int] | None = None
    """``(chat id, message id)`` of the message whose button was pressed: a ``/replay``
    step edits it in place (issue 29)."""

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


@dataclass
class Rendered:
    """A Telegram message to send: HTML ``text`` and an inline keyboard."""

    text: str
    markup: InlineKeyboardMarkup | None = None


class TelegramPlatform:
    """The :class:`adapters.delivery.platform.Platform` of one Telegram bot."""

    name = "tg"
    hand_replaced_when_gone = True
    """A DM hand is sent anew only after it was found gone, or by ``/mao``, which deletes
    the old one (adapters/delivery/platform.py)."""

    def __init__(self, bot: Bot, refs: MessageRefs,
                 lang_of: Callable[[str], Awaitable[str]]) -> None:
        self.bot = bot
        self.refs = refs
        self.lang_of = lang_of
        self.dm_ok: set[str] = set()
        self.web: Any = None
        """The web table's links (:class:`adapters.web.runtime.WebLinks`) when
        ``WEB_PORT`` is set: the table and the hands carry an "Abrir a mesa" button."""
        self._langs: dict[str, str] = {}  # chat key -> language, as its table last read

    @property
    def username(self) -> str:
        """The bot's @username (known once the bot is initialized)."""
        return str(self.bot.username)

    # ---- rendering -----------------------------------------------------------------
    async def table(self, effect: TableView) -> Rendered:
        """HTML table; a lobby adds the "join and open the private chat" link button."""
        extra = None
        codes = render.codes(effect.view)
        if "j" in codes:
            _ = Texts(await self.lang_of(effect.chat.key))
            extra = [[render.link_button(_("Entrar e abrir o privado"), self.username,
                                         f"j{effect.game_id}")]]
        elif "h" in codes and self.web is not None:
            lang = self._langs[effect.chat.key] = await self.lang_of(effect.chat.key)
            link = self.web.mini_app(self.username, effect.game_id)
            if link:  # a group cannot carry a web_app button: the Mini App's direct link
                extra = [[InlineKeyboardButton(Translator(lang)(OPEN_TABLE), url=link)]]
        return Rendered(render.view_html(effect.view),
                        render.keyboard(effect.view.buttons, extra))

    def hand(self, effect: HandView) -> Rendered:
        """HTML hand with its card and action buttons (and, with the web table, its
        "Abrir a mesa" link: the Mini App, else a one-use signed link)."""
        extra = None
        if self.web is not None and effect.view.buttons:
            link = (self.web.mini_app(self.username, effect.game_id)
                    or self.web.signed("tg", effect.player.user_id, effect.game_id))
            label = Translator(self._langs.get(effect.chat.key, "pt"))(OPEN_TABLE)
            extra = [[InlineKeyboardButton(label, url=link)]]
        return Rendered(render.view_html(effect.view),
                        render.keyboard(effect.view.buttons, extra))

    def text(self, text: str) -> Rendered:
        """A plain service text."""
        return Rendered(render.plain_html(text))

    # ---- group ---------------------------------------------------------------------
    async def target(self, chat: ChatRef) -> int:
        """The Telegram chat id to write to for the service's ``chat`` (a group that became
        a supergroup is written to under its new id)."""
        chat_id = int(chat.chat_id)
        return await self.refs.successor(chat_id) or chat_id

    async def _send(self, chat_id: int, message: Rendered) -> Message | None:
        return await api("sendMessage", lambda: self.bot.send_message(
            chat_id, message.text, parse_mode=ParseMode.HTML, reply_markup=message.markup))

    async def post(self, chat: ChatRef, message: Rendered) -> str | None:
        """Send to a group; on ``ChatMigrated`` remember the new id and send there."""
        chat_id = await self.target(chat)
        try:
            sent = await self._send(chat_id, message)
        except ChatMigrated as exc:
            new_id = int(exc.new_chat_id)
            await self.refs.set_migration(chat_id, new_id)
            sent = await self._send(new_id, message)
        except Forbidden as exc:  # the bot was removed from the group
            log.warning("group %s refused a message: %s", chat_id, exc.message)
            return None
        return None if sent is None else f"{sent.chat_id}:{sent.message_id}"

    async def edit(self, chat: ChatRef, ref: str, message: Rendered) -> None:
        """Edit the table in place (a migrated group's table is posted anew there)."""
        chat_id, message_id = (int(part) for part in ref.split(":"))
        if chat_id != await self.target(chat):
            raise MessageGone("the group moved")
        try:
            await api("editMessageText", lambda: self.bot.edit_message_text(
                message.text, chat_id=chat_id, message_id=message_id,
                parse_mode=ParseMode.HTML, reply_markup=message.markup))
        except ChatMigrated as exc:
            await self.refs.set_migration(chat_id, int(exc.new_chat_id))
            raise MessageGone("the group moved") from exc

    async def strip(self, ref: str, message: Rendered | None) -> None:
        """Drop the table's buttons (re-sending its last text when known)."""
        chat_id, message_id = (int(part) for part in ref.split(":"))
        await self._drop_buttons(chat_id, message_id, message.text if message else None)

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

    async def send_file(self, chat: ChatRef, filename: str, content: str) -> bool:
        """``sendDocument`` of the record (to a migrated group's new id); False when
        Telegram refused it or the call failed."""
        payload = InputFile(content.encode(), filename=filename)
        chat_id = await self.target(chat)
        try:
            try:
                sent = await api("sendDocument", lambda: self.bot.send_document(chat_id, payload))
            except ChatMigrated as moved:
                new_id = int(moved.new_chat_id)
                await self.refs.set_migration(chat_id, new_id)
                sent = await api("sendDocument", lambda: self.bot.send_document(new_id, payload))
        except (ChatMigrated, Forbidden) as exc:
            log.warning("sendDocument to %s refused: %s", chat.chat_id, exc)
            return False
        return sent is not None

    async def send_picture(self, chat: ChatRef, filename: str, content: bytes,
                           caption: str) -> bool:
        """``sendPhoto`` with the caption (plain text; issue 29); a caption longer than
        Telegram's :data:`MAX_CAPTION` goes whole as a message right after a photo
        without one (never cut). False when Telegram refused the photo or the call
        failed (the outbox then posts the caption alone)."""
        chat_id = await self.target(chat)
        fits = len(caption) <= MAX_CAPTION
        try:
            sent = await api("sendPhoto", lambda: self.bot.send_photo(
                chat_id, InputFile(content, filename=filename),
                caption=caption if fits else None))
        except (ChatMigrated, Forbidden) as exc:
            log.warning("sendPhoto to %s refused: %s", chat.chat_id, exc)
            return False
        if sent is not None and not fits:
            await self.post(chat, self.text(caption))
        return sent is not None

    async def show_replay(self, effect: ReplayView, origin: Any) -> None:
        """A ``/replay`` step: ``editMessageText`` of the pressed message, or a new group
        message for the command (and when the pressed one is gone)."""
        message = Rendered(render.view_html(effect.view), render.keyboard(effect.view.buttons))
        pressed = origin.pressed if isinstance(origin, Origin) else None
        if pressed is not None:
            chat_id, message_id = pressed
            try:
                await api("editMessageText", lambda: self.bot.edit_message_text(
                    message.text, chat_id=chat_id, message_id=message_id,
                    parse_mode=ParseMode.HTML, reply_markup=message.markup))
                return
            except (MessageGone, ChatMigrated, Forbidden) as exc:
                log.info("replay message %s not edited: %s", message_id, exc)
        await self.post(effect.chat, message)

    async def refused_notice(self, chat: ChatRef, game_id: str, player: PlayerRef) -> None:
        """The group message with a button that opens the private chat and sends the hand."""
        self.dm_ok.discard(player.user_id)
        await self.refs.set_dm_state(player.user_id, False)
        _ = Texts(await self.lang_of(chat.key))
        text = render.plain_html(_(DM_REFUSED, name=player.name))
        button = render.link_button(_("Abrir o privado"), self.username, f"h{game_id}")
        await self.post(chat, Rendered(text, InlineKeyboardMarkup([[button]])))

    # ---- people --------------------------------------------------------------------
    def carries_hand(self, origin: Any, player: PlayerRef) -> bool:
        """Never: the hand is always the person's DM message."""
        return False

    async def answer_hand(self, origin: Any, player: PlayerRef, message: Any) -> str | None:
        """Not used on Telegram (see :meth:`carries_hand`)."""
        return None

    async def send_private(self, player: PlayerRef, message: Rendered,
                           origin: Any = None) -> str | None:
        """A new DM; ``Forbidden`` (never started, blocked) is :class:`PrivateRefused`."""
        try:
            sent = await self._send(int(player.user_id), message)
        except (Forbidden, ChatMigrated) as exc:
            await self.refs.set_dm_state(player.user_id, False)
            raise PrivateRefused(str(exc)) from exc
        if sent is None:
            return None
        if player.user_id not in self.dm_ok:
            self.dm_ok.add(player.user_id)
            await self.refs.set_dm_state(player.user_id, True)
        return str(sent.message_id)

    async def edit_private(self, player: PlayerRef, ref: str, message: Rendered) -> None:
        """Edit the hand DM in place."""
        try:
            await api("editMessageText", lambda: self.bot.edit_message_text(
                message.text, chat_id=int(player.user_id), message_id=int(ref),
                parse_mode=ParseMode.HTML, reply_markup=message.markup))
        except Forbidden as exc:
            self.dm_ok.discard(player.user_id)
            await self.refs.set_dm_state(player.user_id, False)
            raise PrivateRefused(str(exc)) from exc

    async def strip_private(self, user_id: str, ref: str) -> None:
        """Drop the hand DM's buttons."""
        await self._drop_buttons(int(user_id), int(ref), None)

    async def ping(self, effect: TurnPing) -> str | None:
        """A short new DM: edits do not ring the phone."""
        return await self.send_private(effect.player, self.text(effect.text))

    async def delete_private(self, user_id: str, ref: str) -> None:
        """``deleteMessage`` in the person's DM."""
        with contextlib.suppress(MessageGone, ChatMigrated, Forbidden):
            await api("deleteMessage", lambda: self.bot.delete_message(int(user_id), int(ref)))

    async def answer(self, effect: Reply, origin: Origin | None) -> str | None:
        """A toast for a press (collected in ``origin``), a reply to a command, or a DM;
        the sent message's ref ``"<chat>:<message>"`` (None for a toast or a refusal)."""
        if origin is None:
            with contextlib.suppress(PrivateRefused):
                sent = await self.send_private(effect.player, self.text(effect.text))
                return f"{effect.player.user_id}:{sent}" if sent else None
            return None
        chat_id, quoted = origin.chat_id, origin.message_id
        if chat_id is None:
            origin.replies.append(effect.text)
            origin.alert = origin.alert or effect.alert
            return None
        reply = ReplyParameters(quoted, allow_sending_without_reply=True) if quoted else None
        try:
            message = await api("sendMessage", lambda: self.bot.send_message(
                chat_id, render.plain_html(effect.text), parse_mode=ParseMode.HTML,
                reply_parameters=reply, reply_markup=render.keyboard(effect.buttons)))
        except (ChatMigrated, Forbidden) as exc:
            log.warning("reply in %s refused: %s", chat_id, exc)
            return None
        mid = getattr(message, "message_id", None)
        return f"{chat_id}:{mid}" if mid is not None else None

    async def rewrite(self, player: PlayerRef, ref: str, text: str) -> None:
        """Edit the answer ``ref`` (:meth:`answer`'s) to ``text`` with no buttons; a
        message that is gone or a chat that refuses is ignored (issue 35)."""
        chat_id, _sep, mid = ref.partition(":")
        with contextlib.suppress(MessageGone, ChatMigrated, Forbidden):
            await api("editMessageText", lambda: self.bot.edit_message_text(
                render.plain_html(text), chat_id=int(chat_id), message_id=int(mid),
                parse_mode=ParseMode.HTML, reply_markup=None))


class Outbox(Delivery):
    """The shared delivery over a :class:`TelegramPlatform`, plus what the Telegram
    handlers ask of it (deep links, "can the bot write to this person", migrations).
    ``lang_of(chat_key)`` gives a chat's language."""

    platform: TelegramPlatform
    refs: MessageRefs

    def __init__(self, bot: Bot, refs: MessageRefs,
                 lang_of: Callable[[str], Awaitable[str]],
                 group_edits: EditCoalescer | None = None,
                 dm_edits: EditCoalescer | None = None,
                 stale: StaleTables | None = None, order: KeyedOrder | None = None) -> None:
        super().__init__(TelegramPlatform(bot, refs, lang_of), refs, group_edits, dm_edits,
                         stale, order=order)
        self.bot = bot
        self.lang_of = lang_of

    @property
    def username(self) -> str:
        """The bot's @username (known once the bot is initialized)."""
        return self.platform.username

    async def target(self, chat: ChatRef) -> int:
        """See :meth:`TelegramPlatform.target`."""
        return await self.platform.target(chat)

    async def chat_migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its game stays under the old id in the service,
        and the adapter writes to (and reads from) the new one."""
        await self.refs.set_migration(old_chat_id, new_chat_id)

    async def dm_known(self, user_id: str) -> bool:
        """True when the bot is known to be able to write to the person."""
        if user_id in self.platform.dm_ok:
            return True
        ok = await self.refs.dm_state(user_id) is True
        if ok:
            self.platform.dm_ok.add(user_id)
        return ok

    async def mark_dm_ok(self, user_id: str) -> None:
        """The person opened the private chat (``/start``)."""
        self.platform.dm_ok.add(user_id)
        await self.refs.set_dm_state(user_id, True)
