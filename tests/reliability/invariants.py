"""Invariant checks over the games a reliability run left in Redis.

For every game of the run's prefix: every card of the decks is accounted for across
hands, melds, pile, stock, mortos, laid 3s and killed piles (``DealState.all_cards``,
the check of tests/test_properties.py), every meld is valid (rebuilt by ``make_meld``
in the same canonical order), the saves logged by the workers have versions 2..v with
no gap and no double, a live game has a deadline that is not overdue, and a finished
game has its record, which replays (``engine.record.replay``) to exactly the stored
deal totals and match scores, its ranking entry counted once and its chat freed.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from adapters.storage.keys import StoreKeys
from adapters.storage.timers import home_key
from bot import play
from bot.model import Game, decode
from engine.cards import full_deck
from engine.melds import make_meld
from engine.record import replay


@dataclass
class Report:
    """Counts of one check (the bench/README table) and what went wrong."""

    games: int = 0
    finished: int = 0
    live: int = 0
    lost: int = 0
    stalled: int = 0
    actions: int = 0
    violations: list[str] = field(default_factory=list)


def check_cards(game: Game) -> list[str]:
    """Card conservation and valid melds of the game's current deal."""
    if game.match is None:
        return []
    state = play.deal_of(game)
    out = []
    if state.all_cards() != Counter(full_deck(state.rules.jokers)):
        out.append(f"{game.id}: cards appeared or vanished")
    for side in state.melds:
        for meld in side:
            if make_meld(list(meld.cards), state.rules).cards != meld.cards:
                out.append(f"{game.id}: meld {meld.cards} not valid as laid")
    return out


def check_record(game: Game, record_text: str | None) -> list[str]:
    """A finished match's stored record replays to its stored scores."""
    if record_text is None:
        return [f"{game.id}: finished without a record"]
    result = replay(json.loads(record_text))
    out = []
    if not result.ok:
        out.append(f"{game.id}: record does not replay: {result.error}")
    totals = [sum(deal[k] for deal in game.deals) for k in range(len(result.match_scores))]
    if result.match_scores != play.match_scores(game) or result.match_scores != totals:
        out.append(f"{game.id}: replay {result.match_scores} != stored "
                   f"{play.match_scores(game)} / {totals}")
    return out


def check_versions(saves: list[str], gaps_ok: bool = False) -> dict[str, list[str]]:
    """Per game, the problems of its logged save versions: doubles (two saves of one
    version: a lost update) and, unless ``gaps_ok`` (a worker SIGKILLed between a save
    and its log line), gaps."""
    seen: dict[str, list[int]] = defaultdict(list)
    for line in saves:
        gid, version, *_when = line.split()
        seen[gid].append(int(version))
    out: dict[str, list[str]] = {}
    for gid, versions in seen.items():
        doubled = [v for v, n in Counter(versions).items() if n > 1]
        if doubled:
            out[gid] = [f"{gid}: versions {doubled} saved twice"]
        elif not gaps_ok and sorted(versions) != list(range(2, max(versions) + 1)):
            out[gid] = [f"{gid}: saved versions have gaps"]
    return out


async def check_all(client: Any, prefix: str, game_ids: list[str], now: float,
                    overdue_s: float = 30.0, gaps_ok: bool = False, control: Any = None,
                    timer_sets: int = 1, lost: frozenset[str] = frozenset()) -> Report:
    """Check every game of ``game_ids`` (see module docstring); ``now`` is game time;
    ``gaps_ok`` when workers were SIGKILLed (see :func:`check_versions`). ``client``
    reads the store, ``control`` (default: ``client``) the workers' save log;
    ``timer_sets`` is the store's ``S`` (a deadline is looked up in its game's own set);
    ``lost`` names games (ids) whose doubled version is explained by a failover that
    lost an acknowledged save (the test decides which, from the save log's times)."""
    keys = StoreKeys(prefix)
    report = Report(games=len(game_ids))
    saves = await (control or client).lrange(f"{prefix}:saves", 0, -1)
    bad_versions = {gid: problems for gid, problems in check_versions(saves, gaps_ok).items()
                    if gid not in lost}
    logged = {" ".join(line.split()[:2]) for line in saves}
    ranking_seen: Counter[str] = Counter()
    for gid in game_ids:
        got = await client.hmget(keys.state(gid), ["v", "s"])
        if got[1] is None:
            report.lost += 1
            report.violations.append(f"{gid}: state missing")
            continue
        version, game = int(got[0]), decode(got[1])
        report.violations += check_cards(game)
        report.violations += bad_versions.get(gid, [])
        if not gaps_ok and version > 1 and f"{gid} {version}" not in logged:
            report.violations.append(f"{gid}: stored version {version} was never logged")
        if game.match is not None:
            report.actions += sum(len(log.get("actions", [])) for log in game.match["logs"])
        deadline = await client.zscore(home_key(keys, gid, timer_sets), gid)
        if game.status == "over":
            report.finished += 1
            report.violations += check_record(game, await client.get(keys.record(gid)))
            if await client.get(keys.chat(game.chat.key)) == gid:
                report.violations.append(f"{gid}: over but its chat is still bound")
            if deadline is not None:
                report.violations.append(f"{gid}: over but still has a deadline")
            if await client.hget(keys.ranking(game.chat.key), f"g:{gid}") != "1":
                report.violations.append(f"{gid}: over but not in the ranking")
            ranking_seen[game.chat.key] += 1
            rows = await client.hget(keys.ranking(game.chat.key), f"m:{game.creator.key}")
            if rows is not None and int(rows) != ranking_seen[game.chat.key]:
                report.violations.append(f"{gid}: ranking counted {rows} matches")
        else:
            report.live += 1
            if deadline is None or float(deadline) < now - overdue_s:
                report.stalled += 1
                report.violations.append(f"{gid}: live ({game.status}) without a due "
                                         f"deadline ({deadline}, now {now:.0f})")
    return report
