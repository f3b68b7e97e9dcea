"""Redis implementation of :class:`bot.ports.GameStore` (redis-py asyncio).

Game states are stored as a hash ``{v: version, s: state JSON}`` and replaced only by
a Lua compare-and-set, so two concurrent actions on one version cannot both win
(DESIGN "Storage"; issue 4 "Concurrency"). Key names are in :mod:`.keys`.

The client is made by :func:`adapters.storage.connect.open_store`: one Redis, a Redis
Cluster, a Sentinel-watched primary, or (without a Redis URL) an embedded ``fakeredis``
server whose Lua support comes from ``lupa``, so a newcomer needs no Redis installed.
The deadlines live in :class:`adapters.storage.timers.TimerSets`.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from adapters.storage import scripts
from adapters.storage.chat_data import ChatData, readable, text
from adapters.storage.feed import Announcements
from adapters.storage.keys import DEFAULT_PREFIX, StoreKeys
from adapters.storage.layout import Layout
from adapters.storage.timers import TimerSets
from bot.model import CorruptGame
from bot.ports import LEASE_S

if TYPE_CHECKING:
    from bot.ports import GameStore

log = logging.getLogger(__name__)
SEEN_KEPT = 64
"""Applied update keys kept per game (issue 12, defect 8): a platform redelivers an
update within minutes, long before 64 later changes of that game; every press also
carries a version or an explicit result, so an older one is refused anyway."""


def _tag(state: str) -> str:
    """The tag stored beside a state text (field ``t``): 16 hex digits of its BLAKE2b
    digest, so ``save_game(base=)`` checks the stored text without sending it."""
    return hashlib.blake2b(state.encode(), digest_size=8).hexdigest()


def _check_ttl(ttl_s: int) -> None:
    """Refuse an expiry that Redis would treat as "delete now" or reject."""
    if ttl_s < 1:
        raise ValueError(f"ttl_s must be a whole number of seconds >= 1, got {ttl_s!r}")


class RedisStore(ChatData, Announcements):
    """Game store on one Redis database, a Redis Cluster or a Sentinel-watched primary;
    every method is one round trip or a transaction.

    ``client`` must be created with ``decode_responses=True`` (as
    :func:`adapters.storage.connect.open_store` does). ``prefix`` starts every key name
    (default ``"buraco"``); ``timer_sets`` is ``S``, the number of deadline sets
    (:class:`TimerSets`); ``cluster`` says ``client`` is a ``RedisCluster`` (the sweep's
    SCAN then runs on every primary).
    """

    def __init__(self, client: Any, prefix: str = DEFAULT_PREFIX, timer_sets: int = 1,
                 cluster: bool = False) -> None:
        self.client = client
        self.cluster = cluster
        self.keys = StoreKeys(prefix)
        self.layout = Layout(client, prefix, cluster)
        self._create: AsyncScript = client.register_script(scripts.CREATE_GAME)
        self._save: AsyncScript = client.register_script(scripts.SAVE_GAME)
        self._load: AsyncScript = client.register_script(scripts.LOAD_FOR_UPDATE)
        self._unbind: AsyncScript = client.register_script(scripts.UNBIND_CHAT)
        self._bind: AsyncScript = client.register_script(scripts.BIND_CHAT)
        self._set_setting: AsyncScript = client.register_script(scripts.SET_SETTING)
        self._claim: AsyncScript = client.register_script(scripts.CLAIM_DUE)
        self._results: AsyncScript = client.register_script(scripts.ADD_RESULTS)
        self.timers = TimerSets(client, self.keys, timer_sets, self._claim)
        self.layout.timers = self.timers

    async def close(self) -> None:
        """Stop the layout upgrade and close the client's connections; the store is
        unusable afterwards."""
        await self.layout.stop()
        await self.timers.close()
        await self.client.aclose()

    # -- game state ---------------------------------------------------------------

    async def create_game(self, game_id: str, state: str, ttl_s: int,
                          update: str | None = None, now_ts: float = 0.0) -> None:
        """Store a new game at version 1 with an expiry of ``ttl_s`` seconds; with
        ``update`` (the platform update that opens it) its marker is written into the
        game's applied updates in the same step (score ``now_ts``, see :meth:`save_game`).

        An existing state under the same id is replaced. Raises ValueError if ``ttl_s < 1``.
        """
        _check_ttl(ttl_s)
        await self._create(keys=[self.keys.state(game_id), self.keys.applied(game_id)],
                           args=[state, ttl_s, update or "", repr(now_ts), _tag(state)])

    async def load_game(self, game_id: str) -> tuple[int, str] | None:
        """``(version, state)`` of the game, or None when it does not exist (or expired).
        Raises :class:`CorruptGame` when its key cannot be read
        (:func:`adapters.storage.chat_data.readable`)."""
        with readable():
            version, state = await self.client.hmget(self.keys.state(game_id), ["v", "s"])
            if version is None or state is None:
                return None
            return int(version), str(text(state))

    async def save_game(self, game_id: str, expected_version: int, state: str, ttl_s: int,
                        update: str | None = None, now_ts: float = 0.0,
                        deadline: float | None = None, base: str | None = None) -> bool:
        """Atomic compare-and-set (Lua): write ``state`` at ``expected_version + 1`` and
        refresh the expiry only if the stored version is still ``expected_version``.

        With ``base`` (the stored text ``state`` was made from) the stored text must also
        still be ``base`` (its tag, a digest kept beside it, is compared inside the
        script, so the text itself is not sent again): a worker that made
        its change on its cached copy without reading the game first saves in one round
        trip, and only onto that very text (issue 13; issue 12 defect 5d).

        With ``update`` (a platform update key) the update's marker is written in the same
        step, into the game's own bounded set of the last :data:`SEEN_KEPT` applied updates
        (score ``now_ts``), and the save is refused if that update was applied already.
        With ``deadline`` the game's deadline is set in the same round trip (a pipeline,
        not a transaction: the game's timer set lives in another Cluster slot), whether or not
        the save wins; the caller puts it back when it loses. True when written; False
        when somebody saved first, the update was applied, or the game is gone.
        Raises ValueError if ``ttl_s < 1`` or ``deadline`` is not finite.
        """
        _check_ttl(ttl_s)
        keys = [self.keys.state(game_id), self.keys.applied(game_id)]
        args: list[str | int] = [expected_version, state, ttl_s, update or "", repr(now_ts),
                                 SEEN_KEPT, "" if base is None else _tag(base), _tag(state),
                                 self.keys.versions(game_id),
                                 "SPUBLISH" if self.cluster else "PUBLISH"]
        if deadline is None:
            with readable():
                return int(await self._save(keys=keys, args=args)) == 1
        if not math.isfinite(deadline):
            raise ValueError(f"deadline must be a finite Unix time, got {deadline!r}")
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.evalsha(self._save.sha, len(keys), *keys, *args)
            pipe.zadd(self.timers.home_key(game_id), {game_id: deadline})
            written, _ = await pipe.execute(raise_on_error=False)
        if isinstance(written, NoScriptError):  # a new or flushed server: load it, once
            written = await self._save(keys=keys, args=args)
        elif isinstance(written, Exception):
            with readable():
                raise written
        return int(written) == 1

    async def delete_game(self, game_id: str) -> None:
        """Remove the game's state; its record, ranking entries and deadline stay."""
        await self.client.delete(self.keys.state(game_id))

    # -- chats and idempotency ----------------------------------------------------

    async def chat_game(self, chat_key: str) -> str | None:
        """The active game id of a chat (``"tg:-100123"``), or None. A binding key that
        cannot be read (another Redis type) is logged and reads as None: the chat has no
        game it can reach, and its next ``/novojogo`` replaces the key (:meth:`bind_chat`)."""
        try:
            await self._adopt_chat(chat_key)
            with readable():
                return text(await self.client.get(self.keys.chat(chat_key)))
        except CorruptGame as err:
            log.error("chat %s: game binding unreadable (%s)", chat_key, type(err).__name__)
            return None

    async def bind_chat(self, chat_key: str, game_id: str, ttl_s: int) -> bool:
        """Make ``game_id`` the chat's active game only if it has none (SET NX EX).

        A binding key of another Redis type (damaged, read as no game) is replaced.
        True if bound; False if the chat already has a game. Raises ValueError if ``ttl_s < 1``.
        """
        _check_ttl(ttl_s)
        await self._adopt_chat(chat_key)
        done = await self._bind(keys=[self.keys.chat(chat_key)], args=[game_id, ttl_s])
        return int(done) == 1

    async def unbind_chat(self, chat_key: str, game_id: str) -> None:
        """Clear the chat's active game if it is still ``game_id`` (atomic, Lua)."""
        await self._adopt_chat(chat_key)
        await self._unbind(keys=[self.keys.chat(chat_key)], args=[game_id])

    async def _adopt_chat(self, chat_key: str) -> None:
        """Before the first layout pass: the chat's binding as the old layout kept it."""
        await self.layout.adopt(self.layout.old.chat(chat_key), self.keys.chat(chat_key),
                                "string")

    async def put_invite(self, code: str, game_id: str, ttl_s: int) -> None:
        """Remember for ``ttl_s`` seconds that invitation ``code`` seats at ``game_id``
        (SET EX; one key in the code's own slot). Raises ValueError if ``ttl_s < 1``."""
        _check_ttl(ttl_s)
        await self.client.set(self.keys.invite(code), game_id, ex=ttl_s)

    async def invite_game(self, code: str) -> str | None:
        """The game invitation ``code`` seats at, or None; a key that cannot be read
        (another Redis type) is logged and reads as None."""
        try:
            with readable():
                return text(await self.client.get(self.keys.invite(code)))
        except CorruptGame as err:
            log.error("invitation unreadable (%s)", type(err).__name__)
            return None

    async def drop_invite(self, code: str, game_id: str) -> None:
        """Forget invitation ``code`` if it still names ``game_id`` (atomic, Lua: the
        chat binding's compare-and-delete)."""
        await self._unbind(keys=[self.keys.invite(code)], args=[game_id])

    async def was_seen(self, update_key: str, scope: str = "") -> bool:
        """True when :meth:`first_seen` recorded ``update_key`` (and it has not expired);
        ``scope`` is the chat key the marker is kept beside (its slot), as given to
        :meth:`first_seen`."""
        if await self.client.exists(self.keys.seen(update_key, scope)):
            return True
        return bool(scope) and await self.layout.legacy_seen(update_key)

    async def first_seen(self, update_key: str, ttl_s: int, scope: str = "") -> bool:
        """Idempotency: True the first time ``update_key`` is seen (SET NX EX), else False.
        ``scope``: the chat key whose slot keeps the marker ('' for a marker of its own,
        such as a web link's use).

        Raises ValueError if ``ttl_s < 1``.
        """
        _check_ttl(ttl_s)
        done = await self.client.set(self.keys.seen(update_key, scope), "1", nx=True,
                                     ex=ttl_s)
        if done and scope and await self.layout.legacy_seen(update_key):
            return False
        return bool(done)

    async def load_for_update(self, game_id: str,
                              update: str) -> tuple[bool, tuple[int, str] | None]:
        """``(update already applied to this game, (version, state) or None)`` in one
        round trip (one script: both keys are in the game's slot). The marker itself is
        written only by the :meth:`save_game` that applies the update."""
        keys = [self.keys.state(game_id), self.keys.applied(game_id)]
        with readable():
            applied, version, state = await self._load(keys=keys, args=[update])
            if version is None or state is None:
                return applied == 1, None
            return applied == 1, (int(version), str(text(state)))

    # -- timers ---------------------------------------------------------------------

    async def set_deadline(self, game_id: str, due_ts: float) -> None:
        """Set (or move) the game's deadline (score = Unix time in seconds) in its own
        timer set (:class:`TimerSets`).

        Raises ValueError for a NaN or infinite ``due_ts``.
        """
        if not math.isfinite(due_ts):
            raise ValueError(f"due_ts must be a finite Unix time, got {due_ts!r}")
        await self.client.zadd(self.timers.home_key(game_id), {game_id: due_ts})

    async def clear_deadline(self, game_id: str) -> None:
        """Remove the game's deadline from its own timer set (nothing happens if it has
        none; an entry left in an older layout's set is dropped when it comes due)."""
        await self.client.zrem(self.timers.home_key(game_id), game_id)

    async def claim_due(self, now_ts: float, limit: int = 10,
                        lease_s: float = LEASE_S) -> list[str]:
        """Lease up to ``limit`` game ids whose deadline is <= now, earliest first: each
        one's deadline moves to ``now_ts + lease_s`` (not removed), so each due deadline
        goes to one caller across all workers until its lease runs out; the save after
        the move sets the real deadline, and a worker that dies mid-move leaves a
        deadline another worker takes over (issue 12, defect 1). With several timer
        sets the walk starts at a random set and goes on until ``limit`` is reached
        (:meth:`TimerSets.claim`).

        ``limit < 1`` claims nothing. Raises ValueError for a NaN ``now_ts`` or a
        ``lease_s`` that is not a positive finite number.
        """
        if math.isnan(now_ts):
            raise ValueError("now_ts must be a Unix time, got NaN")
        if not (math.isfinite(lease_s) and lease_s > 0):
            raise ValueError(f"lease_s must be > 0 seconds, got {lease_s!r}")
        if limit < 1:
            return []
        return await self.timers.claim(now_ts, limit, now_ts + lease_s, time.monotonic())

    async def has_deadline(self, game_ids: list[str]) -> list[bool]:
        """For each id, whether the game has a deadline in its own timer set (one
        ZMSCORE per set)."""
        if not game_ids:
            return []
        return await self.timers.has(game_ids)

    async def game_ids(self, count: int = 500) -> AsyncIterator[str]:
        """Every stored game id (SCAN over the state keys, ``count`` per step; a game
        created or deleted meanwhile may or may not be listed). On a Redis Cluster the
        SCAN runs on every primary (redis-py's ``scan_iter`` with ``target_nodes``)."""
        head = f"{self.keys.prefix}:{{"
        where: dict[str, Any] = {"target_nodes": "primaries"} if self.cluster else {}
        async for key in self.client.scan_iter(match=self.keys.state_pattern(), count=count,
                                               **where):
            name = str(text(key))
            yield name[len(head):name.rindex("}:state")]

    # -- records --------------------------------------------------------------------

    async def save_record(self, game_id: str, record: str) -> None:
        """Keep the game's record JSON (no expiry; replaces an earlier record)."""
        await self.client.set(self.keys.record(game_id), record)

    async def load_record(self, game_id: str) -> str | None:
        """The game's record JSON, or None; :class:`CorruptGame` when its key cannot be
        read."""
        with readable():
            return text(await self.client.get(self.keys.record(game_id)))


if TYPE_CHECKING:

    def _implements_game_store(store: RedisStore) -> GameStore:
        """Static check (mypy only): RedisStore satisfies the GameStore Protocol."""
        return store
