"""Redis game store (DESIGN "Storage"): key layout, Lua scripts, the store itself, its
deadline sets and how it is opened (one Redis, a cluster or a sentinel-watched primary)."""

from adapters.storage.connect import RedisTarget, StoreUnreachable, open_store
from adapters.storage.keys import StoreKeys
from adapters.storage.redis_store import RedisStore

__all__ = ["RedisStore", "RedisTarget", "StoreKeys", "StoreUnreachable", "open_store"]
