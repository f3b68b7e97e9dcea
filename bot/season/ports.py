"""The storage port of the season (implemented on Redis by ``adapters/storage/season.py``).

A *scope* is a chat key (``"tg:-100"``) for a group's own season, or :data:`PLATFORM`
for the ratings across every group. Each scope's keys share one hash tag, so each
write is one atomic single-slot script (Redis Cluster).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Protocol

PLATFORM = ""
"""The scope of the ratings across every group."""


@dataclass(frozen=True, slots=True)
class Row:
    """One person's part of a finished match in one scope: ``old`` the rating read
    before (stored form, None when new; the write is refused if it changed meanwhile),
    ``new`` the rating after, ``shown`` its number, ``won``/``points`` for the
    rankings, ``ops`` the profile counters ``(op, field, value)``: ``inc``, ``max``,
    ``streak`` (value 1 won, 0 lost) and ``once`` (an achievement: set if unset)."""

    key: str
    name: str
    old: str | None
    new: str
    shown: int
    won: bool = False
    points: int = 0
    ops: tuple[tuple[str, str, str], ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class Standing:
    """A ranking row of one period: matches, wins, points, the current rating text."""

    key: str
    name: str
    matches: int
    wins: int
    points: int
    rating: str | None


class SeasonStore(Protocol):
    """Season storage; every method a coroutine (``facts_ids`` an async iterator)."""

    async def keep_facts(self, game_id: str, facts: str) -> None:
        """Keep a finished match's facts JSON beside its record (no expiry)."""

    async def load_facts(self, game_id: str) -> str | None:
        """The facts JSON of ``game_id``, or None."""

    def facts_ids(self) -> AsyncIterator[str]:
        """Every game id with facts kept (``ratings-rebuild``)."""

    async def ratings(self, scope: str, keys: list[str]) -> list[str | None]:
        """The stored rating text of each person in ``scope`` (None: none yet)."""

    async def commit_group(self, chat: str, game_id: str, periods: list[str],
                           rows: list[Row], trend_kept: int
                           ) -> tuple[bool, list[tuple[str, str]]] | None:
        """Count match ``game_id`` in the group ``chat`` once, atomically: ratings,
        the rankings of ``periods``, profiles, the last ``trend_kept`` ratings shown.
        Returns whether it was counted now (False: counted before, by a follow-up that
        is being redone) and the achievements newly earned ``(person key,
        achievement)``; None when a rating changed since it was read (read again and
        retry)."""

    async def commit_platform(self, game_id: str, rows: list[Row]) -> bool | None:
        """Count match ``game_id`` in the ratings across groups once. True when counted
        now, False when counted before, None on a changed rating (retry)."""

    async def standings(self, chat: str, period: str, limit: int) -> list[Standing]:
        """The best ``limit`` rows of the group's ranking of ``period`` (wins, then
        points), with each person's current group rating."""

    async def members(self, chat: str) -> dict[str, str]:
        """Everyone who finished a match in the group: person key -> last name."""

    async def profile(self, chat: str, key: str) -> tuple[dict[str, str], list[int]]:
        """A person's profile counters in the group and their last ratings shown
        (newest first)."""

    async def set_public(self, key: str, public: bool) -> None:
        """Whether the person appears in ``/ranking geral``."""

    async def is_public(self, key: str) -> bool:
        """Whether the person chose to appear across groups."""

    async def public_ratings(self, keys: list[str]) -> list[str | None]:
        """For each person, their rating across groups if they chose to appear, else
        None."""

    async def replace_ratings(self, scope: str, ratings: dict[str, str]) -> None:
        """Replace every rating of ``scope`` at once (``ratings-rebuild``)."""

    async def load_tournament(self, chat: str) -> tuple[int, str] | None:
        """The group's tournament record: ``(version, JSON)``, or None (issue 29)."""

    def tournament_chats(self) -> AsyncIterator[str]:
        """Every chat key that has a tournament record (the repair sweep, issue 29)."""

    async def save_tournament(self, chat: str, version: int, record: str) -> bool:
        """Write the group's tournament record if it is still at ``version`` (0: there
        is none), as ``version + 1``, atomically; False when another write came first
        (read again and retry)."""
