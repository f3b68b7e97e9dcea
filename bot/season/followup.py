"""The season's part of a finished match's follow-up (issue 29), run by
:func:`bot.upkeep.close_out` after the chat's ranking: keep the match's facts, count
it in the group (ratings, rankings by period, profile, achievements) and in the ratings
across groups. Each count is one atomic script guarded by the game id, so a follow-up
redone after a crash counts nothing twice; a rating changed by another match counted
meanwhile makes the script refuse, and the rating is read and computed again."""

from __future__ import annotations

import logging
from typing import Any

from bot.effects import Effect, Say
from bot.i18n import Translator
from bot.model import Game
from bot.season import achievements, picture
from bot.season.facts import MatchFacts, facts_of
from bot.season.periods import periods_of
from bot.season.ports import PLATFORM, Row, SeasonStore
from bot.season.rating import AWAY_WEIGHT, Entrant, Rating, rate
from bot.views import SOLO_PLATFORMS

log = logging.getLogger(__name__)
ATTEMPTS = 16
TREND_KEPT = 10


class SeasonConflict(RuntimeError):
    """A scope's ratings kept changing under every attempt (the follow-up is retried)."""


async def count(season: SeasonStore, game: Game, record: dict[str, Any] | None) -> list[Effect]:
    """Count finished ``game`` in its group's season and across groups, once. Returns
    the announcements of the achievements earned now (a :class:`Say` per person) and
    the match's picture (:mod:`bot.season.picture`), only from the follow-up that
    counted it in the group (one redone after a crash counts the rest, says nothing)."""
    facts = facts_of(game, record)
    if facts is None:
        return []
    await season.keep_facts(game.id, facts.model_dump_json())
    fresh, earned = await count_group(season, facts)
    await count_platform(season, facts)
    if not fresh:  # a redone follow-up: announced (or lost) by the first one
        return []
    return announce(game, facts, earned) + await _picture(game, facts)


async def _picture(game: Game, facts: MatchFacts) -> list[Effect]:
    """The match's picture for a group (not the terminal, whose one person saw it all);
    a drawing that fails is logged and left out (the counts above stand)."""
    if game.chat.platform in SOLO_PLATFORMS:
        return []
    try:
        return [await picture.picture_effect(game, facts)]
    except Exception as err:  # matplotlib missing or failing: the text said it all
        log.error("game %s: match picture failed (%s)", game.id, type(err).__name__)
        return []


def rated(facts: MatchFacts, ratings: dict[str, Rating]) -> dict[str, Rating]:
    """Every person's rating after the match (:func:`bot.season.rating.rate`), from
    ``ratings`` before it; robots at their fixed strength, away people at
    :data:`AWAY_WEIGHT`; in a match the queue formed (``facts.matched``, issue 35) a
    person away at the end counts fully, as if their side had come last."""
    sides = [[Entrant(p.key, AWAY_WEIGHT if p.away else 1.0)
              for p in facts.people if p.side == s]
             + [Entrant(None, robot=level) for level in side.robots]
             for s, side in enumerate(facts.sides)]
    ranks = [side.rank for side in facts.sides]
    new = rate(sides, ranks, ratings)
    if facts.matched:  # issue 35: leaving a matchmade game counts as losing it
        last = max(ranks) + 1
        for p in facts.people:
            if p.away:
                lost = [last if s == p.side else r for s, r in enumerate(ranks)]
                whole = [[Entrant(e.key, 1.0 if e.key == p.key else e.weight, e.robot)
                          for e in side] for side in sides]
                new[p.key] = rate(whole, lost, ratings)[p.key]
    return new


async def _read(season: SeasonStore, scope: str,
                facts: MatchFacts) -> tuple[list[str | None], dict[str, Rating]]:
    keys = [p.key for p in facts.people]
    texts = await season.ratings(scope, keys)
    old = {k: Rating.parse(t) for k, t in zip(keys, texts, strict=True) if t}
    return texts, rated(facts, old)


async def count_group(season: SeasonStore,
                      facts: MatchFacts) -> tuple[bool, list[tuple[str, str]]]:
    """Count the match in its group (see the module docstring): whether it was counted
    now (not by an earlier follow-up), and the achievements earned now."""
    periods = periods_of(facts.ended_at)
    for _attempt in range(ATTEMPTS):
        texts, new = await _read(season, facts.chat, facts)
        rows = [Row(p.key, p.name, old, new[p.key].text(), new[p.key].shown,
                    facts.winner == p.side, facts.sides[p.side].total, profile_ops(facts, p))
                for p, old in zip(facts.people, texts, strict=True)]
        got = await season.commit_group(facts.chat, facts.game_id, periods, rows, TREND_KEPT)
        if got is not None:
            return got
    raise SeasonConflict(facts.chat)


async def count_platform(season: SeasonStore, facts: MatchFacts) -> bool:
    """Count the match in the ratings across groups; False when counted before."""
    for _attempt in range(ATTEMPTS):
        texts, new = await _read(season, PLATFORM, facts)
        rows = [Row(p.key, p.name, old, new[p.key].text(), new[p.key].shown)
                for p, old in zip(facts.people, texts, strict=True)]
        got = await season.commit_platform(facts.game_id, rows)
        if got is not None:
            return got
    raise SeasonConflict("platform")


def profile_ops(facts: MatchFacts, p: Any) -> tuple[tuple[str, str, str], ...]:
    """The profile counters one match adds for person ``p`` (docs/season.md)."""
    won = facts.winner == p.side
    ops = [("inc", "matches", "1"), ("inc", "wins", str(int(won))),
           ("inc", f"matches:{facts.variant}", "1"),
           ("inc", f"wins:{facts.variant}", str(int(won))),
           ("inc", "points", str(facts.sides[p.side].total)),
           ("streak", "streak", str(int(won)))]
    batidas = sum(1 for d in facts.deals if d.went_out == p.seat)
    if batidas:
        ops.append(("inc", "batidas", str(batidas)))
    kinds: dict[str, int] = {}
    for deal in facts.deals:
        for kind in deal.canastras[p.side] if p.side < len(deal.canastras) else []:
            kinds[kind] = kinds.get(kind, 0) + 1
    ops += [("inc", f"canastras:{kind}", str(n)) for kind, n in sorted(kinds.items())]
    if facts.deals:
        ops.append(("max", "best_deal", str(max(d.totals[p.side] for d in facts.deals))))
    ops += [("once", f"a:{a}", str(int(facts.ended_at)))
            for a in achievements.earned(facts, p)]
    return tuple(ops)


def announce(game: Game, facts: MatchFacts, earned: list[tuple[str, str]]) -> list[Effect]:
    """One :class:`Say` per person who earned achievements now, in the game's language:
    "🏅 Ana: Primeira batida, Relancinho"."""
    _ = Translator(game.lang)
    names = {p.key: p.name for p in facts.people}
    by_person: dict[str, list[str]] = {}
    for who, field in earned:
        found = achievements.BY_ID.get(field.removeprefix("a:"))
        if found is not None and who in names:
            by_person.setdefault(who, []).append(_(found.title))
    return [Say(chat=game.chat, text=_("🏅 {name}: {titles}", name=names[who],
                                       titles=", ".join(titles)))
            for who, titles in by_person.items()]
