"""The timers' side of the service (DESIGN "Timers"): claim (lease) due deadlines, step
each claimed game (AI move, timeout, next deal, idle close, the follow-ups of a game
that is over), hand a game of another platform back, sweep for games without a deadline.
:class:`bot.service.Service` mixes :class:`TimerCalls` in; the load-run-save plumbing
is :class:`bot.runner.GameRunner`'s."""

from __future__ import annotations

import contextlib
import logging

from bot import timers, upkeep
from bot.effects import Effect
from bot.model import CorruptGame, Game
from bot.runner import GameRunner

log = logging.getLogger(__name__)
RETRY_S = 60.0
CORRUPT_RETRY_S = 3_600.0  # an unreadable game: hourly (a trial: a log line a minute)
HANDOFF_S = 1.0
"""Seconds until a game claimed by a process of another platform is due again."""
TICK_CLAIMS = 5
"""Games one :meth:`GameRunner.tick` claims at most: its steps run one after another, so
the last must start well within the lease (:data:`bot.ports.LEASE_S`, 10 s) even when
each is a ``dificil`` move of up to a second; the tick loop ticks again at once after a
tick that did something (``adapters/delivery/ticks.py``), so more due games wait only
for the round before them."""


def shown_on(game: Game, platforms: frozenset[str]) -> bool:
    """Whether a process delivering to ``platforms`` may step ``game``'s timers: one of
    the game's places (its own chat or another, bot/places.py) or one of its people is on
    them. What it makes for the other platform's places and people is relayed."""
    return any(p.platform in platforms for p in game.all_places()) or any(
        player.platform in platforms for _seat, player in game.humans())


class TimerCalls(GameRunner):
    """:meth:`tick`, :meth:`due` and :meth:`tick_game` over the runner's store."""

    async def tick(self, now: float | None = None, limit: int = TICK_CLAIMS,
                   platforms: frozenset[str] | None = None) -> list[Effect]:
        """Claim (lease) due deadlines and do what is due (AI move, timeout, next deal,
        idle close, the follow-ups of a game that is over), one game after another:
        :meth:`due` then :meth:`tick_game` for each claimed game (a worker that runs
        games concurrently calls the two itself, ``adapters/delivery/ticks.py``).

        ``platforms``: the chat platforms this process delivers to (``{"dc"}``); a
        claimed game with no place on them (:func:`shown_on`) is handed back, due again
        in ``HANDOFF_S``, for its platform's workers (one Redis serves both: a Discord
        process must not play a Telegram game it cannot show). A table with places on
        both is stepped by whichever claims it first; the other platform's effects are
        relayed (adapters/delivery/relay.py), so its robots are as quick as a
        one-platform table's (issue 35: they waited a hand-back of ``HANDOFF_S`` at about
        every other claim). None: every game.

        Without ``now``, each game is stepped at the time of its own step (the clock read
        again): a step that took long must not stamp the next game's move in the past,
        with its next deadline already overdue."""
        claimed = await self.due(now, limit)
        out: list[Effect] = []
        for gid in claimed:
            out += await self.tick_game(gid, now, platforms)
        return out

    async def due(self, now: float | None = None, limit: int = TICK_CLAIMS) -> list[str]:
        """Claim (lease, :data:`bot.ports.LEASE_S`) up to ``limit`` due deadlines and
        return their game ids, each to be stepped by :meth:`tick_game` before its lease
        ends (a lease that runs out hands the game to the next claim: never lost, and a
        step that comes late loses its compare-and-set). Sweeps for games without a
        deadline at the first call and every :data:`bot.upkeep.SWEEP_S` seconds (a failed
        sweep is logged: one bad key must not stop the timers of every game)."""
        now = self.clock.now() if now is None else now
        if now - self._swept_at >= upkeep.SWEEP_S:
            self._swept_at = now
            try:
                await upkeep.sweep(self.store, self.pacing, season=self.season, now=now)
            except Exception as err:
                log.error("sweep failed (%s)", type(err).__name__)
        return list(await self.store.claim_due(now, limit))

    async def tick_game(self, gid: str, now: float | None = None,
                        platforms: frozenset[str] | None = None) -> list[Effect]:
        """Do what is due for the claimed game ``gid`` (see :meth:`tick` for
        ``platforms``) and return its effects. It never raises for the game's own
        failure (a corrupt state, an engine refusal of every fallback move, a dropped
        connection): that is logged by code, and its deadline is kept, as the lease
        stands and a retry is set when the store still answers."""
        now = self.clock.now() if now is None else now
        try:
            return await self._tick_one(gid, now, platforms)
        except Exception as err:
            # the code only: an engine message may name a card of someone's hand
            log.error("game %s: timer step failed (%s)", gid,
                      getattr(err, "code", type(err).__name__))
            retry = CORRUPT_RETRY_S if isinstance(err, CorruptGame) else RETRY_S
            with contextlib.suppress(Exception):  # else the lease brings it back
                await self.store.set_deadline(gid, now + retry)
            return []

    async def _tick_one(self, gid: str, now: float,
                        platforms: frozenset[str] | None) -> list[Effect]:
        got = await self.store.load_game(gid)
        if got is None:  # the game is gone: so is its deadline
            await self.store.clear_deadline(gid)
            return []
        if platforms is not None and not shown_on(self._parsed(gid, got), platforms):
            await self.store.set_deadline(gid, now + HANDOFF_S)
            return []
        return await self._run(gid, None, lambda g: timers.step(
            g, now, self.pacing, self.chooser, self.deck_fn), reschedule=True,
            threaded=self.threaded, loaded=got)
