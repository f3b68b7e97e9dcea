"""The shared edit window now lives in :mod:`adapters.delivery.window` (shared with
Discord); this name stays for the Telegram adapter's callers and tests."""

from adapters.delivery.window import RESERVE, SharedWindow

__all__ = ["RESERVE", "SharedWindow"]
