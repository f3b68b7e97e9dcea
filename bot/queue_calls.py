"""The queue calls of the service (issue 35, :mod:`bot.matchmaking`): ``/procurar``,
``/sairfila`` and the formation of tables at every tick. :class:`bot.service.Service`
mixes them in; the queue itself is a :class:`QueueStore` (Redis,
adapters/storage/queue.py)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Protocol

from bot import lobby, matchmaking, places, upkeep, variants
from bot.chat_calls import CHAT_BIND_TTL_S
from bot.effects import Button, ChatRef, Effect, PlayerRef, Reply, Rewrite, Tell, pack
from bot.i18n import N_, Translator
from bot.model import CorruptGame, encode, new_game_id
from bot.outcome import Refusal
from bot.season.ports import PLATFORM
from bot.season.rating import Rating
from bot.ticking import TICK_CLAIMS, TimerCalls

log = logging.getLogger(__name__)
FORM_LIMIT = 20
"""Tables one formation round of one queue forms at most."""
QUEUE_ID, QUEUE_LEAVE = "fila", "qx"
"""The payload of the "Sair da fila" button: ``fila|0|qx|`` (no game: the person's own
entry)."""
FORM_EVERY_S = 1.0
"""Seconds between two formation rounds of one process (each reads every entry)."""
FORMED_LEASE_S = 30.0
"""A formed table whose game was not made this long after is made by another worker."""
QUEUED = N_("Você está na fila de {name} ({n} jogadores): {waiting} esperando. A mesa "
            "abre no seu privado assim que se formar. Para sair: /sairfila")
ROBOTS_AFTER = N_("Se a mesa não se completar em {minutes} min, robôs ocupam os lugares "
                  "vazios.")
ALREADY = N_("Você já está na fila ({queue}). Para sair: /sairfila")
SEATED = N_("Você já está numa mesa formada pela fila: termine-a (ou /sair) antes de "
            "procurar outra.")
IN_GAME = N_("Você já está numa mesa ({table}): termine-a, ou saia dela antes de começar, "
             "para procurar outra.")
LEFT = N_("Você saiu da fila.")
AT_TABLE = N_("Sua mesa já se formou: você não está mais na fila, e nada mudou. A partida "
              "está no seu privado com o bot (/mao mostra sua mão).")
"""A stale "Sair da fila" (or /sairfila) of a person the queue seated (issue 35)."""
AT_OTHER_TABLE = N_("Você não está na fila: você está numa mesa ({table}), e nada mudou.")
QUEUE_FORMED = N_("Mesa formada: {names}. Você não está mais na fila.")
"""The queue's answer (with its "Sair da fila" button) once the person's table formed:
edited to this, no button left (issue 35)."""
QUEUE_MARK = "queue"
"""The name the platforms keep the queue's answer under (:attr:`bot.effects.Reply.mark`)."""
LEAVE_BUTTON = N_("Sair da fila")
NOT_QUEUED = N_("Você não está na fila.")
EXPIRED = N_("Ninguém para a sua mesa em {minutes} min: você saiu da fila. Mande /procurar "
             "de novo quando quiser.")
FORMED = N_("Mesa formada: {names}. A partida começou!")
BLOCK_HOW = N_("Use /bloquear seguido do nome de alguém desta mesa.")
BLOCKED = N_("A fila não vai mais pôr {name} na sua mesa.")
NOTED = N_("Anotado. A resposta vai no seu privado com o bot.")
"""What a group reads of ``/bloquear`` (the name blocked goes privately; tester, issue 35)."""
REPLIES_SEEN_BY_ALL = frozenset({"tg"})
"""Platforms whose answer to a command in a group the whole group reads (Telegram; a
Discord slash command's answer is ephemeral). A private chat there has the person's id."""
NO_QUEUE = N_("A fila para achar jogadores não está disponível aqui.")


