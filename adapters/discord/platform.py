"""Discord's side of the shared delivery (:mod:`adapters.delivery.outbox`): rendering and
REST calls only (docs/discord.md "REST routes and flows").

- Table: an embed with buttons in the channel; edits never ping (``allowed_mentions``
  none). 10008 Unknown Message (a moderator deleted it) posts a fresh table.
- Hand: an EPHEMERAL message, the answer to the person's own press or command
  (:class:`Origin`), edited in place by the next press; between presses (timeouts, next
  deal) it is edited through the last interaction's token while it lives (15 minutes,
  refs ``wh:<time>:<message>:<token>``, kept in Redis as long as the token lives). With
  ``/mao dm`` the hand is a DM (refs ``dm:<channel>:<message>``); closed DMs (50007)
  fall back to the ephemeral hand with a notice.
- Turn ping: a short channel message mentioning the person (it notifies them once), the
  previous one deleted.
- ``Reply``: an ephemeral answer (or follow-up) to the interaction.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import discord

from adapters.delivery.i18n import N_, Texts
from adapters.delivery.platform import MessageGone, PrivateRefused
from adapters.discord import render
from adapters.discord.items import build_view, embed, message_kwargs
from bot.effects import ChatRef, HandView, PlayerRef, ReplayView, Reply, TableView, TurnPing
from bot.i18n import Translator
from bot.webview import OPEN_TABLE

log = logging.getLogger(__name__)

UNKNOWN_MESSAGE = 10008
UNKNOWN_CHANNEL = 10003
UNKNOWN_WEBHOOK = 10015
INVALID_WEBHOOK_TOKEN = 50027
CANNOT_DM = 50007
TOKEN_LIFE_S = 14 * 60.0  # an interaction token lives 15 minutes; keep a minute's margin
NO_PINGS = discord.AllowedMentions.none()
DM_CLOSED = N_("{name}, não consigo te mandar mensagem direta (DMs fechadas). Toque em Minha mão na mesa para ver as suas cartas aqui.")  # noqa: E501
DM_FALLBACK = N_("Suas DMs estão fechadas: a mão fica aqui, só para você.")


@dataclass
class Origin:
    """The interaction being answered: who pressed, whether a hand goes to the DM
    (``/mao dm``), which hand page to show, and the notice to add to the hand."""

    interaction: discord.Interaction[Any]
    dm: bool = False
    page: int = 0
    notes: list[str] = field(default_factory=list)
    spoke: bool = False
    """Something was sent in answer (a reply or a hand), beyond a bare acknowledgement."""
    dm_hand: asyncio.Event | None = None
    """Set once ``/mao dm``'s hand went out (as a DM, or back here when DMs are closed):
    the command's answer waits for it, so a closed DM is not first answered "Feito."
    (a trial). None: no DM hand was queued by this interaction."""
    arrived: float = field(default_factory=time.monotonic)
    """When the interaction reached this process (``time.monotonic()``): the deferral's
    deadline counts from here (issue 28)."""
    ack: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the interaction's first response is chosen and sent (a deferral by
    the deadline, or the answer itself), so the two never both try to be the first."""

    @property
    def user_id(self) -> str:
        """The presser's Discord id, as text."""
        return str(self.interaction.user.id)


@dataclass
class Hand:
    """A hand to render when it is sent (the page depends on the origin)."""

    effect: HandView
    link: str | None = None
    """The web table's signed link for this person ("Abrir a mesa"), when served; or
    ``bbw:<game>``, the button that launches it as a Discord Activity."""

    def message(self, lang: str, page: int = 0, note: str = "") -> render.Message:
        """The rendered hand in ``lang`` at ``page``; ``note`` goes first."""
        game = self.effect
        msg = render.hand_message(game.view, game.game_id, Texts(lang), page,
                                  link=(Translator(lang)(OPEN_TABLE), self.link)
                                  if self.link else None)
        if note:
            msg.description = render.clip(f"*{note}*\n{msg.description}", 4096)
        return msg


def _http_code(exc: discord.HTTPException) -> int:
    return int(getattr(exc, "code", 0) or 0)


