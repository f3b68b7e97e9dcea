"""Redis key layout of the game store and the chat adapters: the one place key names are
built (DESIGN "Storage", "Order per game, not per worker"; issue 36).

Every key one press or one robot move touches carries a hash tag: its game's
``{<game_id>}`` or its chat's ``{<chat_key>}`` (``tg:-100123``, ``dc:4567``; a person's
private chat is the chat ``tg:<user_id>``). So on a Redis Cluster a game's press reads
and writes the slot of its game and the slot of its chat, and a dying node stalls only
the games and chats whose slots it holds (the press-by-press table: docs/deploy.md
"Which slots a press touches")::

    <prefix>:{<game_id>}:state     hash  v=<version> s=<state JSON>   (expires)
                                   t=<tag: digest of s> (save_game(base=))
    <prefix>:{<game_id>}:record    string, the game's record JSON      (no expiry)
    <prefix>:{<game_id>}:applied   sorted set, update keys applied to the game, score
                                   Unix time; the last 64 are kept       (expires)
    <prefix>:{<game_id>}:ver       pub/sub channel: "the game is at version V" (feed.py)
    <prefix>:{<game_id>}:<pf>      hash, the game's message refs on platform <pf>
                                   (tg, dc: adapters/delivery/refs.py)   (expires)
    <prefix>:{<chat_key>}:chat     string, the chat's active game id   (expires)
    <prefix>:{<chat_key>}:settings hash, setting name -> value
    <prefix>:{<chat_key>}:rank     hash, per player n:/m:/w:/p:<player_key> fields,
                                   per counted game g:<game_id>
    <prefix>:{<chat_key>}:seen:<update_key>
                                   string "1", idempotency marker of a command that has
                                   no game yet (/novojogo, /placar)    (expires)
    <prefix>:{<chat_key>}:edits[:<game_id>]
                                   sorted set, the chat's recent edits (window.py)
    <prefix>:{tg:<chat_id>}:successor / :original
                                   string, the supergroup that replaced a group / the
                                   group a supergroup replaced (adapters/telegram/refs.py)
    <prefix>:{tg:<user_id>}:dm     string "1"/"0", the bot can write to the person
    <prefix>:timers[:{<tag>}]      sorted sets of deadlines, by slot range (timers.py)
    <prefix>:<pf>:stale[:{<tag>}]  sorted sets of tables owing an edit, by slot range
                                   (adapters/delivery/stale.py)
    <prefix>:seen:<update_key>     an idempotency marker without a chat (a web link)
    <prefix>:{invite:<code>}       string, the game id an invitation code seats at
                                   (expires with the code; issue 35)
    <prefix>:{relay:<platform>}:owed   sorted set, games whose tables that platform's
                                   places owe an edit (adapters/delivery/relay.py)
    <prefix>:{relay:<platform>}:list   list, effects handed to that platform (bounded)
    <prefix>:{mm}:<part>           the queue to find players (adapters/storage/queue.py)

Keys of the layout before issue 36 (:class:`LegacyKeys`) are moved into these by
:mod:`adapters.storage.layout`. The season's keys have their own tags
(:mod:`adapters.storage.season`). The prefix defaults to ``buraco``; tests use a fresh
prefix per test so they never touch other data in the same database.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis.crc import key_slot

DEFAULT_PREFIX = "buraco"
SLOTS = 16384
"""Hash slots of a Redis Cluster."""


def slot(key: str) -> int:
    """The Redis Cluster hash slot of ``key`` (CRC16 of its hash tag, or of the whole key
    without one), as ``CLUSTER KEYSLOT`` gives it."""
    return int(key_slot(key.encode()))


def glob_escaped(text: str) -> str:
    """``text`` with the glob metacharacters of a SCAN ``MATCH`` escaped."""
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in text)


@dataclass(frozen=True, slots=True)
class StoreKeys:
    """Builds the Redis key names for one key prefix (no I/O)."""

    prefix: str = DEFAULT_PREFIX

    # -- a game's slot ----------------------------------------------------------------
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

    def refs(self, game_id: str, platform: str) -> str:
        """Hash of the game's message references on ``platform`` (``tg``, ``dc``)."""
        return f"{self.prefix}:{{{game_id}}}:{platform}"

    def state_pattern(self) -> str:
        """A SCAN ``MATCH`` pattern for the state keys of every game of this prefix."""
        return f"{glob_escaped(self.prefix)}:{{*}}:state"

    # -- a chat's slot ----------------------------------------------------------------
    def chat(self, chat_key: str) -> str:
        """String with the chat's active game id."""
        return f"{self.prefix}:{{{chat_key}}}:chat"

    def settings(self, chat_key: str) -> str:
        """Hash with the chat's settings (``lang``, ...)."""
        return f"{self.prefix}:{{{chat_key}}}:settings"

    def ranking(self, chat_key: str) -> str:
        """Hash with the chat's all-time ranking."""
        return f"{self.prefix}:{{{chat_key}}}:rank"

    def seen(self, update_key: str, scope: str = "") -> str:
        """Idempotency marker of one platform update, in the slot of chat ``scope``
        (a chat key); without one (a web link's use) a key of its own."""
        if scope:
            return f"{self.prefix}:{{{scope}}}:seen:{update_key}"
        return f"{self.prefix}:seen:{update_key}"

    def edits(self, platform: str, key: str) -> str:
        """The shared edit window of coalescer key ``key`` (``"<chat_id>"`` or
        ``"<chat_id>:<game_id>"``, a message beside the table) on ``platform``, in the
        slot of chat ``<platform>:<chat_id>``."""
        chat, sep, rest = key.partition(":")
        return f"{self.prefix}:{{{platform}:{chat}}}:edits{sep}{rest}"

    def successor(self, platform: str, chat_id: str) -> str:
        """String: the chat that replaced chat ``chat_id`` (a Telegram supergroup)."""
        return f"{self.prefix}:{{{platform}:{chat_id}}}:successor"

    def original(self, platform: str, chat_id: str) -> str:
        """String: the chat that chat ``chat_id`` replaced."""
        return f"{self.prefix}:{{{platform}:{chat_id}}}:original"

    def dm(self, platform: str, user_id: str) -> str:
        """String: whether the bot can write to the person (their private chat's slot)."""
        return f"{self.prefix}:{{{platform}:{user_id}}}:dm"

    def mark(self, platform: str, user_id: str, mark: str) -> str:
        """String: the ref of an answer to the person kept for a later edit (issue 35:
        the queue's answer; adapters/delivery/refs.py), in their private chat's slot."""
        return f"{self.prefix}:{{{platform}:{user_id}}}:mark:{mark}"

    # -- shared sets (sharded by slot range: timers.py) -----------------------------------
    def timers(self) -> str:
        """The first (with one set, the only) sorted set of turn deadlines."""
        return f"{self.prefix}:timers"

    def stale(self, platform: str) -> str:
        """The first (with one set, the only) sorted set of tables owing an edit."""
        return f"{self.prefix}:{platform}:stale"

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
        return f"{glob_escaped(self.prefix)}:*"


