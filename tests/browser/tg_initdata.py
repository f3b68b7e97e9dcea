"""Telegram Mini App launch data (``initData``) signed as Telegram signs it, for the tests.

Written from Telegram's documentation ("Validating data received via the Mini App"),
independently of the server's validator, so the browser tests check that validator
against the documented algorithm rather than against itself:

* every field but ``hash`` (``user`` is JSON), as ``key=value`` lines sorted by key,
  joined by ``\\n``: the data-check string;
* secret key = HMAC-SHA256 of the bot token, keyed with the bytes ``WebAppData``;
* ``hash`` = hex HMAC-SHA256 of the data-check string keyed with the secret key;
* the launch data is the URL-encoded query string of the fields and the hash.

Telegram hands the page the launch data in the URL fragment:
``#tgWebAppData=<initData, URL-encoded once more>&tgWebAppVersion=...&tgWebAppPlatform=...``
(:func:`fragment`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode


def secret_key(bot_token: str) -> bytes:
    """HMAC-SHA256 of ``bot_token`` keyed with ``b"WebAppData"`` (32 bytes)."""
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    """Every field but ``hash``, ``key=value`` sorted by key, one a line."""
    return "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")


def sign_fields(fields: dict[str, str], bot_token: str) -> str:
    """The hex ``hash`` Telegram puts beside ``fields``."""
    return hmac.new(secret_key(bot_token), data_check_string(fields).encode(),
                    hashlib.sha256).hexdigest()


def init_data(bot_token: str, user: dict[str, Any], start_param: str | None = None, *,
              auth_date: int | None = None, chat_type: str = "group",
              extra: dict[str, str] | None = None) -> str:
    """Signed launch data of ``user`` (a Bot API ``User`` dict) opening the Mini App with
    ``start_param`` (``startapp=`` of the direct link), dated ``auth_date`` (Unix seconds;
    default now). Returns the URL-encoded query string Telegram gives the page."""
    fields = {
        "query_id": "AAH" + hashlib.sha256(json.dumps(user).encode()).hexdigest()[:20],
        "user": json.dumps(user, separators=(",", ":"), ensure_ascii=False),
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
        "chat_type": chat_type,
        "chat_instance": "-4242424242424242",
    }
    if start_param is not None:
        fields["start_param"] = start_param
    fields.update(extra or {})
    fields["hash"] = sign_fields(fields, bot_token)
    return urlencode(fields)


def altered(data: str, key: str, value: str) -> str:
    """``data`` with field ``key`` set to ``value`` and the old hash kept (a forgery)."""
    fields = dict(parse_qsl(data, keep_blank_values=True))
    fields[key] = value
    return urlencode(fields)


def resigned(data: str, key: str, value: str, bot_token: str) -> str:
    """``data`` with field ``key`` set to ``value`` and signed with ``bot_token``."""
    fields = dict(parse_qsl(data, keep_blank_values=True))
    fields[key] = value
    fields.pop("hash", None)
    fields["hash"] = sign_fields(fields, bot_token)
    return urlencode(fields)


def fragment(data: str, platform: str = "android") -> str:
    """The URL fragment (without ``#``) Telegram opens the Mini App with."""
    return (f"tgWebAppData={quote(data, safe='')}&tgWebAppVersion=8.0"
            f"&tgWebAppPlatform={platform}")
