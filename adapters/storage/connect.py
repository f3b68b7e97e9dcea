"""Opening the store on one Redis, a Redis Cluster or a Sentinel-watched primary (issue 28).

:func:`open_store` is the one place a Redis client is built:

* ``mode="single"``: :class:`adapters.storage.mux_client.MuxRedis` (redis-py's client
  whose calls share a few connections, auto-pipelined: :mod:`adapters.storage.multiplex`)
  on ``url`` through a :class:`BoundedPool` (``redis://``, ``rediss://`` with TLS,
  ``unix://``; password and db in the URL); a restart of that Redis under a call is
  retried within the same budget as a failover (issue 36);
* ``mode="cluster"``: ``redis.asyncio.cluster.RedisCluster`` started from the node
  ``url`` names; redis-py finds the other nodes, follows ``MOVED``/``ASK`` and, after a
  failover or a reshard, reloads the slot map;
* ``mode="sentinel"``: ``redis.asyncio.sentinel.Sentinel`` on the sentinels'
  ``host:port`` list and ``master_for(master)`` (redis-py's client, a pooled connection
  per call): every connection asks the sentinels where the primary is before each
  attempt to (re)connect (:class:`AsksSentinels`), so the workers follow a promotion
  without a restart.

The store always checks the server answers ``PING`` before it is handed out; a server
that does not (or a setting it cannot use) raises :class:`StoreUnreachable`, which names
the setting to look at.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

import fakeredis
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import Connection, SSLConnection
from redis.asyncio.sentinel import Sentinel, SentinelManagedConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException
from redis.exceptions import TimeoutError as RedisTimeoutError

from adapters.storage.budget import BUDGET_S, budget_retry, budgeted
from adapters.storage.cluster_scripts import KeyedScriptCluster
from adapters.storage.coverage import warn_full_coverage
from adapters.storage.keys import DEFAULT_PREFIX
from adapters.storage.mux_client import MuxRedis
from adapters.storage.observe import observed
from adapters.storage.pool import BoundedPool
from adapters.storage.redis_store import RedisStore

MAX_CONNECTIONS = 64
POOL_WAIT_S = 10.0
"""A burst of more concurrent calls than ``MAX_CONNECTIONS`` waits up to ``POOL_WAIT_S``
for a free connection (:class:`BoundedPool`) instead of failing with ``MaxConnectionsError``
as redis-py's default pool does past 100 (issue 12, "Load")."""
SOCKET_TIMEOUT_S = 10.0
"""Seconds a connection waits for one reply (and to connect): a node that stops
answering (a machine gone, whose TCP peer never says so) is given up after this, so a
cluster or sentinel client asks again where the slot or the primary is (redis-py's own
failover path); within an update's budget a read waits only what the budget has left
(``FAILOVER_BUDGET_S``). Longer than redis-py 8's default of 5 s, which turned a Redis answering
in 5 s (a failover, a slow network: tests/cluster/test_slow_redis.py) into failed
presses; a press still gets its acknowledgement within the platform's deadline
(adapters/discord/app.py, adapters/telegram/handlers.py)."""
FAILOVER_BUDGET_S = BUDGET_S
"""Seconds from the update's arrival a command is retried over a failover (cluster,
sentinel) or a restart (one Redis), and the longest a read waits for a reply within it
(:func:`adapters.storage.budget.budgeted`: a silent node does not hold a call for the
whole ``SOCKET_TIMEOUT_S``). Retries are redis-py's ``Retry`` and the cluster's own
loops, on a backoff that stops at the budget instead of after a count
(:mod:`adapters.storage.budget`); the budget spans the few seconds a failover takes
(measured: docs/deploy.md "What a failover costs")."""

TOPOLOGY_REFRESH_S = 0.25
"""Least seconds between two reloads of a cluster's slot map that errors ask for
(redis-py's default is 1 s): once a dead primary's replica is promoted, the presses and
robot moves of its games wait up to this long for a reload that finds it (measured
before: they resumed 1.2-1.5 s after the promotion, tests/cluster/
test_failover_isolation.py; issue 36 asks for 1 s). A reload is one ``CLUSTER SLOTS``
round trip."""

