"""A Redis Cluster client whose Lua scripts survive a node that does not know them.

redis-py's ``AsyncScript`` answers ``NOSCRIPT`` (a promoted replica, a restarted node:
the script cache is not replicated) with ``SCRIPT LOAD``, a keyless command the cluster
client must route by its own topology; right after a failover that routing failed
("SCRIPT LOAD ... Missing key", seen once in issue 36's failover runs) and the press
got "Algo deu errado". :class:`KeyedScriptCluster` runs such a script with ``EVAL``
instead: it carries the script's keys, so it goes to the node of their slot like the
``EVALSHA`` before it, and leaves the script cached there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError


class KeyedScript(AsyncScript):
    """A registered script: ``EVALSHA`` first, ``EVAL`` on ``NOSCRIPT`` (routed by the
    keys, never a keyless ``SCRIPT LOAD``). Pipelines keep redis-py's own path. Raises
    what ``EVALSHA``/``EVAL`` raise (a Redis error of the script, a connection error)."""

    async def __call__(self, keys: Sequence[Any] | None = None,
                       args: Iterable[Any] | None = None, client: Any = None) -> Any:
        target = self.registered_client if client is None else client
        if not isinstance(target, RedisCluster):
            return await super().__call__(keys, args, client)
        names = list(keys or [])
        argv = (*names, *(args or []))
        try:
            return await target.evalsha(self.sha, len(names), *argv)
        except NoScriptError:
            script = self.script
            text = script if isinstance(script, str) else bytes(script).decode()
            return await target.eval(text, len(names), *argv)


class KeyedScriptCluster(RedisCluster):
    """``redis.asyncio.cluster.RedisCluster`` whose :meth:`register_script` gives a
    :class:`KeyedScript` (``from_url`` builds this class)."""

    def register_script(self, script: Any) -> KeyedScript:  # type: ignore[override]
        """The script ``script`` (str or bytes) bound to this client."""
        return KeyedScript(self, script)
