"""Thin handlers: decode a Telegram update, call the service, deliver its effects
(DESIGN "Examples to follow" 8). Every callback query is answered, whatever happens.

Commands (pt-BR): ``/novojogo /entrar /sair /robo /iniciar /mao /placar /regras /ajuda
/cancelar /voltar /exportar /idioma`` and ``/start`` with deep-link payloads:
``j<game_id>`` joins that game, ``h<game_id>`` sends the person's hand, ``g<game_id>``
only opens the private chat. Update ids go to the service as
``"tg:<bot_id>:u:<update_id>"`` (a button press: its callback query id,
``"tg:<bot_id>:q:<query_id>"``) so a duplicate delivery changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from telegram import Chat, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ContextTypes

from adapters import deadline
from adapters.delivery.commands import (
    HAND_IN_PRIVATE,
    failure_text,
    run_command,
)
from adapters.delivery.order import GAME_COMMANDS, GamePlace, Ticket
from adapters.delivery.outbox import Staged
from adapters.ops.metrics import answered
from adapters.telegram import render
from adapters.telegram.calls import api
from adapters.telegram.i18n import N_, Texts
from adapters.telegram.order import PLACE, order_key
from adapters.telegram.outbox import Origin, Outbox
from bot.buttons import ADMIN_CODES
from bot.effects import ChatRef, Effect, PlayerRef, Reply, unpack
from bot.season.tournament.calls import CANCEL_WORDS
from bot.season.tournament.texts import CANCEL

log = logging.getLogger(__name__)

PLATFORM = "tg"
GROUP_ONLY = {"novojogo", "entrar", "sair", "robo", "iniciar", "mao", "placar", "cancelar",
              "voltar", "exportar", "ranking", "perfil", "config", "replay", "dica", "revisao",
              "torneio"}
PLACE_COMMANDS = {"sair", "voltar", "mao", "placar", "cancelar", "dica", "revisao"}
"""The table's commands that also work in a private chat that is a place of a game (a
table the queue formed, a seat taken by invitation from there: issue 35)."""
GROUP_ONLY_TEXT = N_("Esse comando funciona no grupo da mesa: me adicione a um grupo e use /novojogo lá.")  # noqa: E501
HAND_FROM_GROUP = N_("Mande /mao no grupo da mesa: a sua mão chega aqui.")
"""``/mao`` sent in the private chat: the bot keeps games by group, so the group's /mao
(or its "Minha mão" button) is what finds the hand; it is then sent here."""
WELCOME = N_("Tudo certo! Suas cartas vão chegar aqui quando a partida começar. Para abrir uma mesa, me adicione a um grupo e use /novojogo.")  # noqa: E501
ADMIN_UNKNOWN = N_("Não consegui confirmar com o Telegram se você é admin do grupo: nada foi mudado. Tente {again} de novo daqui a pouco.")  # noqa: E501
"""Telegram's ``getChatMember`` failed for an admin-gated call: ``{again}`` is the call to
send again (``/cancelar``, ``/torneio cancelar``, ``/config``, ``/novojogo``)."""
ADMIN_UNKNOWN_PRESS = N_("Não consegui confirmar com o Telegram se você é admin do grupo: nada foi mudado. Aperte o botão de novo daqui a pouco.")  # noqa: E501
"""The same for a button with no command of its own (taking a robot off the table)."""
# The callback answer's url opens the private chat: "Minha mão" unless the service refused
# (the hand is there; ``/start h<game>`` re-sends it to someone the bot could not
# reach; a non-player gets the refusal as a toast, no link), "Entrar" only for someone
# the bot cannot write to yet.
OPENS_DM = {"j": "g", "h": "h"}
ANSWER_S = 2.0
"""Seconds after a press arrives by which its callback query is answered (empty, when
the service has not answered by then: issue 28)."""


LANG_READ_S = 0.5
"""Seconds the failure text waits for the chat's language (Redis may be what failed)."""


class EarlyAnswer:
    """The deadline of one callback query's answer (:meth:`Handlers.press`): armed when
    the press arrives, it answers the query empty :data:`ANSWER_S` later unless
    :meth:`claim` took the answer first; a press that opens the private chat gets its
    link (``t.me/<bot>?start=...``), so "Minha mão" still leads to the hand."""

    def __init__(self, query: Any, outbox: Outbox) -> None:
        self.answered = False
        self._task = asyncio.ensure_future(self._fire(query, outbox))

    async def _fire(self, query: Any, outbox: Outbox) -> None:
        await asyncio.sleep(deadline.left(ANSWER_S))  # from the update's arrival
        if self.answered:
            return
        self.answered = True  # before any await: the handler's own answer is off now
        parts = unpack(query.data or "")
        url = (render.deep_link(outbox.username, OPENS_DM[parts[2]] + parts[0])
               if parts is not None and parts[2] in OPENS_DM else None)
        await api("answerCallbackQuery", lambda: query.answer(url=url))

    def claim(self) -> bool:
        """Take the answer for the handler: False when it is the handler's to send, True
        when the deadline answered already (the toasts must go another way)."""
        self._task.cancel()
        if self.answered:
            return True
        self.answered = True
        return False


