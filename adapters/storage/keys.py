"""Redis key layout of the game store (DESIGN "Storage").

Every key of one game carries the ``{game_id}`` hash tag, so a game's state and record
live in one Redis Cluster slot and a Lua script touching them stays single-slot::

    <prefix>:{<game_id>}:state     hash  v=<version> s=<state JSON>   (expires)
                                   t=<tag: digest of s> (save_game(base=))
    <prefix>:{<game_id>}:record    string, the game's record JSON      (no expiry)
    <prefix>:{<game_id>}:applied   sorted set, update keys applied to the game, score
                                   Unix time; the last 64 are kept       (expires)
    <prefix>:{<game_id>}:ver       pub/sub channel: "the game is at version V" (feed.py)
    <prefix>:chat:<chat_key>       string, the chat's active game id   (expires)
    <prefix>:timers                sorted set, member game id, score Unix time
    <prefix>:seen:<update_key>     string "1", idempotency marker of a command that
                                   has no game yet (/novojogo, /placar)  (expires)
    <prefix>:rank:<chat_key>       hash, per player n:/m:/w:/p:<player_key> fields,
                                   per counted game g:<game_id>
    <prefix>:settings:<chat_key>   hash, setting name -> value
    <prefix>:{invite:<code>}       string, the game id an invitation code seats at
                                   (expires with the code; issue 35)
    <prefix>:{relay:<platform>}:owed   sorted set, games whose tables that platform's
                                   places owe an edit (adapters/delivery/relay.py)
    <prefix>:{relay:<platform>}:list   list, effects handed to that platform (bounded)
    <prefix>:{mm}:<part>           the queue to find players (adapters/storage/queue.py)

The prefix defaults to ``buraco``; tests use a fresh prefix per test so they never
touch other data in the same database.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PREFIX = "buraco"


@dataclass(frozen=True, slots=True)
class StoreKeys:
    """Builds the Redis key names for one key prefix (no I/O)."""

    prefix: str = DEFAULT_PREFIX

    def state(self, game_id: str) -> str:
        """Hash with the game's version ``v`` and state JSON ``s``."""
        return f"{self.prefix}:{{{game_id}}}:state"

    def record(self, game_id: str) -> str:
        """String with the game's record JSON."""
        return f"{self.prefix}:{{{game_id}}}:record"

    def applied(self, game_id: str) -> str:
        """Sorted set of the update keys applied to the game (idempotency, bounded)."""
        return f"{self.prefix}:{{{game_id}}}:applied"

    def versions(self, game_id: str) -> str:
        """Pub/sub channel announcing the game's new versions (:mod:`.feed`)."""
        return f"{self.prefix}:{{{game_id}}}:ver"

    def state_pattern(self) -> str:
        """A SCAN ``MATCH`` pattern for the state keys of every game of this prefix."""
        return f"{self._escaped()}:{{*}}:state"

    def chat(self, chat_key: str) -> str:
        """String with the chat's active game id."""
        return f"{self.prefix}:chat:{chat_key}"

    def timers(self) -> str:
        """The one sorted set of turn deadlines (score = Unix time in seconds)."""
        return f"{self.prefix}:timers"

    def seen(self, update_key: str) -> str:
        """Idempotency marker of one platform update."""
        return f"{self.prefix}:seen:{update_key}"

    def ranking(self, chat_key: str) -> str:
        """Hash with the chat's all-time ranking."""
        return f"{self.prefix}:rank:{chat_key}"

    def settings(self, chat_key: str) -> str:
        """Hash with the chat's settings (``lang``, ...)."""
        return f"{self.prefix}:settings:{chat_key}"

    def invite(self, code: str) -> str:
        """String with the game id invitation ``code`` seats at (issue 35)."""
        return f"{self.prefix}:{{invite:{code}}}"

    def owed(self, platform: str) -> str:
        """Sorted set of games whose tables ``platform``'s places owe an edit."""
        return f"{self.prefix}:{{relay:{platform}}}:owed"

    def relay(self, platform: str) -> str:
        """List of effects handed over to ``platform``'s processes."""
        return f"{self.prefix}:{{relay:{platform}}}:list"

    def queue(self, part: str) -> str:
        """A key of the queue to find players (adapters/storage/queue.py): every one in
        the ``{mm}`` slot, so each of its steps is one single-slot script."""
        return f"{self.prefix}:{{mm}}:{part}"

    def pattern(self) -> str:
        """A SCAN ``MATCH`` pattern covering every key of this prefix.

        Glob metacharacters in the prefix are escaped, so ``"t[1]"`` matches literally.
        """
        return f"{self._escaped()}:*"

    def _escaped(self) -> str:
        """The prefix with glob metacharacters escaped."""
        return "".join(f"\\{c}" if c in "*?[]\\" else c for c in self.prefix)
