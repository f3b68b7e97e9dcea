"""Writing a group's tournament record, and counting a finished match into it (issue 29).

:func:`commit` is the one way a tournament changes: read the record, run a pure use case
of :mod:`.flow` on it, compare-and-set it (a lost race reads again and re-runs, so the
use case re-verifies), with the walkover deadline written *before* the save (a deadline
left by a lost save only wakes a tick that finds nothing due) and cleared after it.
:func:`count` is the tournament's part of a finished match's follow-up
(:func:`bot.upkeep.close_out`): guarded by the game id inside the record, so a
follow-up redone after a crash counts nothing twice.
"""

from __future__ import annotations

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


async def commit(store: GameStore, season: SeasonStore, chat_key: str,
                 fn: UseCase) -> tuple[Tournament, list[Effect]] | None:
    """Run ``fn`` on the stored record and save it (see the module docstring): the
    saved record and its effects, or None when ``fn`` changed nothing. Raises
    :class:`Refusal` from ``fn`` and :class:`TournamentConflict` after
    :data:`ATTEMPTS` lost races."""
    for _attempt in range(ATTEMPTS):
        version, t = await load(season, chat_key)
        got = fn(t)
        if got is None:
            return None
        new, render = got
        if new.status == "running" and new.due is not None:
            await store.set_deadline(timer_id(chat_key), new.due)
        if await season.save_tournament(chat_key, version, new.model_dump_json()):
            if new.status != "running" or new.due is None:
                await store.clear_deadline(timer_id(chat_key))
            return new, render(new, version + 1)
    raise TournamentConflict(chat_key)


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
                now: float) -> list[Effect]:
    """Count finished (or closed) ``game`` in its group's tournament when it is the
    match being played there, once; what the group is told (the result's standings or
    bracket, the next call, the champion). A game of no tournament: nothing."""
    totals, winner = game_result(game)
    notes: list[flow.Note] = []

    def use(t: Tournament | None) -> tuple[Tournament, Render] | None:
        got = flow.result(t, game.id, totals, winner, now) if t is not None else None
        if t is None or got is None:
            return None
        notes[:] = got
        return t, lambda saved, v: texts.announced(saved, got, v, Translator(saved.lang))

    try:
        done = await commit(store, season, game.chat.key, use)
    except Refusal:
        return []
    if done is None:
        return []
    return done[1] + await picture.after_round(done[0], notes)
