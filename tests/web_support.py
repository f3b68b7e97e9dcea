"""Helpers of the web table tests (issue 27): Telegram launch data signed as Telegram
signs it (https://core.telegram.org/bots/webapps), for tests and browser tests."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any
from urllib.parse import urlencode

BOT_TOKEN = "123456:TEST-token-for-web-tests"


def telegram_init_data(user_id: int, auth_date: int, start_param: str | None = None,
                       token: str = BOT_TOKEN, first_name: str = "Ana",
                       language_code: str = "pt-br", **extra: Any) -> str:
    """``Telegram.WebApp.initData`` for ``user_id``: the query string with its ``hash``
    (HMAC-SHA256 under HMAC-SHA256("WebAppData", token) of the sorted fields)."""
    user = {"id": user_id, "first_name": first_name, "language_code": language_code}
    fields: dict[str, str] = {"auth_date": str(auth_date), "query_id": "AAH-test",
                              "user": json.dumps(user, separators=(",", ":"))}
    if start_param is not None:
        fields["start_param"] = start_param
    fields.update({k: str(v) for k, v in extra.items()})
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)