class StoreUnreachable(RedisConnectionError):
    """The store could not be opened: ``setting`` names what to check (``REDIS_URL``,
    ``REDIS_SENTINELS``, ...); the message is redis-py's reason."""

    def __init__(self, setting: str, reason: str) -> None:
        super().__init__(reason)
        self.setting = setting


@dataclass(frozen=True)
class RedisTarget:
    """Where the store lives (the ``REDIS_*`` settings, bot/settings.py)."""

    url: str | None = None
    mode: str = "single"
    sentinels: list[tuple[str, int]] = field(default_factory=list)
    master: str | None = None
    password: str | None = None
    db: int | None = None
    sentinel_password: str | None = None
    timer_sets: int = 1

    @classmethod
    def of(cls, settings: Any) -> RedisTarget:
        """The target a :class:`bot.settings.Settings` names (already validated)."""
        from bot.settings import sentinel_addresses

        sentinels = settings.redis_sentinels
        return cls(url=settings.redis_url, mode=settings.redis_mode,
                   sentinels=sentinel_addresses(sentinels) if sentinels else [],
                   master=settings.redis_sentinel_master, password=settings.redis_password,
                   db=settings.redis_db, sentinel_password=settings.redis_sentinel_password,
                   timer_sets=settings.redis_timer_sets)

    def setting(self) -> str:
        """The setting an unreachable server points to."""
        if self.mode == "sentinel":
            return "REDIS_SENTINELS/REDIS_SENTINEL_MASTER"
        return "REDIS_URL"


def _failover_options() -> dict[str, Any]:
    return {"socket_timeout": SOCKET_TIMEOUT_S, "socket_connect_timeout": SOCKET_TIMEOUT_S,
            "retry": budget_retry(FAILOVER_BUDGET_S),
            "health_check_interval": 10}


class AsksSentinels(SentinelManagedConnection):
    """A Sentinel-managed connection that asks the sentinels where the primary is before
    every attempt to (re)connect (issue 36). redis-py's own class asks them in
    ``connect()``, but a command sent on a dropped connection reconnects through
    ``connect_check_health``, whose retries go to the address the connection had: the
    dead primary's, until the budget was spent (measured: the generic error 2.5 s after
    the promotion). A sentinel that has no primary to name yet raises
    ``MasterNotFoundError``, a ``ConnectionError`` the retry waits out."""

    async def _connect(self) -> None:
        if self.connection_pool.is_master:
            self.host, self.port = await self.connection_pool.get_master_address()
        await super()._connect()  # type: ignore[no-untyped-call]


def _sentinel_client(target: RedisTarget) -> Any:
    """A client of the primary the sentinels name, with the URL's credentials and db."""
    options: dict[str, Any] = {"decode_responses": True, **_failover_options()}
    if target.url:
        parts = urlsplit(target.url)
        if parts.scheme not in ("redis", "rediss"):
            raise ValueError("redis sentinel mode: REDIS_URL must be redis:// or rediss://")
        if parts.username:
            options["username"] = unquote(parts.username)
        if parts.password:
            options["password"] = unquote(parts.password)
        if parts.path.strip("/"):
            options["db"] = int(parts.path.strip("/"))
        if parts.scheme == "rediss":
            options["ssl"] = True
    if target.password:
        options["password"] = target.password
    if target.db is not None:
        options["db"] = target.db
    sentinel_kwargs: dict[str, Any] = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0}
    if target.sentinel_password:
        sentinel_kwargs["password"] = target.sentinel_password
    sentinel = Sentinel(target.sentinels, sentinel_kwargs=sentinel_kwargs, **options)
    # redis-py's own client here, not MuxRedis: with shared lines the games resumed up
    # to 1.6 s after a promotion in 2 of 4 runs of tests/cluster/test_failover_isolation.py
    # (at most 1 s with a connection per call); not pinned down (branch pipe)
    return sentinel.master_for(target.master or "", redis_class=aioredis.Redis,
                               connection_class=budgeted(observed(AsksSentinels)))


def _observe_cluster(client: RedisCluster) -> RedisCluster:
    """Every connection ``client`` opens, to a node it knows or finds later, reports its
    round trips (:mod:`adapters.storage.observe`): redis-py builds the nodes from the
    nodes manager's connection settings, which take no connection class of the
    caller's, so the class is set there and on the start-up nodes."""
    manager = client.nodes_manager
    for kwargs in (manager.connection_kwargs, client.connection_kwargs):
        cls = kwargs.get("connection_class", Connection)
        kwargs["connection_class"] = budgeted(observed(SSLConnection if cls is SSLConnection
                                                       else cls))
    for node in [*manager.startup_nodes.values(), *manager.nodes_cache.values()]:
        node.connection_class = budgeted(observed(node.connection_class))
    return client


