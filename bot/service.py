"""The game service: every use case the chat adapters call (docs/service-api.md).

Each call loads the game (one store key with a version), runs a pure use case from
:mod:`bot.lobby`, :mod:`bot.turns`, :mod:`bot.results` or :mod:`bot.timers`, saves with
compare-and-set (on conflict: reload and run again, so the use case re-verifies), then
does the follow-ups (deadline, record, ranking, unbinding the chat) and returns the
effects. A refused request returns a :class:`Reply` with the reason and saves nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from bot import info, lobby, play, results, robot, timers, turns, upkeep, views
from bot.effects import ChatRef, Document, Effect, PlayerRef, Reply, TableView, unpack
from bot.i18n import DEFAULT_LANG, LANGS, N_, Translator, norm_lang
from bot.model import Game, decode, encode, new_game_id
from bot.outcome import Outcome, Refusal
from bot.ports import Clock, GameStore

log = logging.getLogger(__name__)
UPDATE_TTL_S = 86_400
CAS_ATTEMPTS = 8
_UNLOADED = object()  # "not read yet" (None means the store has no such game)
CACHED_GAMES = 512
_FORCE = object()
_APPLIED = object()  # "this update was applied to the game already"
RETRY_S = 60.0
CHAT_BIND_TTL_S = 30 * 86_400
"""A chat's binding outlives any game (it is removed when the game closes, and a binding
to a game that no longer exists is dropped on sight), so long matches keep their chat."""
LOBBY_CODES = {"j", "lv", "ai", "sh", "s", "x"}
UseCase = Callable[[Game], Outcome]


class Service:
    """Platform-neutral game service over a :class:`GameStore` and a :class:`Clock`.

    ``turn_timer_s`` default turn deadline; ``ai_pace_s`` seconds between two AI actions
    of one game; ``next_deal_s`` pause before the next deal; ``idle_s`` closing of a
    lobby or game nobody acted in. ``chooser`` is the AI (default ``engine.ai.choose``
    when present, else the fallback of :mod:`bot.robot`). ``deck_fn(rules)`` gives each
    deal's deck (tests); None shuffles with ``secrets.SystemRandom``. ``threaded`` runs
    timer steps (AI thinking) in a worker thread so the event loop stays responsive.
    ``compress`` stores states zlib-compressed (:func:`bot.model.encode`).
    """

    def __init__(self, store: GameStore, clock: Clock, *, turn_timer_s: int = 90,
                 ai_pace_s: float = 1.0, next_deal_s: float = 30.0, idle_s: float = 86_400.0,
                 chooser: robot.Chooser | str | None = "engine",
                 deck_fn: play.DeckFn | None = None, threaded: bool = True,
                 compress: bool = True) -> None:
        self.store = store
        self.clock = clock
        self.turn_timer_s = turn_timer_s
        self.pacing = timers.Pacing(ai_pace_s, next_deal_s, idle_s)
        self.chooser: robot.Chooser | None = (
            robot.engine_chooser() if isinstance(chooser, str) else chooser)
        self.ttl_s = int(idle_s + 86_400)
        self.deck_fn = deck_fn
        self.threaded = threaded
        self.compress = compress
        self._cache: OrderedDict[str, tuple[int, str, Game]] = OrderedDict()
        self._swept_at = float("-inf")

    # Plumbing ---------------------------------------------------------------------
    async def _fresh(self, update: str | None) -> bool:
        return update is None or await self.store.first_seen(update, UPDATE_TTL_S)

    async def _lang(self, chat: ChatRef) -> str:
        return await self.store.get_setting(chat.key, "lang") or DEFAULT_LANG

    async def _load(self, gid: str) -> tuple[int, Game] | None:
        got = await self.store.load_game(gid)
        if got is None:
            return None
        return got[0], decode(got[1])

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
        got = await self._load(gid)
        if got is None:
            await self.store.unbind_chat(chat.key, gid)
            return None
        if got[1].status == "over":
            await upkeep.close_out(self.store, got[1])
            return None
        return gid

    async def _run(self, gid: str, user: PlayerRef | None, fn: UseCase,
                   reschedule: bool = False, threaded: bool = False,
                   loaded: object = _UNLOADED, update: str | None = None) -> list[Effect]:
        """Load, run ``fn``, compare-and-set, follow up; retried on a lost race.
        ``threaded`` runs ``fn`` in a worker thread (AI moves may think for a while);
        ``loaded`` is the stored ``(version, text)`` already read for the first attempt;
        ``update`` (the platform update key) is recorded as applied in the save itself, so
        a redelivery after a failed save is applied and one after a save is not."""
        for _attempt in range(CAS_ATTEMPTS):
            got = await self._take(gid, loaded, update)
            loaded = _UNLOADED
            if got is _APPLIED:
                return []
            if got is None:
                if user is None:
                    return []
                return await self._reply(None, user, N_("Este jogo não existe mais."))
            assert isinstance(got, tuple)
            version, game = got
            due_before = _FORCE if reschedule else timers.next_due(game, self.pacing)
            try:
                out = await asyncio.to_thread(fn, game) if threaded else fn(game)
            except Refusal as err:
                if user is None:
                    return []
                return [Reply(player=user, text=err.render(Translator(game.lang)))]
            if not out.changed:
                if reschedule:
                    await upkeep.schedule(self.store, game, self.pacing)
                    await self._settle(gid, version)
                return out.effects
            if out.keep_deals:
                await upkeep.keep_deals(self.store, gid, out.keep_deals)
            text = encode(game, self.compress)
            await self._bring_forward(gid, game, due_before)
            if await self.store.save_game(gid, version, text, self.ttl_s, update,
                                          self.clock.now()):
                self._remember(gid, version + 1, text, game)
                await self._follow_up(game, due_before, version + 1)
                return [e.model_copy(update={"state_version": version + 1})
                        if isinstance(e, TableView) else e for e in out.effects]
        log.warning("game %s: gave up after %d lost races", gid, CAS_ATTEMPTS)
        return [] if user is None else await self._reply(
            None, user, N_("Muita gente jogando ao mesmo tempo: tente de novo."))

    async def _take(self, gid: str, loaded: object = _UNLOADED,
                    update: str | None = None) -> object:
        """Load a game to change it: ``(version, game)``, None when it is gone, or
        :data:`_APPLIED` when ``update`` was applied to it already. The game this worker
        saved last is reused only when the store holds that version *and* that very text
        (a Redis failover that lost writes can bring an older version back and a newer
        one with the same number after it, issue 12 defect 5d); whatever is taken leaves
        the cache, so a refused or lost attempt never leaves a half-changed game there."""
        if loaded is _UNLOADED:
            if update is None:
                loaded = await self.store.load_game(gid)
            else:
                applied, loaded = await self.store.load_for_update(gid, update)
                if applied:
                    return _APPLIED
        got = loaded
        assert got is None or isinstance(got, tuple)
        hit = self._cache.pop(gid, None)
        if got is None:
            return None
        if hit is not None and hit[0] == got[0] and hit[1] == got[1]:
            return hit[0], hit[2]
        return got[0], decode(got[1])

    def _remember(self, gid: str, version: int, text: str, game: Game) -> None:
        self._cache[gid] = (version, text, game)
        if len(self._cache) > CACHED_GAMES:
            self._cache.popitem(last=False)

    async def _bring_forward(self, gid: str, game: Game, due_before: object) -> None:
        """Before a save whose state calls for an *earlier* deadline, move the deadline
        now: a deadline may come early (the step then finds nothing due and sets the right
        one), never late. A worker that died between such a save and its follow-up left a
        later deadline standing, up to the 24 h idle close, so a person back from away at a
        robot's turn froze the game (found by tests/reliability/test_rel_faults.py)."""
        if not isinstance(due_before, int | float):
            return
        due = timers.next_due(game, self.pacing)
        if due is not None and due < due_before:
            await self.store.set_deadline(gid, due)

    async def _follow_up(self, game: Game, due_before: object, version: int) -> None:
        """After the save of ``version``: move the deadline if the state calls for another
        one, or close the game out when it is over (:mod:`bot.upkeep`, redone by any
        worker)."""
        if game.status == "over" or timers.next_due(game, self.pacing) != due_before:
            await upkeep.schedule(self.store, game, self.pacing)
            await self._settle(game.id, version)

    async def _settle(self, gid: str, version: int) -> None:
        """The deadline just written came from ``version``; if another worker saved since
        (and did its follow-ups first), that write was stale: a slow tick's "nobody is
        present, wait 24 h" landed after a press that brought the person back froze the
        game (found by tests/reliability/test_rel_faults.py). Rewrite the deadline from
        the stored state until the version read is the one it was computed from."""
        for _attempt in range(CAS_ATTEMPTS):
            got = await self.store.load_game(gid)
            if got is None or got[0] == version:
                return
            version, game = got[0], decode(got[1])
            await upkeep.schedule(self.store, game, self.pacing)

    # Lobby ------------------------------------------------------------------------
    async def new_game(self, chat: ChatRef, user: PlayerRef, args: str = "", *,
                       update: str | None = None) -> list[Effect]:
        """``/novojogo [preset] [k=v ...]``: open a lobby (or point to the chat's game)."""
        if update is not None and await self.store.was_seen(update):
            return []
        lang = await self._lang(chat)
        existing = await self._active(chat)
        if existing is not None:
            return await self._existing(chat, user, existing, lang)
        now = self.clock.now()
        try:
            game = lobby.open_game(new_game_id(), chat, user, args, lang, now, self.turn_timer_s)
        except Refusal as err:
            return [Reply(player=user, text=err.render(Translator(lang)))]
        await self.store.create_game(game.id, encode(game, self.compress), self.ttl_s)
        if not await self.store.bind_chat(chat.key, game.id, CHAT_BIND_TTL_S):
            await self.store.delete_game(game.id)
            other = await self.store.chat_game(chat.key)
            return await self._existing(chat, user, other or "", lang)
        await upkeep.schedule(self.store, game, self.pacing)
        if update is not None:  # marked once done: a redelivery after a crash is served
            await self.store.first_seen(update, UPDATE_TTL_S)
        return [views.table_effect(game)]

    async def _existing(self, chat: ChatRef, user: PlayerRef, gid: str,
                        lang: str) -> list[Effect]:
        out = await self._reply(chat, user, N_("Já há um jogo neste grupo: veja a mesa abaixo."),
                                lang)
        got = await self._load(gid)
        return out + ([views.table_effect(got[1])] if got else [])

    async def _chat_game(self, chat: ChatRef, user: PlayerRef,
                         update: str | None) -> str | list[Effect]:
        """The chat's active game id, or the effects to return instead (no game: tell the
        person). ``update`` is checked against the game's applied updates by the call."""
        gid = await self._active(chat)
        if gid is None:
            if not await self._fresh(update):
                return []
            return await self._reply(chat, user, N_(
                "Não há jogo aberto neste grupo. Use /novojogo."))
        return gid

    async def _chat_call(self, chat: ChatRef, user: PlayerRef, update: str | None,
                         fn: UseCase) -> list[Effect]:
        gid = await self._chat_game(chat, user, update)
        return gid if isinstance(gid, list) else await self._run(gid, user, fn, update=update)

    async def join(self, chat: ChatRef, user: PlayerRef, *,
                   update: str | None = None) -> list[Effect]:
        """``/entrar``: take the next free seat of the chat's lobby."""
        return await self._chat_call(chat, user, update,
                                     lambda g: lobby.join(g, user, self.clock.now()))

    async def join_game(self, game_id: str, user: PlayerRef, *,
                        update: str | None = None) -> list[Effect]:
        """Deep link ``/start j<game_id>``: join by game id (from a private chat)."""
        return await self._run(game_id, user, lambda g: lobby.join(g, user, self.clock.now()),
                               update=update)

    async def leave(self, chat: ChatRef, user: PlayerRef, *,
                    update: str | None = None) -> list[Effect]:
        """``/sair``: leave the chat's lobby."""
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
        """``/cancelar``: the creator or a chat admin closes the game."""
        return await self._chat_call(chat, user, update,
                                     lambda g: lobby.cancel(g, user, is_admin))

    # Buttons ------------------------------------------------------------------------
    async def press(self, user: PlayerRef, data: str, is_admin: bool = False, *,
                    update: str | None = None) -> list[Effect]:
        """Any button: decode ``data`` and do it (see :meth:`act`)."""
        parsed = unpack(data)
        if parsed is None:
            if not await self._fresh(update):
                return []
            return await self._reply(None, user, N_("Botão desconhecido."))
        gid, version, code, arg = parsed
        if code == "h":
            return await self.show_hand_of(gid, user)
        return await self.act(gid, user, version, code, arg, is_admin=is_admin, update=update)

    async def act(self, game_id: str, user: PlayerRef, version: int, code: str,
                  arg: str = "", *, is_admin: bool = False,
                  update: str | None = None) -> list[Effect]:
        """One decoded button press by ``user`` on game ``game_id``; ``update`` (the
        platform's update key) makes a redelivery of an applied press a no-op."""
        if code == "h":
            return await self.show_hand_of(game_id, user)
        return await self._run(game_id, user,
                               lambda g: self._dispatch(g, user, version, code, arg, is_admin),
                               update=update)

    def _dispatch(self, game: Game, user: PlayerRef, version: int, code: str, arg: str,
                  is_admin: bool) -> Outcome:
        now = self.clock.now()
        if code in LOBBY_CODES:
            if code == "x":
                return lobby.cancel(game, user, is_admin)
            if code == "s":
                return lobby.start(game, user, now, self.deck_fn)
            if code == "sh":
                return lobby.toggle_shuffle(game, user, now)
            if code == "ai":
                return lobby.add_ai(game, user, arg, now)
            return lobby.join(game, user, now) if code == "j" else lobby.leave(game, user, now)
        seat = game.seat_of(user)
        if code == "n":
            if seat is None:
                raise Refusal(N_("Você não está nesta partida."))
            return results.next_deal(game, now, seat, self.deck_fn)
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

    async def scoreboard(self, chat: ChatRef, user: PlayerRef, *,
                         update: str | None = None) -> list[Effect]:
        """``/placar``: the match deal by deal and the chat's all-time ranking."""
        if not await self._fresh(update):
            return []
        lang = await self._lang(chat)
        gid = await self._active(chat) or await self.store.get_setting(chat.key, "last_game")
        got = await self._load(gid) if gid else None
        rows = await self.store.ranking(chat.key)
        text = info.scoreboard_text(got[1] if got else None, rows, Translator(lang))
        return [Reply(player=user, text=text)]

    async def export(self, chat: ChatRef, user: PlayerRef, *,
                     update: str | None = None) -> list[Effect]:
        """``/exportar``: the last finished game's record, never while hands are hidden."""
        if not await self._fresh(update):
            return []
        if await self._active(chat) is not None:
            return await self._reply(chat, user, N_(
                "O registro só sai depois do fim da partida."))
        gid = await self.store.get_setting(chat.key, "last_game")
        record = await self.store.load_record(gid) if gid else None
        if record is None:
            return await self._reply(chat, user, N_("Ainda não há partida terminada neste grupo."))
        return [Document(chat=chat, filename=f"buraco-{gid}.json", content=record)]

    async def set_language(self, chat: ChatRef, user: PlayerRef, lang: str = "", *,
                           update: str | None = None) -> list[Effect]:
        """``/idioma [pt|en|it]``: the chat's language (no argument lists them)."""
        if not await self._fresh(update):
            return []
        code = norm_lang(lang) if lang.strip() else None
        if code is None:
            choices = ", ".join(f"{k} ({v})" for k, v in LANGS.items())
            return await self._reply(chat, user, N_("Idiomas: {choices}. Use /idioma en."),
                                     choices=choices)
        await self.store.set_setting(chat.key, "lang", code)
        out = await self._reply(chat, user, N_("Idioma do grupo: português."), code)
        gid = await self._active(chat)
        if gid is not None:
            out += await self._run(gid, None, lambda g: info.relabel(g, code))
        return out

    async def come_back(self, chat: ChatRef, user: PlayerRef, *,
                        update: str | None = None) -> list[Effect]:
        """``/voltar``: take the seat back from the AI that stood in."""
        return await self._chat_call(chat, user, update,
                                     lambda g: info.come_back(g, user, self.clock.now()))

    async def help(self, chat: ChatRef, user: PlayerRef) -> list[Effect]:
        """``/ajuda``: the commands."""
        return [Reply(player=user, text=info.help_text(Translator(await self._lang(chat))))]

    async def rules_text(self, chat: ChatRef, user: PlayerRef, preset: str = "") -> list[Effect]:
        """``/regras [preset]``: a summary of a preset's rules."""
        _ = Translator(await self._lang(chat))
        try:
            return [Reply(player=user, text=info.rules_summary(preset or "buraco", _))]
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
        effects = await self._run(gid, None, lambda g: info.move_chat(g, new))
        await self.store.unbind_chat(old.key, gid)
        await self.store.bind_chat(new.key, gid, CHAT_BIND_TTL_S)
        return effects

    # Timers -------------------------------------------------------------------------
    async def tick(self, now: float | None = None, limit: int = 20) -> list[Effect]:
        """Claim (lease) due deadlines and do what is due (AI move, timeout, next deal,
        idle close, the follow-ups of a game that is over); sweep for games without a
        deadline at the first tick and every :data:`bot.upkeep.SWEEP_S` seconds.

        One game's failure (a corrupt state, an engine refusal of every fallback move, a
        dropped connection) neither drops the others of the batch nor loses its own
        deadline: the lease stands, and a retry is set when the store still answers."""
        now = self.clock.now() if now is None else now
        if now - self._swept_at >= upkeep.SWEEP_S:
            self._swept_at = now
            await upkeep.sweep(self.store, self.pacing)
        out: list[Effect] = []
        for gid in await self.store.claim_due(now, limit):
            try:
                out += await self._tick_one(gid, now)
            except Exception as err:
                # the code only: an engine message may name a card of someone's hand
                log.error("game %s: timer step failed (%s)", gid,
                          getattr(err, "code", type(err).__name__))
                with contextlib.suppress(Exception):  # else the lease brings it back
                    await self.store.set_deadline(gid, now + RETRY_S)
        return out

    async def _tick_one(self, gid: str, now: float) -> list[Effect]:
        got = await self.store.load_game(gid)
        if got is None:  # the game is gone: so is its deadline
            await self.store.clear_deadline(gid)
            return []
        return await self._run(gid, None, lambda g: timers.step(
            g, now, self.pacing, self.chooser, self.deck_fn), reschedule=True,
            threaded=self.threaded, loaded=got)
