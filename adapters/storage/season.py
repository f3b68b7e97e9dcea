"""Redis implementation of :class:`bot.season.ports.SeasonStore` (issue 29).

Key layout (``<p>`` the store's prefix; a group's keys share ``{season:<chat key>}``,
the ratings across groups ``{season}``, a match's facts its game's ``{<game id>}``)::

    <p>:{<game>}:season                   string, the match's facts JSON (no expiry)
    <p>:{season:<chat>}:counted           hash, game id -> 1 (counted once)
    <p>:{season:<chat>}:rating            hash, person key -> "mu sigma n"
    <p>:{season:<chat>}:stats:<period>    hash, n:/m:/w:/p:<person> (name, matches,
                                          wins, points) of one period
    <p>:{season:<chat>}:order:<period>    sorted set, person -> wins * 1e10 + points
    <p>:{season:<chat>}:profile:<person>  hash, the person's counters in the group
    <p>:{season:<chat>}:trend:<person>    list, the last ratings shown, newest first
    <p>:{season:<chat>}:tournament        hash, v=<version> s=<tournament JSON>
                                          (bot/season/tournament/model.py)
    <p>:{season}:counted                  hash, game id -> 1
    <p>:{season}:rating                   hash, person key -> "mu sigma n"
    <p>:{season}:public                   set, people who appear in /ranking geral

Periods are ``w2026-49`` (ISO week), ``m2026-12``, ``y2026`` and ``all``
(:mod:`bot.season.periods`); no key expires.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adapters.storage import season_scripts as scripts
from adapters.storage.keys import glob_escaped
from bot.season.ports import PLATFORM, Row, Standing

if TYPE_CHECKING:
    from adapters.storage.redis_store import RedisStore
    from bot.season.ports import SeasonStore


@dataclass(frozen=True, slots=True)
class SeasonKeys:
    """The season's key names for one prefix (no I/O)."""

    prefix: str

    def base(self, scope: str) -> str:
        """The scope's key stem with its hash tag."""
        tag = "season" if scope == PLATFORM else f"season:{scope}"
        return f"{self.prefix}:{{{tag}}}"

    def facts(self, game_id: str) -> str:
        """String with a finished match's facts, in its game's slot."""
        return f"{self.prefix}:{{{game_id}}}:season"

    def facts_pattern(self) -> str:
        """SCAN pattern of every facts key."""
        return f"{glob_escaped(self.prefix)}:{{*}}:season"

    def counted(self, scope: str) -> str:
        """Hash of the game ids counted in the scope."""
        return f"{self.base(scope)}:counted"

    def rating(self, scope: str) -> str:
        """Hash person key -> rating text."""
        return f"{self.base(scope)}:rating"

    def stats(self, chat: str, period: str) -> str:
        """Hash of one period's ranking counters."""
        return f"{self.base(chat)}:stats:{period}"

    def order(self, chat: str, period: str) -> str:
        """Sorted set of one period's ranking order."""
        return f"{self.base(chat)}:order:{period}"

    def profile(self, chat: str, key: str) -> str:
        """Hash of a person's counters in a group."""
        return f"{self.base(chat)}:profile:{key}"

    def trend(self, chat: str, key: str) -> str:
        """List of a person's last ratings shown in a group."""
        return f"{self.base(chat)}:trend:{key}"

    def tournament(self, chat: str) -> str:
        """Hash with the group's tournament record and its version."""
        return f"{self.base(chat)}:tournament"

    def tournament_pattern(self) -> str:
        """SCAN pattern of every group's tournament hash."""
        return f"{glob_escaped(self.prefix)}:{{season:*}}:tournament"

    def public(self) -> str:
        """Set of the people who appear across groups."""
        return f"{self.base(PLATFORM)}:public"


def _text(value: Any) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


