"""Writing a group's tournament record, and counting a finished match into it (issue 29).

:func:`commit` is the one way a tournament changes: read the record, run a pure use case
of :mod:`.flow` on it, compare-and-set it (a lost race reads again and re-runs, so the
use case re-verifies), with the walkover deadline written *before* the save (a deadline
left by a lost save only wakes a tick that finds nothing due) and cleared after it.
:func:`count` is the tournament's part of a finished match's follow-up
(:func:`bot.upkeep.close_out`): guarded by the game id inside the record, so a
follow-up redone after a crash counts nothing twice.

A call's save leaves :attr:`Tournament.posted` False, with the timer due within
:data:`POST_GRACE_S`; once its effects are built, a second compare-and-set
(:func:`post_call`) marks it shown and moves the timer to the walkover. A worker dying
between the two leaves the mark unset: the first tick of the tournament's timer shows
the call and gives the sides their full time from then (a redone follow-up's own
announcements are dropped, :func:`bot.upkeep.schedule`, so it only re-arms the timer).
A call may then be shown twice, never not at all; a death after the mark and before the
adapter sends is not covered (there is no outbox).
A lost timer entry is set again from the record by :func:`rearm` (the repair sweep and
every ``/torneio`` call or press in the group).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot import play
from bot.effects import Effect
from bot.i18n import Translator
from bot.model import Game
from bot.outcome import Refusal
from bot.ports import GameStore
from bot.season.ports import SeasonStore
from bot.season.tournament import flow, picture, texts
from bot.season.tournament.model import Tournament

ATTEMPTS = 8
TIMER_PREFIX = "torneio:"
"""A tournament's walkover deadline is the member ``torneio:<chat key>`` of the games'
timer sets (:meth:`GameStore.set_deadline`): claimed and leased like a game's."""
Render = Callable[[Tournament, int], list[Effect]]
UseCase = Callable[[Tournament | None], tuple[Tournament, Render] | None]
"""Changes (or, given None, creates) the record and returns it with what to show once
saved at a version; None: nothing to change. Raises :class:`Refusal`."""


log = logging.getLogger(__name__)
POST_GRACE_S = 10.0
"""Seconds after a call's save by which it must be marked shown: the timer is due
then, so a worker that died before the mark leaves the call to the next tick."""


class TournamentConflict(RuntimeError):
    """The record kept changing under every attempt."""


def timer_id(chat_key: str) -> str:
    """The timer member of the group's tournament."""
    return f"{TIMER_PREFIX}{chat_key}"


async def load(season: SeasonStore, chat_key: str) -> tuple[int, Tournament | None]:
    """The group's record and its version (0, None: none)."""
    got = await season.load_tournament(chat_key)
    if got is None:
        return 0, None
    return got[0], Tournament.model_validate_json(got[1])


def unposted(t: Tournament | None) -> bool:
    """Whether ``t`` has a match called whose call was never shown to the group."""
    return (t is not None and t.status == "running" and t.current is not None
            and not t.posted and t.matches[t.current].game is None)


async def commit(store: GameStore, season: SeasonStore, chat_key: str,
                 fn: UseCase, shown: bool = False
                 ) -> tuple[Tournament, list[Effect]] | None:
    """Run ``fn`` on the stored record and save it (see the module docstring): the
    saved record and its effects, or None when ``fn`` changed nothing. ``shown``: the
    caller sends the effects to the group, so a saved call not yet shown is marked
    shown once they are built (they show it: every render of a running call does); a
    caller that drops them leaves the call to the timer's tick. Raises
    :class:`Refusal` from ``fn`` and :class:`TournamentConflict` after
    :data:`ATTEMPTS` lost races."""
    for _attempt in range(ATTEMPTS):
        version, t = await load(season, chat_key)
        got = fn(t)
        if got is None:
            return None
        new, render = got
        if new.status == "running" and new.due is not None:
            await store.set_deadline(timer_id(chat_key), new.due if new.posted else
                                     new.due - new.wo_s + POST_GRACE_S)
        if await season.save_tournament(chat_key, version, new.model_dump_json()):
            if new.status != "running" or new.due is None:
                await store.clear_deadline(timer_id(chat_key))
            effects = render(new, version + 1)
            if shown and unposted(new) and new.due is not None:
                await post_call(store, season, chat_key, new.due - new.wo_s, show=False)
            return new, effects
    raise TournamentConflict(chat_key)


