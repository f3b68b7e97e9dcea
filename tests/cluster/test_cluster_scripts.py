"""A registered Lua script on a real 3-primary Redis Cluster when a node does not know it
(issue 36, "a failover costs a delay, not a press"): a promoted replica or a restarted
node has an empty script cache, and redis-py's own ``NOSCRIPT`` answer, a keyless
``SCRIPT LOAD``, failed to route right after a failover ("Missing key"), so the press
was lost with "Algo deu errado". The store's cluster client runs the script with
``EVAL`` instead (adapters/storage/cluster_scripts.py)."""

from __future__ import annotations

import pytest
import redis
from redis.exceptions import RedisClusterException
from servers import HOST, Servers

from adapters.storage.connect import RedisTarget, client_for

pytestmark = pytest.mark.cluster


async def test_a_script_no_node_knows_runs_by_its_keys_without_script_load(
        servers: Servers) -> None:
    ports = servers.cluster()
    client = client_for(RedisTarget(mode="cluster", url=f"redis://{HOST}:{ports[0]}"))
    script = client.register_script("return redis.call('INCRBY', KEYS[1], ARGV[1])")
    assert await script(keys=["{g1}:n"], args=[2]) == 2
    for port in ports:  # every node forgets it, as a promoted replica has never seen it
        redis.Redis(host=HOST, port=port).script_flush()

    async def unroutable(*_: object) -> str:
        raise RedisClusterException("No way to dispatch this command to Redis Cluster. "
                                    "Missing key.")

    client.script_load = unroutable  # what SCRIPT LOAD did right after a failover
    assert await script(keys=["{g1}:n"], args=[3]) == 5
    assert await script(keys=["{g1}:n"], args=[1]) == 6  # EVAL left it cached: EVALSHA
    await client.aclose()
