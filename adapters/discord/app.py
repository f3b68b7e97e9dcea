"""The Discord bot process: a discord.py 2.7 ``AutoShardedClient`` over the service.

Handlers stay a few lines (DESIGN "Examples to follow" 8): decode the interaction, call
the service, deliver its effects through the shared delivery with the interaction as the
origin. Every interaction is answered within Discord's 3 s: a deadline armed when it
arrives defers it :data:`ACK_S` after its arrival unless it was answered by then,
whatever is slow meanwhile (the service call, the wait for its game's turn, the channel's
language read before the answer: a slow Redis or a failover, issue 28); the answer is
completed later. Interaction ids go to the service as ``"dc:i:<id>"`` (idempotency).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from adapters import deadline, logcalm
from adapters.delivery.coalesce import EditCoalescer
from adapters.delivery.commands import failure_text, run_command
from adapters.delivery.i18n import N_, Texts
from adapters.delivery.order import GAME_COMMANDS, GamePlace, Ticket, chat_key, press_key
from adapters.delivery.outbox import Delivery
from adapters.delivery.refs import GameRefs
from adapters.delivery.stale import StaleTables
from adapters.delivery.ticks import tick_loop, wind_down
from adapters.delivery.window import SharedWindow
from adapters.discord.commands import GettextTranslator, install
from adapters.discord.items import ITEMS, item_of, payloads_of
from adapters.discord.platform import DiscordPlatform, Origin
from adapters.ops.metrics import answered
from bot.effects import ChatRef, Effect, HandView, PlayerRef, TableView
from bot.later import FollowUps

log = logging.getLogger(__name__)

PLATFORM = "dc"
ACK_S = 2.0
"""Seconds after an interaction's arrival at which it is deferred unless answered
(Discord refuses a first response later than 3 s after it made the interaction)."""
LATE_S = 1.0
"""An interaction older than this (by its id's timestamp) when it reaches the bot came
late: replayed on a gateway RESUME after the socket was away. It is deferred before
anything is applied (:meth:`BuracoClient._expired`)."""
DM_HAND_WAIT_S = 5.0
"""How long ``/mao dm`` waits for its hand to go out before answering (the hand
coalescer runs it within about a second)."""
DONE = N_("Feito.")
OUTDATED = N_("Seu Discord tem uma versão antiga deste comando: recarregue o Discord "
              "(Ctrl+R) e tente de novo.")
"""Told for a slash command the bot cannot read as its commands are now (a client that
has not reloaded them since the bot's were changed): nothing was done."""
OUTDATED_ERRORS = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch,
                   app_commands.TransformerError)
DEFERRED = discord.InteractionResponseType.deferred_channel_message


def player_of(user: discord.abc.User) -> PlayerRef:
    """The service's identity of a Discord user."""
    return PlayerRef(platform=PLATFORM, user_id=str(user.id), name=user.display_name)


def chat_of(interaction: discord.Interaction[Any]) -> ChatRef:
    """The service's identity of the interaction's channel (one table per channel)."""
    channel = interaction.channel
    title = str(getattr(channel, "name", "") or "")
    if interaction.guild is not None:
        title = f"{interaction.guild.name} #{title}" if title else interaction.guild.name
    return ChatRef(platform=PLATFORM, chat_id=str(interaction.channel_id), title=title)


def last_views(effects: list[Effect]) -> list[Effect]:
    """``effects`` with only the last table and hand view of each game and place, and
    each game and person (several presses made from one select show their final state
    once; a table shown in several places, issue 35, keeps each place's)."""
    keep: list[Effect] = []
    seen: set[tuple[str, ...]] = set()
    for effect in reversed(effects):
        key: tuple[str, ...] | None = None
        if isinstance(effect, TableView):
            key = ("table", effect.game_id, effect.chat.key)
        elif isinstance(effect, HandView):
            key = ("hand", effect.game_id, effect.player.user_id)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        keep.append(effect)
    return keep[::-1]


class BuracoClient(discord.AutoShardedClient):
    """The bot: slash commands, stateless components, the tick loop.

    ``service`` (docs/service-api.md); ``redis`` the redis-py asyncio client of the store
    (message references, edit windows, stale tables); ``lang_of(chat_key)`` a chat's
    language; ``tick`` runs the service's tick loop (off in unit tests); ``timer_sets``
    the store's ``REDIS_TIMER_SETS`` (the stale tables are kept as the deadlines)."""

    def __init__(self, service: Any, redis: Any, lang_of: Callable[[str], Awaitable[str]],
                 *, prefix: str = "buraco", shard_ids: list[int] | None = None,
                 shard_count: int | None = None, tick: bool = True,
                 timer_sets: int = 1) -> None:
        shards: dict[str, Any] = {}
        if shard_count is not None:
            shards["shard_count"] = shard_count
        if shard_ids is not None:
            shards["shard_ids"] = shard_ids
        super().__init__(intents=discord.Intents.default(), **shards)
        self.service = service
        self.tick = tick
        self.tree: app_commands.CommandTree[BuracoClient] = app_commands.CommandTree(self)
        self.tree.on_error = self.on_command_error  # type: ignore[method-assign]
        install(self.tree, self)
        self.lang_of = lang_of
        window = SharedWindow(redis, prefix, platform=PLATFORM)
        self.delivery = Delivery(
            DiscordPlatform(self, lang_of), GameRefs(redis, prefix, platform=PLATFORM),
            group_edits=EditCoalescer(gap_s=3.0, per_minute=20, shared=window),
            dm_edits=EditCoalescer(gap_s=0.5, per_minute=120),
            stale=StaleTables(redis, prefix, PLATFORM, sets=timer_sets))
        self.follow_ups: FollowUps | None = None
        """The service's follow-ups once :func:`adapters.discord.process.serve` has them
        delivered here (the coach's reviews, issue 37): waited for at shutdown."""
        self._ticking: asyncio.Task[None] | None = None
        self._halt = asyncio.Event()

    async def setup_hook(self) -> None:
        """Translator, dynamic items and the tick loop (no command sync here: --sync)."""
        await self.tree.set_translator(GettextTranslator())
        self.add_dynamic_items(*ITEMS)
        if self.tick:
            self._ticking = asyncio.get_running_loop().create_task(
                tick_loop(self.service, self.delivery, stop=self._halt))

    async def on_connect(self) -> None:
        """The gateway answered: a Discord outage in the log ends (adapters/logcalm.py)."""
        logcalm.healthy("Discord")

    async def on_resumed(self) -> None:
        """A session resumed after a drop: as :meth:`on_connect`."""
        logcalm.healthy("Discord")

    async def shutdown(self) -> None:
        """SIGTERM: finish the tick round and the service calls in progress, deliver what
        is waiting (:func:`adapters.delivery.ticks.wind_down`), close the connection."""
        await wind_down(self._ticking, self._halt, self.delivery,
                        follow_ups=self.follow_ups)
        await self.close()

    # ---- interactions --------------------------------------------------------------
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A component discord.py does not call (its custom_id is no longer on the message:
        a double tap after an edit, an old hand; or it is forged, cut short, or from
        another bot) is pressed through the service with the payloads its custom_id
        stands for (:func:`adapters.discord.items.payloads_of`), which answers it like
        Telegram ("Esse botão é antigo…", "Botão desconhecido."): never "This interaction
        failed" (issue 12, "Bad input")."""
        if interaction.type != discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if _on_message(interaction.message, custom_id) and item_of(custom_id) is not None:
            return  # discord.py's view store calls the item
        values = [str(v) for v in data.get("values", []) or []]
        payloads, page = payloads_of(custom_id, values)
        await self.press(interaction, payloads, page)

    async def _answer_in_time(self, interaction: discord.Interaction[Any], origin: Origin,
                              pending: Awaitable[list[Effect]], place: Ticket | GamePlace,
                              fresh: bool = False, command: bool = False) -> None:
        """Run the service call in its turn of ``place`` (the interaction's line in
        :attr:`Delivery.order`, taken on arrival: the Telegram handlers' order rule) and
        stage its views there, then deliver, with the deferral armed as a deadline
        :data:`ACK_S` after ``origin.arrived`` (:meth:`_defer_by_deadline`) until the
        interaction is answered. A call that fails is logged and answered with
        :data:`GENERIC_ERROR` (never "Feito."). A press's wait from its arrival to its
        answer is observed (:func:`adapters.ops.metrics.answered`)."""
        async def call() -> list[Effect]:
            async with place:
                effects = last_views(list(await pending))
                rest, queued_hand = self.delivery.stage(effects, origin, fresh=fresh)
                if origin.dm and queued_hand:
                    origin.dm_hand = asyncio.Event()
                return rest

        if await self._expired(interaction, origin, command):
            place.release()  # not applied: the person was told it failed, and presses again
            return
        deferral = asyncio.ensure_future(self._defer_by_deadline(interaction, origin, command))
        failed: BaseException | None = None
        try:
            effects = await call()
            await self.delivery.deliver(effects, origin)
        except Exception as err:
            failed = err  # the type only in the line: a message may name a hidden card
            log.error("interaction %s failed (%s)", interaction.id, type(err).__name__,
                      exc_info=err)
        finally:
            place.release()  # a call that never ran gives its place up
            try:
                await self._finish(interaction, origin, command, failed)
                if not command:
                    answered()  # a press's wait, from its arrival (issue 36)
            finally:  # answered by now: a deferral still asleep has nothing left to do
                deferral.cancel()

    @staticmethod
    async def _expired(interaction: discord.Interaction[Any], origin: Origin,
                       command: bool) -> bool:
        """Whether a late interaction (older than :data:`LATE_S`: replayed on a RESUME
        after the gateway was away, issue 36) is past Discord's 3 s. It is deferred
        first; Discord answering 404 (10062 Unknown interaction) means the person was
        shown "This interaction failed", so it is not applied: their next press is the
        one that counts, never a move they were told failed. A fresh interaction, or a
        late one Discord still knows, goes on (deferred: the answer follows)."""
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        if age < LATE_S:
            return False
        async with origin.ack:
            if interaction.response.is_done():
                return False
            try:
                await interaction.response.defer(ephemeral=True, thinking=command)
            except discord.NotFound:
                log.warning("interaction %s reached the bot %.1f s after it was made, too "
                            "late to answer: not applied", interaction.id, age)
                return True
            except discord.HTTPException as exc:
                log.info("could not defer interaction %s: %s", interaction.id, exc.status)
        return False

    @staticmethod
    async def _defer_by_deadline(interaction: discord.Interaction[Any], origin: Origin,
                                 command: bool) -> None:
        """At ``origin.arrived + ACK_S``, defer the interaction unless it was answered
        (under ``origin.ack``, so an answer being sent is not doubled). A deferral Discord
        refuses is logged; the answer then goes as it can."""
        await asyncio.sleep(max(0.0, origin.arrived + ACK_S - time.monotonic()))
        async with origin.ack:
            if interaction.response.is_done():
                return
            try:
                await interaction.response.defer(ephemeral=True, thinking=command)
            except discord.HTTPException as exc:
                log.info("could not defer interaction %s: %s", interaction.id, exc.status)

    async def on_command_error(self, interaction: discord.Interaction[Any],
                               error: app_commands.AppCommandError) -> None:
        """A slash command that failed outside :meth:`_answer_in_time`. One the person's
        Discord sent from an older list of commands (a command or option shape the bot
        no longer has, a value an option does not take: :data:`OUTDATED_ERRORS`) is told
        :data:`OUTDATED` and logged in one line; anything else (a bug before the service
        call) is logged by type with its traceback and answered :data:`GENERIC_ERROR`,
        instead of discord.py's bare log line and silence."""
        if isinstance(error, OUTDATED_ERRORS):
            log.warning("interaction %s: command out of date (%s)", interaction.id,
                        type(error).__name__)
            await self._tell(interaction, (await self._texts(interaction))(OUTDATED))
            return
        log.error("interaction %s failed (%s)", interaction.id, type(error).__name__,
                  exc_info=error)
        await self._finish(interaction, Origin(interaction), True, failed=error)

    async def _tell(self, interaction: discord.Interaction[Any], text: str) -> None:
        """Answer the interaction with ``text``, seen by the person only."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(content=text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("could not answer interaction %s: %s", interaction.id, exc.status)

    async def _texts(self, interaction: discord.Interaction[Any]) -> Texts:
        """The texts in the channel's language (pt-BR when it cannot be read within
        half a second: Redis may be what failed)."""
        try:
            async with asyncio.timeout(0.5):
                return Texts(await self.lang_of(chat_of(interaction).key))
        except Exception as err:
            log.error("interaction %s: language unreadable (%s)", interaction.id,
                      type(err).__name__)
            return Texts()

    async def _finish(self, interaction: discord.Interaction[Any], origin: Origin,
                      command: bool, failed: BaseException | None = None) -> None:
        """Make sure the interaction got an answer (never "This interaction failed");
        ``failed``: the error the call failed with, the answer is
        :func:`adapters.delivery.commands.failure_text` of it (:data:`GENERIC_ERROR`, or
        ``TRY_AGAIN`` when Redis stayed unreachable past the failover budget)."""
        response: Any = interaction.response
        try:
            if failed is None and origin.dm_hand is not None:
                await self._await_dm_hand(interaction, origin)
            if failed is not None:
                text = (await self._texts(interaction))(failure_text(failed))
                async with origin.ack:
                    if not response.is_done():
                        await response.send_message(text, ephemeral=True)
                    elif response.type == DEFERRED:
                        await interaction.edit_original_response(content=text)
                    else:
                        await interaction.followup.send(content=text, ephemeral=True)
                return
            done = Texts(await self.lang_of(chat_of(interaction).key))(DONE) if command else ""
            async with origin.ack:
                if not response.is_done():
                    if command:
                        await response.send_message(done, ephemeral=True)
                    else:
                        await response.defer()
                elif command and response.type == DEFERRED and not origin.spoke:
                    await interaction.edit_original_response(content=done)
        except discord.HTTPException as exc:
            log.info("could not finish interaction %s: %s", interaction.id, exc.status)

    async def _await_dm_hand(self, interaction: discord.Interaction[Any],
                             origin: Origin) -> None:
        """Wait (deferred, at most :data:`DM_HAND_WAIT_S`) for ``/mao dm``'s hand to go
        out: when DMs are closed it comes back here as the answer, with its notice, and
        no "Feito." goes before it (docs/discord.md)."""
        async with origin.ack:
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
        if origin.dm_hand is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(origin.dm_hand.wait(), DM_HAND_WAIT_S)

    async def command(self, interaction: discord.Interaction[Any], name: str,
                      args: str = "", dm: bool = False) -> None:
        """A slash command: the same service call as the Telegram command ``name``."""
        origin = Origin(interaction, dm=dm)  # arrived now: the deferral counts from here
        deadline.arrive(origin.arrived)
        ticket = self.delivery.order.ticket(chat_key(str(interaction.channel_id)))
        chat, user = chat_of(interaction), player_of(interaction.user)
        place: Ticket | GamePlace = ticket  # a command on the game: in its line (issue 36)
        if name in GAME_COMMANDS and not (name == "entrar" and args):
            place = GamePlace(self.delivery.order, ticket, lambda: self.service.game_of(chat))
        admin = (name in ("cancelar", "config", "novojogo", "torneio")  # issue 29
                 and interaction.permissions.manage_messages)
        pending = run_command(self.service, name, chat, user, args, admin,
                              f"{PLATFORM}:i:{interaction.id}")
        await self._answer_in_time(interaction, origin, pending, place, fresh=name == "mao",
                                   command=True)

    async def press(self, interaction: discord.Interaction[Any], data: list[str],
                    page: int | None = None) -> None:
        """A component: press each service payload in order (one for a button, the
        changed cards for a select); ``page`` shows that page of a big hand. The channel
        of a guild goes with it: a payload that is no button is answered in its language."""
        origin = Origin(interaction, page=page or 0)  # arrived now: the deadline counts
        deadline.arrive(origin.arrived)
        place = self.delivery.order.ticket(press_key(data[0] if data else "",
                                                     str(interaction.channel_id)))
        user = player_of(interaction.user)
        chat = chat_of(interaction) if interaction.guild is not None else None  # not a DM
        admin = interaction.permissions.manage_messages

        async def presses() -> list[Effect]:
            out: list[Effect] = []
            for k, payload in enumerate(data):
                key = f"{PLATFORM}:i:{interaction.id}:{k}"
                out += await self.service.press(user, payload, is_admin=admin, update=key,
                                                chat=chat, private=chat is None)
            return out

        await self._answer_in_time(interaction, origin, presses(), place)


def _on_message(message: discord.Message | None, custom_id: str) -> bool:
    """Whether ``message`` has a component ``custom_id`` (discord.py calls a dynamic item
    only then, and answers nothing otherwise)."""
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False
