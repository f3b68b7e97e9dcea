"""The Bot API's HTTP layer, watched: a request the Bot API answers without a server
error ends a Telegram outage in the log (:func:`adapters.logcalm.healthy`, issue 38:
one warning per outage, one line when it ends). python-telegram-bot's own mechanism for
this, a custom ``BaseRequest`` (here its ``HTTPXRequest``), given to the application's
builder for both its requests and ``getUpdates``."""

from __future__ import annotations

from typing import Any

from telegram.request import HTTPXRequest

from adapters import logcalm


class WatchedRequest(HTTPXRequest):
    """``HTTPXRequest`` that reports each answer below 500 as Telegram being reachable."""

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        """As ``HTTPXRequest.do_request``; then :func:`adapters.logcalm.healthy`
        (``"Telegram"``) when the status is below 500."""
        status, payload = await super().do_request(*args, **kwargs)
        if status < 500:
            logcalm.healthy("Telegram")
        return status, payload


def watched_requests() -> tuple[WatchedRequest, WatchedRequest]:
    """(requests, getUpdates) as the builder makes them by default: 256 connections for
    the bot's calls, one for ``getUpdates``."""
    return WatchedRequest(connection_pool_size=256), WatchedRequest(connection_pool_size=1)