def player_of(user: User) -> PlayerRef:
    """The service's identity of a Telegram user."""
    return PlayerRef(platform=PLATFORM, user_id=str(user.id), name=user.full_name)


def chat_of(chat: Chat, chat_id: int | None = None) -> ChatRef:
    """The service's identity of a Telegram chat (``chat_id`` overrides its id)."""
    return ChatRef(platform=PLATFORM, chat_id=str(chat.id if chat_id is None else chat_id),
                   title=chat.title or "")


def update_key(update: Update) -> str:
    """Idempotency key of an update: ``"tg:<bot id>:u:<update id>"`` (update ids are only
    unique per bot, and several bots may share one Redis); a button press is keyed by
    its callback query (:func:`press_key`)."""
    query = update.callback_query
    if query is not None:
        return press_key(update.get_bot().id, query.id)
    return f"{PLATFORM}:{update.get_bot().id}:u:{update.update_id}"


def press_key(bot_id: int, query_id: str) -> str:
    """Idempotency key of one button press: ``"tg:<bot id>:q:<callback query id>"``.

    Telegram makes one callback query per tap and sends it again, in the same or in
    another update, only when it was not acknowledged: the query id tells "this press"
    from "a new press of the same-looking button" (issue 30: "Robô" tapped twice adds
    two robots; the same press delivered twice applies once)."""
    return f"{PLATFORM}:{bot_id}:q:{query_id}"


