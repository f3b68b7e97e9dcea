"""A worker on a Redis Cluster says at start when a primary keeps Redis's default
``cluster-require-full-coverage yes`` (issue 36; docs/deploy.md, "Redis Cluster").

With ``yes`` a node refuses every command (``CLUSTERDOWN``) from the moment a dead
primary is marked failed until its replica is promoted, so every game of every worker
pauses during a failover, not only the games with a key on the dead primary (measured,
docs/deploy.md: healthy games' writes waited up to 1.7-2.0 s with ``yes``, at most
0.09-0.4 s with ``no``). :func:`warn_full_coverage` reads the setting from each primary
and logs one WARNING naming the primaries where it is ``yes``. A node that does not
answer ``CONFIG GET`` (renamed or disabled, as on managed clusters; an ACL without it;
a node down) is left out and noted at DEBUG only: the check never stops a start.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from redis.asyncio.cluster import ClusterNode, RedisCluster

log = logging.getLogger(__name__)

SETTING = "cluster-require-full-coverage"
CHECK_TIMEOUT_S = 1.0
"""Seconds one primary is given to answer (the primaries are asked concurrently, so the
check takes at most this long): one that does not is left out."""


async def _read(client: RedisCluster, node: ClusterNode) -> str | None:
    """``node``'s value of :data:`SETTING` (``"yes"``/``"no"``), or None when it does
    not say (CONFIG renamed, disabled or refused; an unknown setting; no answer within
    :data:`CHECK_TIMEOUT_S`)."""
    try:
        async with asyncio.timeout(CHECK_TIMEOUT_S):
            got: Any = await client.execute_command("CONFIG GET", SETTING, target_nodes=node)
    except Exception as err:  # a refusal or a dead node: nothing to say
        log.debug("%s not read at %s: %s", SETTING, node.name, type(err).__name__)
        return None
    value = got.get(SETTING) if isinstance(got, dict) else None
    return str(value).lower() if value is not None else None


async def warn_full_coverage(client: RedisCluster) -> list[str]:
    """Read :data:`SETTING` from every primary ``client`` knows (an initialized
    cluster client), concurrently; log one WARNING naming the primaries
    (``host:port``) where it is ``yes`` and return them, sorted (empty: none said
    ``yes``). Never raises for Redis's sake."""
    primaries = client.get_primaries()
    values = await asyncio.gather(*(_read(client, node) for node in primaries))
    full = sorted(node.name for node, value in zip(primaries, values, strict=True)
                  if value == "yes")
    if full:
        log.warning(
            "%s is yes on %s: while a dead primary waits for its replica's promotion "
            "every node refuses every command (CLUSTERDOWN), so every game pauses during "
            "a failover, not only those with keys on it; set it to no on every node "
            "(docs/deploy.md, Redis Cluster)", SETTING, ", ".join(full))
    return full