_SHARED: list[fakeredis.FakeServer] = []


def share_embedded() -> None:
    """From now on every embedded store of this process (no ``REDIS_URL``) opens on one
    fakeredis server: ``python -m bot serve`` runs Telegram and Discord in one process,
    and a table with places on both (issue 35) needs them to see one store. Without
    this call each embedded store has its own server."""
    if not _SHARED:
        _SHARED.append(fakeredis.FakeServer())


def client_for(target: RedisTarget) -> Any:
    """A redis-py asyncio client (``decode_responses=True``) for ``target``, not yet
    connected; the embedded fakeredis server when it has no URL in single mode. Raises
    ValueError for a URL redis-py cannot read."""
    if target.mode == "cluster":
        return _observe_cluster(KeyedScriptCluster.from_url(
            target.url or "", decode_responses=True, max_connections=MAX_CONNECTIONS,
            topology_refresh_min_interval=TOPOLOGY_REFRESH_S, **_failover_options()))
    if target.mode == "sentinel":
        return _sentinel_client(target)
    if target.url is None:
        return fakeredis.FakeAsyncRedis(server=_SHARED[0] if _SHARED else None,
                                        decode_responses=True)
    pool = BoundedPool.from_url(target.url, decode_responses=True,
                                max_connections=MAX_CONNECTIONS, wait_s=POOL_WAIT_S,
                                socket_timeout=SOCKET_TIMEOUT_S,
                                socket_connect_timeout=SOCKET_TIMEOUT_S,
                                retry=budget_retry(FAILOVER_BUDGET_S))
    return MuxRedis.from_pool(pool)  # the client owns it: close() closes it


async def open_store(url: str | None, prefix: str = DEFAULT_PREFIX,
                     target: RedisTarget | None = None) -> RedisStore:
    """The store on ``target`` (default: one Redis at ``url``, the embedded fakeredis
    server when ``url`` is None), once it answers ``PING``.

    Raises :class:`StoreUnreachable` (a ``redis.exceptions.ConnectionError``) when the
    server, the cluster or the sentinels' primary does not answer, ValueError for a URL
    redis-py cannot read, ``redis.exceptions.ResponseError`` when the server refuses
    (a database it lacks, a wrong password)."""
    target = target or RedisTarget(url=url)
    client = client_for(target)
    store = RedisStore(client, prefix, timer_sets=target.timer_sets,
                       cluster=target.mode == "cluster")
    try:
        if target.mode == "cluster":
            await client.initialize()
        await client.ping()
    except (RedisConnectionError, RedisTimeoutError) as err:
        await store.close()
        raise StoreUnreachable(target.setting(), str(err) or type(err).__name__) from err
    except RedisClusterException as err:  # no node of the cluster answered
        await store.close()
        raise StoreUnreachable(target.setting(), str(err)) from err
    except BaseException:
        await store.close()
        raise
    return store


async def open_settings_store(settings: Any) -> RedisStore:
    """:func:`open_store` on what :class:`bot.settings.Settings` names, with the key
    layout's upgrade running in the background (:mod:`adapters.storage.layout`: keys of
    the layout before issue 36 are moved). The caller must ``await store.close()``,
    which cancels and awaits that task. On the embedded store (no ``REDIS_URL``, e.g.
    the terminal) nothing of an old layout can exist: no upgrade is started. On a
    cluster, a primary left at ``cluster-require-full-coverage yes`` is logged
    (:func:`adapters.storage.coverage.warn_full_coverage`)."""
    target = RedisTarget.of(settings)
    store = await open_store(settings.redis_url, settings.redis_prefix, target)
    if target.mode == "cluster":
        await warn_full_coverage(store.client)
    if not embedded(target):
        store.layout.start()
    return store


def embedded(target: RedisTarget) -> bool:
    """Whether ``target`` is the in-process fakeredis store (single mode, no URL)."""
    return target.mode == "single" and target.url is None
