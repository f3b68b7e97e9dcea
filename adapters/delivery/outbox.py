"""The delivery policy both chat adapters share (docs/service-api.md "Effects"), over a
:class:`adapters.delivery.platform.Platform` that only renders and calls its API.

- ``TableView``: the chat's one table message, posted once and then edited in place,
  through the group :class:`EditCoalescer` (one edit per 3 s per chat, 20 a minute, the
  window shared by the workers in Redis; a lobby's edits and the start's table, marked
  ``prompt``, go out at once within the per-minute cap). A view older than the last one
  any worker showed is dropped; an edit of a message that is gone posts a fresh table.
  While the edit waits the game is in the Redis set of stale tables
  (:mod:`adapters.delivery.stale`), so a worker that dies before it leaves the table to
  another worker's :meth:`Delivery.redo`. The first table of a deal
  (``opens_deal``, issue 35) carries the deal's commitment: the game's hands wait until
  a table of the game is out (at most :data:`OPENING_WAIT_S`).
- ``HandView``: the person's one hand message per game, edited in place (coalesced per
  message, latest wins), unless the platform shows it as the answer to the person's own
  press (:meth:`Platform.carries_hand`). A refused private message tells the group once
  per game and person. On a platform that replaces a hand only once it is gone
  (``hand_replaced_when_gone``, Telegram) the edit uses the ref this worker read or
  wrote in the last :data:`adapters.delivery.refs.HAND_KEPT_S` seconds without reading
  Redis, and reads it again when that message is gone (issue 36).
- ``TurnPing``: a new notification; the game's earlier ones are deleted (at most one per
  game: the turn moved on; their refs read from Redis every time). ``PingsOver``: the
  game's pings are deleted (a robot plays, or the person has the hand open); nothing is
  read when this worker read them in the last ``HAND_KEPT_S`` seconds, found none and
  sent none since, and every save of the game since that read was its own
  (``PingsOver.own_from``: a ping comes with a save; issue 36: a read per turn change,
  most finding nothing).
- ``Say`` / ``Tell`` / ``Document`` / ``Picture``: new messages; ``Reply``: the platform
  answers the origin. A message beside the table (``TableView.apart``: a tournament's
  call) that follows a new group message in the same call is posted after it, and
  before the next one (issue 38: a W.O.'s next call came before the round's standings):
  the group reads them in the order the service said them.
- Effects of another platform (a table also shown in a place on the other platform,
  issue 35): handed to that platform's processes (:mod:`adapters.delivery.relay`);
  each place's table is its own message (ref ``table`` for the game's own chat,
  ``table:<chat id>`` for another place).
- ``Closed``: the table is edited to the final view it carries (or loses its buttons),
  the hand messages lose theirs; references are forgotten, and a table view of the game
  still on its way from another worker is dropped (the game's refs keep a closed mark).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from adapters.delivery.coalesce import EditCoalescer
from adapters.delivery.order import KeyedOrder, game_key
from adapters.delivery.platform import MessageGone, Platform, PrivateRefused
from adapters.delivery.refs import HAND_KEPT_S, HANDS_KEPT, GameRefs
from adapters.delivery.relay import Relay
from adapters.delivery.stale import StaleTables, hand_member
from adapters.ops.metrics import API_ERRORS
from adapters.ops.series import watch_delivery
from bot.effects import (
    ChatRef,
    Closed,
    Document,
    Effect,
    HandView,
    Picture,
    PingsOver,
    PlayerRef,
    ReplayView,
    Reply,
    Rewrite,
    Say,
    TableView,
    Tell,
    TurnPing,
    platform_of,
)

log = logging.getLogger(__name__)
GROUP_MESSAGES = (Say, Picture, Document)
"""Effects that post a new message in the group, in the order given."""
Retable = Callable[[str], Awaitable[list[Effect]]]
Rehand = Callable[[str, PlayerRef], Awaitable[list[Effect]]]
"""The service's ``show_hand_of``: a person's hand re-rendered from the stored game."""
_UNREAD = object()
"""A message ref not read yet (:meth:`Delivery._post_or_edit` reads it)."""
OPENING_WAIT_S = 15.0
"""How long a hand of a deal just dealt waits for the deal's first table (issue 35: the
commitment is on the table before anyone sees a card) before it goes out all the same:
a platform that refuses the table must not keep the cards from the players."""
CALLS_AT_ONCE = 64
"""Service calls one worker runs at once (the bound of :attr:`Delivery.order`): presses,
commands, timer steps and web presses of different games together (issue 36)."""


class Staged(NamedTuple):
    """What :meth:`Delivery.stage` leaves to the caller: the ``rest`` of the effects, to
    :meth:`Delivery.deliver`, and whether this call ``queued_hand`` (a private hand went
    to the hand coalescer), returned rather than kept so concurrent calls never read
    another's."""

    rest: list[Effect]
    queued_hand: bool


