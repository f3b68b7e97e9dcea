"""A chat's ranking and settings in Redis (mixed into
:class:`adapters.storage.redis_store.RedisStore`), and how the store reads a reply.

Each chat's ranking is one hash and its settings another, both in the chat's own slot
(``keys.ranking``, ``keys.settings``); before the first layout pass
(:mod:`adapters.storage.layout`) a chat's keys of the old layout are adopted on first
use."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

from redis.commands.core import AsyncScript
from redis.exceptions import ResponseError

from adapters.storage.keys import StoreKeys
from adapters.storage.layout import Layout
from bot.model import CorruptGame

log = logging.getLogger(__name__)
RankingRow = tuple[str, str, int, int, int]


def text(value: bytes | str | None) -> str | None:
    """A reply as text (clients made with ``decode_responses=True`` already give str)."""
    if isinstance(value, bytes):
        return value.decode()
    return value


@contextlib.contextmanager
def readable() -> Iterator[None]:
    """Turn a game key that cannot be read as one of ours (a key of the wrong Redis type,
    ``WRONGTYPE``, a version that is no number) into :class:`CorruptGame`, which every
    caller already treats as a damaged game (logged by kind, skipped, the person told);
    other server errors pass unchanged."""
    try:
        yield
    except ResponseError as err:
        if "WRONGTYPE" not in str(err):
            raise
        raise CorruptGame("WrongType") from None
    except ValueError:
        raise CorruptGame("BadVersion") from None


class ChatData:
    """The ranking and settings calls of the store: ``client`` is its redis-py asyncio
    client (``decode_responses=True``), ``keys`` its :class:`StoreKeys`, ``layout`` its
    :class:`Layout`, ``_results`` and ``_set_setting`` its registered ``ADD_RESULTS`` and
    ``SET_SETTING`` scripts."""

    client: Any
    keys: StoreKeys
    layout: Layout
    _results: AsyncScript
    _set_setting: AsyncScript

    async def add_result(
        self, chat_key: str, player_key: str, name: str, won: bool, points: int
    ) -> None:
        """Add one finished match to the chat's ranking for one player, in one MULTI.

        The player's shown name becomes ``name``; matches +1, wins +1 if ``won``,
        points + ``points`` (may be negative).
        """
        key = self.keys.ranking(chat_key)
        await self._adopt_ranking(chat_key)
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.hset(key, f"n:{player_key}", name)
            pipe.hincrby(key, f"m:{player_key}", 1)
            pipe.hincrby(key, f"w:{player_key}", 1 if won else 0)
            pipe.hincrby(key, f"p:{player_key}", points)
            await pipe.execute()

    async def add_results(self, chat_key: str, game_id: str,
                          rows: list[tuple[str, str, bool, int]]) -> bool:
        """Count one finished match ``game_id`` in the chat's ranking, once: ``rows`` are
        ``(player_key, name, won, points)``. True when counted now, False when this game
        was counted before (a redone follow-up, issue 12 defect 5b). One Lua step.
        A ranking key of another Redis type (damaged) is logged and left as it is, and
        the match is not counted (False): the game's other follow-ups go on, so its chat
        is freed instead of failing at each try."""
        args: list[str | int] = [game_id]
        for player_key, name, won, points in rows:
            args += [player_key, name, int(won), points]
        try:
            await self._adopt_ranking(chat_key)
            with readable():
                done = await self._results(keys=[self.keys.ranking(chat_key)], args=args)
        except CorruptGame as err:
            log.error("chat %s: ranking unreadable (%s): game %s not counted", chat_key,
                      type(err).__name__, game_id)
            return False
        return int(done) == 1

    async def ranking(self, chat_key: str) -> list[RankingRow]:
        """The chat's rows ``(player_key, name, matches, wins, points)``, best first:
        more wins, then more points, then fewer matches, then player key;
        :class:`CorruptGame` when the ranking key cannot be read."""
        with readable():
            await self._adopt_ranking(chat_key)
            fields = await self.client.hgetall(self.keys.ranking(chat_key))
            return _ranking_rows({str(text(k)): str(text(v)) for k, v in fields.items()})

    async def get_setting(self, chat_key: str, name: str) -> str | None:
        """A per-chat setting such as the language (``"lang"``), or None. A settings key
        that cannot be read (another Redis type) is logged and reads as unset."""
        try:
            with readable():
                await self._adopt_settings(chat_key)
                return text(await self.client.hget(self.keys.settings(chat_key), name))
        except CorruptGame as err:
            log.error("chat %s: settings unreadable (%s)", chat_key, type(err).__name__)
            return None

    async def set_setting(self, chat_key: str, name: str, value: str) -> None:
        """Store a per-chat setting (no expiry); a settings key of another Redis type
        (damaged, read as unset) is replaced by one holding this setting."""
        await self._adopt_settings(chat_key)
        await self._set_setting(keys=[self.keys.settings(chat_key)], args=[name, value])

    async def _adopt_ranking(self, chat_key: str) -> None:
        """Before the first layout pass: the chat's ranking as the old layout kept it."""
        await self.layout.adopt(self.layout.old.ranking(chat_key),
                                self.keys.ranking(chat_key), "ranking")

    async def _adopt_settings(self, chat_key: str) -> None:
        """Before the first layout pass: the chat's settings as the old layout kept them."""
        await self.layout.adopt(self.layout.old.settings(chat_key),
                                self.keys.settings(chat_key), "fields")


def _ranking_rows(fields: dict[str, str]) -> list[RankingRow]:
    """Turn the ranking hash (``n:``/``m:``/``w:``/``p:`` + player key) into sorted rows."""
    players: dict[str, dict[str, str]] = {}
    for field, value in fields.items():
        kind, _, player_key = field.partition(":")
        if kind == "g":  # a game already counted (add_results), not a player
            continue
        players.setdefault(player_key, {})[kind] = value
    rows = [
        (
            player,
            data.get("n", player),
            int(data.get("m", 0)),
            int(data.get("w", 0)),
            int(data.get("p", 0)),
        )
        for player, data in players.items()
    ]
    rows.sort(key=lambda row: (-row[3], -row[4], row[2], row[0]))
    return rows
