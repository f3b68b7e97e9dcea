"""An in-memory :class:`bot.ports.GameStore` (one process; tests and quick local play).

Same semantics as the Redis store: versions start at 1, ``save_game`` is a
compare-and-set that also records the applied update, ``claim_due`` leases each due
deadline to one caller at a time, expiries follow the injected clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from bot.ports import LEASE_S, Clock

SEEN_KEPT = 64


class _WallClock:
    def now(self) -> float:
        import time

        return time.time()


class MemoryStore:
    """``GameStore`` kept in dicts; ``clock`` decides expiries (defaults to wall time)."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock: Clock = clock or _WallClock()
        self.games: dict[str, tuple[int, str, float]] = {}
        self.chats: dict[str, tuple[str, float]] = {}
        self.invites: dict[str, tuple[str, float]] = {}
        self.seen: dict[str, float] = {}
        self.applied: dict[str, dict[str, float]] = {}
        self.counted: set[tuple[str, str]] = set()
        self.deadlines: dict[str, float] = {}
        self.records: dict[str, str] = {}
        self.results: dict[str, dict[str, list[object]]] = {}
        self.settings: dict[tuple[str, str], str] = {}
        self.feeds: set[MemoryFeed] = set()

    def _alive(self, expires: float) -> bool:
        return expires > self.clock.now()

    async def create_game(self, game_id: str, state: str, ttl_s: int,
                          update: str | None = None, now_ts: float = 0.0) -> None:
        """Store a new game at version 1, ``update`` recorded as applied to it."""
        self.games[game_id] = (1, state, self.clock.now() + ttl_s)
        self.applied[game_id] = {} if update is None else {update: now_ts}

    async def load_game(self, game_id: str) -> tuple[int, str] | None:
        """``(version, state)`` or None."""
        got = self.games.get(game_id)
        if got is None or not self._alive(got[2]):
            return None
        return got[0], got[1]

    async def save_game(self, game_id: str, expected_version: int, state: str, ttl_s: int,
                        update: str | None = None, now_ts: float = 0.0,
                        deadline: float | None = None, base: str | None = None) -> bool:
        """Compare-and-set on the version (and on the stored text being ``base``, when
        given); records ``update`` as applied in the same step (refused when it was
        applied already); sets ``deadline`` either way."""
        if deadline is not None:
            self.deadlines[game_id] = deadline
        got = await self.load_game(game_id)
        if got is None or got[0] != expected_version or base not in (None, got[1]):
            return False
        if update is not None:
            marks = self.applied.setdefault(game_id, {})
            if update in marks:
                return False
            marks[update] = now_ts
            for old in sorted(marks, key=marks.__getitem__)[:-SEEN_KEPT]:
                del marks[old]
        self.games[game_id] = (expected_version + 1, state, self.clock.now() + ttl_s)
        await self.announce(game_id, expected_version + 1)
        return True

    async def delete_game(self, game_id: str) -> None:
        """Forget the game's state."""
        self.games.pop(game_id, None)

    async def chat_game(self, chat_key: str) -> str | None:
        """The chat's active game id or None."""
        got = self.chats.get(chat_key)
        return got[0] if got is not None and self._alive(got[1]) else None

    async def bind_chat(self, chat_key: str, game_id: str, ttl_s: int) -> bool:
        """Bind only when the chat has no active game."""
        if await self.chat_game(chat_key) is not None:
            return False
        self.chats[chat_key] = (game_id, self.clock.now() + ttl_s)
        return True

    async def unbind_chat(self, chat_key: str, game_id: str) -> None:
        """Unbind if still bound to ``game_id``."""
        if await self.chat_game(chat_key) == game_id:
            del self.chats[chat_key]

    async def put_invite(self, code: str, game_id: str, ttl_s: int) -> None:
        """Remember the game of an invitation code until it expires."""
        self.invites[code] = (game_id, self.clock.now() + ttl_s)

    async def invite_game(self, code: str) -> str | None:
        """The game of a live invitation code, or None."""
        got = self.invites.get(code)
        return got[0] if got is not None and self._alive(got[1]) else None

    async def drop_invite(self, code: str, game_id: str) -> None:
        """Forget the code if it still names ``game_id``."""
        if await self.invite_game(code) == game_id:
            del self.invites[code]

    async def was_seen(self, update_key: str, scope: str = "") -> bool:
        """True when ``first_seen`` recorded ``update_key`` (in ``scope``) and it has not
        expired."""
        exp = self.seen.get(f"{scope}|{update_key}")
        return exp is not None and self._alive(exp)

    async def first_seen(self, update_key: str, ttl_s: int, scope: str = "") -> bool:
        """True the first time ``update_key`` is seen (in ``scope``) within ``ttl_s``."""
        exp = self.seen.get(f"{scope}|{update_key}")
        if exp is not None and self._alive(exp):
            return False
        self.seen[f"{scope}|{update_key}"] = self.clock.now() + ttl_s
        return True

    async def load_for_update(self, game_id: str,
                              update: str) -> tuple[bool, tuple[int, str] | None]:
        """``(update already applied, (version, state) or None)``."""
        return update in self.applied.get(game_id, {}), await self.load_game(game_id)

    async def set_deadline(self, game_id: str, due_ts: float) -> None:
        """Set or move the deadline."""
        self.deadlines[game_id] = due_ts

    async def clear_deadline(self, game_id: str) -> None:
        """Remove the deadline."""
        self.deadlines.pop(game_id, None)

    async def claim_due(self, now_ts: float, limit: int = 10,
                        lease_s: float = LEASE_S) -> list[str]:
        """Lease up to ``limit`` due game ids, earliest first: their deadlines move to
        ``now_ts + lease_s``."""
        due = sorted((t, g) for g, t in self.deadlines.items() if t <= now_ts)[:limit]
        for _, g in due:
            self.deadlines[g] = now_ts + lease_s
        return [g for _, g in due]

    async def has_deadline(self, game_ids: list[str]) -> list[bool]:
        """For each id, whether it has a deadline."""
        return [g in self.deadlines for g in game_ids]

    async def game_ids(self, count: int = 500) -> AsyncIterator[str]:
        """Every stored (unexpired) game id."""
        for gid, (_, _, expires) in list(self.games.items()):
            if self._alive(expires):
                yield gid

    async def save_record(self, game_id: str, record: str) -> None:
        """Keep the record."""
        self.records[game_id] = record

    async def load_record(self, game_id: str) -> str | None:
        """The record or None."""
        return self.records.get(game_id)

    async def add_result(self, chat_key: str, player_key: str, name: str, won: bool,
                         points: int) -> None:
        """Add one finished match for one player."""
        rows = self.results.setdefault(chat_key, {})
        row = rows.setdefault(player_key, [name, 0, 0, 0])
        row[0] = name
        row[1] = int(str(row[1])) + 1
        row[2] = int(str(row[2])) + int(won)
        row[3] = int(str(row[3])) + points

    async def add_results(self, chat_key: str, game_id: str,
                          rows: list[tuple[str, str, bool, int]]) -> bool:
        """Count one finished match once (False when ``game_id`` was counted before)."""
        if (chat_key, game_id) in self.counted:
            return False
        self.counted.add((chat_key, game_id))
        for player_key, name, won, points in rows:
            await self.add_result(chat_key, player_key, name, won, points)
        return True

    async def ranking(self, chat_key: str) -> list[tuple[str, str, int, int, int]]:
        """Rows best first (wins, then points)."""
        rows = [(k, str(v[0]), int(str(v[1])), int(str(v[2])), int(str(v[3])))
                for k, v in self.results.get(chat_key, {}).items()]
        return sorted(rows, key=lambda r: (-r[3], -r[4], r[1]))

    async def get_setting(self, chat_key: str, name: str) -> str | None:
        """A chat setting or None."""
        return self.settings.get((chat_key, name))

    async def set_setting(self, chat_key: str, name: str, value: str) -> None:
        """Store a chat setting."""
        self.settings[(chat_key, name)] = value

    async def announce(self, game_id: str, version: int) -> None:
        """Hand ``(game_id, version)`` to every feed following the game."""
        for feed in list(self.feeds):
            if game_id in feed.games:
                feed.queue.put_nowait((game_id, version))

    def version_feed(self) -> MemoryFeed:
        """A new feed of this store's announcements."""
        feed = MemoryFeed(self)
        self.feeds.add(feed)
        return feed


class MemoryFeed:
    """:class:`bot.ports.VersionFeed` of one :class:`MemoryStore` (one process)."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.games: set[str] = set()
        self.queue: asyncio.Queue[tuple[str, int]] = asyncio.Queue()

    async def follow(self, game_id: str) -> None:
        """Receive the game's announcements."""
        self.games.add(game_id)

    async def drop(self, game_id: str) -> None:
        """Stop receiving the game's announcements."""
        self.games.discard(game_id)

    async def next(self, timeout_s: float) -> tuple[str, int] | None:
        """The next ``(game_id, version)`` announced, or None after ``timeout_s``."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout_s)
        except TimeoutError:
            return None

    async def close(self) -> None:
        """Leave the store's feeds."""
        self.store.feeds.discard(self)
