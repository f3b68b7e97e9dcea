"""Ports the service needs from the outside world (DESIGN "Three rings").

The service is written against these Protocols; ``adapters/storage`` implements
:class:`GameStore` on Redis (redis-py asyncio, or an embedded fakeredis when no
``REDIS_URL`` is set). Every key of one game shares the ``{game_id}`` hash tag so the
game lives in one Redis Cluster slot.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

LEASE_S = 10.0
"""Seconds a claimed deadline is held by the worker that claimed it (every store's
``claim_due``). A step takes well under a second (a ``dificil`` move about 0.1-1 s) and a
tick claims at most :data:`bot.ticking.TICK_CLAIMS` games, so a live worker finishes
within it; a worker killed mid-move (SIGKILL, a crash: a SIGTERM lets the round finish)
delays that game by at most this. Expiry while a slow worker still works only costs a
second worker the same step: the compare-and-set save applies it once."""


class GameStore(Protocol):
    """Persistence of games, chats, timers, idempotency, records and scoreboards.

    Game states are opaque JSON text with an integer version (1 on creation). All
    methods are coroutines; none raises for a missing key (they return ``None``/False).
    A game's key, record or ranking that exists but cannot be read as one (a Redis key
    of the wrong type) raises :class:`bot.model.CorruptGame`, like a damaged state.
    """

    async def create_game(self, game_id: str, state: str, ttl_s: int,
                          update: str | None = None, now_ts: float = 0.0) -> None:
        """Store a new game at version 1 with an expiry of ``ttl_s`` seconds; ``update``
        (the update that opens it) is recorded as applied to it in the same step, as by
        :meth:`save_game`."""

    async def load_game(self, game_id: str) -> tuple[int, str] | None:
        """``(version, state)`` of the game, or None when it does not exist (or expired)."""

    async def save_game(self, game_id: str, expected_version: int, state: str, ttl_s: int,
                        update: str | None = None, now_ts: float = 0.0,
                        deadline: float | None = None, base: str | None = None) -> bool:
        """Atomic compare-and-set: write ``state`` at ``expected_version + 1`` and refresh
        the expiry only if the stored version is still ``expected_version``. True when
        written, False when somebody saved first (a lost update is rejected). With
        ``update`` the update is recorded as applied to the game in the same atomic step
        (at ``now_ts``), and the save is refused when it was applied already. With
        ``deadline`` the game's deadline is set in the same round trip, win or lose. With
        ``base`` the stored text must also still be ``base`` (the text ``state`` was made
        from, when the caller changed its cached copy without loading the game). A save
        that wins announces its new version (as :meth:`announce`) in the same step."""

    async def delete_game(self, game_id: str) -> None:
        """Remove the game's state (its record and scoreboard entries stay)."""

    async def chat_game(self, chat_key: str) -> str | None:
        """The active game id of a chat (``"tg:-100123"``), or None."""

    async def bind_chat(self, chat_key: str, game_id: str, ttl_s: int) -> bool:
        """Make ``game_id`` the chat's active game only if it has none (SET NX). True if bound."""

    async def unbind_chat(self, chat_key: str, game_id: str) -> None:
        """Clear the chat's active game if it is still ``game_id``."""

    async def put_invite(self, code: str, game_id: str, ttl_s: int) -> None:
        """Remember for ``ttl_s`` seconds that invitation ``code`` seats at ``game_id``
        (issue 35; the code itself lives in the game's state, bot/invites.py)."""

    async def invite_game(self, code: str) -> str | None:
        """The game invitation ``code`` seats at, or None (unknown or expired)."""

    async def drop_invite(self, code: str, game_id: str) -> None:
        """Forget invitation ``code`` if it still names ``game_id`` (used or withdrawn)."""

    async def was_seen(self, update_key: str, scope: str = "") -> bool:
        """True when :meth:`first_seen` has recorded ``update_key`` in ``scope`` (a read,
        no write)."""

    async def first_seen(self, update_key: str, ttl_s: int, scope: str = "") -> bool:
        """Idempotency: True the first time ``update_key`` is seen (SET NX EX), else False.
        ``scope`` is the chat key the update came from: its marker is kept in that chat's
        Redis Cluster slot (issue 36); '' for a marker of its own."""

    async def load_for_update(self, game_id: str,
                              update: str) -> tuple[bool, tuple[int, str] | None]:
        """In one round trip: whether ``update`` was already applied to the game (by a
        :meth:`save_game` with that ``update``), and ``(version, state)`` or None."""

    async def set_deadline(self, game_id: str, due_ts: float) -> None:
        """Set (or move) the game's deadline in the timers sorted set (score = Unix time)."""

    async def clear_deadline(self, game_id: str) -> None:
        """Remove the game's deadline."""

    async def claim_due(self, now_ts: float, limit: int = 10,
                        lease_s: float = LEASE_S) -> list[str]:
        """Lease up to ``limit`` game ids whose deadline is <= now: each deadline moves to
        ``now_ts + lease_s`` (a claim is a lease, not a removal, DESIGN "One button
        press"), so one caller at a time has it and a dead worker's claim runs out."""

    async def has_deadline(self, game_ids: list[str]) -> list[bool]:
        """For each game id, whether it has a deadline."""

    def game_ids(self, count: int = 500) -> AsyncIterator[str]:
        """Every stored game id (``async for``), ``count`` a batch-size hint."""

    async def save_record(self, game_id: str, record: str) -> None:
        """Keep the game's record JSON (no expiry)."""

    async def load_record(self, game_id: str) -> str | None:
        """The game's record JSON, or None."""

    async def add_result(self, chat_key: str, player_key: str, name: str, won: bool,
                         points: int) -> None:
        """Add one finished match to the chat's all-time ranking for one player."""

    async def add_results(self, chat_key: str, game_id: str,
                          rows: list[tuple[str, str, bool, int]]) -> bool:
        """Count finished match ``game_id`` in the chat's ranking once; ``rows`` are
        ``(player_key, name, won, points)``. False when it was counted before."""

    async def ranking(self, chat_key: str) -> list[tuple[str, str, int, int, int]]:
        """The chat's ranking rows ``(player_key, name, matches, wins, points)``,
        best first (wins, then points)."""

    async def get_setting(self, chat_key: str, name: str) -> str | None:
        """A per-chat setting such as the language (``"lang"``)."""

    async def set_setting(self, chat_key: str, name: str, value: str) -> None:
        """Store a per-chat setting."""

    async def announce(self, game_id: str, version: int) -> None:
        """Tell every worker that game ``game_id`` is now at ``version`` (Redis pub/sub on
        the game's own channel; DESIGN "The web table"). Called after every save that
        won (inside :meth:`save_game`'s own step) and after a game is created; nothing
        is stored, so a worker that was not listening reads the state when it looks."""

    def version_feed(self) -> VersionFeed:
        """A new :class:`VersionFeed` of this store's announcements (one per worker)."""


class VersionFeed(Protocol):
    """The announcements of :meth:`GameStore.announce` for the games a worker follows
    (a Redis pub/sub connection: on a cluster, sharded pub/sub on each game's slot)."""

    async def follow(self, game_id: str) -> None:
        """Receive the announcements of game ``game_id`` from now on."""

    async def drop(self, game_id: str) -> None:
        """Stop receiving the announcements of game ``game_id``."""

    async def next(self, timeout_s: float) -> tuple[str, int] | None:
        """The next announcement ``(game_id, version)``, or None after ``timeout_s``
        seconds without one. Raises the store's connection errors (announcements sent
        meanwhile may be lost: the caller reads the games it follows again)."""

    async def close(self) -> None:
        """Release the connection; the feed is unusable afterwards."""


class Clock(Protocol):
    """Wall-clock time in seconds since the epoch (injected so tests control time)."""

    def now(self) -> float:
        """Current Unix time in seconds."""