@dataclass
class Handlers:
    """The bot's handlers over one ``service`` (docs/service-api.md) and ``outbox``."""

    service: Any
    outbox: Outbox

    async def chat(self, chat: Chat) -> ChatRef:
        """The service's chat for a Telegram chat: a supergroup that replaced a group keeps
        the group's original id, so its game, settings and ranking follow it."""
        original = await self.outbox.refs.original(chat.id)
        return chat_of(chat, original)

    async def call(self, pending: Awaitable[list[Effect]], update: Update,
                   fresh: bool = False,
                   game_of: Callable[[], Awaitable[str | None]] | None = None) -> Staged:
        """Run one service call in its turn of the update's line (the place
        :class:`adapters.telegram.order.UpdateOrder` took when ``update`` arrived, or a
        new one at the end of its line, :func:`adapters.telegram.order.order_key`) and
        stage its table and hand views in that turn, so the views of one game reach the
        coalescers in the order its presses arrived (``fresh``: the person asked for
        their hand, send it anew). The place is given up when the views are staged.
        ``game_of``: the call acts on the chat's game, which it names: the call runs in
        that game's line (:class:`adapters.delivery.order.GamePlace`)."""
        key = order_key(update)
        ticket = PLACE.get()
        if ticket is None or ticket.used or ticket.key != key:
            ticket = self.outbox.order.ticket(key)
        place: Ticket | GamePlace = ticket if game_of is None else GamePlace(
            self.outbox.order, ticket, game_of)
        async with place:
            return self.outbox.stage(list(await pending), fresh=fresh)

    async def lang(self, chat: ChatRef) -> Texts:
        """The adapter's texts in the chat's language."""
        return Texts(await self.outbox.lang_of(chat.key))

    async def is_admin(self, chat_id: int, user_id: int, bot: Any) -> bool | None:
        """Whether the person administers the group; None when Telegram could not say
        (a server error is retried once, so a person waits half a second, not four)."""
        member = await api("getChatMember", lambda: bot.get_chat_member(chat_id, user_id),
                           transient=1)
        if member is None:
            return None
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)

    async def cancel_admin(self, chat: ChatRef | None, user: PlayerRef, chat_id: int,
                           bot: Any, game_id: str | None = None) -> bool | None:
        """``is_admin`` for closing a game or taking a robot off its lobby (the lobby
        buttons of :data:`bot.buttons.ADMIN_CODES`), asked of Telegram only when the
        service says it matters (:meth:`bot.service.Service.needs_admin`): the table's creator, or
        the only person at it, closes it without a ``getChatMember`` call."""
        if not await self.service.needs_admin(user, chat=chat, game_id=game_id):
            return False
        return await self.is_admin(chat_id, int(user.user_id), bot)

    async def command_admin(self, name: str, args: str, chat: ChatRef, user: PlayerRef,
                            chat_id: int, bot: Any) -> bool | None:
        """Whether command ``name`` comes from a group admin, asked of Telegram only for
        the admin-gated calls (``/cancelar`` as :meth:`cancel_admin`, ``/config`` with
        settings, ``/torneio cancelar``, ``/novojogo`` in a group that keeps opening to
        admins); False for the others; None when Telegram could not say (the caller
        changes nothing and says so, never a refusal)."""
        if name == "cancelar":
            return await self.cancel_admin(chat, user, chat_id, bot)
        if (name == "config" and args) or (
                name == "torneio" and args.strip().lower() in CANCEL_WORDS) or (
                name == "novojogo" and await self.service.needs_admin_to_open(chat)):
            return await self.is_admin(chat_id, int(user.user_id), bot)
        return False

    async def command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Any registered command except ``/start``."""
        message = update.effective_message
        if message is None or message.text is None or update.effective_user is None:
            return
        name = message.text.split()[0][1:].split("@")[0].lower()
        args = " ".join(context.args or [])
        chat, user = await self.chat(message.chat), player_of(update.effective_user)
        origin = Origin(chat_id=message.chat_id, message_id=message.message_id)
        private = message.chat.type == ChatType.PRIVATE
        if (private and name in GROUP_ONLY
                and not (name == "entrar" and args)  # a code joins from here (issue 35)
                and not (name in PLACE_COMMANDS and await self.service.has_table(chat))):
            _ = await self.lang(chat)
            text = _(HAND_FROM_GROUP) if name == "mao" else _(GROUP_ONLY_TEXT)
            await api("sendMessage", lambda: message.reply_text(text))
            return
        admin = False if private else await self.command_admin(  # no admins in private
            name, args, chat, user, message.chat_id, context.bot)
        if admin is None:  # nothing is done on a refusal the person did not earn
            _ = await self.lang(chat)
            again = "/torneio cancelar" if name == "torneio" else f"/{name}"
            await api("sendMessage", lambda: message.reply_text(_(ADMIN_UNKNOWN,
                                                                  again=again)))
            return
        on_game = name in GAME_COMMANDS and not (name == "entrar" and args)
        effects, sent_hand = await self.call(run_command(
            self.service, name, chat, user, args, admin, update_key(update)), update,
            fresh=name == "mao", game_of=(lambda: self.service.game_of(chat)) if on_game
            else None)
        await self.outbox.deliver(effects, origin)
        if (name == "mao" and sent_hand and not private
                and await self.outbox.dm_known(user.user_id)):
            _ = await self.lang(chat)  # an unchanged hand would show them nothing: say where
            await api("sendMessage", lambda: message.reply_text(_(HAND_IN_PRIVATE)))

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/start [payload]`` in the private chat (deep links) or in a group (help)."""
        message = update.effective_message
        if message is None or update.effective_user is None:
            return
        chat, user = await self.chat(message.chat), player_of(update.effective_user)
        origin = Origin(chat_id=message.chat_id, message_id=message.message_id)
        payload = (context.args or [""])[0]
        if message.chat.type != ChatType.PRIVATE:
            await self.outbox.deliver((await self.call(self.service.help(chat, user),
                                                       update)).rest, origin)
            return
        await self.outbox.mark_dm_ok(user.user_id)
        kind, game_id = payload[:1], payload[1:]
        effects: list[Effect] = []
        if kind == "j" and game_id:
            effects = (await self.call(self.service.join_game(
                game_id, user, update=update_key(update)), update)).rest
        elif kind == "c" and game_id:  # issue 35: an invitation's link (t.me/...?start=c...)
            effects = (await self.call(self.service.join_code(
                chat, user, game_id, update=update_key(update)), update)).rest
        elif kind == "h" and game_id:
            effects, queued = await self.call(self.service.show_hand_of(game_id, user),
                                              update, fresh=True)
            if queued:
                return  # the hand itself answers (a trial got "...quando a partida começar")
        if effects:
            await self.outbox.deliver(effects, origin)
            return
        _ = await self.lang(chat)
        await api("sendMessage", lambda: message.reply_text(_(WELCOME)))

    async def press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: call the service, answer the query at once with the service's
        toast (always, even if the service fails), then deliver the other effects.

        The answer is also a deadline counted from the press's arrival (issue 28): when
        nothing answered it :data:`ANSWER_S` later (a slow Redis, a failover), it is
        answered empty (with the private chat's link for "Minha mão" and "Entrar"), the
        spinner stops, and the toasts that come after go to the chat of the button as
        a message instead (:class:`EarlyAnswer`)."""
        query = update.callback_query
        if query is None:
            return
        origin = Origin()
        if query.message is not None:  # a /replay step edits the message pressed
            origin.pressed = (query.message.chat.id, query.message.message_id)
        early = EarlyAnswer(query, self.outbox)
        url = None
        effects: list[Effect] = []
        try:
            user = player_of(query.from_user)
            data = query.data or ""
            parts = unpack(data)
            chat = None  # a private chat (the hand) has no language of its own
            if query.message is not None and query.message.chat.type != ChatType.PRIVATE:
                chat = await self.chat(query.message.chat)
            admin: bool | None = False
            if parts is not None and parts[2] in ADMIN_CODES and query.message is not None:
                admin = await self.cancel_admin(chat, user, query.message.chat.id,
                                                context.bot, game_id=parts[0])
            elif parts is not None and parts[2] == CANCEL and query.message is not None:
                admin = await self.is_admin(query.message.chat.id, int(user.user_id),
                                            context.bot)  # a tournament's "Cancelar"
            if admin is None:
                _ = await self.lang(chat) if chat else Texts()
                origin.replies.append(_(ADMIN_UNKNOWN_PRESS) if parts and parts[2] == "ar"
                                      else _(ADMIN_UNKNOWN, again="/torneio cancelar"
                                             if parts and parts[2] == CANCEL
                                             else "/cancelar"))
            else:
                private = (query.message is not None
                           and query.message.chat.type == ChatType.PRIVATE)
                effects = origin.absorb((await self.call(self.service.press(
                    user, data, is_admin=admin, update=update_key(update), chat=chat,
                    private=private), update)).rest)
            if parts is not None and parts[2] in OPENS_DM and (
                    not origin.replies if parts[2] == "h"
                    else not await self.outbox.dm_known(user.user_id)):
                url = render.deep_link(self.outbox.username, OPENS_DM[parts[2]] + parts[0])
        except Exception as err:
            origin.replies.append(await self.generic(query.message.chat
                                                     if query.message is not None else None,
                                                     err))
            raise  # logged by on_error
        finally:
            if not early.claim():
                text = "\n".join(origin.replies)[:200] or None
                await api("answerCallbackQuery", lambda: query.answer(
                    text=text, show_alert=origin.alert, url=url))
            elif origin.replies and query.message is not None:  # the toast went empty
                late = Origin(chat_id=query.message.chat.id)
                await self.outbox.deliver([Reply(player=player_of(query.from_user), text=t)
                                           for t in origin.replies], late)
            answered()  # the wait this press showed, from its arrival (issue 36)
        await self.outbox.deliver(effects, origin)

    async def migrated(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup: move its game to the new chat id."""
        message = update.effective_message
        if message is None or not message.migrate_to_chat_id:
            return
        await self.outbox.chat_migrated(message.chat.id, int(message.migrate_to_chat_id))

    async def generic(self, chat: Chat | None, error: BaseException | None = None) -> str:
        """What a person is told when their call failed with ``error``
        (:func:`adapters.delivery.commands.failure_text`: :data:`TRY_AGAIN` when Redis
        stayed unreachable past the failover budget, else :data:`GENERIC_ERROR`), in the
        language of ``chat`` (pt-BR when there is none or it cannot be read within
        :data:`LANG_READ_S`: this text must get out whatever else is broken)."""
        text = failure_text(error)
        try:
            if chat is not None and chat.type != ChatType.PRIVATE:
                async with asyncio.timeout(LANG_READ_S):
                    return (await self.lang(await self.chat(chat)))(text)
        except Exception as err:
            log.error("chat %s: language unreadable (%s)", chat.id if chat else None,
                      type(err).__name__)
        return Texts()(text)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log any handler failure with the update id (never the update's content) and
        tell the person who sent a message :data:`GENERIC_ERROR` (a button press was
        answered with it by :meth:`press` already)."""
        update_id = update.update_id if isinstance(update, Update) else None
        log.error("update %s failed", update_id, exc_info=context.error)
        if not isinstance(update, Update) or update.callback_query is not None:
            return
        message = update.effective_message
        if message is None:
            return
        text = await self.generic(message.chat, context.error)
        await api("sendMessage", lambda: message.reply_text(text))