class Delivery:
    """Delivers effects through ``platform``; references in ``refs`` (Redis).

    ``group_edits`` / ``dm_edits``: the coalescers of table and hand edits (defaults: 3 s
    and 20 a minute per chat; 1 s and 60 a minute per hand message). ``stale``: the Redis
    set of tables owed an edit (None: not kept, e.g. in unit tests). ``order``: the
    lines of calls per game and chat this process's handlers, tick loop and web table
    share (:class:`adapters.delivery.order.KeyedOrder`; default: a new one bounded by
    :data:`CALLS_AT_ONCE`).
    """

    def __init__(self, platform: Platform, refs: GameRefs,
                 group_edits: EditCoalescer | None = None,
                 dm_edits: EditCoalescer | None = None,
                 stale: StaleTables | None = None, relay: Relay | None = None,
                 order: KeyedOrder | None = None) -> None:
        self.platform = platform
        self._relay = relay
        self.refs = refs
        self.order = order if order is not None else KeyedOrder(CALLS_AT_ONCE)
        self.group_edits = group_edits or EditCoalescer(gap_s=3.0, per_minute=20)
        self.dm_edits = dm_edits or EditCoalescer(gap_s=1.0, per_minute=60)
        self.stale = stale
        self.stale_hands = stale.hands() if stale is not None else None
        self._shown: dict[str, Any] = {}
        self._keeps_hands = bool(getattr(platform, "hand_replaced_when_gone", False))
        self._no_pings: OrderedDict[str, tuple[int, float]] = OrderedDict()
        """Per game: the version and the time this worker read its pings, found none
        and deleted the ones it found (:meth:`_pings_over`)."""
        self._openings: dict[str, asyncio.Event] = {}
        watch_delivery(self)  # its backlog in the operator's series (issue 36)

    def stage(self, effects: list[Effect], origin: Any = None,
              fresh: bool = False) -> Staged:
        """Queue the table, hand and closing effects on their coalescers now, without
        awaiting, so they keep the order of the service calls that made them; return the
        other effects for :meth:`deliver`. Call it right after the service call, in the
        same turn of its game's line (:attr:`order`, which the handlers and the tick loop
        share). A hand the origin's answer carries is returned too (it must be the
        answer, not a later edit). ``fresh``: the person asked for their hand (``/mao``):
        it is sent anew rather than edited (an edit of an unchanged message shows
        nothing)."""
        rest: list[Effect] = []
        queued_hand = False
        said = False  # a new group message came first: a message beside the table waits
        for effect in effects:
            if platform_of(effect) != self.platform.name:
                rest.append(effect)  # another platform's place: handed over (_one)
            elif isinstance(effect, TableView) and effect.apart and said:
                rest.append(effect)  # queued in turn by deliver (module docstring)
            elif isinstance(effect, TableView):
                self._queue_table(effect)
            elif isinstance(effect, HandView):
                if self.platform.carries_hand(origin, effect.player):
                    rest.append(effect)
                else:
                    self._queue_hand(effect, origin if fresh else None, fresh)
                    queued_hand = True
            elif isinstance(effect, Closed):
                self._queue_closed(effect)
            else:
                rest.append(effect)
                said = said or isinstance(effect, GROUP_MESSAGES)
        return Staged(rest, queued_hand)

    async def deliver(self, effects: list[Effect], origin: Any = None) -> None:
        """Render every effect, in order; faults are handled here (see module doc).
        Another platform's effects are handed over in one step per platform."""
        mine: list[Effect] = []
        others: dict[str, list[Effect]] = {}
        for effect in self.stage(effects, origin).rest:
            where = platform_of(effect)
            if where == self.platform.name:
                mine.append(effect)
            else:
                others.setdefault(where, []).append(effect)
        for where, theirs in others.items():
            await self._hand_over(where, theirs)
        for effect in mine:
            try:
                await self._one(effect, origin)
            except Exception:  # one failed effect must not drop the others
                API_ERRORS.labels(self.platform.name).inc()
                log.exception("delivering %s failed", effect.kind)

    @property
    def relay(self) -> Relay:
        """The hand-over to the other platforms' processes (made on first use, over the
        refs' Redis client)."""
        if self._relay is None:
            self._relay = Relay(self.refs.client, self.refs.prefix)
        return self._relay

    async def _hand_over(self, where: str, effects: list[Effect]) -> None:
        """Hand ``effects`` to platform ``where``'s processes (issue 35); a failure is
        logged by kind: those places miss this change, their table is brought up to date
        at the next one."""
        try:
            await self.relay.push(where, effects)
        except Exception as err:
            API_ERRORS.labels(self.platform.name).inc()
            log.error("handing %d effects to %s failed (%s)", len(effects), where,
                      type(err).__name__)

    async def relayed(self, retable: Retable, limit: int = 10,
                      rehand: Rehand | None = None) -> int:
        """Deliver what the other platforms' processes handed to this one: the waiting
        effects in order, then the owed tables and hands, each re-rendered from the stored
        game by ``retable(game_id)`` (the service's ``table_of``) or ``rehand(game_id,
        person)`` (its ``show_hand_of``; None: owed hands are dropped). Returns how many
        were done."""
        name = self.platform.name
        effects = await self.relay.take(name)
        if effects:
            await self.deliver(effects)
        owed = await self.relay.claim_owed(name, limit)
        for member, lease in owed:
            game_id, _sep, person = member.partition("|")
            async with self.order.ticket(game_key(game_id)):  # in the game's line
                if not person:
                    self.stage(await retable(game_id))
                elif rehand is not None:
                    platform, _colon, user_id = person.partition(":")
                    self.stage([e for e in await rehand(game_id, PlayerRef(
                        platform=platform, user_id=user_id, name="?"))
                        if isinstance(e, HandView)])
            await self.relay.done(name, member, lease)
        return len(effects) + len(owed)

    async def _one(self, effect: Effect, origin: Any) -> None:
        p = self.platform
        if isinstance(effect, Reply):
            ref = await p.answer(effect, origin)
            if effect.mark and ref:  # issue 35: the queue's answer, edited once it is over
                await self.refs.put_mark(effect.player, effect.mark, ref)
        elif isinstance(effect, Rewrite):
            ref = await self.refs.take_mark(effect.player, effect.mark)
            if ref:
                await p.rewrite(effect.player, ref, effect.text)
        elif isinstance(effect, Say):
            await p.post(effect.chat, p.text(effect.text))
        elif isinstance(effect, Tell):
            await self._private(effect.player, p.text(effect.text), None, None, None)
        elif isinstance(effect, TurnPing):
            await self._ping(effect)
        elif isinstance(effect, PingsOver):
            await self._pings_over(effect)
        elif isinstance(effect, Document):
            if not await p.send_file(effect.chat, effect.filename, effect.content) \
                    and effect.failed:
                await p.post(effect.chat, p.text(effect.failed))
        elif isinstance(effect, Picture):  # issue 29: the caption alone if refused
            if not await p.send_picture(effect.chat, effect.filename, effect.content,
                                        effect.caption):
                await p.post(effect.chat, p.text(effect.caption))
        elif isinstance(effect, ReplayView):  # issue 29: edited where it was pressed
            await p.show_replay(effect, origin)
        elif isinstance(effect, HandView):
            await self._hand(effect, origin)
        elif isinstance(effect, TableView):  # beside the table, after a group message
            await self.group_edits.settle(self._queue_table(effect))

    # ---- group ---------------------------------------------------------------------
    def _queue_table(self, effect: TableView) -> str:
        """Queue ``effect`` on the group coalescer; the coalescer's key."""
        chat_key = effect.chat.chat_id  # a message beside the table: a queue of its own
        chat_key += f":{effect.game_id}" if effect.apart else ""
        marked = self._mark(effect.game_id, self.group_edits.delay_for(chat_key, effect.prompt))
        if effect.opens_deal:
            self._openings.setdefault(effect.game_id, asyncio.Event())

        async def show() -> None:
            try:
                await shown()
            finally:  # a later table of the game (it replaced this one) shows it too
                self._opened(effect.game_id)

        async def shown() -> None:
            due = await marked if marked is not None else None
            field = _field(effect)
            ref: object = _UNREAD
            if effect.state_version:  # the version check reads the ref in its round trip
                newest, ref = await self.refs.newest_table_ref(
                    effect.game_id, effect.state_version, field)
                if not newest:
                    return  # another worker already showed a newer table
            message = await self.platform.table(effect)
            self._shown[_place(effect)] = message
            await self._post_or_edit(effect.chat, effect.game_id, message, field, ref)
            if due is not None and self.stale is not None:
                await self.stale.clear(effect.game_id, due)

        self.group_edits.submit(chat_key, show, prompt=effect.prompt)
        return chat_key

    def _opened(self, game_id: str) -> None:
        """A table of ``game_id`` is out (or was dropped): its waiting hands may go."""
        opening = self._openings.pop(game_id, None)
        if opening is not None:
            opening.set()

    async def _after_opening(self, game_id: str) -> None:
        """Wait until the table of the deal just dealt in ``game_id`` is out (issue 35),
        at most :data:`OPENING_WAIT_S`; at once when no such table is on its way."""
        opening = self._openings.get(game_id)
        if opening is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(opening.wait(), OPENING_WAIT_S)

    def _mark(self, game_id: str, wait_s: float) -> asyncio.Task[float] | None:
        if self.stale is None:
            return None
        return asyncio.get_running_loop().create_task(self.stale.mark(game_id, wait_s))

    async def _post_or_edit(self, chat: ChatRef, game_id: str, message: Any,
                            field: str = "table", known: object = _UNREAD) -> None:
        """Edit the message stored under ``field`` (``known``: its ref as just read,
        None when there is none; :data:`_UNREAD`: read it now), or post a new one and
        store its ref when there is none or it is gone."""
        ref = await self.refs.get(game_id, field) if known is _UNREAD else known
        if isinstance(ref, str):
            try:
                await self.platform.edit(chat, ref, message)
                return
            except MessageGone:
                pass
        new = await self.platform.post(chat, message)
        if new is not None:
            await self.refs.put(game_id, field, new)

    async def redo(self, retable: Retable, limit: int = 10,
                   rehand: Rehand | None = None) -> int:
        """Bring up to date the tables and hands a dead worker left stale: claim them and
        queue the table ``retable(game_id)`` renders from the stored game, and the hand
        ``rehand(game_id, person)`` does (the service's ``show_hand_of``; None: hands are
        not redone), in the game's line of :attr:`order`. Returns how many."""
        if self.stale is None:
            return 0
        games = await self.stale.claim(limit)
        for game_id in games:
            async with self.order.ticket(game_key(game_id)):
                effects = await retable(game_id)
                if not effects:
                    await self.stale.forget(game_id)
                self.stage(effects)
        if rehand is None or self.stale_hands is None:
            return len(games)
        owed = await self.stale_hands.claim(limit)
        for member in owed:
            game_id, _sep, user_id = member.partition("|")
            async with self.order.ticket(game_key(game_id)):
                person = PlayerRef(platform=self.platform.name, user_id=user_id, name="?")
                hands: list[Effect] = [e for e in await rehand(game_id, person)
                                       if isinstance(e, HandView)]
                if not hands:  # the game is over or gone, or the person left it
                    await self.stale_hands.forget(member)
                self.stage(hands)
        return len(games) + len(owed)

    def _queue_closed(self, effect: Closed) -> None:
        game_id = effect.game_id
        known = self._shown.pop(_place(effect), None)
        mine = _field(effect)

        async def close() -> None:
            self._opened(game_id)
            refs = await self.refs.all(game_id)
            if mine in refs:
                await self._final_table(effect, refs[mine], known)
                await self.refs.drop(game_id, mine)
            for name, value in refs.items():
                if name.startswith("hand:"):
                    await self.platform.strip_private(name[5:], value)
                    if self.stale_hands is not None:
                        await self.stale_hands.forget(hand_member(game_id, name[5:]))
                elif name.startswith("ping:"):
                    await self.platform.delete_private(name[5:], value)
            if any(_is_table(name) for name in await self.refs.all(game_id)):
                return  # another place's table of this platform is still to close
            await self.refs.forget_game(game_id)
            if self.stale is not None:
                await self.stale.forget(game_id)

        self.group_edits.submit(effect.chat.chat_id, close, prompt=effect.prompt)

    async def _final_table(self, effect: Closed, ref: str, known: Any) -> None:
        """The table's last edit: the final view the closing carries (a table edit it
        replaced in the coalescer is never shown, so the message must not keep an older
        text), else the last rendering without buttons."""
        if effect.final is None:
            await self.platform.strip(ref, known)
            return
        final = TableView(chat=effect.chat, game_id=effect.game_id, view=effect.final)
        with contextlib.suppress(MessageGone):  # a deleted table: nothing left to correct
            await self.platform.edit(effect.chat, ref, await self.platform.table(final))

    # ---- people --------------------------------------------------------------------
    def _queue_hand(self, effect: HandView, origin: Any, fresh: bool) -> None:
        """Queue the hand's edit (coalesced per message), its mark in the stale hands
        set while it waits (a worker that dies first leaves it to another's
        :meth:`redo`, issue 36)."""
        key = f"{effect.game_id}:{effect.player.user_id}"
        member = hand_member(effect.game_id, effect.player.user_id)
        marked = None if self.stale_hands is None else asyncio.get_running_loop().create_task(
            self.stale_hands.mark(member, self.dm_edits.delay_for(key, False)))

        async def show() -> None:
            due = await marked if marked is not None else None
            if fresh:
                await self.fresh_hand(effect, origin)
            else:
                await self._hand(effect, None)
            if due is not None and self.stale_hands is not None:
                await self.stale_hands.clear(member, due)

        self.dm_edits.submit(key, show)

    async def _hand(self, effect: HandView, origin: Any) -> None:
        await self._after_opening(effect.game_id)
        field = f"hand:{effect.player.user_id}"
        message = self.platform.hand(effect)
        if self.platform.carries_hand(origin, effect.player):
            ref = await self.platform.answer_hand(origin, effect.player, message)
            if ref is not None:
                await self.refs.put(effect.game_id, field, ref)
            return
        kept = self.refs.known_hand(effect.game_id, field) if self._keeps_hands else None
        ref = kept if kept is not None else await self.refs.get(effect.game_id, field)
        while ref is not None:
            try:
                await self.platform.edit_private(effect.player, ref, message)
                return
            except MessageGone:
                if ref == kept:  # kept in memory: another worker may have replaced it
                    kept, fresh = None, await self.refs.get(effect.game_id, field)
                    if fresh is not None and fresh != ref:
                        ref = fresh  # edit the message Redis names now
                        continue
                await self.refs.drop(effect.game_id, field)
                break
            except PrivateRefused:
                await self.dm_refused(effect.chat, effect.game_id, effect.player)
                return
        await self._private(effect.player, message, effect.chat, effect.game_id, field)

    async def fresh_hand(self, effect: HandView, origin: Any = None) -> None:
        """Send the hand as a new private message and delete the old one: the person
        asked for it (``/mao``), and an edit of an unchanged message shows them nothing."""
        await self._after_opening(effect.game_id)
        field = f"hand:{effect.player.user_id}"
        old = await self.refs.get(effect.game_id, field)
        await self._private(effect.player, self.platform.hand(effect), effect.chat,
                            effect.game_id, field, origin)
        new = await self.refs.get(effect.game_id, field)
        if old is not None and new is not None and new != old:
            await self.platform.delete_private(effect.player.user_id, old)

    async def _private(self, player: PlayerRef, message: Any, chat: ChatRef | None,
                       game_id: str | None, field: str | None, origin: Any = None) -> None:
        try:
            ref = await self.platform.send_private(player, message, origin)
        except PrivateRefused:
            if chat is not None and game_id is not None:
                await self.dm_refused(chat, game_id, player)
            return
        if ref is not None and game_id is not None and field is not None:
            await self.refs.put(game_id, field, ref)

    async def _ping(self, effect: TurnPing) -> None:
        """Every earlier ping of the game is deleted (the person's own and whoever's turn
        it was before), then the new one is sent, so a game never shows two, not even
        for a moment in a Discord channel (a trial saw both there)."""
        self._no_pings.pop(effect.game_id, None)
        dropped = await self._delete_pings(effect.game_id)
        try:
            sent = await self.platform.ping(effect)
        except PrivateRefused:
            await self.dm_refused(effect.chat, effect.game_id, effect.player)
            sent = None
        except Exception:  # the old ones are deleted: forget them all the same
            await self.refs.swap(effect.game_id, dropped)
            raise
        field = f"ping:{effect.player.user_id}"
        if sent is None:
            await self.refs.swap(effect.game_id, dropped)
        else:  # the old refs forgotten and the new one kept in one round trip (issue 36)
            await self.refs.swap(effect.game_id, dropped, field, sent)

    async def _pings_over(self, effect: PingsOver) -> None:
        """Delete the game's pings, unless this worker knows there is none: it read them
        at a version not older than ``effect.own_from`` (every save since was its own,
        and a ping comes with a save), in the last :data:`HAND_KEPT_S` seconds, found
        none and sent none since (issue 36: most turn changes end here, and each read
        found nothing)."""
        game_id = effect.game_id
        read = self._no_pings.get(game_id)
        if (read is not None and effect.own_from is not None and read[0] >= effect.own_from
                and time.monotonic() - read[1] <= HAND_KEPT_S):
            return
        await self._drop_pings(game_id)
        if effect.state_version:  # none left as of this version
            self._no_pings[game_id] = (effect.state_version, time.monotonic())
            self._no_pings.move_to_end(game_id)
            if len(self._no_pings) > HANDS_KEPT:
                self._no_pings.popitem(last=False)

    async def _drop_pings(self, game_id: str) -> None:
        """Delete the game's stored turn pings, then forget their refs (in one round
        trip): a worker that stops in between leaves the refs, and the next drop deletes
        those messages again (a deleted one is only logged), rather than a message
        nobody remembers."""
        await self.refs.swap(game_id, await self._delete_pings(game_id))

    async def _delete_pings(self, game_id: str) -> list[str]:
        """Delete the game's stored turn ping messages; the ref fields they were under
        (to forget once the new ping, if any, is sent)."""
        names: list[str] = []
        for name, ref in (await self.refs.all(game_id)).items():
            if name.startswith("ping:"):
                await self.platform.delete_private(name[5:], ref)
                names.append(name)
        return names

    async def dm_refused(self, chat: ChatRef, game_id: str, player: PlayerRef) -> None:
        """The bot cannot write to the person privately: tell the group once per game."""
        if await self.refs.flag(game_id, f"dm:{player.user_id}"):
            await self.platform.refused_notice(chat, game_id, player)

    async def flush(self) -> None:
        """Wait for every coalesced edit (tests, shutdown)."""
        await self.dm_edits.flush()
        await self.group_edits.flush()


def _field(effect: TableView | Closed) -> str:
    """The ref field of the place's table message: ``table`` in the game's own chat (as
    every game stored before places), ``table:<chat id>`` in another place."""
    return "table" if effect.home else f"table:{effect.chat.chat_id}"


def _is_table(name: str) -> bool:
    """Whether ref field ``name`` is a place's table message (:func:`_field`)."""
    return name == "table" or name.startswith("table:")


def _place(effect: TableView | Closed) -> str:
    """The key of one place's table among the games this worker showed."""
    return f"{effect.game_id}|{effect.chat.key}"
