"""Recording the Redis keys a piece of code touches, and their Redis Cluster slots
(issue 36, docs/deploy.md "Which slots a press touches").

:class:`KeyLog` wraps one redis-py asyncio client (or fakeredis) in place: every command
sent through it, alone or in a pipeline, is recorded with its keys, read from the
command's arguments by :data:`KEY_ARGS`. A command this table does not know fails the
recording (an ``AssertionError``), so a new command can never touch an unseen key.
"""

from __future__ import annotations

from typing import Any

from adapters.storage.keys import slot

FIRST = {
    "GET", "SET", "HGET", "HMGET", "HGETALL", "HSET", "HDEL", "HSETNX", "HINCRBY", "HLEN",
    "HEXISTS", "EXPIRE", "PEXPIRE", "PTTL", "TTL", "TYPE", "ZADD", "ZREM", "ZSCORE",
    "ZMSCORE", "ZRANGE", "ZRANGEBYSCORE", "ZREVRANGE", "ZCARD", "ZCOUNT",
    "ZREMRANGEBYSCORE", "ZREMRANGEBYRANK", "ZSCAN", "LRANGE", "RPUSH", "LPUSH", "LTRIM",
    "LPOP", "RPOP", "LLEN", "SADD", "SREM", "SMEMBERS", "SISMEMBER", "SMISMEMBER", "INCR",
    "PUBLISH", "SPUBLISH", "SETNX", "GETDEL",
}
"""Commands whose one key is their first argument (a channel for ``PUBLISH``)."""
ALL = {"DEL", "EXISTS", "UNLINK", "MGET"}
"""Commands whose every argument is a key."""
NONE = {"SCRIPT", "PING", "TIME", "MULTI", "EXEC", "INFO", "CLUSTER"}
"""Commands that touch no key."""
SCANS = {"SCAN"}
"""A walk of a whole node's keys (the sweep, the layout pass): recorded as such."""


def keys_of(args: tuple[Any, ...]) -> list[str]:
    """The keys of one command (its name first, as redis-py sends it). AssertionError
    for a command :mod:`this table <slot_support>` does not know."""
    name = str(args[0]).upper().split()[0]
    rest = [str(a) for a in args[1:]]
    if name in FIRST:
        return rest[:1]
    if name in ALL:
        return rest
    if name in ("EVAL", "EVALSHA"):
        return rest[2:2 + int(rest[1])]
    if name in NONE:
        return []
    if name in SCANS:
        return ["*scan*"]
    raise AssertionError(f"slot_support does not know which keys {name} touches")


class KeyLog:
    """The keys touched through ``client`` since the last :meth:`take` (see module)."""

    def __init__(self, client: Any) -> None:
        self.keys: list[str] = []
        self.commands: list[tuple[str, ...]] = []
        execute, pipeline = client.execute_command, client.pipeline

        async def recorded(*args: Any, **options: Any) -> Any:
            self._note(args)
            return await execute(*args, **options)

        def recorded_pipeline(*args: Any, **options: Any) -> Any:
            pipe = pipeline(*args, **options)
            run = pipe.execute

            async def execute_recorded(*a: Any, **kw: Any) -> Any:
                for command in pipe.command_stack:
                    self._note(tuple(command[0]))
                return await run(*a, **kw)

            pipe.execute = execute_recorded
            return pipe

        client.execute_command = recorded
        client.pipeline = recorded_pipeline

    def _note(self, args: tuple[Any, ...]) -> None:
        self.commands.append(tuple(str(a) for a in args))
        self.keys += keys_of(args)

    def take(self) -> list[str]:
        """The keys touched since the last take (and forget them)."""
        keys, self.keys, self.commands = self.keys, [], []
        return keys


def slots(keys: list[str]) -> set[int]:
    """The slots of ``keys``."""
    return {slot(k) for k in keys}
