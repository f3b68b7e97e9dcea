"""What the service does after a save, and how any worker redoes it (issue 12, defects 1
and 5b).

Every step here is derived from the stored game alone and is idempotent, so a worker
that dies between the save and the end of its follow-ups leaves nothing half done: the
next worker that touches the game (a tick on its deadline, ``/novojogo`` in its chat,
the sweep) simply runs them again.

* :func:`close_out`: a game whose state says ``over`` gets its record, its ranking
  entries (once per game, :meth:`GameStore.add_results`), the chat's ``last_game``, the
  chat unbound, the state deleted when the match never started, and only then its
  deadline removed; until that last step the deadline stays, so a tick comes back.
* :func:`sweep`: every stored game that is live but has no deadline (a lost write, a
  Redis restart that dropped the last second of AOF) gets the deadline its state calls
  for; run at start-up and every :data:`SWEEP_S` seconds by :meth:`Service.tick`.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from bot import info, results, timers
from bot.effects import Effect
from bot.model import CorruptGame, Game, decode
from bot.ports import GameStore
from bot.season import followup
from bot.season.ports import SeasonStore
from bot.season.tournament import followup as tournament

log = logging.getLogger(__name__)
SWEEP_S = 600.0
"""Seconds between two sweeps of one worker (a SCAN of every game key)."""


async def earlier_record(store: GameStore, gid: str) -> dict[str, Any] | None:
    """The record JSON already stored for ``gid`` (finished deals kept early), or None.
    A record that cannot be read (its key of the wrong Redis type, or no JSON object) is
    logged by its kind and taken as none, so the record written next replaces it instead
    of the game's follow-ups failing at every try."""
    try:
        raw = await store.load_record(gid)
        record = json.loads(raw) if raw else None
        if record is not None and not isinstance(record, dict):
            raise ValueError("not an object")
    except (CorruptGame, ValueError) as err:
        log.error("game %s: earlier record unreadable (%s): replaced", gid, type(err).__name__)
        return None
    return record


async def keep_deals(store: GameStore, gid: str, deals: list[tuple[int, dict[str, Any]]]) -> None:
    """Write finished deals into the record key before the game state drops them.
    Idempotent by deal index, so a retried (lost-race) attempt writes the same."""
    record = await earlier_record(store, gid) or {}
    kept: list[Any] = list(record.get("deals", []))
    for index, deal in deals:
        kept += [None] * (index + 1 - len(kept))
        kept[index] = deal
    await store.save_record(gid, json.dumps({"deals": kept}))


async def close_out(store: GameStore, game: Game, season: SeasonStore | None = None,
                    now: float | None = None, shown: bool = False) -> list[Effect]:
    """The follow-ups of a game that is over (cancelled, closed idle, or a finished
    match), all idempotent, the deadline removed last. Does nothing for a live game.
    With ``season``, a finished match is also counted in the group's season once
    (:mod:`bot.season.followup`, after the chat is freed: a season that fails leaves
    the deadline for a retry, not the chat bound), and a tournament match in the
    group's tournament once (:mod:`bot.season.tournament.followup`; ``now`` starts the
    next call's walkover time, default the game's last move); returns their
    announcements. ``shown``: the caller sends them to the group (else a tournament
    call they hold is left to the tournament timer's tick to show)."""
    if game.status != "over":
        return []
    record: dict[str, Any] | None = None
    if game.match is not None:
        earlier = await earlier_record(store, game.id)
        record = info.record_of(game, earlier)
        await store.save_record(game.id, json.dumps(record))
        await store.set_setting(game.chat.key, "last_game", game.id)
        if game.winner is not None:
            rows = [(p.key, p.name, won, points) for p, won, points in results.player_points(game)]
            await store.add_results(game.chat.key, game.id, rows)
    for place in game.all_places():  # issue 35: every place's chat is freed
        await store.unbind_chat(place.key, game.id)
    said = await followup.count(season, game, record) if season is not None else []
    if season is not None:
        said += await tournament.count(store, season, game,
                                       game.touched if now is None else now, shown)
    if game.match is None:  # a lobby that never started leaves nothing behind
        await store.delete_game(game.id)
    await store.clear_deadline(game.id)
    return said


async def schedule(store: GameStore, game: Game, pacing: timers.Pacing,
                   season: SeasonStore | None = None, now: float | None = None) -> None:
    """Set the deadline the game's state calls for (or run :func:`close_out` at ``now``
    when over; its announcements are dropped: they belong to the call that ended the
    match, and a tournament call they would have shown is shown by its timer's tick,
    :attr:`bot.season.tournament.model.Tournament.posted`)."""
    due = timers.next_due(game, pacing)
    if due is None:
        await close_out(store, game, season, now)
    else:
        await store.set_deadline(game.id, due)


async def sweep(store: GameStore, pacing: timers.Pacing, batch: int = 200,
                season: SeasonStore | None = None, now: float = 0.0) -> int:
    """Give every stored game without a deadline the one its state calls for; a game
    that is over gets :func:`close_out` if its chat is still bound to it; with
    ``season``, every group's running tournament without its timer gets it again
    (:func:`bot.season.tournament.followup.rearm`, ``now`` the Unix seconds a call
    never shown is due). Returns how many games and tournaments were repaired. A state
    that cannot be read (damaged, or a key of the wrong type) is logged (its id and the
    error's kind only) and left alone."""
    repaired = await tournament.rearm_all(store, season, now) if season is not None else 0
    ids: list[str] = []
    async for gid in store.game_ids(batch):
        ids.append(gid)
        if len(ids) >= batch:
            repaired += await _repair(store, pacing, ids, season)
            ids = []
    return repaired + await _repair(store, pacing, ids, season)


async def _repair(store: GameStore, pacing: timers.Pacing, ids: list[str],
                  season: SeasonStore | None) -> int:
    repaired = 0
    for gid, has in zip(ids, await store.has_deadline(ids), strict=True):
        if has:
            continue
        try:
            repaired += await _repair_one(store, pacing, gid, season)
        except Exception as err:  # a corrupt state or key: keep it for a person to see
            log.error("game %s: unreadable state in the sweep (%s)", gid, type(err).__name__)
    return repaired


async def _repair_one(store: GameStore, pacing: timers.Pacing, gid: str,
                      season: SeasonStore | None) -> int:
    """Give game ``gid`` (which has no deadline) the one its state calls for: 1 when
    done, 0 when there is nothing to do. Raises what reading it raises."""
    got = await store.load_game(gid)
    if got is None:
        return 0
    game = decode(got[1], gid)
    if game.status == "over" and await store.chat_game(game.chat.key) != gid:
        return 0  # closed out already: nothing to do
    log.warning("game %s: had no deadline; restored", gid)
    await schedule(store, game, pacing, season)
    return 1