class QueueStore(Protocol):
    """What the calls need of the queue's store (adapters/storage/queue.py)."""

    async def join(self, person: str, queue: str, rating: float, now: float,
                   entry: dict[str, Any], over_games: str = "") -> tuple[str, str]:
        """Queue a person (see the adapter)."""
        ...

    async def seated_at(self, person: str) -> list[str]:
        """The games the person took a seat at (some may be over)."""
        ...

    async def sit(self, person: str, game_id: str) -> list[str]:
        """The person takes a seat at a game: recorded, and out of the queue at once;
        what :meth:`unsit` needs to undo it."""
        ...

    async def unsit(self, person: str, game_id: str, held: list[str]) -> None:
        """The seat :meth:`sit` recorded was not taken: undone."""
        ...

    async def leave(self, person: str) -> str | None:
        """Take the person out of their queue."""
        ...

    async def queues(self) -> list[str]:
        """The queues someone waits in."""
        ...

    async def form(self, queue: str, size: int, now: float, ttl_s: float,
                   band: tuple[float, float, float],
                   game_ids: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """One formation round of a queue."""
        ...

    async def made(self, game_id: str) -> None:
        """Forget a formed table whose game exists."""
        ...

    async def pending(self, game_id: str) -> bool:
        """Whether a formed table's game is still to be made."""
        ...

    async def claim_formed(self, now: float, lease_s: float) -> list[dict[str, Any]]:
        """Formed tables left by a worker that died."""
        ...

    async def block(self, person: str, other: str) -> bool:
        """Never match two people again."""
        ...


class QueueCalls(TimerCalls):
    """``/procurar``, ``/sairfila`` and :meth:`form_tables` (see the module docstring).
    ``queue`` None: the calls say the queue is not available (the in-memory store)."""

    queue: QueueStore | None = None
    turn_timer_s: int
    queue_ttl_s: int = matchmaking.QUEUE_TTL_S
    """Seconds an entry waits before it expires (``QUEUE_TTL_S``)."""
    _formed_at: float = float("-inf")

    async def tick(self, now: float | None = None, limit: int = TICK_CLAIMS,
                   platforms: frozenset[str] | None = None) -> list[Effect]:
        """The timers' tick (:meth:`bot.ticking.TimerCalls.tick`), then, every
        :data:`FORM_EVERY_S` seconds, a formation round (:meth:`form_tables`); a round
        that fails is logged by kind and tried at the next tick."""
        return await super().tick(now, limit, platforms) + await self.form_round()

    async def form_round(self) -> list[Effect]:
        """:meth:`form_tables` when :data:`FORM_EVERY_S` seconds have passed since this
        process's last round (the tick loop calls it every round); a round that fails is
        logged by kind and tried again at the next one."""
        at = self.clock.now()
        if self.queue is None or at - self._formed_at < FORM_EVERY_S:
            return []
        self._formed_at = at
        try:
            return await self.form_tables()
        except Exception as err:
            log.error("queue: formation failed (%s)", type(err).__name__)
            return []

    async def seek(self, chat: ChatRef, user: PlayerRef, args: str = "", *,
                   update: str | None = None) -> list[Effect]:
        """``/procurar [variante] [2|4] [robos=minutos]``: join the queue for that table."""
        if not await self._fresh(update, chat):
            return []
        lang = await self._lang(chat)
        _ = Translator(lang)
        if self.queue is None:
            return [Reply(player=user, text=_(NO_QUEUE))]
        try:
            preset, size, robots = matchmaking.parse(args)
        except Refusal as err:
            return [Reply(player=user, text=err.render(_))]
        now = self.clock.now()
        over = [gid for gid in await self.queue.seated_at(user.key)
                if await self._over(gid, user)]
        status, value = await self.queue.join(
            user.key, f"{preset}:{size}", await self._rating(user), now,
            matchmaking.entry(chat, user, robots, now), " ".join(over))
        if status == "seated":
            return [Reply(player=user, text=await self._seated_text(value, _))]
        if status == "queued":
            name, _sep, n = value.partition(":")
            return [Reply(player=user, text=_(ALREADY, queue=f"{variants.TITLES.get(name, name)}"
                                                            f" {n}"))]
        leave = Button(label=_(LEAVE_BUTTON), data=pack(QUEUE_ID, 0, QUEUE_LEAVE))
        text = _(QUEUED, name=variants.TITLES.get(preset, preset), n=size, waiting=int(value))
        if robots:
            text += "\n" + _(ROBOTS_AFTER, minutes=robots // 60)
        return [Reply(player=user, text=text, buttons=[[leave]], mark=QUEUE_MARK)]

    async def unseek(self, chat: ChatRef | None, user: PlayerRef, *,
                     update: str | None = None) -> list[Effect]:
        """``/sairfila`` (and the "Sair da fila" button, pressed where the platform may
        name no chat): leave the queue."""
        if not await self._fresh(update, chat):
            return []
        _ = Translator(await self._lang(chat) if chat is not None else "pt")
        if self.queue is None:
            return [Reply(player=user, text=_(NO_QUEUE))]
        left = await self.queue.leave(user.key)
        if left:
            return [Reply(player=user, text=_(LEFT)),
                    Rewrite(player=user, mark=QUEUE_MARK, text=_(LEFT))]
        return [Reply(player=user, text=await self._not_queued(user, _))]

    async def _not_queued(self, user: PlayerRef, _: Translator) -> str:
        """What ``/sairfila`` or a stale "Sair da fila" tells a person not in the queue
        (nothing changes): :data:`AT_TABLE` when the queue seated them at a game that
        goes on, :data:`AT_OTHER_TABLE` for another table they sit at, else
        :data:`NOT_QUEUED`."""
        assert self.queue is not None
        for gid in await self.queue.seated_at(user.key):
            try:
                got = await self.store.load_game(gid)
                game = self._parsed(gid, got) if got is not None else None
            except CorruptGame:
                continue
            if game is None or game.status == "over" or game.seat_of(user) is None:
                continue
            if game.matched:
                return _(AT_TABLE)
            return _(AT_OTHER_TABLE, table=game.chat.title or game.creator.name)
        return _(NOT_QUEUED)

    async def block(self, chat: ChatRef, user: PlayerRef, args: str = "", *,
                    update: str | None = None) -> list[Effect]:
        """``/bloquear <nome>``: the person named at this chat's table is never matched
        with ``user`` by the queue again (the name is the only thing strangers see of
        each other)."""
        if not await self._fresh(update, chat):
            return []
        _ = Translator(await self._lang(chat))
        if self.queue is None:
            return [Reply(player=user, text=_(NO_QUEUE))]
        gid = await self._active(chat)
        got = await self.store.load_game(gid) if gid else None
        if gid is None or got is None:
            return [Reply(player=user, text=_(BLOCK_HOW))]
        wanted = " ".join(args.split()).casefold()
        found = [p for _s, p in self._parsed(gid, got).humans()
                 if p.key != user.key and p.name.casefold() == wanted]
        if not wanted or not found:
            return [Reply(player=user, text=_(BLOCK_HOW))]
        await self.queue.block(user.key, found[0].key)
        text = _(BLOCKED, name=found[0].name)
        if chat.platform in REPLIES_SEEN_BY_ALL and chat.chat_id != user.user_id:
            return [Tell(player=user, chat=chat, text=text), Reply(player=user, text=_(NOTED))]
        return [Reply(player=user, text=text)]

    async def _seated_text(self, gid: str, _: Translator) -> str:
        """What a person told they hold a seat at game ``gid`` reads: :data:`SEATED` for
        a table the queue formed, :data:`IN_GAME` (naming the table) for any other."""
        try:
            got = await self.store.load_game(gid)
            game = self._parsed(gid, got) if got is not None else None
        except CorruptGame:
            game = None
        if game is None or game.matched:
            return _(SEATED)
        return _(IN_GAME, table=game.chat.title or game.creator.name)

    async def _over(self, gid: str, user: PlayerRef) -> bool:
        """Whether ``user``'s seat at game ``gid`` no longer holds: the game is gone or
        over, or they are not seated at it (they left its lobby). A formed table whose
        game is not made yet is not gone (a trial of the fault test: a person who queued
        again in that moment sat at two tables); nor is a game that cannot be read."""
        if self.queue is None:
            return False
        try:
            got = await self.store.load_game(gid)
            if got is None:
                return not await self.queue.pending(gid)
            game = self._parsed(gid, got)
            return game.status == "over" or game.seat_of(user) is None
        except CorruptGame:
            return False

    async def hold_seat(self, gid: str, user: PlayerRef) -> list[str] | None:
        """Before a call that may seat ``user`` at game ``gid`` (a lobby's Entrar,
        ``/novojogo``, an invitation): the seat is recorded with the queue and they leave
        it, in one step (:meth:`QueueStore.sit`), *before* the game's save, so no process
        killed between the two leaves a seated person unknown to the queue (who could
        then be queued and seated at a second table, issue 35). Returns what
        :meth:`took_seat` needs to undo it; None without a queue or when the step failed
        (logged: :meth:`took_seat` then records the seat after the save)."""
        if self.queue is None:
            return None
        try:
            return await self.queue.sit(user.key, gid)
        except Exception as err:
            log.error("queue: recording a seat failed (%s)", type(err).__name__)
            return None

    async def took_seat(self, gid: str, user: PlayerRef, held: list[str] | None) -> None:
        """After the call :meth:`hold_seat` came before (``held`` its answer): when it did
        not seat ``user`` at ``gid`` (refused), the record is undone and their queue
        entry put back (:meth:`QueueStore.unsit`); when ``hold_seat`` failed and they
        are seated, the seat is recorded now. A process killed before this step leaves
        a game counted as theirs that does not seat them, which :meth:`_over` sees
        through at their next ``/procurar``. A failure is logged."""
        if self.queue is None:
            return
        try:
            got = await self.store.load_game(gid)
            seated = got is not None and self._parsed(gid, got).seat_of(user) is not None
            if held is None and seated:
                await self.queue.sit(user.key, gid)
            elif held is not None and not seated:
                await self.queue.unsit(user.key, gid, held)
        except Exception as err:
            log.error("queue: recording a seat failed (%s)", type(err).__name__)

    async def playing(self, user: PlayerRef, but: str = "") -> str | None:
        """The game (other than ``but``) ``user`` holds a seat at that is being played
        (dealt, not over), or None: an invitation does not seat them at a second one."""
        if self.queue is None:
            return None
        for gid in await self.queue.seated_at(user.key):
            try:
                got = await self.store.load_game(gid) if gid != but else None
                game = self._parsed(gid, got) if got is not None else None
            except CorruptGame:
                continue
            if game is not None and game.status in ("playing", "between") \
                    and game.seat_of(user) is not None:
                return gid
        return None

    async def _rating(self, user: PlayerRef) -> float:
        """The person's global rating as shown (1000 for a new person, or without a
        season store)."""
        season = getattr(self, "season", None)
        if season is None:
            return float(Rating().shown)
        (text,) = await season.ratings(PLATFORM, [user.key])
        return float(Rating.parse(text).shown)

    async def form_tables(self) -> list[Effect]:
        """One formation round of every queue: expired entries told, tables formed and
        started (each person told, the table and hands shown in every place), and tables
        a dead worker formed but never made, made now."""
        if self.queue is None:
            return []
        now = self.clock.now()
        out: list[Effect] = []
        for table in await self.queue.claim_formed(now, FORMED_LEASE_S):
            out += await self._make(table, now)
        for name in await self.queue.queues():
            preset, _sep, size = name.partition(":")
            expired, tables = await self.queue.form(
                name, int(size), now, self.queue_ttl_s,
                (matchmaking.BAND_BASE, matchmaking.BAND_PER_S, matchmaking.BAND_MAX),
                [new_game_id() for _ in range(FORM_LIMIT)])
            for entry in expired:
                player = PlayerRef.model_validate(entry["player"])
                text = Translator("pt")(EXPIRED, minutes=max(1, self.queue_ttl_s // 60))
                out += [Tell(player=player, chat=ChatRef.model_validate(entry["queued"]),
                             text=text), Rewrite(player=player, mark=QUEUE_MARK, text=text)]
            for table in tables:
                table["preset"] = preset
                out += await self._make(table, now)
        return out

    async def _make(self, table: dict[str, Any], now: float) -> list[Effect]:
        """The game of a formed table, created and started unless it exists already (a
        worker that died after making it: then given its deadline if it has none, as
        that worker may have died before setting it, which left a started game nobody
        would move); its effects."""
        gid = str(table["game"])
        preset = str(table.get("preset") or matchmaking.DEFAULT_PRESET)
        got = await self.store.load_game(gid)
        if got is not None:
            if not (await self.store.has_deadline([gid]))[0]:
                with contextlib.suppress(CorruptGame):  # the sweep logs a damaged one
                    await self._settle(gid, True, (got[0], self._parsed(gid, got)))
            await self.queue_made(gid)
            return []
        game = matchmaking.game_of(table, preset, now, self.turn_timer_s)
        started = lobby.start(game, game.creator, now, self.deck_fn).resolved()
        await self.store.create_game(gid, encode(game, self.compress), self.ttl_s, None, now)
        for place in game.all_places():
            with contextlib.suppress(Exception):  # a chat with a game keeps it
                await self.store.bind_chat(place.key, gid, CHAT_BIND_TTL_S)
        await upkeep.schedule(self.store, game, self.pacing, self.season)
        await self.queue_made(gid)
        _ = Translator(game.lang)
        names = ", ".join(game.name_of(i) for i in range(len(game.seats)))
        told: list[Effect] = [Tell(player=p, chat=game.place_of(s), text=_(FORMED, names=names))
                              for s, p in game.humans()]
        told += [Rewrite(player=p, mark=QUEUE_MARK, text=_(QUEUE_FORMED, names=names))
                 for _s, p in game.humans()]
        return told + places.spread(game, started)

    async def queue_made(self, gid: str) -> None:
        """Forget the formed table ``gid`` (its game exists)."""
        if self.queue is not None:
            await self.queue.made(gid)
