"""Redis storage adapter: :class:`RedisStore` implements :class:`bot.ports.GameStore`."""

from adapters.storage.keys import StoreKeys
from adapters.storage.redis_store import RedisStore, open_store

__all__ = ["RedisStore", "StoreKeys", "open_store"]
