"""``python -m bot ratings-rebuild``: the ratings again from the stored matches (issue
29). Every finished match's facts are kept beside its record (``{game}:season``); this
replays them in the order the matches ended and replaces each group's ratings and the
ratings across groups. Run it with the bot stopped: a match counted while it runs may
be left out of the replaced ratings. Rankings, profiles and achievements are counters
the rebuild does not touch."""

from __future__ import annotations

from bot.season.facts import MatchFacts
from bot.season.followup import rated
from bot.season.ports import PLATFORM, SeasonStore
from bot.season.rating import Rating


async def rebuild(season: SeasonStore) -> int:
    """Replace every scope's ratings by the replay of the kept facts; returns how many
    matches were replayed. Facts that cannot be read are skipped."""
    facts: list[MatchFacts] = []
    async for gid in season.facts_ids():
        text = await season.load_facts(gid)
        if text is not None:
            try:
                facts.append(MatchFacts.model_validate_json(text))
            except ValueError:
                continue
    facts.sort(key=lambda f: (f.ended_at, f.game_id))
    tables: dict[str, dict[str, Rating]] = {PLATFORM: {}}
    for f in facts:
        for scope in (f.chat, PLATFORM):
            table = tables.setdefault(scope, {})
            table.update(rated(f, table))
    for scope, table in tables.items():
        await season.replace_ratings(scope, {k: r.text() for k, r in table.items()})
    return len(facts)