class RedisSeason:
    """The season store on the client and prefix of a game store (``client`` a
    redis-py asyncio client made with ``decode_responses=True``, or fakeredis)."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.keys = SeasonKeys(prefix)
        self._group = client.register_script(scripts.COMMIT_GROUP)
        self._platform = client.register_script(scripts.COMMIT_PLATFORM)
        self._replace = client.register_script(scripts.REPLACE_RATINGS)
        self._tournament = client.register_script(scripts.SAVE_TOURNAMENT)

    @classmethod
    def beside(cls, store: RedisStore) -> RedisSeason:
        """The season store sharing ``store``'s connection and key prefix."""
        return cls(store.client, store.keys.prefix)

    async def keep_facts(self, game_id: str, facts: str) -> None:
        """SET the facts (the same text each time a follow-up is redone)."""
        await self.client.set(self.keys.facts(game_id), facts)

    async def load_facts(self, game_id: str) -> str | None:
        """The facts JSON, or None."""
        return _text(await self.client.get(self.keys.facts(game_id)))

    async def facts_ids(self) -> AsyncIterator[str]:
        """Every game id with facts (SCAN)."""
        async for key in self.client.scan_iter(match=self.keys.facts_pattern(), count=500):
            text = str(_text(key))
            yield text[text.index("{") + 1:text.index("}")]

    async def ratings(self, scope: str, keys: list[str]) -> list[str | None]:
        """HMGET of the scope's ratings."""
        if not keys:
            return []
        return [_text(v) for v in await self.client.hmget(self.keys.rating(scope), keys)]

    async def commit_group(self, chat: str, game_id: str, periods: list[str],
                           rows: list[Row], trend_kept: int
                           ) -> tuple[bool, list[tuple[str, str]]] | None:
        """One COMMIT_GROUP script (see the port)."""
        k = self.keys
        keys = [k.counted(chat), k.rating(chat)]
        for period in periods:
            keys += [k.stats(chat, period), k.order(chat, period)]
        args: list[Any] = [game_id, len(periods), len(rows), trend_kept]
        for row in rows:
            keys += [k.profile(chat, row.key), k.trend(chat, row.key)]
            args += [row.key, row.name, row.old or "", row.new, int(row.won), row.points,
                     row.shown, len(row.ops)]
            for op in row.ops:
                args += list(op)
        got = await self._group(keys=keys, args=args)
        if got[0] == -1:
            return None
        earned = [str(_text(x)).split("|", 1) for x in got[1:]]
        return got[0] == 1, [(who, what) for who, what in earned]

    async def commit_platform(self, game_id: str, rows: list[Row]) -> bool | None:
        """One COMMIT_PLATFORM script (see the port)."""
        args: list[Any] = [game_id]
        for row in rows:
            args += [row.key, row.old or "", row.new]
        got = int(await self._platform(
            keys=[self.keys.counted(PLATFORM), self.keys.rating(PLATFORM)], args=args))
        return None if got == -1 else got == 1

    async def standings(self, chat: str, period: str, limit: int) -> list[Standing]:
        """ZREVRANGE of the period's order, then the rows' counters and ratings."""
        who = [str(_text(x)) for x in
               await self.client.zrevrange(self.keys.order(chat, period), 0, limit - 1)]
        if not who:
            return []
        fields = [f"{kind}:{key}" for key in who for kind in "nmwp"]
        got = [_text(v) for v in await self.client.hmget(self.keys.stats(chat, period), fields)]
        ratings = await self.ratings(chat, who)
        out = []
        for i, key in enumerate(who):
            name, m, w, p = got[4 * i:4 * i + 4]
            out.append(Standing(key, name or key, int(m or 0), int(w or 0), int(p or 0),
                                ratings[i]))
        return out

    async def members(self, chat: str) -> dict[str, str]:
        """The names of the all-time ranking (one field per person)."""
        fields = await self.client.hgetall(self.keys.stats(chat, "all"))
        return {str(_text(f))[2:]: str(_text(v)) for f, v in fields.items()
                if str(_text(f)).startswith("n:")}

    async def profile(self, chat: str, key: str) -> tuple[dict[str, str], list[int]]:
        """HGETALL of the profile and LRANGE of the trend."""
        fields = await self.client.hgetall(self.keys.profile(chat, key))
        trend = await self.client.lrange(self.keys.trend(chat, key), 0, -1)
        return ({str(_text(f)): str(_text(v)) for f, v in fields.items()},
                [int(str(_text(x))) for x in trend])

    async def set_public(self, key: str, public: bool) -> None:
        """SADD or SREM."""
        if public:
            await self.client.sadd(self.keys.public(), key)
        else:
            await self.client.srem(self.keys.public(), key)

    async def is_public(self, key: str) -> bool:
        """SISMEMBER."""
        return bool(await self.client.sismember(self.keys.public(), key))

    async def public_ratings(self, keys: list[str]) -> list[str | None]:
        """SMISMEMBER, then HMGET of those who appear."""
        if not keys:
            return []
        shown = await self.client.smismember(self.keys.public(), keys)
        ratings = await self.ratings(PLATFORM, keys)
        return [r if flag else None for r, flag in zip(ratings, shown, strict=True)]

    async def replace_ratings(self, scope: str, ratings: dict[str, str]) -> None:
        """One REPLACE_RATINGS script."""
        args = [x for pair in sorted(ratings.items()) for x in pair]
        await self._replace(keys=[self.keys.rating(scope)], args=args)

    async def load_tournament(self, chat: str) -> tuple[int, str] | None:
        """HMGET v, s of the group's tournament."""
        v, s = await self.client.hmget(self.keys.tournament(chat), ["v", "s"])
        if v is None or s is None:
            return None
        return int(str(_text(v))), str(_text(s))

    async def tournament_chats(self) -> AsyncIterator[str]:
        """Every chat key with a tournament record (SCAN)."""
        stem = f"{self.keys.prefix}:{{season:"
        async for key in self.client.scan_iter(match=self.keys.tournament_pattern(),
                                               count=500):
            text = str(_text(key))
            if text.startswith(stem) and text.endswith("}:tournament"):
                yield text[len(stem):-len("}:tournament")]

    async def save_tournament(self, chat: str, version: int, record: str) -> bool:
        """One SAVE_TOURNAMENT script (compare-and-set on the version)."""
        got = await self._tournament(keys=[self.keys.tournament(chat)],
                                     args=[version, record])
        return int(got) == 1


if TYPE_CHECKING:

    def _implements_season_store(store: RedisSeason) -> SeasonStore:
        """Static check (mypy only): RedisSeason satisfies the SeasonStore Protocol."""
        return store
