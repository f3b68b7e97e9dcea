"""The plumbing under every service call (docs/service-api.md): load a game, run a use
case on it, save it with compare-and-set (on a lost race: reload and run again, so the use
case re-verifies), follow up. The timers' steps are in :mod:`bot.ticking`.

A refused request returns a :class:`Reply` with the reason (after the refusal's ``also``
effects) and saves nothing. The use cases themselves are in :mod:`bot.service`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from bot import places, robot, timers, upkeep
from bot.effects import ChatRef, Effect, PingsOver, PlayerRef, Reply, TableView
from bot.i18n import DEFAULT_LANG, N_, Translator
from bot.later import FollowUps
from bot.model import Codec, CorruptGame, Game, decode, encode
from bot.outcome import Outcome, Refusal
from bot.ports import Clock, GameStore
from bot.season.ports import SeasonStore

log = logging.getLogger(__name__)
UPDATE_TTL_S = 86_400
CAS_ATTEMPTS = 8
_UNLOADED = object()  # "not read yet" (None means the store has no such game)
CACHED_GAMES = 512
ROBOTS_AT_ONCE = 2
"""Timer steps (robot moves, safe moves, next deals) one worker thinks off the event loop
at the same time (:meth:`GameRunner._think`); the others wait their turn. A person's
press runs on the loop and never waits for this bound (issue 36: after a failover the
steps held up on the dead node all resume at once; the engine holds the GIL, so more
threads make no robot faster, they only take the loop's turns from the presses of the
healthy games)."""
_FORCE = object()
_APPLIED = object()  # "this update was applied to the game already"
_GONE = object()  # "the store has no such game" (as the next attempt's ``loaded``)
WARM_MIN_SHARE = 0.75
"""Share of cached copies found current above which presses skip the read
(:meth:`GameRunner._warm`): a current copy saves one round trip, a stale one costs about
two round trips' worth."""
UseCase = Callable[[Game], Outcome]


CORRUPT = N_("Não consegui ler o estado deste jogo (dados danificados): nada foi mudado. "
             "Um admin do grupo pode encerrar a mesa com /cancelar.")
"""Told to a person whose call found the stored game unreadable (bot.model.CorruptGame)."""


async def _save_rendering(gid: str, save: Awaitable[bool],
                          out: Outcome) -> tuple[bool, list[Effect]]:
    """Run ``save`` (the compare-and-set of game ``gid`` that ``out`` came from) and
    return whether it won, with ``out``'s effects. ``out.render`` builds its views while
    the save's round trip is in flight (issue 13: the views cost about as much CPU as
    the round trip waits), so the save is started and given one turn of the loop to send
    its command first. The views are only returned; a lost save discards them (the next
    attempt runs the use case again).

    A view that fails is logged (its kind and where, never its values) and left out: the
    save goes on as if the views had been built, so a saved move stands and its deadline
    keeps the game going (a trial: a robot whose table failed waited the 60 s retry), a
    lost one is tried again, and a failing save says its own error. This press cancelled
    once the save is started (a worker shutting down) still waits for the save's answer
    before it goes on, so none is left running unwatched or cut off mid-reply."""
    if out.render is None:
        return await save, out.effects
    sending = asyncio.ensure_future(save)
    try:
        await asyncio.sleep(0)  # the save writes its command and waits for the reply
        effects = out.resolved_or_logged(gid)
        return await asyncio.shield(sending), effects
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await sending
        raise