@dataclass(frozen=True, slots=True)
class LegacyKeys:
    """The names of the keys that had no hash tag before issue 36 (each moved to its
    :class:`StoreKeys` name by :mod:`adapters.storage.layout`)."""

    prefix: str = DEFAULT_PREFIX

    def chat(self, chat_key: str) -> str:
        """``<prefix>:chat:<chat_key>``: the chat's active game id."""
        return f"{self.prefix}:chat:{chat_key}"

    def settings(self, chat_key: str) -> str:
        """``<prefix>:settings:<chat_key>``: the chat's settings."""
        return f"{self.prefix}:settings:{chat_key}"

    def ranking(self, chat_key: str) -> str:
        """``<prefix>:rank:<chat_key>``: the chat's ranking."""
        return f"{self.prefix}:rank:{chat_key}"

    def seen(self, update_key: str) -> str:
        """``<prefix>:seen:<update_key>``: a command's idempotency marker."""
        return f"{self.prefix}:seen:{update_key}"

    def successor(self, platform: str, chat_id: str) -> str:
        """``<prefix>:tg:chat:new:<old chat id>``."""
        return f"{self.prefix}:{platform}:chat:new:{chat_id}"

    def original(self, platform: str, chat_id: str) -> str:
        """``<prefix>:tg:chat:old:<new chat id>``."""
        return f"{self.prefix}:{platform}:chat:old:{chat_id}"

    def dm(self, platform: str, user_id: str) -> str:
        """``<prefix>:tg:dm:<user id>``."""
        return f"{self.prefix}:{platform}:dm:{user_id}"

    def untagged(self) -> str:
        """A SCAN ``MATCH`` pattern of this prefix's keys without a hash tag right after
        the prefix (every legacy key; none of the tagged ones)."""
        return f"{glob_escaped(self.prefix)}:[^{{]*"
