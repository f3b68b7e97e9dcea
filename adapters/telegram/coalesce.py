"""The edit coalescer now lives in :mod:`adapters.delivery.coalesce` (shared with
Discord); this name stays for the Telegram adapter's callers and tests."""

from adapters.delivery.coalesce import EditCoalescer, Operation

__all__ = ["EditCoalescer", "Operation"]