class GameRunner:
    """Loads, runs, saves and ticks games over a :class:`GameStore` and a :class:`Clock`
    (the base of :class:`bot.service.Service`; parameters are documented there)."""

    def __init__(self, store: GameStore, clock: Clock, *, pacing: timers.Pacing,
                 chooser: robot.Chooser | None, deck_fn: Any, threaded: bool,
                 compress: Codec) -> None:
        self.store = store
        self.clock = clock
        self.pacing = pacing
        self.chooser = chooser
        self.ttl_s = int(pacing.idle_s + 86_400)
        self.deck_fn = deck_fn
        self.threaded = threaded
        self.compress = compress
        self.season: SeasonStore | None = None  # set by Service (issue 29)
        self._cache: OrderedDict[str, tuple[int, str, Game]] = OrderedDict()
        self._own: OrderedDict[str, tuple[int, int]] = OrderedDict()
        """Per game: the last version this runner saved, and the version after which
        every save up to it was this runner's (:meth:`_own_from`)."""
        self._swept_at = float("-inf")
        self._fresh_share = 1.0
        self._robots: asyncio.Semaphore | None = None
        self.follow_ups = FollowUps()
        """Work a call does not wait for (the coach's automatic reviews, issue 37); the
        worker sets its ``deliver`` to its delivery (:mod:`bot.later`)."""

    # Plumbing ---------------------------------------------------------------------
    async def _think(self, fn: UseCase, game: Game) -> Outcome:
        """``fn(game)`` in a worker thread, at most :data:`ROBOTS_AT_ONCE` at a time in
        this worker (made in the running loop on first use); the others wait here, off
        the loop, in arrival order."""
        if self._robots is None:
            self._robots = asyncio.Semaphore(ROBOTS_AT_ONCE)
        async with self._robots:
            return await asyncio.to_thread(fn, game)

    async def _fresh(self, update: str | None, chat: ChatRef | None) -> bool:
        """True when ``update`` (None: no idempotency asked) is seen for the first time;
        its marker is kept in ``chat``'s slot (issue 36)."""
        return update is None or await self.store.first_seen(
            update, UPDATE_TTL_S, chat.key if chat is not None else "")

    async def _lang(self, chat: ChatRef) -> str:
        return await self.store.get_setting(chat.key, "lang") or DEFAULT_LANG

    async def _load(self, gid: str) -> tuple[int, Game] | None:
        got = await self.store.load_game(gid)
        if got is None:
            return None
        return got[0], decode(got[1], gid)

    async def _game_lang(self, gid: str | None) -> str:
        """The language of game ``gid`` (pt-BR when there is no such readable game)."""
        try:
            got = await self.store.load_game(gid) if gid else None
            return self._parsed(gid, got).lang if gid and got else DEFAULT_LANG
        except CorruptGame:
            return DEFAULT_LANG

    async def _reply(self, chat: ChatRef | None, user: PlayerRef, msgid: str,
                     lang: str | None = None, **kw: Any) -> list[Effect]:
        lang = lang or (await self._lang(chat) if chat is not None else DEFAULT_LANG)
        return [Reply(player=user, text=Translator(lang)(msgid, **kw))]

    async def _active(self, chat: ChatRef) -> str | None:
        """The chat's live game id. A binding to a game that is gone is dropped; one to a
        game that is over (its worker died before the follow-ups) is closed out here."""
        gid = await self.store.chat_game(chat.key)
        if gid is None:
            return None
        try:
            got = await self.store.load_game(gid)
            if got is None:
                await self.store.unbind_chat(chat.key, gid)
                return None
            game = self._parsed(gid, got)
            if game.status == "over":
                await upkeep.close_out(self.store, game, self.season, self.clock.now())
                await self.store.unbind_chat(chat.key, gid)  # a chat bound, not yet a place
                return None
        except CorruptGame:
            return gid  # the call that follows says it cannot be read
        return gid

    async def _chat_game(self, chat: ChatRef, user: PlayerRef,
                         update: str | None) -> str | list[Effect]:
        """The chat's active game id, or the effects to return instead (no game: tell the
        person). ``update`` is checked against the game's applied updates by the call."""
        gid = await self._active(chat)
        if gid is None:
            if not await self._fresh(update, chat):
                return []
            return await self._reply(chat, user, N_(
                "Não há jogo aberto neste grupo. Use /novojogo."))
        return gid

    async def _run(self, gid: str, user: PlayerRef | None, fn: UseCase,
                   reschedule: bool = False, threaded: bool = False,
                   loaded: object = _UNLOADED, update: str | None = None,
                   chat: ChatRef | None = None) -> list[Effect]:
        """Load, run ``fn``, compare-and-set, follow up; retried on a lost race.
        ``threaded`` runs ``fn`` in a worker thread (AI moves may think for a while; at
        most :data:`ROBOTS_AT_ONCE` at once: :meth:`_think`);
        ``loaded`` is the stored ``(version, text)`` already read for the first attempt;
        ``update`` (the platform update key) is recorded as applied in the save itself, so
        a redelivery after a failed save is applied and one after a save is not.

        Warm path (issue 13): when this worker holds the game's stored text in its cache
        (it saved or read it last) and its cached copies have mostly been current lately
        (:meth:`_warm`), the first attempt runs ``fn`` on that copy without reading, and
        the save carries the text it was made from (``save_game(base=)``): it wins only
        if that very text is still stored, in one round trip. A refusal, a use case that
        changes nothing, or finished deals to keep are first checked against the store
        (one read); any mismatch runs ``fn`` again on the stored game, as a lost race does.

        A save that moves the deadline sends the new one in the same round trip
        (``save_game(..., deadline=)``); when that save loses, the deadline it sent is put
        back from the stored state before this call returns (:meth:`_settle`). A stored
        game that cannot be read (:class:`CorruptGame`) saves nothing: the person is told
        so in one sentence, in ``chat``'s language when the call names its chat (a timer
        step raises it for :meth:`tick` to log)."""
        try:
            return await self._attempts(gid, user, fn, reschedule, threaded, loaded, update)
        except CorruptGame as err:
            if user is None:
                raise  # a timer step: tick() logs it and sets a retry
            log.error("game %s: stored state unreadable (%s)", gid, err)
            return await self._reply(chat, user, CORRUPT)

    async def _attempts(self, gid: str, user: PlayerRef | None, fn: UseCase,
                        reschedule: bool, threaded: bool, loaded: object,
                        update: str | None) -> list[Effect]:
        """The attempts of :meth:`_run` (raises :class:`CorruptGame` as it finds it)."""
        blind = False
        hit = self._cache.pop(gid, None) if loaded is _UNLOADED and self._warm() else None
        for _attempt in range(CAS_ATTEMPTS):
            base: str | None = None
            if hit is not None:  # this worker's last save of the game, run on unread
                got: object = (hit[0], hit[2])
                base, hit = hit[1], None
            else:
                got = await self._take(gid, loaded, update)
            loaded = _UNLOADED
            if not isinstance(got, tuple):
                await self._settle(gid, blind, None)
                if got is None and user is not None:
                    return await self._reply(None, user, N_("Este jogo não existe mais."))
                return []
            version, game = got
            due_before = _FORCE if reschedule else timers.next_due(game, self.pacing)
            try:
                out = await self._think(fn, game) if threaded else fn(game)
            except Refusal as err:
                if base is not None and (seen := await self._confirm(gid, got, base, update)):
                    loaded = seen
                    continue
                await self._settle(gid, blind, got)
                if user is None:
                    return []
                also = err.also() if err.also is not None else []
                return [*also, Reply(player=user, text=err.render(Translator(game.lang)))]
            if (base is not None and (not out.changed or out.keep_deals)
                    and (seen := await self._confirm(gid, got, base, update))):
                loaded = seen
                continue
            if not out.changed:
                await self._settle(gid, blind or reschedule, got)
                return places.spread(game, out.resolved())
            if out.keep_deals:
                await upkeep.keep_deals(self.store, gid, out.keep_deals)
            text = encode(game, self.compress)
            due = timers.next_due(game, self.pacing)
            send = due if game.status != "over" and due != due_before else None
            blind = blind or send is not None
            saving = self.store.save_game(gid, version, text, self.ttl_s, update,
                                          self.clock.now(), deadline=send, base=base)
            saved, effects = await _save_rendering(gid, saving, out)
            if base is not None:
                self._note(saved)
            if saved:
                return await self._saved(gid, version + 1, text, game, effects,
                                         blind and send is None)
        log.warning("game %s: gave up after %d lost races", gid, CAS_ATTEMPTS)
        await self._settle(gid, blind, None)
        return [] if user is None else await self._reply(
            None, user, N_("Muita gente jogando ao mesmo tempo: tente de novo."))

    async def _saved(self, gid: str, version: int, text: str, game: Game,
                     effects: list[Effect], resettle: bool) -> list[Effect]:
        """After ``game`` was saved as ``version``: cache it, close out a finished game,
        and with ``resettle`` (an earlier lost attempt sent a deadline this save did not
        replace) set the deadline the saved game calls for. The effects, table views
        stamped with ``version``."""
        self._remember(gid, version, text, game)
        if resettle:
            await self._settle(gid, True, (version, game))
        if game.status == "over":
            effects = effects + await upkeep.close_out(self.store, game, self.season,
                                                       self.clock.now(), shown=True)
        if game.status in ("between", "over"):
            effects = effects + await self._after_deal(game)
        own_from = self._own_from(gid, version)
        return places.spread(game, [
            e.model_copy(update={"state_version": version}) if isinstance(e, TableView)
            else e.model_copy(update={"state_version": version, "own_from": own_from})
            if isinstance(e, PingsOver) else e for e in effects])

    def _own_from(self, gid: str, version: int) -> int:
        """Record that this runner saved ``version`` of ``gid``; the version after which
        every save up to it was this runner's: the start of the run of its own saves
        when it built on its own last save, else the version it built on."""
        last = self._own.get(gid)
        start = last[1] if last is not None and last[0] == version - 1 else version - 1
        self._own[gid] = (version, start)
        self._own.move_to_end(gid)
        if len(self._own) > CACHED_GAMES:
            self._own.popitem(last=False)
        return start

    async def _after_deal(self, game: Game) -> list[Effect]:
        """Follow-ups of a save of ``game`` between deals or over (none here; the coach's
        automatic review, :class:`bot.coach_calls.CoachCalls`, issue 37, which starts
        them in :attr:`follow_ups` and returns at once)."""
        return []

    async def _announce(self, gid: str, version: int) -> None:
        """Announce that game ``gid`` is at ``version`` (``store.announce``: the web
        tables of every worker follow it, DESIGN "The web table"), for a game just
        created (a save announces its own version in its round trip). A store that fails
        to is logged: the game stands, and its next save announces again."""
        try:
            await self.store.announce(gid, version)
        except Exception as err:
            log.warning("game %s: version %d not announced (%s)", gid, version,
                        type(err).__name__)

    async def _fetch(self, gid: str, update: str | None) -> object:
        """The stored ``(version, text)`` of ``gid`` (None: no such game), or
        :data:`_APPLIED` when ``update`` was applied to it already (read with it)."""
        if update is None:
            return await self.store.load_game(gid)
        applied, stored = await self.store.load_for_update(gid, update)
        return _APPLIED if applied else stored

    async def _confirm(self, gid: str, got: tuple[int, Game], base: str,
                       update: str | None) -> object:
        """Whether the cached copy ``got`` (stored as ``base``) that a use case ran on
        without loading is what the store holds (the outcome stands: None), or else what
        the next attempt takes instead: the stored ``(version, text)``, :data:`_GONE`, or
        :data:`_APPLIED` when ``update`` was applied already."""
        stored = await self._fetch(gid, update)
        if stored is _APPLIED or stored is None:
            return _GONE if stored is None else _APPLIED
        self._note(stored == (got[0], base))
        return None if stored == (got[0], base) else stored

    async def _settle(self, gid: str, needed: bool, got: tuple[int, Game] | None) -> None:
        """When ``needed``, set the deadline the stored game calls for (``got`` is the game
        as just loaded, None to load it): after a lost save that sent its own deadline,
        or a timer step that changed nothing. If another worker saved meanwhile, the
        deadline just written may be stale (a slow tick's "nobody is present, wait 24 h"
        landing after the press that brought the person back, found by
        tests/reliability): it is written again from the stored state until the version
        read back is the one it came from."""
        if not needed:
            return
        for _attempt in range(CAS_ATTEMPTS):
            if got is None:
                got = await self._load(gid)
                if got is None:
                    return
            await upkeep.schedule(self.store, got[1], self.pacing, self.season,
                                  self.clock.now())
            stored = await self.store.load_game(gid)
            if stored is None or stored[0] == got[0]:
                return
            got = None

    async def _take(self, gid: str, loaded: object = _UNLOADED,
                    update: str | None = None) -> object:
        """Load a game to change it: ``(version, game)``, None when it is gone, or
        :data:`_APPLIED` when ``update`` was applied to it already. The game this worker
        saved last is reused only when the store holds that version *and* that very text
        (a Redis failover that lost writes can bring an older version back and a newer
        one with the same number after it, issue 12 defect 5d); whatever is taken leaves
        the cache, so a refused or lost attempt never leaves a half-changed game there."""
        if loaded is _UNLOADED:
            loaded = await self._fetch(gid, update)
        if loaded is _APPLIED or loaded is _GONE:
            return None if loaded is _GONE else _APPLIED
        got = loaded
        assert got is None or isinstance(got, tuple)
        hit = self._cache.pop(gid, None)
        if got is None:
            return None
        if hit is not None:
            self._note(hit[0] == got[0] and hit[1] == got[1])
            if hit[0] == got[0] and hit[1] == got[1]:
                return hit[0], hit[2]
        return got[0], decode(got[1], gid)

    def _warm(self) -> bool:
        """Whether a press may run on a cached copy without reading the game first: when
        most cached copies lately were still current (one worker, or a load balancer that
        keeps a chat on one worker). With presses spread over N workers only about 1 in N
        is, and a stale copy costs the run, the encode and a refused save on top of the
        read (issue 13)."""
        return self._fresh_share >= WARM_MIN_SHARE

    def _note(self, fresh: bool) -> None:
        """Count one cached copy found current (``fresh``) or stale, in the moving
        share :meth:`_warm` reads (the last 20 or so count)."""
        self._fresh_share += (float(fresh) - self._fresh_share) * 0.05

    def _remember(self, gid: str, version: int, text: str, game: Game) -> None:
        self._cache[gid] = (version, text, game)
        if len(self._cache) > CACHED_GAMES:
            self._cache.popitem(last=False)

    def _parsed(self, gid: str, got: tuple[int, str]) -> Game:
        """The stored game ``got`` (``(version, text)``) parsed, for a look that changes
        nothing; it is kept in the cache so the :meth:`_run` that follows (which takes it
        out before changing it) does not parse it again."""
        hit = self._cache.get(gid)
        if hit is None or (hit[0], hit[1]) != got:
            hit = (got[0], got[1], decode(got[1], gid))
            self._remember(gid, *hit)
        return hit[2]