async def post_call(store: GameStore, season: SeasonStore, chat_key: str, now: float,
                    show: bool = True) -> list[Effect]:
    """Mark the group's current call shown at ``now`` (Unix seconds), its walkover due
    a full :attr:`Tournament.wo_s` from then at the earliest; with ``show``, the call
    itself for the group (none when it was shown meanwhile). A record that keeps
    changing is logged and left unmarked: the next tick shows the call again."""
    def use(t: Tournament | None) -> tuple[Tournament, Render] | None:
        if t is None or not unposted(t) or t.current is None:
            return None
        index = t.current
        t.posted, t.due = True, max(t.due or now, now + t.wo_s)
        return t, lambda s, v: (texts.announced(s, [("call", index)], v, Translator(s.lang))
                                if show else [])

    try:
        done = await commit(store, season, chat_key, use)
    except TournamentConflict:
        log.warning("tournament of %s: call not marked shown (lost races)", chat_key)
        return []
    return [] if done is None else done[1]


async def rearm(store: GameStore, t: Tournament | None, chat_key: str,
                now: float) -> bool:
    """Set the group's tournament timer again when the record calls for one and it is
    missing (a worker that died between writes, a timer set that lost its last second):
    at :attr:`Tournament.due` for a shown call, at ``now`` for a call never shown or a
    match whose table never opened. Idempotent; True when it set one. A timer written
    from a record another worker changed meanwhile only wakes a tick that reads the
    record again."""
    if t is None or t.status != "running" or t.current is None:
        return False
    tid = timer_id(chat_key)
    if (await store.has_deadline([tid]))[0]:
        return False
    m = t.matches[t.current]
    if m.game is None:
        due = t.due if t.posted and t.due is not None else now
    elif await store.load_game(m.game) is None:
        due = now
    else:
        return False  # the table is open: its own deadline leads to the result
    log.warning("tournament of %s: had no timer; restored", chat_key)
    await store.set_deadline(tid, due)
    return True


async def rearm_all(store: GameStore, season: SeasonStore, now: float) -> int:
    """:func:`rearm` every group's tournament (the repair sweep); how many were set.
    A record that cannot be read is logged by its kind and left alone."""
    repaired = 0
    async for chat_key in season.tournament_chats():
        try:
            _v, t = await load(season, chat_key)
            repaired += await rearm(store, t, chat_key, now)
        except Exception as err:
            log.error("tournament of %s: unreadable in the sweep (%s)", chat_key,
                      type(err).__name__)
    return repaired


def game_result(game: Game) -> tuple[list[int], int | None]:
    """A finished game's match points of (side a's team, side b's team) and the team
    that won (0: side a, seated first; None: no winner)."""
    if game.match is None:
        return [0, 0], None
    state = play.deal_of(game)
    mine = state.side_of[0]
    scores = play.match_scores(game)
    totals = [scores[mine], scores[1 - mine]] if len(scores) == 2 else [0, 0]
    if game.winner is None:
        return totals, None
    return totals, 0 if game.winner == mine else 1


async def count(store: GameStore, season: SeasonStore, game: Game,
                now: float, shown: bool = False) -> list[Effect]:
    """Count finished (or closed) ``game`` in its group's tournament when it is the
    match being played there, once; what the group is told (the result's standings or
    bracket, the next call, the champion). A game of no tournament: nothing. ``shown``:
    the caller sends what is returned to the group (:func:`commit`)."""
    totals, winner = game_result(game)
    notes: list[flow.Note] = []

    def use(t: Tournament | None) -> tuple[Tournament, Render] | None:
        got = flow.result(t, game.id, totals, winner, now) if t is not None else None
        if t is None or got is None:
            return None
        notes[:] = got
        return t, lambda saved, v: texts.announced(saved, got, v, Translator(saved.lang))

    try:
        done = await commit(store, season, game.chat.key, use, shown)
    except Refusal:
        return []
    if done is None:  # counted before (a follow-up redone): a call never shown is
        _v, t = await load(season, game.chat.key)  # left to the timer's tick
        await rearm(store, t, game.chat.key, now)
        return []
    return await picture.after_round(done[0], notes, done[1])