class DiscordPlatform:
    """The :class:`adapters.delivery.platform.Platform` of one Discord client."""

    name = "dc"

    def __init__(self, client: discord.Client, lang_of: Any) -> None:
        self.client = client
        self.lang_of = lang_of
        self.web: Any = None
        """The web table's links (:class:`adapters.web.runtime.WebLinks`) when served."""

    # ---- rendering -----------------------------------------------------------------
    async def table(self, effect: TableView) -> render.Message:
        """The table embed and its buttons."""
        return render.table_message(effect.view)

    def hand(self, effect: HandView) -> Hand:
        """The hand, rendered when sent."""
        link = None
        if self.web is not None and effect.view.buttons:  # the Activity, else the link
            link = (f"bbw:{effect.game_id}" if self.web.activity
                    else self.web.signed("dc", effect.player.user_id, effect.game_id))
        return Hand(effect, link)

    def text(self, text: str) -> str:
        """A plain service text as message content."""
        return render.text_message(text)

    # ---- group ---------------------------------------------------------------------
    def _channel(self, channel_id: int | str) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(int(channel_id))

    async def post(self, chat: ChatRef, message: Any) -> str | None:
        """A new channel message (embed and components, or plain content)."""
        channel = self._channel(chat.chat_id)
        try:
            if isinstance(message, render.Message):
                sent = await channel.send(**message_kwargs(message), allowed_mentions=NO_PINGS)
            else:
                sent = await channel.send(content=str(message), allowed_mentions=NO_PINGS)
        except (discord.Forbidden, discord.NotFound) as exc:  # no access, channel gone
            log.warning("channel %s refused a message: %s", chat.chat_id, _http_code(exc))
            return None
        return f"{sent.channel.id}:{sent.id}"

    async def edit(self, chat: ChatRef, ref: str, message: render.Message) -> None:
        """Edit the table in place; a deleted message (10008) is :class:`MessageGone`."""
        channel_id, message_id = ref.split(":")
        partial = self._channel(channel_id).get_partial_message(int(message_id))
        try:
            await partial.edit(embed=embed(message), view=build_view(message),
                               allowed_mentions=NO_PINGS)
        except discord.NotFound as exc:
            raise MessageGone(str(_http_code(exc))) from exc

    async def strip(self, ref: str, message: render.Message | None) -> None:
        """Drop the table's components (``components: []``)."""
        channel_id, message_id = ref.split(":")
        partial = self._channel(channel_id).get_partial_message(int(message_id))
        try:
            await partial.edit(view=None)
        except discord.HTTPException as exc:
            log.info("could not drop the buttons of a table: %s", _http_code(exc))

    async def send_file(self, chat: ChatRef, filename: str, content: str) -> bool:
        """The record as a file in the channel; False when Discord refused it."""
        file = discord.File(io.BytesIO(content.encode()), filename=filename)
        try:
            await self._channel(chat.chat_id).send(file=file)
        except discord.HTTPException as exc:
            log.warning("file to %s refused: %s", chat.chat_id, _http_code(exc))
            return False
        return True

    async def send_picture(self, chat: ChatRef, filename: str, content: bytes,
                           caption: str) -> bool:
        """The picture in the channel with its caption as the message text (issue 29);
        False when Discord refused it."""
        file = discord.File(io.BytesIO(content), filename=filename,
                            description=caption[:1024])  # the image's alt text
        try:
            await self._channel(chat.chat_id).send(
                content=discord.utils.escape_markdown(caption)[:2000], file=file,
                allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("picture to %s refused: %s", chat.chat_id, _http_code(exc))
            return False
        return True

    async def show_replay(self, effect: ReplayView, origin: Any) -> None:
        """A ``/replay`` step: a press of its buttons edits the pressed channel message
        (the interaction's update, type 7, or its original message once deferred); the
        command posts it in the channel (the command itself is answered "Feito.")."""
        msg = render.table_message(effect.view)
        interaction = origin.interaction if isinstance(origin, Origin) else None
        pressed = interaction.message if interaction is not None else None
        if interaction is None or pressed is None or pressed.flags.ephemeral:
            await self.post(effect.chat, msg)
            return
        response: Any = interaction.response
        async with origin.ack:
            if not response.is_done():
                await response.edit_message(embed=embed(msg), view=build_view(msg))
            else:
                await interaction.edit_original_response(embed=embed(msg),
                                                         view=build_view(msg))

    async def refused_notice(self, chat: ChatRef, game_id: str, player: PlayerRef) -> None:
        """Tell the channel (without pinging) that the person's DMs are closed."""
        _ = Texts(await self.lang_of(chat.key))
        await self.post(chat, render.text_message(_(DM_CLOSED, name=player.name)))

    # ---- people --------------------------------------------------------------------
    def carries_hand(self, origin: Any, player: PlayerRef) -> bool:
        """The person's own interaction shows their hand (ephemeral), unless ``/mao dm``."""
        return (isinstance(origin, Origin) and not origin.dm
                and origin.user_id == player.user_id)

    async def answer_hand(self, origin: Origin, player: PlayerRef, message: Hand) -> str | None:
        """The hand as the interaction's ephemeral answer: a press on the hand edits that
        message (type 7), anything else sends a new ephemeral one."""
        interaction = origin.interaction
        origin.spoke = True
        lang = await self.lang_of(message.effect.chat.key)
        msg = message.message(lang, origin.page, " ".join(origin.notes))
        em, view, kw = embed(msg), build_view(msg), message_kwargs(msg)
        pressed = interaction.message
        in_dm = interaction.guild_id is None
        response: Any = interaction.response
        async with origin.ack:
            if pressed is not None and (pressed.flags.ephemeral or in_dm):  # on the hand
                if not response.is_done():
                    await response.edit_message(embed=em, view=view)
                else:
                    await interaction.edit_original_response(embed=em, view=view)
                if in_dm:
                    return f"dm:{pressed.channel.id}:{pressed.id}"
                message_id = pressed.id
            elif not response.is_done():
                answer = await response.send_message(**kw, ephemeral=True)
                message_id = getattr(answer, "message_id", None) or 0
            else:
                sent = await interaction.followup.send(**kw, ephemeral=True, wait=True)
                message_id = sent.id
        if not message_id:
            return None
        return f"wh:{time.time():.0f}:{message_id}:{interaction.token}"

    async def send_private(self, player: PlayerRef, message: Any,
                           origin: Any = None) -> str | None:
        """A DM, only when the person asked for one (``/mao dm``: ``origin`` with ``dm``),
        else None. Closed DMs (50007): the hand goes back to the ephemeral answer with a
        notice; anything else is :class:`PrivateRefused`."""
        if not (isinstance(origin, Origin) and origin.dm):
            # no unasked-for DMs on Discord: "Minha mão" shows the hand, and a notice for
            # one person (``Tell``: a game closed) is in the channel too (``Say``)
            return None
        try:
            return await self._send_dm(player, message, origin)
        finally:
            if origin.dm_hand is not None and isinstance(message, Hand):
                origin.dm_hand.set()

    async def _send_dm(self, player: PlayerRef, message: Any, origin: Origin) -> str | None:
        """:meth:`send_private` once the person asked for a DM."""
        try:
            channel = await self.client.create_dm(discord.Object(id=int(player.user_id)))
            if isinstance(message, Hand):
                msg = message.message(await self.lang_of(message.effect.chat.key))
                sent = await channel.send(**message_kwargs(msg))
            else:
                sent = await channel.send(content=str(message))
        except discord.Forbidden as exc:
            if _http_code(exc) == CANNOT_DM and isinstance(message, Hand):
                _ = Texts(await self.lang_of(message.effect.chat.key))
                origin.notes.append(_(DM_FALLBACK))
                return await self.answer_hand(origin, player, message)
            raise PrivateRefused(str(_http_code(exc))) from exc
        except discord.HTTPException as exc:
            log.warning("DM failed: %s", _http_code(exc))
            return None
        return f"dm:{channel.id}:{sent.id}"

    async def edit_private(self, player: PlayerRef, ref: str, message: Hand) -> None:
        """Edit the hand: the DM message, or the ephemeral one through its token while it
        lives (else :class:`MessageGone`: nothing is edited, the next press answers)."""
        kind, first, second, *rest = ref.split(":", 3)
        msg = message.message(await self.lang_of(message.effect.chat.key))
        try:
            if kind == "dm":
                partial = self._channel(first).get_partial_message(int(second))
                await partial.edit(embed=embed(msg), view=build_view(msg))
                return
            if time.time() - float(first) > TOKEN_LIFE_S or not rest:
                raise MessageGone("interaction token expired")
            app_id = self.client.application_id or 0
            hook = discord.Webhook.partial(app_id, rest[0], client=self.client)
            await hook.edit_message(int(second), embed=embed(msg), view=build_view(msg))
        except discord.NotFound as exc:
            raise MessageGone(str(_http_code(exc))) from exc
        except discord.Forbidden as exc:
            if kind == "dm":
                raise PrivateRefused(str(_http_code(exc))) from exc
            raise MessageGone(str(_http_code(exc))) from exc
        except discord.HTTPException as exc:
            if exc.status == 401:  # invalid webhook token
                raise MessageGone("401") from exc
            raise

    async def strip_private(self, user_id: str, ref: str) -> None:
        """Drop the hand's components (a DM, or an ephemeral one whose token lives)."""
        kind, first, second, *rest = ref.split(":", 3)
        try:
            if kind == "dm":
                await self._channel(first).get_partial_message(int(second)).edit(view=None)
            elif rest and time.time() - float(first) <= TOKEN_LIFE_S:
                hook = discord.Webhook.partial(self.client.application_id or 0, rest[0],
                                               client=self.client)
                await hook.edit_message(int(second), view=None)
        except discord.HTTPException as exc:
            log.info("could not drop the buttons of a hand: %s", _http_code(exc))

    async def ping(self, effect: TurnPing) -> str | None:
        """``<@user> text`` in the channel, notifying that person only."""
        user = discord.Object(id=int(effect.player.user_id))
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=[user])
        try:
            sent = await self._channel(effect.chat.chat_id).send(
                content=render.clip(f"<@{effect.player.user_id}> "
                                    f"{render.plain(effect.text)}", 2000),
                allowed_mentions=mentions)
        except discord.HTTPException as exc:
            log.info("turn ping refused: %s", _http_code(exc))
            return None
        return f"{sent.channel.id}:{sent.id}"

    async def delete_private(self, user_id: str, ref: str) -> None:
        """Delete a turn ping (``<channel>:<message>``) or a DM hand (``dm:...``)."""
        parts = ref.split(":")
        if parts[0] == "wh":
            return  # an ephemeral message: the person dismisses it
        if parts[0] == "dm":
            parts = parts[1:]
        try:
            await self._channel(parts[0]).get_partial_message(int(parts[1])).delete()
        except discord.HTTPException as exc:
            log.info("could not delete a message: %s", _http_code(exc))

    async def answer(self, effect: Reply, origin: Any) -> str | None:
        """An ephemeral answer to the interaction (a follow-up when already answered); with
        no interaction (tick loop), nothing: the table tells the channel. Returns, for
        an answer kept for a later edit (:attr:`Reply.mark`), its ref
        ``wh:<time>:<message>:<token>`` (as a hand's: editable through the interaction's
        token while it lives), else None."""
        if not isinstance(origin, Origin):
            return None
        text = render.text_message(effect.text)
        origin.spoke = True
        response: Any = origin.interaction.response
        extra: dict[str, Any] = {}
        if effect.buttons:  # issue 35: "Sair da fila" under /procurar's answer
            extra["view"] = build_view(render.Message("", "", [
                [render.button(b) for b in row] for row in effect.buttons]))
        async with origin.ack:
            if not response.is_done():
                answer = await response.send_message(content=text, ephemeral=True, **extra)
                message_id = getattr(answer, "message_id", None) or 0
            else:
                if effect.mark:  # its message id, to edit it later
                    extra["wait"] = True
                sent = await origin.interaction.followup.send(content=text, ephemeral=True,
                                                              **extra)
                message_id = getattr(sent, "id", None) or 0
        if not message_id or not effect.mark:
            return None
        return f"wh:{time.time():.0f}:{message_id}:{origin.interaction.token}"

    async def rewrite(self, player: PlayerRef, ref: str, text: str) -> None:
        """Edit the ephemeral answer ``ref`` (:meth:`answer`'s) to ``text`` with no
        buttons while its interaction's token lives (15 minutes); an expired token or a
        message that is gone is ignored (issue 35)."""
        _kind, first, second, *rest = ref.split(":", 3)
        if not rest or time.time() - float(first) > TOKEN_LIFE_S:
            return
        hook = discord.Webhook.partial(self.client.application_id or 0, rest[0],
                                       client=self.client)
        try:
            await hook.edit_message(int(second), content=render.text_message(text), view=None)
        except discord.HTTPException as exc:
            log.info("could not edit an answer: %s", _http_code(exc))
